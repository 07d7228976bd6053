"""Shared helpers for the benchmarks and the client tests: engine commands."""
from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def engine_command() -> list[str]:
    """The cellfish engine as a command line (the working tree's code)."""
    return [sys.executable, "-m", "cellfish"]


def engine_env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def sunfish_command() -> list[str] | None:
    """sunfish-uci from the same environment as this interpreter (PyPI `sunfish`)."""
    here = Path(sys.executable).parent / "sunfish-uci"
    if here.exists():
        return [str(here)]
    found = shutil.which("sunfish-uci")
    return [found] if found else None
