"""The null move is a Position operation: the side to move passes.  ``make_null`` keeps the
hash exact (it equals a from-scratch hash of the side-flipped position, en passant lapsed),
restarts the move clock so repetition scans stop, and ``unmake`` takes it back exactly,
also when null moves and real moves are interleaved, as in a search that was stopped."""
from __future__ import annotations

import random

import variants
from engine.movegen import legal_moves
from engine.notation import format_position, parse_position
from engine.moves import NULL_MOVE


def snapshot(pos):
    return (pos.board[:], [sorted(o) for o in pos.occ], pos.hand[:], pos.side, pos.ep,
            pos.ep_victim, pos.castle, pos.halfmove, pos.fullmove, pos.hash, pos.king[:],
            pos.history[:], len(pos.stack))


def test_null_move_after_a_double_step_drops_the_en_passant_cell_and_keeps_the_hash_exact():
    v = variants.get("chess")
    pos = parse_position(v, "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3")
    assert pos.ep >= 0
    before = snapshot(pos)
    pos.make_null()
    assert pos.side == 0 and pos.ep == -1 and pos.halfmove == 0
    assert pos.hash == pos.compute_hash()
    assert pos.history[-1] == pos.hash and pos.stack[-1][0] == NULL_MOVE
    # the hash is that of the same board with White to move and no en-passant cell
    flipped = parse_position(v, "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 4")
    assert pos.hash == flipped.hash
    pos.unmake()
    assert snapshot(pos) == before


def test_null_moves_interleaved_with_moves_unwind_exactly_in_every_family():
    rng = random.Random(7)
    for name in ("chess", "shogi", "knavish", "nested-a", "notake-shunt", "elefantnichtschach",
                 "ninepiece-nichtschach"):
        v = variants.get(name)
        pos = parse_position(v, v.start_fen)
        start = snapshot(pos)
        text = format_position(pos)
        made = 0
        for i in range(12):
            if i % 3 == 2:
                pos.make_null()
                assert pos.hash == pos.compute_hash(), name
            else:
                moves = legal_moves(pos)
                if not moves:
                    break
                pos.make(rng.choice(moves))
            made += 1
        for _ in range(made):
            pos.unmake()
        assert snapshot(pos) == start, name
        assert format_position(pos) == text, name
