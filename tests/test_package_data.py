"""Every file a package reads at run time is installed with it: a plain `pip install .`
ships what pyproject.toml's package-data names, and nothing else beside the modules.  (The
ladder's Node.js wrapper was missing from a plain install, so Fairy-Stockfish could not
start there.)"""
from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_non_python_file_of_a_package_is_package_data():
    conf = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    data = conf["package-data"]
    missing = []
    for pattern in conf["packages"]["find"]["include"]:
        pkg = pattern.rstrip("*")
        for f in (ROOT / pkg).rglob("*"):
            if not f.is_file() or f.suffix in (".py", ".pyc") or "__pycache__" in f.parts:
                continue
            sub = ".".join(f.relative_to(ROOT).parent.parts)
            owner = max((p for p in data if sub == p or sub.startswith(p + ".")), key=len, default=None)
            rel = str(f.relative_to(ROOT / owner.replace(".", "/"))) if owner else None
            if rel is None or not any(fnmatch.fnmatch(rel, g) for g in data[owner]):
                missing.append(str(f.relative_to(ROOT)))
    assert not missing, f"not installed by a plain install: {missing}"
