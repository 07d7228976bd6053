"""cellfish's own ruling keys of variants files (docs/variant-files.md, "cellfish's own
rulings"; variants/inifile/rulings.py), each on a small file of its own: what the key changes
against the same section without it (which plays Fairy-Stockfish's rule), its bad values
refused, and Fairy-Stockfish (pyffish) loading a file with the keys (it ignores them).
Also the en-passant cell of a double step from a region other than the second rank."""
from __future__ import annotations

import pytest

from engine.game import game_result
from engine.movegen import legal_moves
from engine.notation import move_text, parse_position
from engine.notation.position_text import PositionTextError
from engine.notation.position_text import format as format_position
from file_helpers import one, problems


def texts(v, fen: str, moves=()) -> set[str]:
    pos = parse_position(v, fen)
    for t in moves:
        pos.make(next(m for m in legal_moves(pos) if move_text(v, m) == t))
    return {move_text(v, m) for m in legal_moves(pos)}


def after(v, fen: str, *moves: str) -> str:
    pos = parse_position(v, fen)
    for t in moves:
        pos.make(next(m for m in legal_moves(pos) if move_text(v, m) == t))
    return format_position(pos)


# ---- piecePromotionWhereMoveEnds -----------------------------------------------------------
PROMO = """[rookpromo:chess]
promotedPieceType = r:q
promotionRegionWhite = *8
"""
ROOK_ON_8 = "R7/8/8/4k3/8/8/8/4K3 w - - 0 1"


def test_promotion_where_the_move_ends():
    fsf, own = one(PROMO), one(PROMO + "piecePromotionWhereMoveEnds = true\n")
    # Fairy-Stockfish's rule: a move out of the region may promote too
    assert {"a8a1", "a8a1+", "a8b8", "a8b8+"} <= texts(fsf, ROOK_ON_8)
    t = texts(own, ROOK_ON_8)
    assert {"a8a1", "a8b8", "a8b8+"} <= t and "a8a1+" not in t
    assert not any(m.endswith("+") and not m.endswith("8+") for m in t)
    # into the region from outside: both rules offer it
    assert {"a1a8", "a1a8+"} <= texts(own, "8/8/8/4k3/8/8/8/R3K3 w - - 0 1")
    # mandatory promotion is then compulsory only where the move ends
    must = one(PROMO + "piecePromotionWhereMoveEnds = true\nmandatoryPiecePromotion = true\n")
    t = texts(must, ROOK_ON_8)
    assert "a8a1" in t and "a8a1+" not in t and "a8b8+" in t and "a8b8" not in t


def test_promotion_where_the_move_ends_needs_piece_promotion():
    assert problems("[x:chess]\npiecePromotionWhereMoveEnds = true\n") == [
        "f.ini:2: [x] piecePromotionWhereMoveEnds: needs promotedPieceType (true)"]
    assert problems(PROMO + "piecePromotionWhereMoveEnds = maybe\n") == [
        "f.ini:4: [rookpromo] piecePromotionWhereMoveEnds: not true or false (maybe)"]


# ---- nMoveRuleTypesOnly --------------------------------------------------------------------
HOUSE = """[house:chess]
pieceDrops = true
capturesToHand = true
promotedPieceType = r:q
"""


def test_move_count_restarts_only_on_captures_and_pawn_moves_and_drops():
    fen = "4k3/8/8/8/8/8/8/R3K3[PN] w - - 30 40"
    fsf, own = one(HOUSE), one(HOUSE + "nMoveRuleTypesOnly = true\n")
    # Fairy-Stockfish's rule: every drop and every piece promotion restarts the count
    assert after(fsf, fen, "N@e5").split()[4] == "0"
    assert after(fsf, fen, "a1a8+").split()[4] == "0"
    assert after(own, fen, "N@e5").split()[4] == "31"
    assert after(own, fen, "a1a8+").split()[4] == "31"
    assert after(own, fen, "a1a5").split()[4] == "31"
    for v in (fsf, own):                  # a pawn drop, a pawn move and a capture: both rules
        assert after(v, fen, "P@e4").split()[4] == "0"
    assert after(own, "4k3/8/8/8/8/8/4P3/4K3[] w - - 30 40", "e2e3").split()[4] == "0"
    assert after(own, "4k3/8/8/8/8/8/r7/R3K3[] w - - 30 40", "a1a2").split()[4] == "0"


def test_move_count_key_refuses_a_bad_value():
    assert problems(HOUSE + "nMoveRuleTypesOnly = sometimes\n") == [
        "f.ini:5: [house] nMoveRuleTypesOnly: not true or false (sometimes)"]


# ---- deadPositionTypes ---------------------------------------------------------------------
DEAD = "[deadchess:chess]\ndeadPositionTypes = bn\n"


@pytest.mark.parametrize("board,dead", [
    ("4k3/8/8/8/8/8/8/4K3", True),
    ("4k3/8/8/8/8/8/8/4KN2", True),
    ("4k3/8/8/8/8/8/8/4KB2", True),
    ("4k3/8/8/8/8/8/8/3BKB2", True),         # bishops d1 and f1: both on light cells
    ("4k3/8/8/8/8/8/8/2B1KB2", False),       # c1 (dark) and f1 (light)
    ("4k3/8/8/8/8/8/8/4KR2", False),
    ("4k3/8/8/8/8/8/8/4KQ2", False),
    ("4kn2/8/8/8/8/8/8/4KN2", False),
    ("4k3/8/8/8/8/8/4P3/4K3", False),
])
def test_dead_positions(board, dead):
    v = one(DEAD)
    pos = parse_position(v, board + " w - - 0 1")
    assert (game_result(pos) == (0, "insufficient material")) is dead
    # without the key, as in Fairy-Stockfish's file variants: no dead positions
    assert game_result(parse_position(one("[plain:chess]\n"), board + " w - - 0 1")) is None


def test_dead_positions_with_hands_are_bare_kings_with_empty_hands():
    v = one(HOUSE + "deadPositionTypes = bn\n")
    assert game_result(parse_position(v, "4k3/8/8/8/8/8/8/4K3[] w - - 0 1")) == (0, "insufficient material")
    assert game_result(parse_position(v, "4k3/8/8/8/8/8/8/4K3[n] w - - 0 1")) is None
    assert game_result(parse_position(v, "4k3/8/8/8/8/8/8/4KN2[] w - - 0 1")) is None


def test_dead_position_letters_must_be_pieces():
    assert problems("[x:chess]\ndeadPositionTypes = bz\n") == [
        "f.ini:2: [x] deadPositionTypes: no piece has this letter (z)"]


# ---- chessPositionChecks -------------------------------------------------------------------
def test_chess_position_checks():
    v = one("[strict:chess]\nchessPositionChecks = true\n")
    loose = one("[loose:chess]\n")
    for fen, msg in (("4k3/8/8/8/8/8/8/R7 w - - 0 1", "white kings: 0"),
                     ("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "(a8)"),
                     ("4k3/8/8/8/8/8/8/p3K3 w - - 0 1", "(a1)")):
        with pytest.raises(PositionTextError, match=msg.replace("(", r"\(").replace(")", r"\)")):
            parse_position(v, fen)
        parse_position(loose, fen)            # Fairy-Stockfish's file variants read them
    assert problems("[x:chess]\nchessPositionChecks = often\n") == [
        "f.ini:2: [x] chessPositionChecks: not true or false (often)"]


# ---- the en-passant cell of a double step from the third rank ------------------------------
THIRD = """[third:chess]
maxRank = 10
doubleStepRegionWhite = *3
doubleStepRegionBlack = *8
promotionRegionWhite = *10
promotionRegionBlack = *1
castling = false
startFen = 4k3/8/pppppppp/8/8/8/8/PPPPPPPP/8/4K3 w - - 0 1
"""


def test_en_passant_cell_after_a_double_step_from_the_third_rank():
    v = one(THIRD)
    fen = "4k3/8/8/8/3pP3/8/8/8/8/4K3 w - d7 0 2"
    assert format_position(parse_position(v, fen)).split()[3] == "d7"     # read and kept
    assert "e6d7" in texts(v, fen)
    # written by a double step beside an enemy pawn, read back
    text = after(v, "4k3/8/3p4/8/4P3/8/8/8/8/4K3 b - - 0 1", "d8d6")
    assert text.split()[3] == "d7" and format_position(parse_position(v, text)) == text


# ---- Fairy-Stockfish ignores the keys ------------------------------------------------------
def test_fairy_stockfish_loads_a_file_with_the_ruling_keys():
    import pyffish as sf
    text = ("[rulingkeys:chess]\npieceDrops = true\ncapturesToHand = true\npromotedPieceType = r:q\n"
            "piecePromotionWhereMoveEnds = true\nnMoveRuleTypesOnly = true\n"
            "deadPositionTypes = bn\nchessPositionChecks = true\n")
    sf.load_variant_config(text)
    # it plays its own rule: a rook leaving the last rank may promote there
    assert "a8a1+" in sf.legal_moves("rulingkeys", "R7/8/8/4k3/8/8/8/4K3[] w - - 0 1", [])
    assert "a8a1+" not in texts(one(text), "R7/8/8/4k3/8/8/8/4K3[] w - - 0 1")
