"""Nested Chess quiescence: out of check it takes only the legal captures and promotions, as in
chess, except where the side to move has lost its Fezbaba or its Waffle and may have no move at
all (``Variant.stalemate_risk``): there it takes every legal move, to see the stalemate."""
import random

import pytest

import variants
from engine.moves import CELL
from engine.movegen import in_check, legal_moves, legal_tactical
from engine.notation.position_text import format, parse
from engine.tt import MATE_BOUND
from tests.search_helpers import node_searcher

A = variants.get("nested-a")
B = variants.get("nested-b")

# Black's King a9 alone, not in check, no move (tests/test_nested_rules.py, the stalemate rule)
STALEMATE = "7/8/9/8/9/8/2R6/2W3K1/k8/4F3/9/8/9/8/9/8/7 b 0 1"


def test_stalemate_risk_only_for_a_side_without_its_fezbaba_or_waffle():
    start = parse(A, A.start_fen)
    assert not A.stalemate_risk(start)
    no_f = parse(A, A.start_fen.replace("BCDIFDCB", "BCDI1DCB"))        # White's Fezbaba gone
    assert A.stalemate_risk(no_f)
    no_f.side = 1
    no_f.reset_state()
    assert not A.stalemate_risk(no_f)                  # Black still has both
    assert A.stalemate_risk(parse(A, STALEMATE))


def test_quiescence_still_sees_the_stalemate_of_a_side_down_to_its_king():
    pos = parse(A, STALEMATE)
    assert not in_check(pos) and legal_moves(pos) == []
    s = node_searcher(A)
    assert s.evaluate(pos) < -1000                     # Black is far behind on material
    assert s.quiesce(pos, -MATE_BOUND, MATE_BOUND, 1, 0) == 0
    # were the stalemate ruled out there, quiescence would stand pat on the lost material
    blind = node_searcher(A, stalemate_hook=lambda p: False)
    assert blind.quiesce(pos, -MATE_BOUND, MATE_BOUND, 1, 0) < -1000


@pytest.mark.parametrize("v", [A, B], ids=["A", "B"])
def test_legal_tactical_is_the_tactical_part_of_the_legal_moves(v):
    rnd = random.Random(5)
    s = node_searcher(v)
    seen = 0
    for _game in range(4):
        pos = parse(v, v.start_fen)
        for _ply in range(120):
            legal = legal_moves(pos)
            if not legal:
                break
            want = sorted(m for m in legal if s.tactical(pos, m))
            assert sorted(legal_tactical(pos)) == want, format(pos)
            seen += bool(want)
            caps = [m for m in legal if pos.board[m & CELL]]
            pos.make(rnd.choice(caps) if caps and rnd.random() < 0.6 else rnd.choice(legal))
    assert seen > 100
