"""Quiescence and captures that win the game (``Variant.decisive_captures``): in the coverage
games a capture that leaves the opponent a direction held by one piece wins at once, in
Ninepiece Nichtschach taking the last carrier of a victory group, however little the piece
taken is worth; quiescence must not prune such a capture as too small a gain."""
from __future__ import annotations

import sys
import threading

import pytest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import variants  # noqa: E402
from engine.limits import Limits  # noqa: E402
from engine.movegen import legal_moves  # noqa: E402
from engine.notation.move_text import move_text  # noqa: E402
from engine.notation.position_text import parse  # noqa: E402
from engine.search import TT, Searcher  # noqa: E402
from engine.tt import MATE_BOUND  # noqa: E402

# Move 182 of a self-play game, White to move.  Black's board pieces hold some direction only
# twice, and White can take one of those two pieces.
THIN = ("6/5e/N1p2p/6/1P4/6|5u/5p/3p2/1q4/1n4/4P1|4A1/4p1/N1n3/2NEP1/2K1P1/2Y3|"
        "6/6/1pN2e/2NQ2/1P1a2/6|6/1p4/2p3/6/3P1P/U2AA1|1n4/1p4/6/6/1P4/6 w "
        "[RRRBBBBBBQQQDDDDGGGALNFFFFFFFFFFFFFFFFFFFFPPPPrrrrbbbbbbbqqudddgggaaaaknnnnffffffffffff"
        "ffffffffffffppppppp] 0 182")


def _searcher(v, decisive=True):
    s = Searcher(v, TT(1))
    s.stop_event, s.limits, s.hard_deadline = threading.Event(), Limits(), None
    if not decisive:
        s.decisive_hook = None
    return s


# Ply 290 of a seeded random game, White to move: Black's last carrier of a group can be taken.
SOLE = ("6/6/1Pp1p1/4S1/4P1/6|6/(RB)5/4p1/6/1p4/6|5a/3p2/6/6/6/6|1C4/3u2/6/f5/6/U5|6/6/6/6/6/6|"
        "6/U1N3/6/6/6/6 w [-] 0 146")
CASES = [("elefantnichtschach", THIN), ("ninepiece-nichtschach", SOLE)]


def _wins(v, pos, m):
    pos.make(m)
    try:
        r = v.adjudicate(pos)
        return r is not None and r[0] == -1
    finally:
        pos.unmake()


@pytest.mark.parametrize("name, fen", CASES)
def test_the_captures_declared_decisive_are_exactly_the_winning_ones(name, fen):
    v = variants.get(name)
    pos = parse(v, fen)
    dec = v.decisive_captures(pos)
    assert dec is not None
    b = pos.board
    captures = [m for m in legal_moves(pos) if (m >> 8) & 255 != 255 and b[m & 255]
                and (b[m & 255] & 1) != pos.side]
    winning = {move_text(v, m) for m in captures if _wins(v, pos, m)}
    assert winning
    assert winning == {move_text(v, m) for m in captures if dec[b[m & 255]]}


@pytest.mark.parametrize("name", ["elefantnichtschach", "springernichtschach", "ninepiece-nichtschach"])
def test_the_start_position_has_no_decisive_capture(name):
    v = variants.get(name)
    assert v.decisive_captures(parse(v, v.start_fen)) is None


@pytest.mark.parametrize("name, fen", CASES)
def test_quiescence_finds_the_win_that_delta_pruning_would_skip(name, fen):
    v = variants.get(name)
    pos = parse(v, fen)
    stand = _searcher(v).evaluate(pos)
    alpha = stand + 800
    # without the hook every capture gains too little to reach alpha, the winning one too: a
    # fail low
    assert _searcher(v, decisive=False).quiesce(pos, alpha, alpha + 1, 1, 0, False) <= alpha
    assert _searcher(v).quiesce(pos, alpha, alpha + 1, 1, 0, False) >= MATE_BOUND
