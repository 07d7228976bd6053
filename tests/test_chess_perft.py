"""Chess move generation proven by the standard perft tables (data/chess_perft.txt)."""
import pytest

import variants
from engine.game import perft
from engine.notation.position_text import format, parse
from perft_data import load


@pytest.mark.parametrize("fen,depth,count", load("chess_perft.txt"))
def test_chess_perft(fen, depth, count):
    v = variants.get("chess")
    pos = parse(v, fen)
    assert perft(pos, depth) == count
    assert format(pos) == fen        # make/unmake restored everything
    assert pos.hash == pos.compute_hash()
