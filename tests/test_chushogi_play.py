"""Chu Shogi played to its end: a game through the USI loop (the `cellfish` command as a
subprocess, `position sfen ... moves ...` with the Lion's three-cell moves, every bestmove
checked legal by the core) and a game of `cellfish match`.  Both start from a few pieces with
Lions on the board: from the start a depth-1 game lasts hundreds of plies on 144 cells."""
from __future__ import annotations

import json
import subprocess

import variants
from engine.game import game_result
from engine.movegen import legal_moves
from engine.notation.move_text import move_text, parse_move
from engine.notation.position_text import parse as parse_position
from engine_proc import EngineProcess
from match import cellfish_command

# sente: King, Lion, Gold, two Pawns; gote: King, Lion, Silver, Pawn
SFEN = "6k5/5s6/4p1n5/12/12/12/12/12/5PP5/5N6/5G6/6K5 b - 1"
FEN = "6k5/5s6/4p1n5/12/12/12/12/12/5PP5/5N6/5G6/6K5 w 0 1"   # the same, as UCI text
PLY_CAP = 600


def test_usi_game_to_its_end():
    v = variants.get("chushogi")
    pos = parse_position(v, FEN)
    eng = EngineProcess()
    played: list[str] = []
    try:
        eng.ask("usi", "usiok")
        eng.send("setoption name USI_Variant value chushogi")
        eng.ask("isready", "readyok")
        while game_result(pos, legal_moves(pos)) is None:
            assert len(played) < PLY_CAP
            eng.send(f"position sfen {SFEN} moves {' '.join(played)}".rstrip())
            best = eng.ask("go depth 1", lambda ln: ln.startswith("bestmove"), 60)[-1].split()[1]
            m = parse_move(v, legal_moves(pos), best, "usi")      # legal, canonical text
            assert move_text(v, m, "usi") == best
            pos.make(m)
            played.append(best)
        result = game_result(pos, legal_moves(pos))
        eng.send(f"position sfen {SFEN} moves {' '.join(played)}")
        last = eng.ask("go depth 1", lambda ln: ln.startswith("bestmove"), 60)[-1]
        if not legal_moves(pos):
            assert last == "bestmove resign"
    finally:
        eng.close()
    assert result is not None and played


def test_match_game_to_its_end(tmp_path, stray_engines):
    exe = cellfish_command()
    (tmp_path / "start.txt").write_text(FEN + "\n")
    out = tmp_path / "r.jsonl"
    argv = [*exe, "match", "--variant", "chushogi", "--openings", str(tmp_path / "start.txt"),
            "--engine", "cmd=" + " ".join(exe), "name=a", "depth=1",
            "--engine", "cmd=" + " ".join(exe), "name=b", "depth=1",
            "--games", "1", "--max-plies", "0", "--records", str(out)]
    r = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=600,
                       stdin=subprocess.DEVNULL)
    assert r.returncode == 0, r.stderr
    assert "chushogi: 1 games" in r.stdout, r.stdout
    (rec,) = [json.loads(line) for line in open(out)]
    assert rec["result"] in ("1-0", "0-1", "1/2-1/2") and "faulty" not in rec, rec
    assert "move limit" not in rec["reason"], rec["reason"]
    v = variants.get("chushogi")
    pos = parse_position(v, rec["start"])
    for t in rec["moves"]:
        pos.make(parse_move(v, legal_moves(pos), t, "usi"))      # shogi-template records
    assert game_result(pos, legal_moves(pos)) is not None
    assert not stray_engines()
