"""Chu Shogi (variants/chushogi.py, docs/variants/chushogi.md) against the reference written
from the rules page (tests/chu_reference.py): perft 1-2 from the start, named positions for
the Lion's double moves, promotion and the Lion-trading rules, and random games whose every
position's legal moves agree."""
from __future__ import annotations

import random

import pytest

import variants
from engine.movegen import legal_moves
from engine.notation.move_text import move_text, parse_move
from engine.notation.position_text import parse
from tests import chu_reference as ref

START = ref_start = ("lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/"
                     "PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1")


@pytest.fixture(scope="module")
def v():
    return variants.get("chushogi")


def engine_texts(v, pos):
    return {move_text(v, m, "usi") for m in legal_moves(pos)}


def ref_texts(sfen, last=None):
    board, side = ref.read_sfen(sfen)
    return {ref.text(mv) for mv in ref.legal(board, side, last)}


def test_start_position_and_perft_1_2(v):
    """36 moves from the start and 1,296 after two plies, as the reference counts them."""
    pos = parse(v, "sfen " + START) if False else parse(v, v.start_fen)
    board, side = ref.read_sfen(START)
    moves = ref.legal(board, side)
    assert engine_texts(v, pos) == {ref.text(mv) for mv in moves}
    assert len(moves) == 36
    total = 0
    for m in legal_moves(pos):
        pos.make(m)
        total += len(legal_moves(pos))
        pos.unmake()
    assert total == sum(len(ref.legal(ref.make(board, mv), 1)) for mv in moves) == 1296


NAMED = [
    # a lone Lion in the centre with kings in the corners: 24 cells and a pass
    ("k11/12/12/12/12/12/5N6/12/12/12/12/11K b - 1", "7g", 25),
    # the Lion with two enemy pawns beside it: double moves, igui
    ("k11/12/12/12/12/5pp5/5N6/12/12/12/12/11K b - 1", "7g", 24 + 1 + 16),
    # a Horned Falcon: forward Lion power only
    ("k11/12/12/12/12/5p6/5+H6/12/12/12/12/11K b - 1", "6g", None),
    # a Soaring Eagle: Lion power on the forward diagonals
    ("k11/12/12/12/12/4p1p5/5+D6/12/12/12/12/11K b - 1", "6g", None),
    # promotion: a Pawn entering the zone, a Rook capturing inside it, a Lance to the last rank
    ("k11/12/2p9/5P6/12/12/12/12/2R9/12/12/11K b - 1", None, None),
    ("k11/L11/12/3R1p6/12/12/12/12/12/12/12/11K b - 1", None, None),
    # gote to move, a promoted Kirin (moves as a Lion) next to a sente Lion
    ("k11/12/12/12/12/5+o6/5N6/12/12/12/12/11K w - 1", None, None),
]


@pytest.mark.parametrize("sfen,cell,count", NAMED)
def test_named_positions_agree_with_the_reference(v, sfen, cell, count):
    pos = parse(v, "sfen " + sfen) if sfen.startswith("sfen") else _sfen(v, sfen)
    got = engine_texts(v, pos)
    assert got == ref_texts(sfen)
    if cell is not None and count is not None:
        assert len({t for t in got if t.startswith(cell)}) == count


def _sfen(v, sfen):
    board, side = sfen.split()[:2]
    return parse(v, f"{board} {'w' if side == 'b' else 'b'} 0 1")


def test_lion_double_move_text_and_position_moves(v):
    pos = _sfen(v, "k11/12/12/12/12/5pp5/5N6/12/12/12/12/11K b - 1")
    ms = legal_moves(pos)
    for t in ("7g7f7e", "7g7f7g", "7g7f6f", "7g6f7g", "7g7g"):
        m = parse_move(v, ms, t, "usi")
        assert move_text(v, m, "usi") == t


def test_lion_may_not_take_a_protected_lion_two_cells_away(v):
    """Sente's Lion 7g, gote's Lion 7e protected by a gote Pawn 7d (gote's pawns step toward
    rank l): 7g7e is refused; with a gote Gold on 7f in between, 7g7f7e (the Gold taken in
    passing) is allowed, with a gote Pawn there it is not; an unprotected Lion may be taken."""
    plain = "k11/12/12/5p6/5n6/12/5N6/12/12/12/12/11K b - 1"
    assert "7g7e" not in ref_texts(plain)
    assert "7g7e" not in engine_texts(v, _sfen(v, plain))
    bridge = "k11/12/12/5p6/5n6/5g6/5N6/12/12/12/12/11K b - 1"
    assert "7g7f7e" in ref_texts(bridge) and "7g7f7e" in engine_texts(v, _sfen(v, bridge))
    pawn_bridge = "k11/12/12/5p6/5n6/5p6/5N6/12/12/12/12/11K b - 1"
    assert "7g7f7e" not in engine_texts(v, _sfen(v, pawn_bridge))
    unprotected = "k11/12/12/12/5n6/12/5N6/12/12/12/12/11K b - 1"
    assert "7g7e" in engine_texts(v, _sfen(v, unprotected))


def test_no_counter_strike_after_a_lion_was_taken_by_another_piece(v):
    """Gote's Rook takes sente's Lion on 7g; sente's Gold 7h may not then take gote's Lion 8h,
    which it could had the Lion been taken by a Lion."""
    pos = _sfen(v, "k4r6/12/12/12/12/12/5N6/4nG6/12/12/12/11K w - 1")
    before = engine_texts(v, pos)
    pos.make(parse_move(v, legal_moves(pos), "7a7g", "usi"))
    assert "7h8h" not in engine_texts(v, pos)
    after = "k11/12/12/12/12/12/5r6/4nG6/12/12/12/11K b - 1"
    assert "7h8h" not in ref_texts(after, ("R", ["N"]))
    assert "7h8h" in ref_texts(after) and "7h8h" in engine_texts(v, _sfen(v, after))
    assert "7a7g" in before


def _sfen_of(board, side):
    rows = []
    for y in range(ref.SIZE - 1, -1, -1):
        row, gap = "", 0
        for x in range(ref.SIZE):
            p = board.get((x, y))
            if p is None:
                gap += 1
                continue
            if gap:
                row += str(gap)
                gap = 0
            tok, col = p
            row += tok if col == 0 else tok.lower()
        rows.append(row + (str(gap) if gap else ""))
    return "/".join(rows) + (" b" if side == 0 else " w") + " - 1"


@pytest.mark.parametrize("seed", [1, 2])
def test_random_games_agree_with_the_reference(v, seed):
    rng = random.Random(seed)
    pos = parse(v, v.start_fen)
    board, side = ref.read_sfen(START)
    last = None
    for _ply in range(40):
        moves = ref.legal(board, side, last)
        texts = {ref.text(mv): mv for mv in moves}
        assert engine_texts(v, pos) == set(texts), _sfen_of(board, side)
        if not moves:
            break
        # prefer captures, so that Lions and promotions meet sooner
        caps = [t for t, mv in texts.items() if ref.taken(board, mv)]
        t = rng.choice(sorted(caps) if caps and rng.random() < 0.7 else sorted(texts))
        mv = texts[t]
        last = (board[mv[0]][0], ref.taken(board, mv))
        pos.make(parse_move(v, legal_moves(pos), t, "usi"))
        board, side = ref.make(board, mv), side ^ 1
