"""Late-move reductions (``engine/reductions.py``): the table grows with depth and with the
move's place, and a reduced search still finds what a full-width one finds."""
from __future__ import annotations

import threading

import variants
from engine.notation import parse_position
from engine.notation.move_text import move_text
from engine.reductions import REDUCTION
from engine.search import TT, Limits, Searcher


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


ITALIAN = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3"


def _search(depth):
    v = variants.get("chess")
    pos = parse_position(v, ITALIAN)
    s = Searcher(v, TT(4))
    best, _, score = s.search(pos, Limits(depth=depth), threading.Event(), None)
    return move_text(v, best, "uci"), s.nodes


def test_deeper_reductions_search_fewer_nodes_to_the_same_move(monkeypatch):
    move, nodes = _search(6)
    import engine.search
    monkeypatch.setattr(engine.search, "REDUCTION", [[1] * 64 for _ in range(64)])
    flat_move, flat_nodes = _search(6)
    assert {move, flat_move} <= {"g8f6", "f8c5"}     # the two main lines of the Italian
    assert nodes < flat_nodes
