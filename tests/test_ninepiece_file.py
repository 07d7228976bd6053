"""Ninepiece Nichtschach as a shipped variants file (docs/variants/ninepiece.md, "How it is
written"): the file and its plugin ``fusion = ninepiece`` refuse a section that is not the
game they play, each problem naming file, line, key and token with the engine still serving;
the ``nMoveRulePlies`` key (docs/variant-files.md, "cellfish's own rulings") counts and names
the move rule in plies."""
from __future__ import annotations

import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest

import variants
from engine.game import game_result
from engine.movegen import legal_moves
from engine.notation import move_text, parse_position
from engine.notation.position_text import format as format_position
from file_helpers import problems
from variants.inifile import load_text

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "variants" / "files" / "ninepiece.ini"
NAME = "ninepiece-nichtschach"


def section(**changes: str) -> str:
    """The shipped section under another name, with keys replaced (value '' drops the key)
    and keys it does not have added at its end."""
    out = []
    seen = set()
    for line in SHIPPED.read_text().splitlines():
        key = line.partition("=")[0].strip()
        if line.startswith(f"[{NAME}]"):
            line = "[np]"
        elif key in changes:
            seen.add(key)
            if not changes[key]:
                continue
            line = f"{key} = {changes[key]}"
        out.append(line)
    out += [f"{k} = {v}" for k, v in changes.items() if k not in seen and v]
    return "\n".join(out) + "\n"


def line_of(text: str, key: str) -> int:
    return next(i for i, ln in enumerate(text.splitlines(), 1) if ln.startswith(key + " ="))


def test_the_shipped_section_loads_under_another_name_and_plays_the_same_game():
    (cls,) = load_text(section(), "f.ini", set(variants.builtin_names())).values()
    v, shipped = cls(), variants.get(NAME)
    for fen in (v.start_fen, "6/6/6/6/6/6|6/6/6/6/6/6|rcg3/2P3/6/6/6/R1G3|6/6/6/2a3/6/(RB)1A3|"
                             "2f3/6/6/6/6/SNF3|b1u3/6/6/6/6/6 w [-] 0 1"):
        a, b = parse_position(v, fen), parse_position(shipped, fen)
        assert [move_text(v, m) for m in legal_moves(a)] == [move_text(shipped, m) for m in legal_moves(b)]


@pytest.mark.parametrize("changes, key, what, token", [
    ({"customPiece4": "g:S>T*"}, "customPiece4", "ninepiece's Gryphon is written S>O*", "S>T*"),
    ({"customPiece1": "r:O* S*"}, "customPiece1", "ninepiece's Rook is written O*", "O* S*"),
    ({"customPiece10": "p:mfO mfS cfT"}, "customPiece10", "ninepiece's Stockbroker is written mfO cfT",
     "mfO mfS cfT"),
    ({"customPiece9": "x:S>T*", "promotionPieceTypes": "rbugasfc"}, "customPiece9",
     "ninepiece's pieces are the linepieces", "x:S>T*"),
    ({"blackFrame": "file rank"}, "blackFrame", "ninepiece needs blackFrame = rank", "file rank"),
    # a royal piece: refused already by the loader, which cannot check by bent paths
    ({"king": "k:O"}, "customPiece4", "a bent piece in a game with a royal piece", "S>O*"),
])
def test_a_section_the_plugin_cannot_play_is_one_problem(changes, key, what, token):
    text = section(**changes)
    got = problems(text)
    assert len(got) == 1, got
    assert got[0].startswith(f"f.ini:{line_of(text, key)}: [np] {key}: {what}"), got
    assert got[0].endswith(f"({token})"), got


def test_a_missing_linepiece_is_named():
    text = section(customPiece9="", promotionPieceTypes="rbugasfc")
    got = problems(text)
    assert len(got) == 1 and "[np] fusion: ninepiece needs the pieces R B U G A S F C N" in got[0] \
        and got[0].endswith("(N)"), got


# ---- nMoveRulePlies -------------------------------------------------------------------------
PLIES = "[plies:chess]\nnMoveRulePlies = 7\nnMoveRule = 0\n"


def test_the_move_rule_in_plies_draws_after_that_many_plies_and_is_named_so():
    text = PLIES.replace("nMoveRule = 0\n", "")
    (cls,) = load_text(text, "f.ini", set()).values()
    v = cls()
    assert v.move_rule_plies == 7
    pos = parse_position(v, "4k3/8/8/8/8/8/8/R3K3 w - - 6 40")
    assert game_result(pos) is None
    pos.make(next(m for m in legal_moves(pos) if move_text(v, m) == "a1a2"))
    assert game_result(pos) == (0, "7-ply rule")


def test_a_move_rule_name_given_wins_over_the_plies_name():
    (cls,) = load_text(PLIES.replace("nMoveRule = 0\n", "nMoveRuleName = seven-ply count\n"),
                       "f.ini", set()).values()
    v = cls()
    pos = parse_position(v, "4k3/8/8/8/8/8/8/R3K3 w - - 6 40")
    pos.make(next(m for m in legal_moves(pos) if move_text(v, m) == "a1a2"))
    assert game_result(pos) == (0, "seven-ply count")


def test_the_shipped_ninepiece_names_its_move_rule_in_plies():
    v = variants.get(NAME)
    assert (v.move_rule_plies, v.move_rule_name) == (100, "100-ply rule")


@pytest.mark.parametrize("text, what, token", [
    ("[x:chess]\nnMoveRulePlies = 0\n", "out of range 1..2000", "0"),
    ("[x:chess]\nnMoveRulePlies = many\n", "not a whole number", "many"),
    ("[x:chess]\nnMoveRule = 40\nnMoveRulePlies = 100\n", "disagrees with nMoveRule = 40 (80 plies)", "100"),
])
def test_move_rule_plies_refuses_a_bad_value(text, what, token):
    got = problems(text)
    assert got == [f"f.ini:{line_of(text, 'nMoveRulePlies')}: [x] nMoveRulePlies: {what} ({token})"]


def test_a_bad_ninepiece_file_loads_nothing_and_the_engine_keeps_serving(tmp_path):
    from protocol.session import Session
    bad = tmp_path / "bad.ini"
    text = section(customPiece6="s:T>S*", nMoveRulePlies="-3")
    bad.write_text(text)
    out = StringIO()
    s = Session(out)
    s.handle(f"setoption name UCI_Variant value {NAME}")
    s.handle("position startpos moves ua2ua3")
    s.handle(f"setoption name VariantPath value {bad}")
    s.handle("uci")
    s.handle("d")
    s.handle("isready")
    got = out.getvalue()
    shipped = variants.get(NAME)
    pos = parse_position(shipped, shipped.start_fen)
    pos.make(next(m for m in legal_moves(pos) if move_text(shipped, m) == "ua2ua3"))
    assert f"info string error: {bad}:{line_of(text, 'nMoveRulePlies')}: [np] nMoveRulePlies: " \
           f"out of range 1..2000 (-3)" in got
    assert " var np" not in got and "readyok" in got
    assert f"Fen: {format_position(pos)}" in got and format_position(pos).startswith(
        "rgsfar/pppppp/6/P5/1PPPPP/RGSFAR|")


def test_cellfish_check_on_the_shipped_file():
    r = subprocess.run([sys.executable, "-m", "cellfish", "check", str(SHIPPED)], capture_output=True,
                       text=True, timeout=120, cwd=ROOT)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.strip() == f"{SHIPPED}: ok (1 variants: {NAME})"
