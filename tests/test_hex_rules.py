"""Glinski's and McCooey's hexagonal chess (docs/variants/glinski.md, mccooey.md): the board,
each piece and each pawn rule shown by a named position whose legal moves the test states,
checked against the reference written from the rules pages (tests/hex_reference.py); the
fractional stalemate; the hex keys and notation refusing what they cannot read."""
from __future__ import annotations

from fractions import Fraction

import pytest

import variants
from engine.game import game_result, result_points
from engine.geometry import hexagon
from engine.movegen import legal_moves
from engine.notation.move_text import move_text, parse_move
from engine.notation.position_text import format as format_position, parse
from tests.hex_helpers import engine_moves, hex_fen
from tests.hex_reference import Hex
from variants.inifile.hex_pieces import HexPieceError, parse_hex_piece


def both(game: str, fen: str) -> set[str]:
    """The legal moves of a position, the engine's and the reference's being the same."""
    mine = engine_moves(game, fen)
    assert mine == set(Hex(game, fen).legal()), fen
    return mine


def test_g1_the_board_has_91_cells_in_files_without_j():
    g = hexagon(6)
    assert g.size == 91
    lengths = [sum(1 for n in g.names if n[0] == f) for f in "abcdefghikl"]
    assert lengths == [6, 7, 8, 9, 10, 11, 10, 9, 8, 7, 6]
    assert not any(n.startswith("j") for n in g.names)
    assert {"a6", "f11", "l6", "l1"} <= set(g.names) and "a7" not in g.by_name


@pytest.mark.parametrize("piece,count", [("R", 30), ("B", 12), ("Q", 42), ("K", 12), ("N", 12)])
def test_g4_g8_pieces_from_the_middle_cell(piece, count):
    """From f6 on an empty board: a rook 6 lines of 5, a bishop 12 (two sideways lines of 2,
    four slanting of 2), the queen both, the king and the knight 12 cells each."""
    place = {"f6": piece, "l3": "k"} | ({"b1": "K"} if piece != "K" else {})
    moves = both("glinski", hex_fen(place))
    assert len([m for m in moves if m.startswith("f6")]) == count


def test_g2_bishop_lines_from_f5():
    moves = both("glinski", hex_fen({"f5": "B", "b1": "K", "l3": "k"}))
    assert {"f5d4", "f5h4", "f5e6", "f5g6", "f5e3", "f5g3"} <= moves
    assert "f5f6" not in moves and "f5e5" not in moves


def test_g9_g10_glinski_pawn_steps_and_captures():
    """A pawn on f5 (a start cell): one or two cells up the file, captures on e5 and g5."""
    fen = hex_fen({"f5": "P", "e5": "n", "g5": "n", "e6": "b", "b1": "K", "l3": "k"})
    assert {m for m in both("glinski", fen) if m.startswith("f5")} == \
        {"f5f6", "f5f7", "f5e5", "f5g5"}
    blocked = hex_fen({"e4": "P", "e5": "p", "b1": "K", "l3": "k"})
    assert not {m for m in both("glinski", blocked) if m.startswith("e4")}
    # off the start cells, one step only; a pawn on d4 takes on c4 and e5
    fen = hex_fen({"d4": "P", "c4": "q", "e5": "q", "b1": "K", "k6": "k"})
    assert {m for m in both("glinski", fen) if m.startswith("d4")} == {"d4d5", "d4c4", "d4e5"}


def test_g9_a_pawn_that_reaches_a_start_cell_by_capture_double_steps():
    pos = parse(variants.get("glinski"), hex_fen({"e4": "P", "f5": "n", "b1": "K", "l3": "k"}))
    v = pos.variant
    pos.make(parse_move(v, legal_moves(pos), "e4f5"))
    pos.make(parse_move(v, legal_moves(pos), "l3l4"))
    assert "f5f7" in {move_text(v, m, "uci") for m in legal_moves(pos)}


def test_g11_en_passant():
    """Black's f7f5 passes f6: the White pawns on e5 and g5 may take there, once."""
    fen = hex_fen({"f7": "p", "e5": "P", "g5": "P", "b1": "K", "l3": "k"}, side="b")
    v = variants.get("glinski")
    pos = parse(v, fen)
    pos.make(parse_move(v, legal_moves(pos), "f7f5"))
    after = format_position(pos)
    assert after.split()[3] == "f6"
    moves = both("glinski", after)
    assert {"e5f6", "g5f6"} <= moves
    pos.make(parse_move(v, legal_moves(pos), "e5f6"))
    assert pos.board[v.geometry.by_name["f5"]] == 0
    ref = Hex("glinski", after)
    ref.make("e5f6")
    assert (5, 8) not in ref.board       # f5 in the reference's own coordinates


@pytest.mark.parametrize("game", ["glinski", "mccooey"])
def test_g12_promotion_on_the_last_cell_of_the_file(game):
    fen = hex_fen({"f10": "P", "a5": "P", "b1": "K", "l3": "k"})
    moves = both(game, fen)
    assert {f"f10f11{x}" for x in "qrbn"} <= moves and {f"a5a6{x}" for x in "qrbn"} <= moves
    black = both(game, hex_fen({"c2": "p", "h1": "K", "l3": "k"}, side="b"))
    assert {m for m in black if m.startswith("c2")} == {f"c2c1{x}" for x in "qrbn"}


def test_m3_m4_mccooey_pawns():
    """The middle pawn has no double step; pawns take on the two forward diagonals."""
    start = both("mccooey", variants.get("mccooey").start_fen)
    assert "f4f5" in start and "f4f6" not in start and {"e3e5", "d2d4", "c1c3"} <= start
    fen = hex_fen({"d2": "P", "c3": "n", "e4": "n", "e3": "b", "b1": "K", "l3": "k"})
    assert {m for m in both("mccooey", fen) if m.startswith("d2")} == {"d2d3", "d2d4", "d2c3",
                                                                         "d2e4"}


def test_m5_mccooey_en_passant():
    """Black's e8e6 passes e7; a White pawn on d5 or f6 takes there (the diagonals ahead)."""
    fen = hex_fen({"e8": "p", "d5": "P", "b1": "K", "l3": "k"}, side="b")
    v = variants.get("mccooey")
    pos = parse(v, fen)
    pos.make(parse_move(v, legal_moves(pos), "e8e6"))
    after = format_position(pos)
    assert "d5e7" in both("mccooey", after)


STALEMATE = "1/3/5/7/9/11/11/6K4/Q10/11/10k w - - 0 1"


def test_g14_stalemate_scores_three_quarters_to_the_stalemating_side():
    v = variants.get("glinski")
    pos = parse(v, STALEMATE)
    pos.make(parse_move(v, legal_moves(pos), "g4i3"))
    r = game_result(pos)
    assert r is not None and r[1] == "stalemate"
    assert result_points(pos, r) == Fraction(1, 4)           # Black, stalemated
    ref = Hex("glinski", format_position(pos))
    assert ref.stalemate_share() == (1, 4)


def test_m7_mccooey_stalemate_is_a_draw():
    v = variants.get("mccooey")
    pos = parse(v, STALEMATE)
    pos.make(parse_move(v, legal_moves(pos), "g4i3"))
    r = game_result(pos)
    assert r == (0, "stalemate") and result_points(pos, r) == Fraction(1, 2)


def test_position_text_is_written_by_rank_from_f11_down():
    v = variants.get("glinski")
    pos = v.start_position()
    assert format_position(pos) == \
        "b/qbk/n1b1n/r5r/ppppppppp/11/5P5/4P1P4/3P1B1P3/2P2B2P2/1PRNQBKNRP1 w - - 0 1"
    assert pos.board[v.geometry.by_name["g1"]] and pos.board[v.geometry.by_name["k7"]]
    assert len([c for c in pos.board if c]) == 36


@pytest.mark.parametrize("text,count", [("fvmW", 1), ("fscW", 2), ("fsF", 2), ("hF", 2),
                                        ("bW", 3), ("vR", 2), ("N", 12), ("K", 12), ("Q2", 12),
                                        ("<1,1><2,-1>*", 2)])
def test_hex_notation_directions_counted(text, count):
    """How many directions a term names (W, F: 6 each; f, b: the climbing or falling half)."""
    assert sum(len(a.vectors) for a in parse_hex_piece(text)) == count


def test_hex_notation_directions():
    (a,) = parse_hex_piece("fscW")
    assert set(a.vectors) == {(1, 0), (-1, 1)}
    (a,) = parse_hex_piece("fsF")
    assert set(a.vectors) == {(1, 1), (-1, 2)}
    (a,) = parse_hex_piece("hF")
    assert set(a.vectors) == {(2, -1), (-2, 1)}


@pytest.mark.parametrize("text", ["mcW", "R*", "N2", "W3", "hvW", "<0,0>", "X", ""])
def test_hex_notation_refuses(text):
    with pytest.raises(HexPieceError):
        parse_hex_piece(text)


HEX_FILE = """[tiny]
hex = 3
king = k:K
customPiece1 = p:fvmW fscW
pawnTypes = p
promotionPieceTypes = -
startFen = 1/k1p/5/5/1PK2 w - - 0 1
"""


def test_a_small_hex_file_loads_and_plays():
    """A hexagon of side 3 (19 cells, files a-e): the notation and defaults at work."""
    from variants.inifile.load import load_text
    cls = load_text(HEX_FILE, "tiny.ini", set())["tiny"]
    v = cls()
    assert v.geometry.size == 19 and v.geometry.names[0] == "a1"
    pos = v.start_position()
    assert format_position(pos) == "1/k1p/5/5/1PK2 w - - 0 1"
    # the pawn on b1 stands on White's start cell: one or two cells up the file
    assert {m for m in (move_text(v, x, "uci") for x in legal_moves(pos))
            if m.startswith("b1")} == {"b1b2", "b1b3"}


@pytest.mark.parametrize("change,key,what", [
    ("castling = true", "castling", "not supported on a hexagonal board (only false)"),
    ("gating = true", "gating", "not supported on a hexagonal board"),
    ("customPiece2 = r:fZ", "customPiece2", "not a hex term"),
    ("customPiece2 = r:N2", "customPiece2", "a leaper takes no range"),
    # 13 is the largest hexagon whose 25 files have letters (a to z without j)
    ("hex = 14", "hex", "out of range 2..13"),
    ("stalematePoints = 5/4", "stalematePoints", "a share of the point is 0 to 1"),
    ("doubleStepRegionWhite = z9", "doubleStepRegionWhite", "not a cell of the hexagon"),
])
def test_bad_hex_keys_are_refused_by_name(change, key, what):
    from variants.inifile.load import load_text
    from variants.inifile.parse import VariantFileError
    with pytest.raises(VariantFileError) as e:
        load_text(HEX_FILE + change + "\n", "tiny.ini", set())
    assert any(p.key == key and p.what.startswith(what) for p in e.value.problems), \
        [(p.key, p.what) for p in e.value.problems]


def test_a_hex_key_on_a_square_board_is_refused():
    from variants.inifile.load import load_text
    from variants.inifile.parse import VariantFileError
    with pytest.raises(VariantFileError) as e:
        load_text("[sq:chess]\nstalematePoints = 3/4\n", "sq.ini", set())
    assert [(p.key, p.what) for p in e.value.problems] == \
        [("stalematePoints", "needs hex (a hexagonal board)")]


def test_hex_pieces_carry_the_names_the_file_gives():
    # pieceNames on a hex board: the web board draws chess figures for pieces so named
    v = variants.get("glinski")
    assert sorted(pt.name for pt in v.piece_types[1:]) == ["bishop", "king", "knight", "pawn", "queen", "rook"]
    from variants.inifile.load import load_text
    from variants.inifile.parse import VariantFileError
    with pytest.raises(VariantFileError) as e:
        load_text(HEX_FILE + "pieceNames = q-queen\n", "tiny.ini", set())
    assert [(p.key, p.what) for p in e.value.problems] == [("pieceNames", "not letter:Name")]
