"""Chu Shogi's royal pieces and repetition (docs/variants/chushogi.md, "The end of the game"):
the Crown Prince is a second King, a side with one royal piece may not leave it attacked,
a side with two may, a side left with none has lost; the fourth occurrence of a position is
a loss for a side that checked on every move of the cycle, else a draw.  Each rule by a
named position, against tests/chu_reference.py where moves are listed."""
from __future__ import annotations

import random

import pytest

import variants
from engine.game import game_result
from engine.movegen import in_check, legal_moves
from engine.notation.move_text import move_text, parse_move
from engine.notation.position_text import PositionTextError, parse
from tests import chu_reference as ref


@pytest.fixture(scope="module")
def v():
    return variants.get("chushogi")


def position(v, sfen):
    """The engine's position of an SFEN (Sente 'b' is colour 0, written 'w' in the FEN)."""
    board, side = sfen.split()[:2]
    return parse(v, f"{board} {'w' if side == 'b' else 'b'} 0 1")


def texts(v, pos):
    return {move_text(v, m, "usi") for m in legal_moves(pos)}


def ref_texts(sfen):
    board, side = ref.read_sfen(sfen)
    return {ref.text(mv) for mv in ref.legal(board, side)}


def play(v, pos, *moves):
    for t in moves:
        pos.make(parse_move(v, legal_moves(pos), t, "usi"))


# Sente: King 1l, Crown Prince 12k; Gote: Rook 12l on the King's rank, King 12a
TWO_ROYALS = "k11/12/12/12/12/12/12/12/12/12/+E11/r10K b - 1"
# Sente: a lone Crown Prince on 12l, attacked along the rank by Gote's Rook on 1l
LONE_PRINCE = "k11/12/12/12/12/12/12/12/12/12/12/+E10r b - 1"
# Sente: King 1e attacked by Gote's Rook 1l; a Drunk Elephant on 6e may enter the zone
PRINCE_BY_PROMOTION = "k11/12/12/12/6E4K/12/12/12/12/12/12/11r b - 1"
# Sente: King 6g, Crown Prince 6h, Pawn 1i; Gote: Lion 6f next to the King, King 12a
DOUBLE_TAKE = "k11/12/12/12/12/6n5/6K5/6+E5/11P/12/12/12 b - 1"


def test_two_royals_neither_is_in_check(v):
    pos = position(v, TWO_ROYALS)
    assert not in_check(pos)
    got = texts(v, pos)
    assert got == ref_texts(TWO_ROYALS)
    # the Prince may move away and leave the attacked King where it stands
    assert "12k11j" in got and "12k12l" in got
    play(v, pos, "12k11j", "12l1l")         # Gote's Rook takes the King
    assert pos.king[0] == -1
    assert game_result(pos) is None         # the Prince plays on
    assert texts(v, pos) == {"11j" + c for c in ("10i", "11i", "12i", "10j", "12j", "10k",
                                                 "11k", "12k")}


def test_a_lone_prince_is_royal(v):
    pos = position(v, LONE_PRINCE)
    assert in_check(pos)
    assert texts(v, pos) == ref_texts(LONE_PRINCE) == {"12l12k", "12l11k"}
    # Gote's Gold on 11j covers both: checkmate, a loss for Sente
    mate = position(v, "k11/12/12/12/12/12/12/12/12/1g10/12/+E10r b - 1")
    assert legal_moves(mate) == [] and game_result(mate) == (-1, "checkmate")


def test_promoting_to_prince_makes_a_second_royal(v):
    pos = position(v, PRINCE_BY_PROMOTION)
    assert in_check(pos)
    got = texts(v, pos)
    assert got == ref_texts(PRINCE_BY_PROMOTION)
    # entering the zone as a Prince leaves the King attacked, and is legal; unpromoted not
    assert {"6e6d+", "6e5d+", "6e7d+"} <= got
    assert not {"6e6d", "6e5d", "6e7d"} & got
    play(v, pos, "6e6d+")
    play(v, pos, "1l1e")                    # Gote takes the King; the Prince remains
    assert game_result(pos) is None and in_check(pos) is False


def test_no_king_and_no_prince_left_loses(v):
    pos = position(v, DOUBLE_TAKE)
    assert not in_check(pos)                # both attacked by the Lion, neither alone
    assert "1i1h" in texts(v, pos)
    play(v, pos, "1i1h", "6f6g6h")          # the Lion takes the King, then the Prince
    assert game_result(pos) == (-1, "extinction")


def test_position_text_needs_a_royal_piece(v):
    position(v, LONE_PRINCE)
    with pytest.raises(PositionTextError):
        position(v, "k11/12/12/12/12/12/12/12/12/12/12/11R b - 1")
    with pytest.raises(PositionTextError):
        position(v, "k11/12/12/12/12/12/12/12/12/12/12/10KK b - 1")


def test_perpetual_check_loses_for_the_checker(v):
    # Sente's Rook checks Gote's King on files 1 and 2 on every Sente move
    pos = position(v, "11k/12/12/12/12/12/12/12/12/12/12/K9R1 b - 1")
    cycle = ("2l1l", "1a2a", "1l2l", "2a1a")
    for _ in range(2):
        play(v, pos, *cycle)
        assert game_result(pos) is None
    play(v, pos, *cycle)                    # the start position a fourth time
    assert game_result(pos) == (-1, "perpetual check")


def test_quiet_repetition_is_a_draw(v):
    pos = position(v, "11k/12/12/12/12/12/12/12/12/12/12/K11 b - 1")
    cycle = ("12l12k", "1a1b", "12k12l", "1b1a")
    for _ in range(2):
        play(v, pos, *cycle)
    assert game_result(pos) is None
    play(v, pos, *cycle)
    assert game_result(pos) == (0, "repetition")


# a middle game with each Drunk Elephant one step from the zone and Rooks and Lions about
PRINCE_GAME = "4k7/2r3g5/12/2p5p3/5E2N3/12/12/3n2e5/3P5P2/5G3R2/12/7K4 b - 1"


@pytest.mark.parametrize("seed", [1, 2])
def test_random_games_with_princes_agree_with_the_reference(v, seed):
    rng = random.Random(seed)
    pos = position(v, PRINCE_GAME)
    board, side = ref.read_sfen(PRINCE_GAME)
    last = None
    for _ply in range(30):
        moves = ref.legal(board, side, last)
        by_text = {ref.text(mv): mv for mv in moves}
        assert texts(v, pos) == set(by_text)
        if not moves or not ref.royals(board, side):
            break
        # prefer promotions and captures, so that Princes come and royals are taken
        keen = [t for t, mv in by_text.items() if mv[3] or ref.taken(board, mv)]
        t = rng.choice(sorted(keen) if keen and rng.random() < 0.8 else sorted(by_text))
        mv = by_text[t]
        last = (board[mv[0]][0], ref.taken(board, mv))
        play(v, pos, t)
        board, side = ref.make(board, mv), side ^ 1
