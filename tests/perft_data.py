"""Reading perft tables kept as data files: `text ; depth=count ; *depth=count (slow)`."""
from __future__ import annotations

from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"


def load(name: str):
    """pytest params (text, depth, count), slow depths marked slow."""
    out = []
    for line in (DATA / name).read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        text, *figs = [p.strip() for p in line.split(";")]
        for f in figs:
            slow = f.startswith("*")
            d, n = f.lstrip("*").split("=")
            marks = [pytest.mark.slow] if slow else []
            out.append(pytest.param(text, int(d), int(n), marks=marks, id=f"{text[:24]}-d{d}"))
    return out
