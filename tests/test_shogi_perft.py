"""Shogi move generation proven by perft tables (data/shogi_perft.txt): start and hands."""
import pytest

import variants
from engine.game import perft
from engine.notation.position_text import format, parse
from perft_data import load


@pytest.mark.parametrize("sfen,depth,count", load("shogi_perft.txt"))
def test_shogi_perft(sfen, depth, count):
    v = variants.get("shogi")
    pos = parse(v, sfen, "sfen")
    assert perft(pos, depth) == count
    assert format(pos, "sfen").split()[:3] == sfen.split()[:3]
    assert pos.hash == pos.compute_hash()
