"""Late-move reductions (``engine/reductions.py``): the table grows with depth and with the
move's place, and a reduced search still finds what a full-width one finds."""
from __future__ import annotations

import threading

import pytest

import variants
from engine.notation import parse_position
from engine.notation.move_text import move_text
from engine.reductions import REDUCTION
from engine.search import MATE_BOUND, TT, Limits, Searcher
from tests.search_helpers import ITALIAN


def test_the_table_grows_with_depth_and_move_count():
    for d in range(1, 63):
        for c in range(1, 63):
            assert REDUCTION[d][c] <= REDUCTION[d + 1][c]
            assert REDUCTION[d][c] <= REDUCTION[d][c + 1]


def test_named_entries():
    assert REDUCTION[3][4] == 1         # the shallowest node the searcher reduces in, fourth move
    assert REDUCTION[2][2] == 0
    assert REDUCTION[6][10] == 2
    assert REDUCTION[8][20] == 3
    assert REDUCTION[12][40] == 4


def _search(depth):
    v = variants.get("chess")
    pos = parse_position(v, ITALIAN)
    s = Searcher(v, TT(4))
    best, _, score = s.search(pos, Limits(depth=depth), threading.Event(), None)
    return move_text(v, best, "uci"), s.nodes


@pytest.mark.interpreted
def test_deeper_reductions_search_fewer_nodes_to_the_same_move(monkeypatch):
    move, nodes = _search(6)
    import engine.search
    monkeypatch.setattr(engine.search, "REDUCTION", [[1] * 64 for _ in range(64)])
    flat_move, flat_nodes = _search(6)
    assert {move, flat_move} <= {"g8f6", "f8c5"}     # the two main lines of the Italian
    assert nodes < flat_nodes


def test_late_move_pruning_counts_grow_with_depth():
    from engine.reductions import LMP_COUNT
    assert LMP_COUNT[0] == 0 and all(a < b for a, b in zip(LMP_COUNT, LMP_COUNT[1:]))


@pytest.mark.interpreted
def test_late_move_pruning_searches_fewer_nodes_to_the_same_move(monkeypatch):
    move, nodes = _search(6)
    import engine.search
    monkeypatch.setattr(engine.search, "LMP_COUNT", [])
    full_move, full_nodes = _search(6)
    assert {move, full_move} <= {"g8f6", "f8c5"}
    assert nodes < full_nodes


def test_late_move_pruning_keeps_a_quiet_mate_in_two():
    # each the only mate in two, and the first move gives no check (python-chess agrees)
    v = variants.get("chess")
    for fen, mate in (("7k/8/4R3/5K2/8/p7/8/8 w - - 0 1", "f5g6"), ("8/8/3R4/8/8/3K4/7p/k7 w - - 0 1", "d3c2")):
        s = Searcher(v, TT(4))
        best, _, score = s.search(parse_position(v, fen), Limits(depth=4), threading.Event(), None)
        assert move_text(v, best, "uci") == mate and score >= MATE_BOUND
