"""Quiescence and captures that gain more than the piece taken (``Variant.capture_gains``): in
the coverage games a capture that leaves the opponent a direction held by one piece wins at
once, in Ninepiece Nichtschach taking the last carrier of a victory group, however little the
piece taken is worth; in Nested Chess taking the Fezbaba or Waffle freezes the pieces that need
it.  Quiescence must not prune such a capture as too small a gain."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import variants  # noqa: E402
from engine.moves import CELL, is_drop
from engine.movegen import legal_moves  # noqa: E402
from engine.notation.move_text import move_text  # noqa: E402
from engine.notation.position_text import parse  # noqa: E402
from engine.tt import MATE_BOUND  # noqa: E402
from engine.variant import CAPTURE_WINS  # noqa: E402
from tests.search_helpers import node_searcher  # noqa: E402

# Move 182 of a self-play game, White to move.  Black's board pieces hold some direction only
# twice, and White can take one of those two pieces.
THIN = ("6/5e/N1p2p/6/1P4/6|5u/5p/3p2/1q4/1n4/4P1|4A1/4p1/N1n3/2NEP1/2K1P1/2Y3|"
        "6/6/1pN2e/2NQ2/1P1a2/6|6/1p4/2p3/6/3P1P/U2AA1|1n4/1p4/6/6/1P4/6 w "
        "[RRRBBBBBBQQQDDDDGGGALNFFFFFFFFFFFFFFFFFFFFPPPPrrrrbbbbbbbqqudddgggaaaaknnnnffffffffffff"
        "ffffffffffffppppppp] 0 182")


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
def test_the_captures_declared_winning_are_exactly_the_winning_ones(name, fen):
    v = variants.get(name)
    pos = parse(v, fen)
    gains = v.capture_gains(pos)
    assert gains is not None
    b = pos.board
    captures = [m for m in legal_moves(pos) if not is_drop(m) and b[m & CELL]
                and (b[m & CELL] & 1) != pos.side]
    winning = {move_text(v, m) for m in captures if _wins(v, pos, m)}
    assert winning
    assert winning == {move_text(v, m) for m in captures if gains[b[m & CELL]] == CAPTURE_WINS}


@pytest.mark.parametrize("name", ["elefantnichtschach", "springernichtschach", "ninepiece-nichtschach"])
def test_the_start_position_has_no_winning_capture(name):
    v = variants.get(name)
    assert v.capture_gains(parse(v, v.start_fen)) is None


@pytest.mark.parametrize("name, fen", CASES)
def test_quiescence_finds_the_win_that_delta_pruning_would_skip(name, fen):
    v = variants.get(name)
    pos = parse(v, fen)
    stand = node_searcher(v).evaluate(pos)
    alpha = stand + 800
    # without the hook every capture gains too little to reach alpha, the winning one too: a
    # fail low
    assert node_searcher(v, gains_hook=None).quiesce(pos, alpha, alpha + 1, 1, 0, False) <= alpha
    assert node_searcher(v).quiesce(pos, alpha, alpha + 1, 1, 0, False) >= MATE_BOUND


# Ply 54 of a seeded random game, White to move: White can take Black's Waffle, which keeps
# Black's Rooks, Knights, Infantas and Pawns moving.
WAFFLE = ("rnak1nr/1cd1fb2/pp2p1p1p/2pepcpe/9/1pe2e2/9/8/9/8/6P2/1E3C1E/1P3wP2/1PEEE1EP/"
          "P1APP3P/1CI1FD1B/RN1KWNR w 2 28")


def test_taking_the_waffle_gains_the_share_of_the_army_it_keeps_moving():
    v = variants.get("nested-a")
    pos = parse(v, WAFFLE)
    gains = v.capture_gains(pos)
    keeps = sum(v.piece_types[c >> 1].value for c in pos.board
                if c and c & 1 and v.piece_types[c >> 1].token in "RNAP")
    assert keeps > 0
    assert gains[v.wcode[1]] == int(keeps * 0.75)
    assert gains[v.fcode[1]] > 0                     # Black still has its Fezbaba too
    assert not any(g for c, g in enumerate(gains) if c not in v.fcode[1:] + v.wcode[1:])


def test_quiescence_takes_the_waffle_that_delta_pruning_would_skip():
    v = variants.get("nested-a")
    pos = parse(v, WAFFLE)
    stand = node_searcher(v).evaluate(pos)
    alpha = stand + 800
    assert node_searcher(v, gains_hook=None).quiesce(pos, alpha, alpha + 1, 1, 0, False) <= alpha
    assert node_searcher(v).quiesce(pos, alpha, alpha + 1, 1, 0, False) > alpha
