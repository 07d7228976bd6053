"""Static checks run by the suite (so CI runs them): ruff over the project and mypy over the
rules core, with the settings in pyproject.toml.  A lint or type error fails the build."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)


def test_ruff_is_clean():
    r = _run("ruff", "check", "--no-cache", ".")
    assert r.returncode == 0, r.stdout + r.stderr


def test_mypy_is_clean_on_the_rules_core():
    r = _run("mypy")
    assert r.returncode == 0, r.stdout + r.stderr
