"""Move generation of Glinski's and McCooey's hexagonal chess against the reference written
from their rules pages (tests/hex_reference.py): perft from the start and from sparse named
positions (en passant, promotion, pins), and random games compared move list by move list."""
from __future__ import annotations

import random

import pytest

import variants
from engine.game import perft
from engine.movegen import legal_moves
from engine.notation.move_text import move_text
from engine.notation.position_text import format as format_position, parse
from tests.hex_reference import Hex

START = {"glinski": [51, 2586, 137858, 7282418], "mccooey": [31, 947, 33307, 1157852]}

# sparse positions: pawns about to promote and to take en passant, a pinned piece, knights
SPARSE = [
    ("glinski", "1/3/5/7/4p4/11/4P1P4/5P5/3K7/6p4/10k b - - 0 1"),
    ("glinski", "1/1P1/5/7/9/3k3r3/11/11/3Q2N4/6K4/11 w - - 0 1"),
    ("mccooey", "1/3/5/7/2p6/11/3P7/4k6/11/5P5/2K1R6 b - - 0 1"),
    ("mccooey", "p/3/5/7/9/4q6/11/11/4K6/2N1B6/7k3 w - - 0 1"),
]


@pytest.mark.parametrize("game", ["glinski", "mccooey"])
def test_start_perft_1_to_3(game):
    pos = variants.get(game).start_position()
    assert [perft(pos, d) for d in (1, 2, 3)] == START[game][:3]


@pytest.mark.slow
def test_start_perft_4_mccooey():
    """(Glinski's depth 4, 7 282 418, takes 9 s interpreted: counted by hand, not here.)"""
    assert perft(variants.get("mccooey").start_position(), 4) == START["mccooey"][3]


@pytest.mark.parametrize("game", ["glinski", "mccooey"])
def test_reference_start_perft_1_2(game):
    assert [Hex(game).perft(d) for d in (1, 2)] == START[game][:2]


@pytest.mark.slow
def test_reference_start_perft_3_mccooey():
    """(Glinski's depth 3 by the reference, 137 858, takes some 20 s: run by hand, not here.)"""
    assert Hex("mccooey").perft(3) == START["mccooey"][2]


@pytest.mark.parametrize("game,fen", SPARSE, ids=[f"{g}-{i}" for i, (g, _) in enumerate(SPARSE)])
def test_sparse_positions_perft(game, fen):
    """Depth 3, but 2 where a queen and a rook make the reference slow."""
    depth = 2 if "Q" in fen and "r" in fen else 3
    pos = parse(variants.get(game), fen)
    assert perft(pos, depth) == Hex(game, fen).perft(depth)


@pytest.mark.slow
@pytest.mark.parametrize("game,fen", [SPARSE[0], SPARSE[2]], ids=["glinski-0", "mccooey-2"])
def test_sparse_positions_perft_4(game, fen):
    pos = parse(variants.get(game), fen)
    assert perft(pos, 4) == Hex(game, fen).perft(4)


@pytest.mark.parametrize("game,seed", [("glinski", 1), ("glinski", 2), ("mccooey", 3),
                                       ("mccooey", 4)])
def test_random_games_agree_with_the_reference(game, seed):
    """Each ply: the same legal moves, then the same position after a random one (the
    position text read back by the reference), up to 60 plies or the game's end."""
    rng = random.Random(seed)
    v = variants.get(game)
    pos = v.start_position()
    ref = Hex(game)
    for _ in range(60):
        mine = {move_text(v, m, "uci"): m for m in legal_moves(pos)}
        assert set(mine) == set(ref.legal()), format_position(pos)
        if not mine:
            break
        text = rng.choice(sorted(mine))
        pos.make(mine[text])
        ref.make(text)
        assert Hex(game, format_position(pos)).board == ref.board
