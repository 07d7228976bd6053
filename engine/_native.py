"""Where the engine's compiled modules come from, when there are any.

Two places, tried in this order:

* **beside the files**: a regular ``pip install .`` (or a wheel from ``pip wheel .``)
  compiles the rules core and the searcher with mypyc while it builds (``setup.py``) and
  installs each extension module next to the ``.py`` it was made of, with a record
  (``native-build.txt``) of the digest of the files it was made of.  The import system
  prefers an extension module to the ``.py`` beside it, so they load by themselves; the
  record guards them: if the files no longer match it (edited in place, or modules left by
  another version), a finder (``_SourceOnly``) makes the package read its ``.py`` files.
* **the build cache**: ``cellfish native --build`` (and ``pip install -e .``, which runs
  it for a contributor's checkout) compiles the same modules into a cache folder named after
  that digest.  ``use_native`` then puts the folder first on the package's search path.  An
  edited source file changes the digest: the old build is simply not found, and the engine
  runs interpreted until it is built again, so a stale build never plays.

The files left out (``NOT_COMPILED``) and everything outside ``engine/`` stay interpreted.
``CELLFISH_NATIVE=0`` in the environment keeps the engine interpreted (the test suite does
this, so that it tests the files it reads); ``CELLFISH_NATIVE_DIR`` moves the cache folder.
This module is never compiled itself: it decides what is.  ``setup.py`` loads it by its
path to learn which files to compile, so it imports nothing but the standard library.
"""
from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import sys
import sysconfig
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent
# the package's own entry, this module, the Variant class (the variants subclass it in
# interpreted code, which a compiled class forbids) and the str subclass of reasons.py
NOT_COMPILED = ("__init__.py", "_native.py", "variant.py", "reasons.py")
# given to the C compiler with the modules mypyc writes (not on Windows): the runtime helpers it
# calls at every list read and int operation are in the same C file, but -fPIC's default
# semantic interposition keeps the compiler from inlining them (a call through the PLT at every
# board read; with it, a make and unmake 22% faster, searches 4-8%, measured).  A compiler that
# refuses it: the build is made again without it.
FAST_CFLAGS: tuple[str, ...] = () if sys.platform == "win32" else ("-fno-semantic-interposition",)
# how ``cellfish/native_build.py`` compiles, kept here so that the build's digest (``build_key``,
# over these files) changes with them and a build made another way is never taken for this one:
# link-time optimisation (mypyc writes a C file per module; this inlines across them again),
# then profile-guided with gcc: a build that counts its branches, a training run of it (a
# fixed-depth search from the start of each game below, or from the position given; never the
# benchmarks' positions), and
# the build laid out by those counts.  The counts are exact only for the code the training ran:
# the rest is optimised as without them (-fprofile-partial-training); mypyc's -Werror stays off
# for the profile's notes.
# (-g0: no debug information, which nothing reads and which the link-time optimiser carried
# through the link: the build 57 s instead of 65, the same speed)
LTO_CFLAGS: tuple[str, ...] = ("-flto=auto", "-g0")
PROFILE_GENERATE: tuple[str, ...] = ("-fprofile-generate", "-fprofile-update=single")
PROFILE_USE: tuple[str, ...] = ("-fprofile-use", "-fprofile-partial-training", "-Wno-missing-profile", "-Wno-error")
TRAINING: tuple[tuple[str, int, str], ...] = (
    ("chess", 9, ""), ("shogi", 7, ""), ("knavish", 6, ""), ("capablanca", 7, ""), ("crazyhouse", 7, ""),
    ("elefantnichtschach", 3, ""),
    # two chess middlegames of openings no benchmark plays (a Najdorf, a Slav)
    ("chess", 8, "r1bqkb1r/1p2pppp/p1np1n2/8/3NP3/2N1B3/PPP2PPP/R2QKB1R w KQkq - 2 7"),
    ("chess", 8, "r2qkb1r/pp1n1ppp/2p1pn2/3p1b2/2PP4/1QN1PN2/PP3PPP/R1B1KB1R w KQkq - 2 7"))
# written by setup.py into the package it installs: "compiled <digest>" or "interpreted <why>"
RECORD = "native-build.txt"

active: str | None = None       # the folder the compiled modules were loaded from, if any
why = ""                        # one line on which engine runs and why (``cellfish native``)


def ext_suffix() -> str:
    """The file ending of this interpreter's extension modules."""
    return sysconfig.get_config_var("EXT_SUFFIX") or ".so"


def compiled_sources(root: Path = HERE) -> list[Path]:
    """The files of the package (``root``) that a build compiles."""
    return sorted(p for p in root.glob("*.py") if p.name not in NOT_COMPILED)


def build_key(root: Path = HERE) -> str:
    """A digest of every Python file of the package (the compiled ones and those they call
    into) and of the interpreter's ABI: a build is used only by the very files it was made of."""
    h = hashlib.sha256()
    h.update(f"{sys.implementation.cache_tag} {ext_suffix()}".encode())
    for p in sorted(root.rglob("*.py")):
        h.update(str(p.relative_to(root)).encode())
        h.update(b"\0")
        h.update(p.read_bytes())
        h.update(b"\0")
    return h.hexdigest()[:20]


def cache_root() -> Path:
    base = os.environ.get("CELLFISH_NATIVE_DIR")
    if base:
        return Path(base)
    xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(xdg) / "cellfish" / "native"


def build_dir(root: Path = HERE, key: str | None = None) -> Path:
    """Where the build of these very files lives (whether or not it exists)."""
    return cache_root() / (key or build_key(root))


def complete(d: Path, root: Path = HERE) -> bool:
    """``d`` holds one extension module per compiled source (written last by the builder)."""
    marker = d / "BUILT"
    if not marker.is_file():
        return False
    suffix = ext_suffix()
    return all((d / "engine" / (p.stem + suffix)).is_file() for p in compiled_sources(root))


def wanted() -> bool:
    return os.environ.get("CELLFISH_NATIVE", "1").strip().lower() not in ("0", "no", "false", "off")


def record(root: Path = HERE) -> str:
    """The install's record of its build (``RECORD``), or "" where there is none."""
    try:
        return (root / RECORD).read_text().strip()
    except OSError:
        return ""


def modules_beside(root: Path = HERE) -> list[Path]:
    """The compiled modules sitting next to their ``.py`` files in the package itself."""
    suffix = ext_suffix()
    return [m for p in compiled_sources(root) if (m := root / (p.stem + suffix)).is_file()]


class _SourceOnly:
    """A finder for this package's modules that reads the ``.py`` file even where a compiled
    module sits beside it (which the import system would otherwise prefer)."""

    @staticmethod
    def find_spec(name: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        pkg, _, stem = name.rpartition(".")
        src = HERE / f"{stem}.py"
        if pkg != __package__ or not src.is_file():
            return None
        return importlib.util.spec_from_file_location(name, src)


def _read_the_files() -> None:
    if modules_beside() and not any(isinstance(f, _SourceOnly) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourceOnly())


def use_native(path: list[str]) -> str | None:
    """Decide where the compiled modules come from (see the module's text): the folder used,
    or None (the engine reads its files); ``why`` says which and why.  Nothing here may fail
    an import: any problem leaves the engine interpreted."""
    global active, why
    try:
        if not wanted():
            why = "interpreted: CELLFISH_NATIVE=0 is set"
            _read_the_files()
            return None
        key = build_key()
        beside = modules_beside()
        rec = record()
        if beside and rec == f"compiled {key}" and len(beside) == len(compiled_sources()):
            active = str(HERE)
            why = f"compiled: built when the package was installed ({HERE})"
            return active
        d = build_dir(key=key)
        if complete(d):
            if str(d) not in sys.path:
                sys.path.append(str(d))       # mypyc's shared library module lives at its top
            path.insert(0, str(d / "engine"))
            active = str(d)
            lines = (d / "BUILT").read_text().split("\n")
            how = f" ({lines[1]})" if len(lines) > 1 and lines[1] else ""
            why = f"compiled{how}: the engine loads {d}"
            return active
        _read_the_files()
        if beside:
            why = ("interpreted: the compiled modules beside the files were built from other "
                   "files, so they are not used")
        elif rec.startswith("interpreted"):
            why = f"interpreted: the install did not compile the engine ({rec[len('interpreted'):].strip()})"
        else:
            why = f"interpreted: no build of these files (cellfish native --build makes {d})"
    except OSError as e:
        why = f"interpreted: {e}"
    return None
