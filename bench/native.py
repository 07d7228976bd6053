"""A copy of this tree whose rules core and searcher are compiled to C by mypyc, for
``cellfish bench against --native``: the same Python files, type-checked by mypy, built as
extension modules in a temporary folder, so that the speed a compiled engine would have can be
measured against the interpreted one in the same run.

The engine does not run compiled: this is a measurement.  The modules compiled are every file
of ``engine/`` but ``__init__.py`` and ``variant.py`` (the variants' classes subclass
``Variant`` in interpreted code, which a compiled class forbids); the notation, the variants'
plugins and the protocol stay interpreted.  It needs mypy (the test extras) and a C compiler.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "variants", "protocol", "cellfish", "match", "bench", "gui")
NOT_COMPILED = ("__init__.py", "variant.py")


def compiled_modules(tree: Path) -> list[str]:
    """The files of ``tree/engine`` that are compiled, relative to ``tree``."""
    return sorted(f"engine/{p.name}" for p in (tree / "engine").glob("*.py") if p.name not in NOT_COMPILED)


def build(into: str) -> str | None:
    """Copy this tree's packages into ``into`` and compile its engine there; None when built,
    else what went wrong (the compiler's last lines)."""
    dest = Path(into)
    for pkg in PACKAGES:
        shutil.copytree(ROOT / pkg, dest / pkg, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    shutil.copy(ROOT / "pyproject.toml", dest / "pyproject.toml")    # mypy's settings
    try:
        out = subprocess.run([sys.executable, "-m", "mypyc", *compiled_modules(dest)], cwd=dest,
                             capture_output=True, text=True, timeout=1800)
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"mypyc did not run: {e}"
    built = list((dest / "engine").glob("*.so"))
    if out.returncode or len(built) < len(compiled_modules(dest)):
        tail = (out.stdout + out.stderr).strip().splitlines()[-5:]
        return "mypyc failed: " + " | ".join(tail)
    return None
