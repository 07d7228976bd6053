"""The two games defined by files only (examples/raumschach.ini, examples/lake.ini; rules
in docs/variants/raumschach.md and docs/variants/lake.md), against references written from
those pages on coordinates alone (tests/raumschach_reference.py, tests/lake_reference.py):
perft 1-3 from the start, named positions with their stated moves and results, the legal
moves and check at every ply of random games; then a complete game through the protocol and
a game of `cellfish match --variants FILE` played to its end."""
from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

import pytest
from engine_proc import EngineProcess
from lake_reference import Chess as LakeRef
from raumschach_reference import Raum
from selfplay import play_game

import variants
from engine.game import game_result, perft
from engine.movegen import in_check, is_capture, legal_moves
from engine.notation import move_text, parse_position
from engine.notation.move_text import parse_move
from match import cellfish_command

ROOT = Path(__file__).resolve().parent.parent
FILES = {"raumschach": ROOT / "examples" / "raumschach.ini", "lake": ROOT / "examples" / "lake.ini"}
REFS = {"raumschach": Raum, "lake": LakeRef}
for _path in FILES.values():
    variants.load_file(str(_path))

# perft 1-3 from the start, as the references count them
PERFT = {"raumschach": [61, 3608, 236511], "lake": [18, 324, 6246]}


def texts(v, pos) -> list[str]:
    return sorted(move_text(v, m) for m in legal_moves(pos))


@pytest.mark.parametrize("game", sorted(FILES))
def test_perft_1_to_3_from_the_start_equal_the_reference(game):
    v = variants.get(game)
    ref = REFS[game](v.start_fen)
    pos = parse_position(v, v.start_fen)
    assert texts(v, pos) == sorted(ref.legal())
    got = [perft(pos, d) for d in (1, 2, 3)]
    assert got == PERFT[game]
    # the reference counted depth 3 once (PERFT; raumschach's takes it 8 s): live to depth 2
    assert [ref.perft(d) for d in (1, 2)] == got[:2]


# ---- named positions ---------------------------------------------------------------------------
RAUM = {
    # White pawns on dd5 and ee4: dd5 takes up-and-sideways onto the far rank of the far level
    # (ec5); ee4 steps to ee5 or takes ed5; each of these promotes to Q R B N U (rulings R2-R4)
    "promotions": ("5/5/5/5/2K2|5/5/5/5/5|k4/5/5/5/5|3P1/5/5/5/5|2rn1/4P/5/5/5 w - - 0 1",
                   {f"{a}{x}" for a in ("dd5ec5", "ee4ee5", "ee4ed5") for x in "qrbnu"}, "P"),
    # Black's pawn on cc3 steps down a level (bc3) or back along the rank (cc2) and takes on
    # bd3 and cb2 (ruling R2 in Black's frame)
    "black pawn": ("5/5/5/5/K4|5/5/3N1/5/5|5/5/2p2/1B3/5|5/5/5/5/5|4k/5/5/5/5 b - - 0 1",
                   {"cc3cc2", "cc3bc3", "cc3cb2", "cc3bd3"}, "p"),
    # the Unicorn on aa1 checks ee5 along the long 3D diagonal
    "unicorn check": ("5/5/5/5/U3K|5/5/5/5/5|5/5/5/5/5|5/5/5/5/5|4k/5/5/5/5 b - - 0 1", None, "check"),
    # the same line blocked on cc3
    "unicorn blocked": ("5/5/5/5/U3K|5/5/5/5/5|5/5/2p2/5/5|5/5/5/5/5|4k/5/5/5/5 b - - 0 1", None, "no check"),
    # Queen db4 and King cb3 mate the king in the corner ea5
    "mate": ("5/5/5/5/5|5/5/5/5/5|5/5/1K3/5/5|5/1Q3/5/5/5|k4/5/5/5/5 b - - 0 1", None, "mate"),
}
LAKE = {
    # the d and e pawns have no double step: d4 and e4 are lake (ruling L5)
    "no double step": ("rnbqkbnr/pppppppp/8/3**3/3**3/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                       {"d2d3", "e2e3"}, "de"),
    # the bishop on a1 stops at c3: d4 is lake (L2)
    "bishop": ("4k3/8/8/3**3/3**3/8/8/B3K3 w - - 0 1", {"a1b2", "a1c3"}, "B"),
    # the queen on d8 does not check the king on d1 across the lake (L2, L3)
    "no check across": ("3qk3/8/8/3**3/3**3/8/8/3K4 w - - 0 1", None, "no check"),
    # the knight on c3 cannot land on d5 or e4 but leaps by the lake to e2, d1, b5 ... (L4)
    "knight": ("4k3/8/8/3**3/3**3/2N5/8/4K3 w - - 0 1", {"c3a2", "c3a4", "c3b1", "c3b5", "c3d1",
                                                          "c3e2"}, "N"),
    # castling both ways, as in chess (L6)
    "castling": ("r3k2r/8/8/3**3/3**3/8/8/R3K2R w KQkq - 0 1", {"e1g1", "e1c1"}, "castle"),
    # en passant, as in chess (L7)
    "en passant": ("4k3/8/8/3**3/1pP**3/8/8/4K3 b - c3 0 1", {"b4c3", "b4b3"}, "p"),
}


def _check_named(game: str, fen: str, moves, what: str) -> None:
    v = variants.get(game)
    pos = parse_position(v, fen)
    ref = REFS[game](fen)
    got = texts(v, pos)
    assert got == sorted(ref.legal())
    assert in_check(pos) == ref.in_check()
    if moves is not None:
        if what == "castle":
            assert moves <= set(got)
        else:
            starts = {m[:3] if game == "raumschach" else m[:2] for m in moves}
            assert {t for t in got if t[:len(next(iter(starts)))] in starts} == moves
    if what == "check":
        assert in_check(pos) and got
    if what == "no check":
        assert not in_check(pos)
    if what == "mate":
        assert in_check(pos) and not got
        assert game_result(pos, []) == (-1, "checkmate")
    assert perft(pos, 2) == ref.perft(2) if got else True


@pytest.mark.parametrize("name", sorted(RAUM))
def test_named_raumschach_positions(name):
    _check_named("raumschach", *RAUM[name])


@pytest.mark.parametrize("name", sorted(LAKE))
def test_named_lake_positions(name):
    _check_named("lake", *LAKE[name])


@pytest.mark.parametrize("game", sorted(FILES))
def test_random_games_agree_with_the_reference(game):
    """The legal moves and check at every ply of random games (captures and promotions
    preferred now and then, so that the armies meet)."""
    v = variants.get(game)
    rng = random.Random(16)
    seen = set()
    for _ in range(12):
        pos = parse_position(v, v.start_fen)
        ref = REFS[game](v.start_fen)
        for _ply in range(150):
            legal = {move_text(v, m): m for m in legal_moves(pos)}
            assert sorted(legal) == sorted(ref.legal())
            assert in_check(pos) == ref.in_check()
            if in_check(pos):
                seen.add("check")
            if not legal:
                seen.add("end")
                break
            special = sorted(t for t in legal if len(t) in (5, 7) or is_capture(pos, legal[t]))
            t = rng.choice(special if special and rng.random() < 0.5 else sorted(legal))
            if len(t) in (5, 7):
                seen.add("promotion")
            pos.make(legal[t])
            ref.make(t)
    assert {"check", "promotion"} <= seen, seen


# ---- through the protocol and in a match ---------------------------------------------------------
@pytest.mark.parametrize("game", sorted(FILES))
def test_plays_a_complete_game_through_the_protocol(game):
    eng = EngineProcess()
    try:
        eng.ask("uci", "uciok")
        eng.send(f"setoption name VariantPath value {FILES[game]}")
        combo = [ln for ln in eng.ask("uci", "uciok") if ln.startswith("option name UCI_Variant")]
        assert f" var {game}" in combo[0]
        g = play_game(game, "uci", "go depth 2", engine=eng, ply_cap=2000)
        assert g.result is not None     # (when written: both games end in checkmate, after
        #                                  112 plies in Raumschach and 508 in Lake Chess)
        eng.send("position startpos")
        lines = eng.ask("go perft 2", lambda ln: ln.startswith("Nodes searched:"), 60)
        assert lines[-1] == f"Nodes searched: {PERFT[game][1]}"
    finally:
        eng.close()


@pytest.mark.parametrize("game", sorted(FILES))
def test_the_match_command_plays_a_game_to_its_end(game, tmp_path, stray_engines):
    """`cellfish match --variants FILE` with no move limit: the game ends by a rule (mate,
    stalemate, repetition, the 50-move rule), and its record replays through the core."""
    exe = cellfish_command()
    out = tmp_path / "r.jsonl"
    argv = [*exe, "match", "--variants", str(FILES[game]), "--variant", game,
            "--engine", "cmd=" + " ".join(exe), "name=a", "depth=1",
            "--engine", "cmd=" + " ".join(exe), "name=b", "depth=2",
            "--games", "1", "--max-plies", "0", "--records", str(out)]
    r = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=900,
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
