"""``cellfish native``: say whether the engine runs compiled, or compile the rules core and
the searcher with mypyc into the build cache, so the engine searches two to six times as fast
(``bench/results/compiled-engine.md`` has the figures).

    cellfish native            say which engine runs: compiled (and from where) or interpreted
    cellfish native --build    compile these very files into the build cache
    cellfish native --clear    remove every build from the cache

A plain ``pip install .`` compiles the engine as it installs (``setup.py``), and
``pip install -e .`` runs ``build`` below for the checkout; ``--build`` is for a checkout
edited since.  A build needs mypy (``pip install 'cellfish[native]'``) and a C compiler; the
engine works the same without one.  How a build is found and kept from going stale:
``engine/_native.py``.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from engine import _native

MYPY_SETTINGS = """[tool.mypy]
python_version = "3.11"
ignore_missing_imports = true
"""


def compile_into(tree: Path, root: Path = _native.HERE, timeout: float = 1800, group: str = "",
                 log=None) -> str | None:
    """Copy the package ``root`` to ``tree/engine`` and compile it there (``cellfish/native_build.py``:
    mypyc, then the C compiler, profile-guided where it can); None when every module was built,
    else what went wrong (the compiler's last lines).  ``group`` names mypyc's shared library."""
    shutil.copytree(root, tree / "engine", ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd",
                                                                         _native.RECORD))
    (tree / "pyproject.toml").write_text(MYPY_SETTINGS)
    from cellfish.native_build import probe
    err = probe(tree)
    if err:
        return f"the C compiler does not work: {err}"
    files = [f"engine/{p.name}" for p in _native.compiled_sources(tree / "engine")]
    suffix = _native.ext_suffix()
    here = Path(__file__).resolve().parent.parent       # where this cellfish package is imported from
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(here)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
    try:
        out = subprocess.run([sys.executable, "-m", "cellfish.native_build", "--project", str(root.parent),
                              "--group", group, *files], cwd=tree, env=env,
                             capture_output=True, text=True, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"mypyc did not run: {e}"
    lines = (out.stdout + out.stderr).strip().splitlines()
    if log is not None:
        for line in lines:
            if line.startswith("cellfish build:"):
                log(line[len("cellfish build: "):])
    missing = [f for f in files if not (tree / (f[:-3] + suffix)).is_file()]
    if out.returncode or missing:
        return "mypyc failed: " + " | ".join(lines[-5:])
    return None


def copy_modules(tree: Path, top: Path, pkg: Path) -> None:
    """Copy what ``compile_into`` built in ``tree``: mypyc's shared library into ``top`` (it is
    imported by its name from the top of the path), each module's into ``pkg``."""
    suffix = _native.ext_suffix()
    pkg.mkdir(parents=True, exist_ok=True)
    for so in tree.glob("*" + suffix):
        shutil.copy2(so, top / so.name)
    for so in (tree / "engine").glob("*" + suffix):
        shutil.copy2(so, pkg / so.name)


def build(root: Path = _native.HERE, log=print) -> str | None:
    """Compile ``root`` (this engine) into its build folder; None when done, else the error.
    The folder is filled beside its final place and renamed into it, so an engine starting
    meanwhile never loads half a build."""
    if _native.active == str(root) and root == _native.HERE:
        log(f"already compiled when the package was installed: {root}")
        return None
    try:
        import mypy  # noqa: F401
    except ImportError:
        return "mypy is not installed: pip install 'cellfish[native]' (a C compiler is needed too)"
    dest = _native.build_dir(root)
    if _native.complete(dest, root):
        log(f"already built: {dest}")
        return None
    dest.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="cellfish-native-") as tmp:
        tree = Path(tmp)
        log(f"compiling {len(_native.compiled_sources(root))} modules with mypyc (about a minute)")
        notes: list[str] = []       # the build's lines; the last names how it was built
        err = compile_into(tree, root, log=lambda line: (notes.append(line), log(line)))
        if err:
            return err
        stage = Path(tempfile.mkdtemp(prefix=dest.name + ".", dir=dest.parent))
        copy_modules(tree, stage, stage / "engine")
        # the digest, then how it was built (``cellfish native`` says it)
        (stage / "BUILT").write_text(f"{_native.build_key(root)}\n{notes[-1] if notes else ''}\n")
        try:
            stage.rename(dest)
        except OSError:                                  # built meanwhile by another process
            shutil.rmtree(stage, ignore_errors=True)
            if not _native.complete(dest, root):
                return f"could not move the build into {dest}"
    log(f"built: {dest}")
    return None


def status() -> str:
    """One line: which engine this process runs (compiled or interpreted) and why, as the
    package decided when it was imported (``engine/_native.py``)."""
    return _native.why or "interpreted"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="cellfish native", description=__doc__.splitlines()[0])
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--build", action="store_true", help="compile the engine into the build cache")
    g.add_argument("--clear", action="store_true", help="remove every build from the cache")
    a = ap.parse_args(argv)
    if a.build:
        err = build()
        if err:
            print(f"error: {err}")
            return 1
        return 0
    if a.clear:
        shutil.rmtree(_native.cache_root(), ignore_errors=True)
        print(f"removed {_native.cache_root()}")
        return 0
    print(status())
    return 0
