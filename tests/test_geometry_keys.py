"""Geometry keys of variants files (docs/variant-files.md, "Solid boards", "3D pieces",
"Holes"): the 3D piece notation read term by term; Nichtschach and Ninepiece pieces written in
it compile to the same per-cell tables as the shipped variants/files/nichtschach.ini (whose cells
are (level, file, rank), axisOrder) and variants/files/ninepiece.ini; holes block riders, lame
leaps and double steps but not leapers, and are written ``*``; regions with a level; every bad key refused as one file:line problem with the
engine still serving."""
from __future__ import annotations

import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest

import variants
from engine.movegen import in_check, legal_moves
from engine.notation import move_text, parse_position
from engine.notation.position_text import format as format_position
from engine.pieces import BENT, LEAP, RIDE
from engine.pieces3d import Piece3DError, parse_piece3d
from file_helpers import load, problems

ROOT = Path(__file__).resolve().parent.parent




def vectors(text: str) -> set:
    out = set()
    for a in parse_piece3d(text):
        out.update(a.vectors)
    return out


# ---- the notation -------------------------------------------------------------------------------
def test_classes_and_leaps_have_their_direction_counts():
    assert [len(vectors(t)) for t in ("O", "S", "T", "O S T", "[2,1,0]", "[2,2,1]", "[2,1,1]", "2S")] \
        == [6, 12, 8, 26, 24, 24, 24, 12]
    assert vectors("<1,2,0>") == {(1, 2, 0)}
    assert vectors("2O") == {(2, 0, 0), (-2, 0, 0), (0, 2, 0), (0, -2, 0), (0, 0, 2), (0, 0, -2)}


def test_modifiers_filter_by_axis_and_widen_within_an_axis():
    # f b s: the rank step (second component); u d h: the level step (third); r l: the file
    assert vectors("fO") == {(0, 1, 0)}
    assert vectors("uO") == {(0, 0, 1)}
    assert vectors("fhS") == {(1, 1, 0), (-1, 1, 0)}
    assert vectors("suS") == {(1, 0, 1), (-1, 0, 1)}
    assert vectors("bsO") == {(0, -1, 0), (1, 0, 0), (-1, 0, 0), (0, 0, 1), (0, 0, -1)}
    assert vectors("rfT") == {(1, 1, 1), (1, 1, -1)}
    assert len(vectors("f[2,1,0]")) == 4 + 4          # rank step 2 (4 leaps) or 1 (4)


def test_ranges_modes_and_bent_paths():
    (a,) = parse_piece3d("O*")
    assert a.kind == RIDE and a.max_dist is None and a.stops is None
    (a,) = parse_piece3d("S*2")
    assert a.kind == RIDE and a.max_dist == 2
    (a,) = parse_piece3d("T*odd")
    assert a.kind == RIDE and 1 in a.stops and 3 in a.stops and 2 not in a.stops
    (a,) = parse_piece3d("mfO")
    assert a.kind == LEAP and a.mode == "move"
    (a,) = parse_piece3d("csuS")
    assert a.mode == "capture"
    (a,) = parse_piece3d("S>O*")
    assert a.kind == BENT and len(a.vectors) == 12
    assert sorted(a.turns((1, 1, 0))) == [(0, 1, 0), (1, 0, 0)]      # outward only: v.w > 0


@pytest.mark.parametrize("text, what", [
    ("R", "not a 3D term"), ("O* Q", "not a 3D term"), ("<0,0,0>", "nonzero"), ("0O", "distance of 0"),
    ("mcO", "both m and c"), ("ffO", "given twice"), ("fbsO*0", "at most 0"), ("hT", "no direction"),
    ("mS>O*", "moves and captures"), ("S>O", "is a ride"), ("S>O*odd", "is a ride"), ("", "at least one"),
    ("[1,2]", "not a 3D term"),
])
def test_bad_terms_name_the_term(text, what):
    with pytest.raises(Piece3DError, match=what):
        parse_piece3d(text)


# ---- Nichtschach and Ninepiece pieces from a file -----------------------------------------------
CUBE = "|".join(["6/6/6/6/6/6"] * 6)
NICHT = {   # Python variant, token: the piece in the 3D notation (docs/variant-files.md)
    ("elefantnichtschach", "R"): "O*", ("elefantnichtschach", "B"): "S*",
    ("elefantnichtschach", "Q"): "O* S*", ("elefantnichtschach", "U"): "T*",
    ("elefantnichtschach", "D"): "O* T*", ("elefantnichtschach", "G"): "S* T*",
    ("elefantnichtschach", "A"): "2O", ("elefantnichtschach", "E"): "2S",
    ("elefantnichtschach", "L"): "2O 2S", ("elefantnichtschach", "N"): "2T",
    ("generalnichtschach", "S"): "O fS fT", ("generalnichtschach", "C"): "T fO fS",
    ("schweinnichtschach", "S"): "O f2O", ("schweinnichtschach", "T"): "T f2T",
    ("rajnichtschach", "M"): "2O fO", ("rajnichtschach", "W"): "2S fS 2T fT",
    ("baernichtschach", "A"): "O*odd", ("baernichtschach", "H"): "O*odd S*odd",
    ("springernichtschach", "J"): "[2,2,1]", ("springernichtschach", "X"): "[2,1,1]",
    ("springernichtschach", "N"): "[2,1,0]",
    ("hummernichtschach", "S"): "bsO f2O", ("hummernichtschach", "H"): "bT f2T",
    ("hummernichtschach", "O"): "bsS f2S bT f2T",
    ("spaniennichtschach", "I"): "O* 2S", ("springernichtschach-x", "M"): "O* [2,1,0]",
    ("ninepiece-nichtschach", "G"): "S>O*", ("ninepiece-nichtschach", "A"): "O>S*",
    ("ninepiece-nichtschach", "S"): "T>O*", ("ninepiece-nichtschach", "F"): "O>T*",
    ("ninepiece-nichtschach", "C"): "T>S*", ("ninepiece-nichtschach", "N"): "S>T*",
}


def _canon(v, tab, cell: int) -> tuple:
    """A piece's compiled entries on one cell, by cell names (order-free)."""
    n = v.geometry.name
    rays = lambda group: frozenset(tuple(n(c) for c in r) for r in group)  # noqa: E731
    return (frozenset(n(c) for c in tab.leaps[cell]), frozenset(n(c) for c in tab.mleaps[cell]),
            frozenset(n(c) for c in tab.cleaps[cell]), rays(tab.rides[cell]),
            frozenset((tuple(n(c) for c in r), st, mode, flag) for r, st, mode, flag in tab.special[cell]),
            frozenset((n(c1), stop, rays(rs)) for c1, stop, rs in tab.bent[cell]))


@pytest.mark.parametrize("chunk", [0, 1])
def test_file_defined_nichtschach_pieces_compile_to_the_python_tables(chunk):
    """Every cell of the 6x6x6 cube, both colours: the same leaps, rides, odd-distance rides
    and bent paths, cell for cell (by cell name), as the Python piece."""
    items = list(NICHT.items())[chunk * 16:(chunk + 1) * 16]
    letters = "abcdeghijklmnoqrstvwxyz"
    text = "\n".join(["[cube3d]", "maxRank = 6", "maxFile = f", "levels = 6", "levelNames = uvwxyz",
                      "solid = true", "blackFrame = rank", "castling = false", "king = -"]
                     + [f"customPiece{i + 1} = {letters[i]}:{d}" for i, (_, d) in enumerate(items)]
                     + [f"startFen = {CUBE} w - - 0 1"])
    fv = load(text)["cube3d"]()
    assert fv.geometry.size == 216
    for i, ((game, tok), _) in enumerate(items):
        pv = variants.get(game)
        pt = pv.by_token[tok]
        ft = fv.by_token[letters[i].upper()]
        for color in (0, 1):
            ptab, ftab = pv.tables[pt.id * 2 + color], fv.tables[ft.id * 2 + color]
            for name in fv.geometry.names:
                pc, fc = pv.geometry.by_name[name], fv.geometry.by_name[name]
                assert _canon(pv, ptab, pc) == _canon(fv, ftab, fc), (game, tok, color, name)


# ---- holes --------------------------------------------------------------------------------------
HOLED = """[holed:chess]
holes = d4 e4 d5 e5
customPiece1 = l:nN
startFen = 4k3/8/8/3**3/3**3/8/8/4K3 w - - 0 1
"""


def moves_from(v, fen: str, frm: str) -> set[str]:
    pos = parse_position(v, fen)
    return {move_text(v, m)[2:] for m in legal_moves(pos) if move_text(v, m).startswith(frm)}


def test_a_hole_stops_riders_and_lame_leaps_but_not_leapers():
    v = load(HOLED)["holed"]()
    assert v.geometry.size == 60 and v.geometry.parse("d4") is None
    assert moves_from(v, "4k3/8/8/3**3/3**3/8/3R4/4K3 w - - 0 1", "d2") == \
        {"d1", "d3", "a2", "b2", "c2", "e2", "f2", "g2", "h2"}
    assert moves_from(v, "4k3/8/8/3**3/3**3/2B5/8/4K3 w - - 0 1", "c3") == \
        {"b4", "a5", "b2", "a1", "d2"}
    # the knight on d3 cannot land on e5 but leaps past the lake to c5
    assert moves_from(v, "4k3/8/8/3**3/3**3/3N4/8/4K3 w - - 0 1", "d3") == \
        {"c5", "f4", "b4", "c1", "f2", "b2"}
    # a lame knight (nN: one straight step, then the diagonal one) on c5 cannot pass d5 to
    # reach e6, nor land on e4; it passes c6, c4 and b5 to its other cells
    assert moves_from(v, "4k3/8/8/2L**3/3**3/8/8/4K3 w - - 0 1", "c5") == \
        {"d7", "b7", "d3", "b3", "a6", "a4"}


def test_a_pawn_cannot_step_into_a_hole_and_a_check_does_not_cross_one():
    v = load(HOLED)["holed"]()
    assert moves_from(v, "4k3/8/8/3**3/3**3/8/3P4/4K3 w - - 0 1", "d2") == {"d3"}
    pos = parse_position(v, "3qk3/8/8/3**3/3**3/8/8/3K4 w - - 0 1")
    assert not in_check(pos)
    pos = parse_position(v, "4k3/8/8/3**3/3**3/8/8/q2K4 w - - 0 1")
    assert in_check(pos)


def test_holes_in_the_position_text():
    v = load(HOLED)["holed"]()
    fen = "4k3/8/8/3**3/3**3/8/8/4K3 w - - 0 1"
    assert format_position(parse_position(v, fen)) == fen
    for bad, what in (("4k3/8/8/8/3**3/8/8/4K3", "hole written as an empty cell"),
                      ("4k3/8/8/3*4/3**3/8/8/4K3", "hole written as an empty cell"),
                      ("4k3/8/8/2*4*/3**3/8/8/4K3", "hole is written"),
                      ("4k3/8/8/3*Q3/3**3/8/8/4K3", "hole is written")):
        with pytest.raises(ValueError, match=what):
            parse_position(v, bad + " w - - 0 1")


def test_holes_on_a_levelled_board_and_a_region_with_a_level():
    text = ("[sol]\nmaxRank = 3\nmaxFile = c\nlevels = 3\nsolid = true\nking = k\n"
            "customPiece1 = r:O*\ncustomPiece2 = p:mfO cfS\npawnTypes = p\ncastling = false\ndoubleStep = false\n"
            "holes = bb2\npromotionRegionWhite = c*3\npromotionPieceTypes = r\n"
            "startFen = 3/3/K2|1p1/1*1/1P1|3/3/2k w - - 0 1\n")
    v = load(text)["sol"]()
    assert v.geometry.size == 26 and v.geometry.parse("bb2") is None
    pos = v.start_position()
    assert format_position(pos) == "3/3/K2|1p1/1*1/1P1|3/3/2k w - - 0 1"
    # the pawn on bb1 would step into the hole bb2 (forward) and has nothing to capture
    assert not any(move_text(v, m).startswith("bb1") for m in legal_moves(pos))
    # promotion on rank 3 of level c only (c*3)
    pos = parse_position(v, "3/2P/K2|3/1*1/3|3/1P1/2k w - - 0 1")
    texts = {move_text(v, m) for m in legal_moves(pos)}
    assert {t for t in texts if t.startswith(("cb2", "ac2"))} == {"cb2cb3r", "ac2ac3"}


# ---- bad files ----------------------------------------------------------------------------------
S = "[x]\nmaxRank = 5\nmaxFile = e\ncastling = false\nlevels = 5\n"
BAD = [
    ("[x:chess]\nsolid = true\n", "f.ini:2: [x] solid: needs levels (the number of levels of the 3D board) (true)"),
    ("[x:chess]\nlevels = 2\nsolid = maybe\n", "f.ini:3: [x] solid: not true or false (maybe)"),
    ("[x:chess]\nblackFrame = rank\n", "f.ini:2: [x] blackFrame: needs solid = true (rank)"),
    (S + "solid = true\nblackFrame = rank up\nking = k\n", "f.ini:7: [x] blackFrame: not file, rank or level (up)"),
    (S + "solid = true\nblackFrame = rank rank\nking = k\n", "f.ini:7: [x] blackFrame: an axis named twice (rank rank)"),
    (S + "solid = true\nblackFrame = level\nking = k\n",
     "f.ini:7: [x] blackFrame: Black's frame reverses the rank axis (Black moves the other way) (level)"),
    (S + "solid = true\nking = k\nknight = n\n",
     "f.ini:8: [x] knight: a predefined piece moves in 2D: on a solid board write a customPiece in the 3D notation (knight)"),
    (S + "solid = true\nking = k\ncustomPiece1 = r:R\n",
     "f.ini:8: [x] customPiece1: not a 3D term (modifiers, O S T [a,b,c] <x,y,z> or A>B, range) (R)"),
    (S + "solid = true\nking = k\ncustomPiece1 = r:O* mcS\n",
     "f.ini:8: [x] customPiece1: both m and c: leave both out for a piece that moves and captures (mcS)"),
    (S + "solid = true\nking = k\ncustomPiece1 = g:S>O*\n",
     "f.ini:8: [x] customPiece1: a bent piece in a game with a royal piece (check by bent paths is not supported) (S>O*)"),
    (S + "solid = true\nking = k\npromotionRegionWhite = f*5\n",
     "f.ini:8: [x] promotionRegionWhite: not a level of the board (f*5)"),
    ("[x:chess]\npromotionRegionWhite = a*8\n", "f.ini:2: [x] promotionRegionWhite: not a square list (a*8)"),
    ("[x:chess]\nholes = d9\n", "f.ini:2: [x] holes: square off the board (d9)"),
    ("[x:chess]\nholes = dd\n", "f.ini:2: [x] holes: not a square list (dd)"),
    ("[x:chess]\nholes = -\n", "f.ini:2: [x] holes: names no cell (leave the key out for a board without holes) (-)"),
    ("[x:chess]\nholes = *1 *2 *3 *4 *5 *6 *7 *8\n", "f.ini:2: [x] holes: every cell is a hole (*1 *2 *3 *4 *5 *6 *7 *8)"),
    ("[x:chess]\nholes = f1\n",
     "f.ini:2: [x] holes: castling passes or lands on a hole (set castling = false or move the hole) (f1)"),
    ("[x:chess]\nholes = d4\n", "f.ini:1: [x] startFen: bad startFen: "),
    ("[x:chess]\nlevels = 2\nholes = cd4\n", "f.ini:3: [x] holes: not a level of the board (cd4)"),
]


@pytest.mark.parametrize("text, expect", BAD)
def test_bad_geometry_keys_are_one_problem_each(text, expect):
    got = problems(text)
    assert len(got) == 1 and got[0].startswith(expect), got


def test_a_bad_file_loads_nothing_and_the_engine_keeps_serving(tmp_path):
    from protocol.session import Session
    bad = tmp_path / "bad.ini"
    bad.write_text("[good:chess]\nholes = a3\nstartFen = rnbqkbnr/pppppppp/8/8/8/*7/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"
                   "[x]\nmaxRank = 5\nmaxFile = e\nlevels = 5\nsolid = true\nking = k\ncustomPiece1 = r:O* Q\n")
    out = StringIO()
    s = Session(out)
    s.handle("setoption name UCI_Variant value chess")
    s.handle("position startpos moves e2e4")
    s.handle(f"setoption name VariantPath value {bad}")
    s.handle("uci")
    s.handle("d")
    s.handle("isready")
    text = out.getvalue()
    assert f"info string error: {bad}:10: [x] customPiece1: not a 3D term" in text
    assert " var good" not in text and "readyok" in text
    assert "Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1" in text


def test_cellfish_check_on_the_examples():
    r = subprocess.run([sys.executable, "-m", "cellfish", "check", str(ROOT / "examples" / "raumschach.ini"),
                        str(ROOT / "examples" / "lake.ini")], capture_output=True, text=True, timeout=120,
                       cwd=ROOT)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "raumschach.ini: ok (1 variants: raumschach)" in r.stdout
    assert "lake.ini: ok (1 variants: lake)" in r.stdout
