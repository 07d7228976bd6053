"""Notake Shogi as a shipped variants file (variants/files/notake.ini) plus the actingMoves
plugins (docs/variants/notake.md, "How it is written"; docs/variant-files.md, "Promoted-only
pieces" and "Plugins"): the file's pieces are shogi's (variants/shogi.py) type by type, in the
same order and with the same directions; promotedOnlyTypes keeps the Horse and Dragon from
being pieces of their own; every bad value of the new key, and a section the plugin cannot
play, is one file:line problem naming key and token, with the engine still serving."""
from __future__ import annotations

import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest

import variants
from engine.notation.position_text import PositionTextError, parse
from variants.shogi import Shogi
from file_helpers import load, problems

ROOT = Path(__file__).resolve().parent.parent
FORMS = ("approach", "withdraw", "shunt", "tow", "overtake", "rifle")
FILE = ROOT / "variants" / "files" / "notake.ini"




def test_the_six_forms_come_from_the_shipped_file_in_their_old_place():
    names = variants.builtin_names()
    assert names[names.index("shogi") + 3:names.index("shogi") + 9] == [f"notake-{f}" for f in FORMS]
    assert all(variants.REGISTRY[f"notake-{f}"] == variants.SHIPPED for f in FORMS)
    assert [n for n in variants.shipped_names_of(str(FILE))] == [f"notake-{f}" for f in FORMS]
    for form in FORMS:
        v = variants.get(f"notake-{form}")
        assert type(v).__module__ == "variants.inifile.build"
        assert v._form == form and v.template == "shogi"


@pytest.mark.parametrize("form", ["approach", "rifle"])
def test_the_file_pieces_are_shogis_pieces_in_the_same_order_and_directions(form):
    v = variants.get(f"notake-{form}")
    shogi = Shogi()
    assert [pt.token for pt in v.piece_types[1:]] == [pt.token for pt in shogi.piece_types[1:]]
    centre = (4, 4)
    for mine, theirs in zip(v.piece_types[1:], shogi.piece_types[1:]):
        assert mine.royal == theirs.royal and mine.pawn == theirs.pawn
        assert mine.promoted == theirs.promoted and mine.demotes_to == theirs.demotes_to
        for color in (0, 1):
            ori = (lambda u: u) if color == 0 else v.orient
            so = (lambda u: u) if color == 0 else shogi.orient
            got = [(a.kind, ori(u)) for a in mine.atoms for u in a.vectors_at(centre)]
            want = [(a.kind, so(u)) for a in theirs.atoms for u in a.vectors_at(centre)]
            assert got == want, (mine.token, color)
    assert v.geometry.name(0, "usi") == "9i" and v.geometry.name(80, "usi") == "1a"


def test_horse_and_dragon_are_only_promoted_forms():
    v = variants.get("notake-approach")
    assert "H" not in v.by_token and "D" not in v.by_token
    assert v.by_token["+B"].demotes_to == "B" and v.by_token["+R"].demotes_to == "R"
    with pytest.raises(PositionTextError):
        parse(v, "4k4/9/9/9/4H4/9/9/9/4K4 b - 1", "sfen")
    # without the key, the Fairy-Stockfish way: h is a piece of its own
    base = ("[x]\nmaxRank = 3\nmaxFile = 3\ncastling = false\ndoubleStep = false\nking = k\n"
            "customPiece1 = b:B\ncustomPiece2 = h:BW\npromotedPieceType = b:h\n"
            "promotionPieceTypes = -\nstartFen = kb1/3/1BK w - - 0 1\n")
    assert "H" in load(base)["x"]().by_token
    v = load(base + "promotedOnlyTypes = h\n")["x"]()
    assert [pt.token for pt in v.piece_types[1:]] == ["K", "B", "+B"]
    assert v.by_token["+B"].atoms == load(base)["x"]().by_token["H"].atoms


BASE = ("[x]\nmaxRank = 3\nmaxFile = 3\ncastling = false\ndoubleStep = false\nking = k\n"
        "customPiece1 = b:B\ncustomPiece2 = h:BW\npromotionPieceTypes = -\n"
        "startFen = kb1/3/1BK w - - 0 1\n")
BAD = [
    (BASE + "promotedPieceType = b:h\npromotedOnlyTypes = z\n",
     "f.ini:12: [x] promotedOnlyTypes: no piece has this letter (z)"),
    (BASE + "promotedOnlyTypes = h\n",
     "f.ini:11: [x] promotedOnlyTypes: not a promoted type of promotedPieceType (h)"),
    (BASE + "promotedPieceType = b:h h:b\npromotedOnlyTypes = h\n",
     "f.ini:11: [x] promotedPieceType: a promoted piece would promote again (h)"),
    (BASE + "promotedPieceType = b:h\npromotedOnlyTypes = b\n",
     "f.ini:12: [x] promotedOnlyTypes: not a promoted type of promotedPieceType (b)"),
    (BASE + "promotedPieceType = b:h\npawnTypes = h\npromotedOnlyTypes = h\n",
     "f.ini:13: [x] promotedOnlyTypes: would be needed as a piece of its own (dropLoop, pawnTypes) (h)"),
    # a section the Notake plugin cannot play
    ("[x:notake-approach]\nactingMoves = sideways\n", "[x] actingMoves: unknown plugin (sideways)"),
    ("[x:notake-approach]\ncapturesToHand = true\n",
     "[x] capturesToHand: Notake Shogi captures nothing (true)"),
    ("[x:notake-approach]\npieceDrops = false\n",
     "[x] pieceDrops: Notake Shogi writes the (always empty) hand: needs pieceDrops = true (false)"),
    ("[x:notake-approach]\nplugins = approach\n",
     "[x] plugins: this plugin is named by the key actingMoves (approach)"),
]


@pytest.mark.parametrize("text, expect", BAD)
def test_bad_values_are_one_problem_each(text, expect):
    if text.startswith("[x:notake-approach]"):
        text = FILE.read_text().split("[notake-withdraw")[0].replace(
            "[notake-approach]", "[notake-base]") + text.replace(":notake-approach", ":notake-base")
    got = problems(text)
    assert len(got) == 1 and expect in got[0], got
    assert got[0].startswith("f.ini:")


def test_a_bad_file_loads_nothing_and_the_engine_keeps_serving(tmp_path):
    from protocol.session import Session
    bad = tmp_path / "bad.ini"
    bad.write_text(BASE.replace("[x]", "[good]") + "promotedPieceType = b:h\n"
                   + BASE + "promotedPieceType = b:h\npromotedOnlyTypes = z\n")
    out = StringIO()
    s = Session(out)
    s.handle("usi")
    s.handle("setoption name USI_Variant value notake-tow")
    s.handle("position startpos moves 2g2f,2h")
    s.handle(f"setoption name VariantPath value {bad}")
    s.handle("usi")
    s.handle("d")
    s.handle("isready")
    text = out.getvalue()
    assert f"info string error: {bad}:23: [x] promotedOnlyTypes: no piece has this letter (z)" in text
    assert " var good" not in text and "readyok" in text
    assert "lnsgkgsnl/1r5b1/ppppppppp/9/9/7P1/PPPPPPP+RP/1B7/LNSGKGSNL w - 2" in text


def test_cellfish_check_reads_the_shipped_file():
    r = subprocess.run([sys.executable, "-m", "cellfish", "check", str(FILE)],
                       capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "notake.ini: ok (6 variants: notake-approach, notake-withdraw, notake-shunt, " \
           "notake-tow, notake-overtake, notake-rifle)" in r.stdout
