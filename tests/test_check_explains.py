"""`cellfish check` on a section that fails names what the key expects (issue #50): the `hex`
key and its hex piece notation, and Betza's two-leg `a` notation.  Each bad text is a named
case whose problem line the test states; the good forms the messages name load."""
from __future__ import annotations

import pytest

from cellfish.cli import check
from engine.betza import TWO_LEG_FORM, BetzaError, parse_betza
from variants.inifile.hex_pieces import HEX_FORM, parse_hex_piece
from variants.inifile.load import load_text
from variants.inifile.parse import VariantFileError
from variants.inifile.section import FORMS, HEX_PIECES

HEX = """[tiny]
hex = 3
king = k:K
customPiece1 = p:fvmW fscW
pawnTypes = p
promotionPieceTypes = -
startFen = 1/k1p/5/5/1PK2 w - - 0 1
"""
SQUARE = """[legs:chess]
customPiece1 = a:{}
startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNA w KQkq - 0 1
"""


def problems(text: str) -> list[tuple[str, str, str]]:
    with pytest.raises(VariantFileError) as e:
        load_text(text, "t.ini", set())
    return [(p.key, p.what, p.token) for p in e.value.problems]


@pytest.mark.parametrize("value,what", [
    ("x", "not a whole number"),
    ("1", "out of range 2..13"),
    ("14", "out of range 2..13"),
])
def test_a_bad_hex_size_names_the_expected_form(value, what):
    assert problems(HEX.replace("hex = 3", f"hex = {value}")) == \
        [("hex", f"{what}: {FORMS['hex']}", value)]
    assert "N cells on each edge, N from 2 to 13" in FORMS["hex"]


@pytest.mark.parametrize("piece,why", [
    ("fZ", "no hex atom: D, A, Z and the other square-board letters are none"),
    ("KN", "one atom per term, terms separated by spaces: K N, not KN"),
    ("cKaK", "two-leg moves with 'a' are read on square boards only"),
    ("fW?", ""),
])
def test_a_bad_hex_piece_names_the_hex_notation(piece, why):
    text = HEX.replace("p:fvmW fscW", f"p:{piece}")
    expect = "not a hex term" + (f" ({why})" if why else "") + f": {HEX_FORM}"
    assert problems(text) == [("customPiece1", expect, piece)]
    # the form the message names is read: the example piece, and K N written apart
    assert parse_hex_piece("fvmW fscW") and len(parse_hex_piece("K N")) == 3


def test_a_hex_section_under_a_square_parent_names_its_piece_keys():
    got = problems("[hx:chess]\n" + HEX.split("\n", 1)[1])
    # chess's pieces but the pawn, whose letter the section's customPiece1 takes over
    assert {k for k, _w, _t in got} == {"knight", "bishop", "rook", "queen"}
    assert all(w == f"not supported on a hexagonal board ({HEX_PIECES})" for _k, w, _t in got)
    # a key of no piece keeps the short message
    assert problems(HEX + "gating = true\n") == \
        [("gating", "not supported on a hexagonal board", "gating")]


@pytest.mark.parametrize("betza,what", [
    ("aK", "unknown Betza letter 'a' in 'aK' where no leap precedes it"),
    ("cKa", "a two-leg move needs a leaper atom after 'a': 'cKa'"),
    ("mKaRbK", "a two-leg move needs a leaper atom after 'a': 'mKaR'"),
    ("cRaK", "a two-leg move's first leg is a plain leap: 'cR'"),
    ("cKaKK", "a two-leg move's second leg is a plain leap: 'cKaKK'"),
    ("cKaKaK", "a move of more than two legs: 'cKaKa'"),
])
def test_a_bad_two_leg_piece_names_the_a_notation(betza, what):
    with pytest.raises(BetzaError) as e:
        parse_betza(betza)
    assert str(e.value) == f"{what} ({TWO_LEG_FORM})"
    (key, msg, token), = problems(SQUARE.format(betza))
    assert (key, token) == ("customPiece1", betza) and msg == str(e.value)
    # the two forms the message names are read
    assert parse_betza("cKaK") and parse_betza("mKabK")


def test_a_capture_in_passing_beyond_the_leaps_names_the_fix():
    (_key, msg, _token), = problems(SQUARE.format("cWaW"))
    assert msg.startswith("cannot build: a two-leg move capturing in passing reaches cell")
    assert msg.endswith("(a piece that takes in passing needs a leap of its own to every "
                        "cell its second leg ends on, as the Lion's KNAD covers its cKaK)")
    # with leaps to its second leg's cells (F and D) the piece loads
    assert load_text(SQUARE.format("KDcWaW").replace("[legs", "[ok"), "t.ini", set())


def test_cellfish_check_prints_the_problem_lines(tmp_path, capsys):
    bad = tmp_path / "bad.ini"
    bad.write_text(HEX.replace("hex = 3", "hex = 1") + "\n" + SQUARE.format("aK"))
    assert check([str(bad)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == [
        f"{bad}:2: [tiny] hex: out of range 2..13: {FORMS['hex']} (1)",
        f"{bad}:10: [legs] customPiece1: unknown Betza letter 'a' in 'aK' where no leap "
        f"precedes it ({TWO_LEG_FORM}) (aK)",
    ]
