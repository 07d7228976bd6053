"""Where the engine's compiled modules come from, when there are any.

``cellfish native --build`` compiles the rules core and the searcher with mypyc (the same
Python files, type-checked by mypy) into a cache folder named after a digest of every file of
this package and the interpreter's version.  When the package is imported, ``use_native``
puts that folder first on the package's search path, so ``engine.search`` and the other
compiled modules load from there; the files left out (``NOT_COMPILED``) and everything
outside ``engine/`` stay interpreted.  An edited source file changes the digest: the old
build is simply not found, and the engine runs interpreted until it is built again, so a
stale build never plays.

``CELLFISH_NATIVE=0`` in the environment keeps the engine interpreted (the test suite does
this, so that it tests the files it reads); ``CELLFISH_NATIVE_DIR`` moves the cache folder.
This module is never compiled itself: it decides what is.
"""
from __future__ import annotations

import hashlib
import os
import sys
import sysconfig
from pathlib import Path

HERE = Path(__file__).resolve().parent
# the package's own entry, this module, and the Variant class (the variants subclass it in
# interpreted code, which a compiled class forbids)
NOT_COMPILED = ("__init__.py", "_native.py", "variant.py")

active: str | None = None       # the folder the compiled modules were loaded from, if any


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


def build_dir(root: Path = HERE) -> Path:
    """Where the build of these very files lives (whether or not it exists)."""
    return cache_root() / build_key(root)


def complete(d: Path, root: Path = HERE) -> bool:
    """``d`` holds one extension module per compiled source (written last by the builder)."""
    marker = d / "BUILT"
    if not marker.is_file():
        return False
    suffix = ext_suffix()
    return all((d / "engine" / (p.stem + suffix)).is_file() for p in compiled_sources(root))


def wanted() -> bool:
    return os.environ.get("CELLFISH_NATIVE", "1").strip().lower() not in ("0", "no", "false", "off")


def use_native(path: list[str]) -> str | None:
    """Put the matching build first on the package's ``__path__`` (and its shared library on
    ``sys.path``); the folder used, or None (no build of these files, or switched off).
    Nothing here may fail an import: any problem leaves the engine interpreted."""
    global active
    if not wanted():
        return None
    try:
        d = build_dir()
        if not complete(d):
            return None
    except OSError:
        return None
    if str(d) not in sys.path:
        sys.path.append(str(d))           # mypyc's shared library module lives at its top
    path.insert(0, str(d / "engine"))
    active = str(d)
    return active
