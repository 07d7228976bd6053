"""The large boards shipped in variants/files/large.ini (rules in docs/variants/xxl.md,
omega.md and raumschach8.md), against references written from those pages on coordinates
alone (tests/xxl_reference.py, tests/omega_reference.py, tests/raumschach_reference.py with
the cube's side 8): perft from the start, named positions with their stated moves, the legal
moves and check at every ply of random games; then a complete game through the protocol and
a game of `cellfish match` played to its end.  Their cells pass 255 (Raumschach 8 has 512),
which the move's 12-bit cell fields carry (engine/moves.py)."""
from __future__ import annotations

import json
import random
import subprocess

import pytest
from engine_proc import EngineProcess
from omega_reference import Omega
from raumschach_reference import Raum
from selfplay import play_game
from xxl_reference import XXL

import variants
from engine.game import game_result, perft
from engine.movegen import in_check, is_capture, legal_moves
from engine.moves import from_of, to_of
from engine.notation import move_text, parse_position
from engine.notation.move_text import parse_move
from match import cellfish_command

REFS = {"xxl": XXL, "omega": Omega, "raumschach8": lambda fen: Raum(fen, 8)}
# perft from the start (the engine's); the reference counts the first REF_DEPTH of them here
# (depth 3, in the rules pages, was counted by the references once: it takes minutes)
PERFT = {"xxl": [46, 2116], "omega": [40, 1600], "raumschach8": [104, 10711]}
REF_DEPTH = {"xxl": 2, "omega": 2, "raumschach8": 1}
CELLS = {"xxl": 196, "omega": 104, "raumschach8": 512}


def texts(v, pos) -> list[str]:
    return sorted(move_text(v, m) for m in legal_moves(pos))


@pytest.mark.parametrize("game", sorted(REFS))
def test_perft_from_the_start_equals_the_reference(game):
    v = variants.get(game)
    assert v.geometry.size == CELLS[game]
    ref = REFS[game](v.start_fen)
    pos = parse_position(v, v.start_fen)
    assert texts(v, pos) == sorted(ref.legal())
    got = [perft(pos, d) for d in range(1, len(PERFT[game]) + 1)]
    assert got == PERFT[game]
    assert [ref.perft(d) for d in range(1, REF_DEPTH[game] + 1)] == got[:REF_DEPTH[game]]


def test_cube_cells_past_255_read_back():
    """Raumschach 8's moves name cells up to 511: each move's text reads back to the same
    move; every black piece stands on a cell past 255."""
    v = variants.get("raumschach8")
    pos = parse_position(v, v.start_fen.replace(" w ", " b "))
    legal = legal_moves(pos)
    assert all(from_of(m) > 255 for m in legal) and max(map(to_of, legal)) > 255
    assert [parse_move(v, legal, move_text(v, m)) for m in legal] == legal


# ---- named positions: (fen, the moves of the pieces on the named cells, what) -------------
E12 = "*10*"
NAMED = {
    "xxl": {
        # castling both ways: h1m1 (rook n1 to l1) and h1c1 (rook a1 to d1) (ruling X6)
        "castling": ("r6k5r/pppppppppppppp/14/14/14/14/14/14/14/14/14/14/PPPPPPPPPPPPPP/"
                     "R6K5R w KQkq - 0 1", {"h1": {"h1c1", "h1g1", "h1i1", "h1m1"}}),
        # castling through an attacked cell: the black rook on j14 sees j1 (X6)
        "no castling through check": ("r6k1r3r/14/14/14/14/14/14/14/14/14/14/14/14/"
                                      "R6K5R w KQkq - 0 1", {"h1": {"h1c1", "h1g1", "h1g2", "h1h2", "h1i1", "h1i2"}}),
        # a white pawn promotes on rank 8, to any of the eight pieces (X5)
        "promotion": ("7k6/14/14/14/14/14/14/2P11/14/14/14/14/14/7K6 w - - 0 1",
                      {"c7": {f"c7c8{x}" for x in "rnbcghea"}}),
        # the pieces' leaps: camel d4, general g7, hawk k4, elephant c11, amazon k11 (X2)
        "pieces": ("14/13k/14/2E7A3/14/14/14/6G7/14/14/3C6H3/14/14/7K6 w - - 0 1", None),
    },
    "omega": {
        # a bishop runs into the empty wizard cell a1 and takes Black's wizard on l12 (O1, O2)
        "wizard cell": ("w**********w/*5k4*/" + "/".join([E12] * 7) + "/*1B8*/*9C*/1**********W w - - 0 1",
                        {"c3": {"c3a1", "c3b2", "c3b4", "c3d2", "c3d4", "c3e5", "c3f6", "c3g7", "c3h8",
                                "c3i9", "c3j10", "c3k11", "c3l12"}}),
        # castling both ways: g2i2 and g2e2 (O5)
        "castling": ("w**********w/*1r3k2r1*/" + "/".join([E12] * 8) + "/*1R3K2R1*/W**********W w KQkq - 0 1",
                     {"g2": {"g2e2", "g2f2", "g2f3", "g2g3", "g2h2", "g2h3", "g2i2"}}),
        # the pawn on f3 steps one, two or three (O3)
        "triple step": ("w**********w/*5k4*/" + "/".join([E12] * 7) + "/*4P5*/*5K4*/W**********W w - - 0 1",
                        {"f3": {"f3f4", "f3f5", "f3f6"}}),
        # promotion on rank 11 to Q R B N C W (O4)
        "promotion": ("w**********w/*5k4*/*1P8*/" + "/".join([E12] * 7) + "/*5K4*/W**********W w - - 0 1",
                      {"c10": {f"c10c11{x}" for x in "qrbncw"}}),
    },
    "raumschach8": {
        # a white pawn on the far rank's level below steps up onto hd8 and promotes (R8-2)
        "promotion": ("8/8/8/8/8/8/8/4K3|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|"
                      "8/8/8/8/8/8/8/8|3P4/8/8/8/8/8/8/8|k7/8/8/8/8/8/8/8 w - - 0 1",
                      {"gd8": {f"gd8hd8{x}" for x in "qrbnu"}}),
        # the unicorn on aa1 checks the king on hh8 along the cube's long diagonal
        "unicorn check": ("8/8/8/8/8/8/8/U6K|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|"
                          "8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|7k/8/8/8/8/8/8/8 b - - 0 1", None),
    },
}


@pytest.mark.parametrize("game, name", [(g, n) for g in sorted(NAMED) for n in sorted(NAMED[g])])
def test_named_positions(game, name):
    fen, stated = NAMED[game][name]
    v = variants.get(game)
    pos = parse_position(v, fen)
    ref = REFS[game](fen)
    got = texts(v, pos)
    assert got == sorted(ref.legal())
    assert in_check(pos) == ref.in_check()
    for cell, moves in (stated or {}).items():
        assert {t for t in got if t.startswith(cell) and not t[len(cell)].isdigit()} == moves
    if name == "unicorn check":
        assert in_check(pos)
    assert perft(pos, 2) == ref.perft(2)


def test_omega_en_passant_on_both_passed_cells():
    """After f3f6 the pawns on e5 and g6 may each take it en passant, on f4 and f5 (O3)."""
    v = variants.get("omega")
    fen = "w**********w/*5k4*/" + "/".join([E12] * 4) + "/*5p4*/*3p6*/" + E12 + \
        "/*4P5*/*5K4*/W**********W w - - 0 1"
    pos, ref = parse_position(v, fen), Omega(fen)
    pos.make(parse_move(v, legal_moves(pos), "f3f6"))
    ref.make("f3f6")
    got = texts(v, pos)
    assert got == sorted(ref.legal())
    assert {"e5f4", "g6f5"} <= set(got)


@pytest.mark.parametrize("game", sorted(REFS))
def test_random_games_agree_with_the_reference(game):
    """The legal moves and check at every ply of random games (captures and promotions
    preferred now and then, so that the armies meet)."""
    v = variants.get(game)
    rng = random.Random(50)
    games, plies = (2, 80) if game != "raumschach8" else (1, 40)
    for _ in range(games):
        pos = parse_position(v, v.start_fen)
        ref = REFS[game](v.start_fen)
        for _ply in range(plies):
            legal = {move_text(v, m): m for m in legal_moves(pos)}
            assert sorted(legal) == sorted(ref.legal())
            assert in_check(pos) == ref.in_check()
            if not legal:
                break
            special = sorted(t for t in legal if not t[-1].isdigit() or is_capture(pos, legal[t]))
            t = rng.choice(special if special and rng.random() < 0.5 else sorted(legal))
            pos.make(legal[t])
            ref.make(t)


# ---- through the protocol and in a match ---------------------------------------------------------
# XXL's games start from a few pieces (from the start one lasts some 150 plies at depth 1);
# Omega's and the cube's from the start (the cube's cost is mostly each process building its
# 512-cell promotion table, a few seconds, not the plies)
ENDGAME = {
    "xxl": "r6k6/pppp10/14/14/14/14/14/14/14/14/14/14/PPPP10/A6K6 w - - 0 1",
}


@pytest.mark.parametrize("game", sorted(REFS))
def test_plays_a_complete_game_through_the_protocol(game):
    eng = EngineProcess()
    try:
        eng.ask("uci", "uciok")
        g = play_game(game, "uci", "go depth 1", engine=eng, ply_cap=2000, timeout=120,
                      fen=ENDGAME.get(game))
        assert g.result is not None
        eng.send("position startpos")
        lines = eng.ask("go perft 2", lambda ln: ln.startswith("Nodes searched:"), 120)
        assert lines[-1] == f"Nodes searched: {PERFT[game][1]}"
    finally:
        eng.close()


@pytest.mark.parametrize("game", sorted(REFS))
def test_the_match_command_plays_a_game_to_its_end(game, tmp_path, stray_engines):
    """`cellfish match --variant NAME` with no move limit (from ENDGAME's position where there
    is one): the game ends by a rule, and its record replays through the core."""
    exe = cellfish_command()
    out = tmp_path / "r.jsonl"
    openings = []
    if game in ENDGAME:
        (tmp_path / "start.txt").write_text(ENDGAME[game] + "\n")
        openings = ["--openings", str(tmp_path / "start.txt")]
    argv = [*exe, "match", "--variant", game, *openings,
            "--engine", "cmd=" + " ".join(exe), "name=a", "depth=1",
            "--engine", "cmd=" + " ".join(exe), "name=b", "depth=1",
            "--games", "1", "--max-plies", "0", "--records", str(out)]
    r = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=1200,
                       stdin=subprocess.DEVNULL)
    assert r.returncode == 0, r.stderr
    assert f"{game}: 1 games" in r.stdout, r.stdout
    (rec,) = [json.loads(line) for line in open(out)]
    assert rec["result"] in ("1-0", "0-1", "1/2-1/2") and "faulty" not in rec, rec
    assert "move limit" not in rec["reason"], rec["reason"]
    v = variants.get(game)
    pos = parse_position(v, rec["start"])
    for t in rec["moves"]:
        pos.make(parse_move(v, legal_moves(pos), t, "uci"))
    assert game_result(pos, legal_moves(pos)) is not None
    assert not stray_engines()
