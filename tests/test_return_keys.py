"""cellfish's own keys for flipped-return games (docs/variant-files.md, "Returns and
counterparts"; variants/inifile/returns.py and solid.py) and the winRule plugins
(variants/plugins/coverage.py), on a small 4x4x4 file of their own: what each key does, each
bad value refused as one file:line problem naming key and token, and the engine still serving
after a bad file.  The shipped variants/files/nichtschach.ini uses them all
(tests/test_nichtschach_*.py)."""
from __future__ import annotations

from io import StringIO

import pytest

from engine.game import game_result
from engine.movegen import legal_moves
from engine.notation import move_text, parse_position
from engine.notation.position_text import PositionTextError
from engine.notation.position_text import format as format_position
from file_helpers import load, problems

EMPTY = "4/4/4/4"
BASE = """[x]
maxFile = d
maxRank = 4
levels = 4
levelNames = abcd
solid = true
blackFrame = rank
axisOrder = level file rank
king = -
castling = false
doubleStep = false
customPiece1 = p:fO fS
customPiece2 = f:fO fS bO bS sS
customPiece3 = r:O*
customPiece4 = a:2O
pawnTypes = p
promotionPieceTypes = f
promotionRegionWhite = *4
promotionRegionBlack = *1
pieceDrops = true
positionFields = side hand halfmove fullmove
startFen = r3/p3/P3/R3|4/4/4/4|4/4/4/4|4/4/4/4 w [-] 0 1
"""
LAST = len(BASE.splitlines()) + 1          # the line of a key added after BASE



def one(extra: str = ""):
    (cls,) = load(BASE + extra).values()
    return cls()



def play(v, fen: str, *moves: str):
    pos = parse_position(v, fen)
    for t in moves:
        pos.make(next(m for m in legal_moves(pos) if move_text(v, m) == t))
    return pos


def cube(level_a: str, rest: str = EMPTY) -> str:
    return "|".join([level_a] + [rest] * 3)


# ---- what the keys do ------------------------------------------------------------------------
def test_axis_order_gives_level_file_rank_cells_and_the_same_text():
    v = one()
    geo = v.geometry
    assert geo.coords[geo.by_name["bc3"]] == (1, 2, 2)         # level b, file c, rank 3
    assert geo.level_axis == 0
    assert format_position(parse_position(v, v.start_fen)) == v.start_fen
    # a rook still rides along files, ranks and levels
    pos = parse_position(v, cube("4/4/4/R3", "4/4/4/4"))
    got = {move_text(v, m) for m in legal_moves(pos)}
    assert {"aa1aa4", "aa1ad1", "aa1da1"} <= got and len(got) == 9


def test_captures_go_to_the_hand_as_the_counterpart():
    v = one("capturesToHandAs = r:a a:r p:f f:p\n")
    pos = play(v, cube("r3/4/4/R3") + " w [-] 0 1", "aa1aa4")
    assert format_position(pos).split()[2] == "[A]"
    assert v.hand_type(v.by_token["A"].id * 2) == v.by_token["R"].id
    # without the key nothing goes to the hand
    pos = play(one(), cube("r3/4/4/R3") + " w [-] 0 1", "aa1aa4")
    assert format_position(pos).split()[2] == "[-]"


def test_piece_drop_region_and_hand_order():
    v = one("capturesToHandAs = r:a a:r p:f f:p\npieceDropRegionWhite = p:*1 *2\n"
            "pieceDropRegionBlack = p:*3 *4\nhandOrder = ra*\n")
    pos = parse_position(v, cube(EMPTY) + " w [PFARp] 0 1")
    assert format_position(pos).split()[2] == "[RAFPp]"          # r a, then the rest (F P)
    drops = {move_text(v, m) for m in legal_moves(pos) if move_text(v, m).startswith("P@")}
    assert len(drops) == 2 * 16 and {d[-1] for d in drops} == {"1", "2"}
    a_drops = [m for m in legal_moves(pos) if move_text(v, m).startswith("A@")]
    assert len(a_drops) == 64


def test_ring_keeping_pieces_keep_their_ring_when_the_rank_changes():
    v = one("ringKeepingTypes = pf\n")
    pos = parse_position(v, "|".join([EMPTY, "4/4/1P2/4", EMPTY, EMPTY]) + " w [-] 0 1")
    assert sorted(move_text(v, m) for m in legal_moves(pos)) == ["bb2bb3", "bb2bc3", "bb2cb3"]
    assert v.ring_of[v.geometry.by_name["bb2"]] == 0 and v.ring_of[v.geometry.by_name["ab2"]] == 1
    # the same-rank diagonals of f may leave the ring
    pos = parse_position(v, "|".join([EMPTY, "4/4/1F2/4", EMPTY, EMPTY]) + " w [-] 0 1")
    got = {move_text(v, m)[3:] for m in legal_moves(pos)}
    assert {"aa2", "ac2", "ca2", "cc2"} <= got and "ab3" not in got


def test_piece_names_move_rule_name_hand_limit_and_last_rank_pawns():
    v = one("pieceNames = p:Stockpoint r:Rook\nnMoveRuleName = 8-ply rule\nnMoveRule = 4\n"
            "handLimit = 100\nlastRankPawnsIllegal = true\n")
    assert v.by_token["P"].name == "Stockpoint" and v.by_token["A"].name == "customPiece4"
    pos = parse_position(v, cube("4/4/4/R3", "r3/4/4/4") + " w [-] 7 1")
    pos.make(next(m for m in legal_moves(pos) if move_text(v, m) == "aa1ab1"))
    assert game_result(pos) == (0, "8-ply rule")
    full = parse_position(v, cube(EMPTY) + " w [" + "A" * 100 + "] 0 1")
    assert full.hash == full.compute_hash()
    with pytest.raises(PositionTextError, match="too many pieces in hand"):
        parse_position(v, cube(EMPTY) + " w [" + "A" * 101 + "] 0 1")
    with pytest.raises(PositionTextError, match=r"Stockpoint on its last rank \(aa4\)"):
        parse_position(v, cube("P3/4/4/4") + " w [-] 0 1")
    parse_position(v, cube("p3/4/4/4") + " w [-] 0 1")         # Black's last rank is rank 1


def test_direction_coverage_decides_after_a_capture():
    v = one("winRule = directionCoverage\n")
    # White's two rooks cover the 6 orthogonal directions only: never two pieces on the others
    pos = parse_position(v, cube("R3/4/4/R3", "r3/4/4/r3") + " w [-] 0 1")
    assert game_result(pos) == (-1, "lost directions") and legal_moves(pos) == []
    assert v.eval_terms(pos) == -100_000


# ---- bad values ---------------------------------------------------------------------------------
BAD = [
    ("axisOrder = level file\n", "axisOrder: names each of file, rank and level once (level file)"),
    ("axisOrder = level file depth\n", "axisOrder: not file, rank or level (depth)"),
    ("ringKeepingTypes = pz\n", "ringKeepingTypes: no piece has this letter (z)"),
    ("capturesToHandAs = r:z\n", "capturesToHandAs: no piece has this letter (z)"),
    ("capturesToHandAs = ra\n", "capturesToHandAs: not letter:letter (ra)"),
    ("capturesToHandAs = r:a r:p\n", "capturesToHandAs: a piece mapped twice (r:p)"),
    ("pieceDropRegionWhite = p *1\n", "pieceDropRegionWhite: not letter:squares (p *1)"),
    ("pieceDropRegionBlack = p:*9\n", "pieceDropRegionBlack: square off the board (*9)"),
    ("handLimit = 10\n", "handLimit: out of range 64..10000 (10)"),
    ("lastRankPawnsIllegal = maybe\n", "lastRankPawnsIllegal: not true or false (maybe)"),
    ("nMoveRuleName =\n", "nMoveRuleName: an empty name"),
    ("positionFields = side hand clock\n", "positionFields: not one of side, hand, castling, ep, "
                                            "halfmove, fullmove (clock)"),
    ("positionFields = hand halfmove\n", "positionFields: needs side (hand halfmove)"),
    ("handOrder = rrz\n", "handOrder: no piece has this letter (z)"),
    ("handOrder = rr\n", "handOrder: a letter given twice (rr)"),
    ("pieceNames = r-Rook\n", "pieceNames: not letter:Name (r-Rook)"),
    ("winRule = coverage\n", "winRule: unknown plugin (coverage)"),
]


@pytest.mark.parametrize("extra, expect", BAD)
def test_bad_values_are_one_problem_naming_key_and_token(extra, expect):
    got = problems(BASE + extra)
    assert got == [f"f.ini:{LAST}: [x] {expect}"]


def test_keys_that_need_other_keys():
    flat = BASE.replace("solid = true\n", "").replace("blackFrame = rank\n", "") \
        .replace("axisOrder = level file rank\n", "")
    got = problems(flat + "ringKeepingTypes = p\n")
    assert len(got) == 1 and "ringKeepingTypes: needs solid = true (p)" in got[0]
    got = problems(BASE.replace("castling = false", "castling = true\ncastlingKingFile = b\n"
                                "castlingKingsideFile = c\ncastlingQueensideFile = a"))
    assert len(got) == 1 and "axisOrder: needs castling = false" in got[0]
    got = problems(BASE.replace("pieceDrops = true", "pieceDrops = false") + "capturesToHandAs = r:a\n")
    assert len(got) == 1 and "capturesToHandAs: needs pieceDrops" in got[0]
    got = problems(BASE + "capturesToHand = true\ncapturesToHandAs = r:a\n")
    assert len(got) == 1 and "capturesToHand: capturesToHandAs says where captures go" in got[0]
    got = problems(flat.replace("levels = 4\n", "").replace("levelNames = abcd\n", "")
                   .replace("customPiece1 = p:fO fS", "customPiece1 = p:fW")
                   .replace("customPiece2 = f:fO fS bO bS sS", "customPiece2 = f:K")
                   .replace("customPiece3 = r:O*", "customPiece3 = r:R")
                   .replace("customPiece4 = a:2O", "customPiece4 = a:D")
                   .replace("startFen = r3/p3/P3/R3|4/4/4/4|4/4/4/4|4/4/4/4 w [-] 0 1",
                            "startFen = r3/p3/P3/R3 w [-] 0 1") + "winRule = classCoverage\n")
    assert got == [f"f.ini:{LAST - 5}: [x] winRule: classCoverage needs solid = true (the 26 "
                   "directions of a 3D board) (classCoverage)"]


def test_a_bad_file_loads_nothing_and_the_engine_keeps_serving(tmp_path):
    from protocol.session import Session
    bad = tmp_path / "bad.ini"
    bad.write_text(BASE + "capturesToHandAs = r:z\n")
    out = StringIO()
    s = Session(out)
    s.handle("setoption name UCI_Variant value elefantnichtschach")
    s.handle("position startpos moves wb2wb3")
    s.handle(f"setoption name VariantPath value {bad}")
    s.handle("d")
    s.handle("isready")
    text = out.getvalue()
    assert f"info string error: {bad}:{LAST}: [x] capturesToHandAs: no piece has this letter (z)" in text
    assert "readyok" in text
    assert "|rnebur/pppppp/6/6/PPPPPP/RNEBUR b [-] 0 1" in text
