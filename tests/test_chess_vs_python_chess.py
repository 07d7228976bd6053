"""Agreement with python-chess, an independent implementation, on random-playout positions."""
import random

import chess
import pytest

import variants
from engine.game import game_result, perft
from engine.movegen import in_check, legal_moves
from engine.notation.move_text import move_text
from engine.notation.position_text import format, parse


def random_positions(n, seed):
    rnd = random.Random(seed)
    out = []
    while len(out) < n:
        b = chess.Board()
        for _ in range(rnd.randint(5, 120)):
            ms = list(b.legal_moves)
            if not ms:
                break
            # prefer captures and promotions now and then to reach sharp positions
            caps = [m for m in ms if b.is_capture(m) or m.promotion]
            b.push(rnd.choice(caps if caps and rnd.random() < 0.3 else ms))
        out.append(b.fen(en_passant="fen"))
    return out


POSITIONS = random_positions(60, 20261122)


@pytest.mark.parametrize("fen", POSITIONS)
def test_legal_moves_and_state_agree(fen):
    v = variants.get("chess")
    pos = parse(v, fen)
    ref = chess.Board(fen)
    ours = sorted(move_text(v, m) for m in legal_moves(pos))
    assert ours == sorted(m.uci() for m in ref.legal_moves)
    assert in_check(pos) == ref.is_check()
    assert (game_result(pos) is not None) == (ref.is_checkmate() or ref.is_stalemate()
                                              or ref.is_insufficient_material()
                                              or ref.halfmove_clock >= 100)
    # perft 2 from here, counted by both
    total = 0
    for m in list(ref.legal_moves):
        ref.push(m)
        total += ref.legal_moves.count()
        ref.pop()
    assert perft(pos, 2) == total


@pytest.mark.parametrize("seed", range(3))
def test_games_replayed_move_by_move(seed):
    """Play a random game with our core; python-chess must accept every move and agree on
    every resulting FEN (en-passant field written whenever a double step was played)."""
    v = variants.get("chess")
    pos = parse(v, v.start_fen)
    ref = chess.Board()
    rnd = random.Random(seed)
    for _ in range(200):
        ms = legal_moves(pos)
        if not ms:
            break
        m = rnd.choice(ms)
        ref.push_uci(move_text(v, m))
        pos.make(m)
        assert format(pos) == ref.fen(en_passant="fen")
        assert pos.hash == pos.compute_hash()
