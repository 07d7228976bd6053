"""Lattice boards in variants files (docs/variant-files.md, "Lattice boards";
variants/inifile/lattice.py): a small lattice game of its own with named positions for each
key (cells, text, binding, promotion, edge rules, frames), every bad value refused with file,
line, key and token, and the engine serving on after a bad lattice file.  Nested Chess, the
shipped game on a lattice, has its own tests (tests/test_nested_*.py)."""
from __future__ import annotations

from io import StringIO

import pytest

from engine.movegen import legal_moves
from engine.moves import from_of
from engine.notation import move_text, parse_move, parse_position
from engine.notation.position_text import PositionTextError
from engine.notation.position_text import format as format_position
from file_helpers import load, problems

# a 3 x 3 board of squares with its 16 corner points: x, y = 0..6, squares b2 d2 f2 ... f6
TINY = """[tiny]
lattice = squares vertices
maxFile = 3
maxRank = 3
king = k:[1,1]
customPiece1 = b:[1,1]*
customPiece2 = v:[1,1] [2,0]
customPiece3 = p:m<0,2> c<1,1><-1,1>
customPiece4 = r:[2,0]*
customPiece5 = n:[3,1]
squarePieces = b
vertexPieces = v
pawnTypes = p
pawnPromotionTypes = p:bv
promotionRegionWhite = *6 *7
promotionRegionBlack = *1 *2
pieceValues = b:450 v:200
castling = false
doubleStep = false
startFen = 1k2/3/4/3/4/1P1/1K2 w 0 1
"""
EDGES = "[edges:tiny]\nedgeBan = true\noneFootTypes = n\npromotionNotOnEdge = v\n"



def game(name: str = "tiny"):
    return load(TINY + EDGES)[name]()



def moves_of(v, fen: str, cell: str) -> list[str]:
    pos = parse_position(v, fen)
    return sorted(t for t in (move_text(v, m) for m in legal_moves(pos))
                  if t.startswith(cell) and not t[len(cell)].isdigit())


def test_cells_names_and_position_text():
    v = game()
    geo = v.geometry
    assert geo.size == 9 + 16
    assert geo.coords[geo.parse("d4")] == (3, 3) and geo.coords[geo.parse("a1")] == (0, 0)
    assert geo.parse("a2") is None and geo.parse("b1") is None      # mixed parity: no cell
    assert [len(r) for r in v.notation.layout[0]] == [4, 3, 4, 3, 4, 3, 4]
    pos = parse_position(v, v.start_fen)
    assert format_position(pos) == v.start_fen
    assert v.notation.diagram(pos)[0] == " 7  o   k   o   o"
    assert v.notation.diagram(pos)[1] == " 6    .   .   ."


def test_vertices_only_lattice_and_holes():
    text = TINY.replace("lattice = squares vertices", "lattice = vertices").replace(
        "squarePieces = b\n", "").replace("pawnPromotionTypes = p:bv", "pawnPromotionTypes = p:v").replace(
        "*6 *7", "*7").replace("*1 *2", "*1")      # rows 2 and 6 hold squares only
    text = text.replace("startFen = 1k2/3/4/3/4/1P1/1K2 w 0 1", "holes = a1 g7\nstartFen = 1k1/4/4/3 w 0 1")
    (cls,) = load(text).values()
    v = cls()
    assert v.geometry.size == 16 - 2
    assert [len(r) for r in v.notation.layout[0]] == [3, 4, 4, 3]
    assert v.notation.diagram(parse_position(v, v.start_fen))[0] == " 7  o   k   o   #"


def test_binding_square_piece_stops_on_squares_only():
    v = game()
    # a rider along (1,1) from d4 passes the vertices but stops on squares only
    assert moves_of(v, "4/3/4/1B1/4/3/4 w 0 1", "d4") == ["d4b2", "d4b6", "d4f2", "d4f6"]
    # a piece on a vertex still blocks it, and it cannot take there
    assert moves_of(v, "4/3/2v1/1B1/4/3/4 w 0 1", "d4") == ["d4b2", "d4b6", "d4f2"]


def test_binding_vertex_piece_and_positions_off_the_class():
    v = game()
    assert moves_of(v, "4/3/4/3/1V2/3/4 w 0 1", "c3") == ["c3a3", "c3c1", "c3c5", "c3e3"]
    with pytest.raises(PositionTextError, match=r"\(c3\)"):
        parse_position(v, "4/3/4/3/1B2/3/4 w 0 1")
    with pytest.raises(PositionTextError, match=r"\(d4\)"):
        parse_position(v, "4/3/4/1v1/4/3/4 w 0 1")


def test_promotion_choices_follow_the_class_of_the_cell():
    v = game()
    assert moves_of(v, "4/3/4/1P1/4/3/4 w 0 1", "d4") == ["d4d6b"]          # a square
    assert moves_of(v, "2v1/1P1/4/3/4/3/4 w 0 1", "d6") == ["d6e7v"]        # a vertex
    assert v.zone[0] == frozenset(v.geometry.parse(n) for n in
                                  ("b6", "d6", "f6", "a7", "c7", "e7", "g7"))


def test_camp_regions_read_the_start_position():
    text = TINY.replace("promotionRegionWhite = *6 *7", "promotionRegionWhite = campBlack d6")
    (cls,) = load(text).values()
    v = cls()
    assert v.zone[0] == frozenset(v.geometry.parse(n) for n in ("c7", "d6"))
    assert v.zone[1] == frozenset(v.geometry.parse(n) for n in ("a1", "c1", "e1", "g1", "b2", "d2", "f2"))


def test_edge_ban_one_foot_and_no_promotion_on_an_edge():
    plain, edges = game("tiny"), game("edges")
    fen = "4/3/4/3/R3/3/4 w 0 1"
    assert moves_of(plain, fen, "a3") == ["a3a1", "a3a5", "a3a7", "a3c3", "a3e3", "a3g3"]
    assert moves_of(edges, fen, "a3") == ["a3c3", "a3e3", "a3g3"]
    fen = "4/3/4/3/4/N2/4 w 0 1"
    assert moves_of(plain, fen, "b2") == ["b2a5", "b2c5", "b2e1", "b2e3"]
    assert moves_of(edges, fen, "b2") == ["b2c5", "b2e3"]
    assert moves_of(edges, "2v1/1P1/4/3/4/3/4 w 0 1", "d6") == ["d6e7"]      # v not offered


def test_frames_and_values():
    v = game()
    assert v.orient((1, 2)) == (-1, -2) and v.white_coord((1, 2), 1) == (5, 4)
    rank = load(TINY.replace("doubleStep = false", "doubleStep = false\nblackFrame = rank"))["tiny"]()
    assert rank.orient((1, 2)) == (1, -2) and rank.white_coord((1, 2), 1) == (1, 4)
    anti = load(TINY.replace("doubleStep = false", "doubleStep = false\nblackFrame = antidiagonal"))["tiny"]()
    assert anti.orient((1, 2)) == (-2, -1) and anti.white_coord((1, 2), 1) == (4, 5)
    assert anti.notation.layout                    # builds
    assert [v.by_token[t].value for t in "BVP"] == [450, 200, None]


L2 = "f.ini:2: [x] "
BASE = "[x]\nlattice = squares vertices\nmaxFile = 3\nmaxRank = 3\nstartFen = 4/3/4/3/4/3/4 w 0 1\n" \
       "customPiece1 = b:[2,0]*\n"


def key(line: str) -> str:
    return BASE + line + "\n"


BAD = [
    (BASE.replace("squares vertices", "hex"), L2 + "lattice: not squares, vertices or both (hex)"),
    (key("customPiece2 = q:Q"), "f.ini:7: [x] customPiece2: not a lattice term (m or c, [a,b] or <x,y>..., "
                                "* or *N) (Q)"),
    (key("customPiece2 = q:<0,0>"), "f.ini:7: [x] customPiece2: a vector needs a nonzero component (<0,0>)"),
    (key("customPiece2 = q:<1,1><1,1>"), "f.ini:7: [x] customPiece2: a vector given twice (<1,1><1,1>)"),
    (key("customPiece2 = q:[1,1]*0"), "f.ini:7: [x] customPiece2: a ride of at most 0 steps ([1,1]*0)"),
    (key("customPiece2 = q"), "f.ini:7: [x] customPiece2: a lattice piece needs letter:definition (q)"),
    (key("customPiece2 = b:[1,1]"), "f.ini:7: [x] customPiece2: letter used twice (b)"),
    (key("knight = n"), "f.ini:7: [x] knight: not supported on a lattice board (knight)"),
    (key("promotionRegionWhite = a2"), "f.ini:7: [x] promotionRegionWhite: not a cell of the lattice (a2)"),
    (key("promotionRegionWhite = z3"), "f.ini:7: [x] promotionRegionWhite: off the board (z3)"),
    (key("promotionRegionWhite = 3d"), "f.ini:7: [x] promotionRegionWhite: not a lattice cell list "
                                       "(cells, *N, x*, campWhite, campBlack) (3d)"),
    (key("holes = campWhite"), "f.ini:7: [x] holes: a camp is no hole (campWhite)"),
    (key("holes = *1 *2 *3 *4 *5 *6 *7"), "f.ini:7: [x] holes: every cell is a hole (*1 *2 *3 *4 *5 *6 *7)"),
    (key("blackFrame = up"), "f.ini:7: [x] blackFrame: not rank, file rank or antidiagonal (up)"),
    (BASE.replace("maxRank = 3", "maxRank = 2") + "blackFrame = antidiagonal\n",
     "f.ini:7: [x] blackFrame: antidiagonal needs a square board (antidiagonal)"),
    (key("squarePieces = b\nvertexPieces = b"), "f.ini:8: [x] vertexPieces: a piece bound to both classes (b)"),
    (BASE.replace("squares vertices", "squares").replace("startFen = 4/3/4/3/4/3/4", "startFen = 3/3/3")
     + "vertexPieces = b\n", "f.ini:7: [x] vertexPieces: the lattice has no cells of this class (b)"),
    (key("squarePieces = z"), "f.ini:7: [x] squarePieces: no piece has this letter (z)"),
    (key("pawnPromotionTypes = pb"), "f.ini:7: [x] pawnPromotionTypes: not letter:value (pb)"),
    (key("promotionNotOnEdge = q"), "f.ini:7: [x] promotionNotOnEdge: no piece has this letter (q)"),
    (key("oneFootTypes = q"), "f.ini:7: [x] oneFootTypes: no piece has this letter (q)"),
    (key("edgeBan = maybe"), "f.ini:7: [x] edgeBan: not true or false (maybe)"),
    (key("pieceValues = b:lots"), "f.ini:7: [x] pieceValues: not a whole number (lots)"),
    (key("castling = true"), "f.ini:7: [x] castling: not supported on a lattice board (only false) (true)"),
    (key("pieceDrops = true"), "f.ini:7: [x] pieceDrops: not supported on a lattice board (pieceDrops)"),
    ("[x]\nlattice = squares vertices\n", "f.ini:1: [x] startFen: a lattice section needs its startFen (x)"),
    (key("startFen = 4/3/4/3/4/3/4/4 w 0 1"), "f.ini:7: [x] startFen: bad startFen: "),
    ("[x:chess]\nedgeBan = true\n",
     "f.ini:2: [x] edgeBan: needs lattice (a board of squares and vertices) (edgeBan)"),
    (key("semiRoyal = fezbaba-waffle"), "f.ini:7: [x] semiRoyal: fezbaba-waffle needs the pieces kfwbcdiernap "
                                        "(missing kfwcdiernap) (fezbaba-waffle)"),
    ("[x:chess]\nsemiRoyal = fezbaba-waffle\n",
     "f.ini:2: [x] semiRoyal: fezbaba-waffle plays on a lattice board (lattice = squares vertices) "
     "(fezbaba-waffle)"),
]


@pytest.mark.parametrize("text, expect", BAD)
def test_bad_lattice_keys_are_one_problem_each(text, expect):
    got = problems(text)
    assert len(got) == 1 and got[0].startswith(expect), got


def test_a_bad_lattice_file_loads_nothing_and_the_engine_keeps_serving(tmp_path):
    from protocol.session import Session
    bad = tmp_path / "bad.ini"
    bad.write_text(TINY + "[y:tiny]\nblackFrame = sideways\n")
    out = StringIO()
    s = Session(out)
    s.handle("setoption name UCI_Variant value nested-a")
    s.handle("position startpos moves g1g5")
    s.handle(f"setoption name VariantPath value {bad}")
    s.handle("uci")
    s.handle("d")
    s.handle("isready")
    text = out.getvalue()
    assert f"info string error: {bad}:22: [y] blackFrame: not rank, file rank or antidiagonal (sideways)" in text
    assert " var tiny" not in text and "readyok" in text
    assert "Fen: rnakwnr/bcdifdcb/ppppppppp/eeeeeeee/9/8/9/8/9/8/9/8/3A5/EEEEEEEE/PPPPPPPPP/BCDIFDCB/RN1KWNR " \
           "b 1 1" in text


def test_a_good_lattice_file_loads_through_the_protocol(tmp_path):
    from protocol.session import Session
    good = tmp_path / "tiny.ini"
    good.write_text(TINY)
    out = StringIO()
    s = Session(out)
    s.handle(f"setoption name VariantPath value {good}")
    s.handle("setoption name UCI_Variant value tiny")
    s.handle("position startpos")
    s.handle("d")
    s.handle("isready")
    text = out.getvalue()
    assert "error" not in text and "Fen: 1k2/3/4/3/4/1P1/1K2 w 0 1" in text and "readyok" in text


def test_largest_lattice_fits_the_move_encoding():
    """12 x 10 squares and their corners: 263 cells, past the 255 of 8-bit cell fields, within
    the 4,096 of 12-bit ones; a move names its cells past 255 and reads back."""
    rows = ["13", "12"] * 10 + ["13"]
    empty = "/".join(rows)
    v = load(BASE.replace("maxFile = 3", "maxFile = l").replace("maxRank = 3", "maxRank = 10")
             .replace("4/3/4/3/4/3/4", empty))["x"]()
    assert v.geometry.size == 263
    pos = parse_position(v, "/".join(["12B"] + rows[1:]) + " w 0 1")    # B on cell 262
    moves = legal_moves(pos)
    assert moves and all(from_of(m) > 255 for m in moves)
    assert [parse_move(v, moves, move_text(v, m)) for m in moves] == moves
