"""Agreement with cshogi, an independent implementation, on random-playout positions."""
import random

import cshogi
import pytest

import variants
from engine.game import perft
from engine.movegen import in_check, legal_moves
from engine.notation.move_text import move_text
from engine.notation.position_text import format, parse


def random_positions(n, seed):
    rnd = random.Random(seed)
    out = []
    while len(out) < n:
        b = cshogi.Board()
        for _ in range(rnd.randint(10, 160)):
            ms = list(b.legal_moves)
            if not ms:
                break
            b.push(rnd.choice(ms))
        out.append(b.sfen())
    return out


POSITIONS = random_positions(60, 20261122)


def cshogi_perft2(b):
    n = 0
    for m in list(b.legal_moves):
        b.push(m)
        n += len(list(b.legal_moves))
        b.pop()
    return n


@pytest.mark.parametrize("sfen", POSITIONS)
def test_legal_moves_agree(sfen):
    v = variants.get("shogi")
    pos = parse(v, sfen, "sfen")
    ref = cshogi.Board(sfen)
    ours = sorted(move_text(v, m, "usi") for m in legal_moves(pos))
    assert ours == sorted(cshogi.move_to_usi(m) for m in ref.legal_moves)
    assert in_check(pos) == ref.is_check()
    assert format(pos, "sfen").split()[:3] == ref.sfen().split()[:3]
    assert perft(pos, 2) == cshogi_perft2(ref)


def test_hands_appear_in_random_positions():
    """The sample really exercises drops (guards against a sample with empty hands)."""
    assert sum(1 for s in POSITIONS if s.split()[2] != "-") >= 20
