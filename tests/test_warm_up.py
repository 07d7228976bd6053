"""`isready` builds every table a variant compiles lazily, so the first timed `go` spends its
time searching: a 3D attack table built inside a 20 ms search once made it answer after
100 ms.  Checked on fresh variant objects: nothing lazy may still be missing after isready
that a search then builds."""
from __future__ import annotations

import io
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import variants  # noqa: E402
from protocol.session import Session  # noqa: E402


def unbuilt(v):
    return {k for k, val in vars(v).items() if k.startswith("_") and val is None}


def wait_bestmove(out, start, timeout=60):
    end = time.monotonic() + timeout
    while "bestmove" not in out.getvalue()[start:]:
        assert time.monotonic() < end, out.getvalue()[start:]
        time.sleep(0.002)


@pytest.mark.parametrize("name", variants.names())
def test_first_go_builds_no_table(name, monkeypatch):
    monkeypatch.setattr(variants, "_cache", {})      # fresh variant objects, nothing built yet
    out = io.StringIO()
    s = Session(out)
    s.handle(f"setoption name UCI_Variant value {name}")
    s.handle("position startpos")
    v = s.variant
    before_isready = unbuilt(v)
    s.handle("isready")
    assert "readyok" in out.getvalue()
    after_isready = unbuilt(v)
    assert after_isready < before_isready or not before_isready
    n = len(out.getvalue())
    s.handle("go depth 3 nodes 20000")     # bounded: an amazons position has ~2,000 moves
    wait_bestmove(out, n)
    assert unbuilt(v) == after_isready, f"built during go: {after_isready - unbuilt(v)}"
