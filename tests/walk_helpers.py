"""A position reached by a seeded random game from a variant's start: the tests that compare
evaluations over many positions share it."""
from __future__ import annotations

import random

from engine.movegen import legal_moves
from engine.notation.position_text import parse


def random_position(v, rng: random.Random, lo: int, hi: int):
    """The position after ``rng.randrange(lo, hi)`` random legal plies from the start (fewer
    when the game ends first)."""
    pos = parse(v, v.start_fen)
    for _ply in range(rng.randrange(lo, hi)):
        moves = legal_moves(pos)
        if not moves:
            break
        pos.make(rng.choice(moves))
    return pos
