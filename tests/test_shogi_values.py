"""Shogi's piece values (variants/shogi.py, ``VALUES``): every piece comes back as a drop, so
the short-range pieces are worth far more than their mobility alone says."""
from __future__ import annotations

import sys
import threading
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import variants  # noqa: E402
from engine.evaluate import Evaluator  # noqa: E402
from engine.notation.move_text import move_text  # noqa: E402
from engine.notation.position_text import parse  # noqa: E402
from engine.search import Limits, Searcher  # noqa: E402


def test_values_rise_from_pawn_to_dragon():
    v = variants.get("shogi")
    ev = Evaluator(v)
    value = {pt.token: ev.value[pt.id * 2] for pt in v.piece_types if pt and not pt.royal}
    order = ["P", "L", "N", "S", "G", "B", "R"]
    assert [value[t] for t in order] == sorted(value[t] for t in order)
    assert len({value[t] for t in order}) == len(order)
    # a promoted minor piece moves as a Gold but returns to the hand unpromoted
    for t in ("+P", "+L", "+N", "+S"):
        assert value["S"] < value[t] < value["G"]
    assert value["+B"] > value["B"] and value["+R"] > value["R"] > value["+B"] - 200


@pytest.mark.parametrize("text,victim", [
    ("8k/9/9/9/1n2R4/9/4p4/9/K8[-] w 0 1", "b5"),     # a Knight or a Pawn
    ("8k/9/9/9/1l2R4/9/4p4/9/K8[-] w 0 1", "b5"),     # a Lance or a Pawn
])
def test_the_rook_takes_the_more_valuable_piece(text, victim):
    """With mobility values a Knight or Lance was worth a Pawn, and the Rook took the Pawn
    (or went to promote)."""
    v = variants.get("shogi")
    pos = parse(v, text)
    best, _, _ = Searcher(v).search(pos, Limits(depth=3), threading.Event())
    assert move_text(v, best) == "e5" + victim
