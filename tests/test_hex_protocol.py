"""Hexagonal chess through the protocol and the match runner, played to the game's end: a UCI
game of cellfish against itself (each move checked against the reference, the end told by
`d`), and a `cellfish match` game whose record says Glinski's fractional stalemate."""
from __future__ import annotations

import json

import pytest

import variants
from match import EngineSpec, MatchConfig, TimeControl, cellfish_command, run_match
from match.pgn_read import read_pgn
from match.records import to_pgn
from tests.engine_proc import EngineProcess
from tests.hex_reference import Hex

# White's king, queen and rook against the bare king, a mate in two on McCooey's board (in
# Glinski's the searcher may take a stalemate's 3/4 on the way)
ENDGAME = "1/3/5/4k2/9/2R2Q5/11/11/11/11/5K5 w - - 4 3"
# White to move stalemates (g4i3) and has no mate: Glinski scores it 3/4 to White
STALEMATE = "1/3/5/7/9/11/11/6K4/Q10/11/10k w - - 0 1"


@pytest.mark.parametrize("game", ["glinski", "mccooey"])
def test_uci_game_played_to_its_end(game):
    e = EngineProcess()
    try:
        e.ask("uci", lambda line: line == "uciok")
        e.send(f"setoption name UCI_Variant value {game}")
        moves: list[str] = []
        ref = Hex(game, ENDGAME)
        state = ""
        for _ in range(60):
            e.send(f"position fen {ENDGAME}" + (" moves " + " ".join(moves) if moves else ""))
            lines = e.ask("d", lambda line: line.startswith("Game state:"))
            state = lines[-1]
            if state != "Game state: in progress":
                break
            best = e.ask("go depth 3", lambda line: line.startswith("bestmove"))[-1].split()[1]
            assert best in ref.legal(), (moves, best)
            ref.make(best)
            moves.append(best)
        # Glinski's searcher may take a stalemate's 3/4 when it sees no mate
        ends = {"Game state: white wins (checkmate)"} | (
            {"Game state: white scores 3/4 (stalemate)"} if game == "glinski" else set())
        assert state in ends, (moves, state)
        assert not ref.legal() and ref.in_check() == state.endswith("(checkmate)")
        # Glinski's stalemate, told by d
        e.send(f"position fen {STALEMATE} moves g4i3")
        state = e.ask("d", lambda line: line.startswith("Game state:"))[-1]
        want = {"glinski": "white scores 3/4", "mccooey": "draw"}[game]
        assert state == f"Game state: {want} (stalemate)"
    finally:
        e.close()


def test_match_game_records_a_three_quarter_stalemate(tmp_path, stray_engines):
    openings = tmp_path / "openings.txt"
    openings.write_text(STALEMATE + "\n")
    cmd = cellfish_command()
    engines = [EngineSpec("a", cmd, tc=TimeControl(depth=2)),
               EngineSpec("b", cmd, tc=TimeControl(depth=2))]
    out = tmp_path / "games.jsonl"
    cfg = MatchConfig("glinski", engines, games=1, max_plies=20, concurrency=1, stall_s=60,
                      openings=str(openings), records=str(out), pgn=str(tmp_path / "g.pgn"))
    r = run_match(cfg)
    assert not r.errors
    recs = [json.loads(line) for line in open(out)]
    assert len(recs) == 1
    for rec in recs:
        assert rec["moves"] == ["g4i3"] and rec["reason"] == "stalemate"
        assert rec["result"] == "3/4-1/4"
        assert '[Result "3/4-1/4"]' in to_pgn(rec)
        # the PGN reads back (SAN moves on the hex board, the fractional result skipped)
        name, start, moves = read_pgn(to_pgn(rec), "chess", variants.names())
        assert (name, start, moves) == ("glinski", STALEMATE, ["g4i3"])
    # a stalemated as White: half a win and half a draw, 75% of the point
    ps = next(iter(r.pairs.values()))
    assert (ps.w, ps.d, ps.l) == (0.5, 0.5, 0)
    assert "75.0%" in r.table()
    assert not stray_engines()


def test_match_game_of_mccooey_played_to_mate(tmp_path, stray_engines):
    openings = tmp_path / "openings.txt"
    openings.write_text(ENDGAME + "\n")
    cmd = cellfish_command()
    engines = [EngineSpec("a", cmd, tc=TimeControl(depth=3)),
               EngineSpec("b", cmd, tc=TimeControl(depth=3))]
    out = tmp_path / "games.jsonl"
    cfg = MatchConfig("mccooey", engines, games=1, max_plies=60, concurrency=1, stall_s=60,
                      openings=str(openings), records=str(out))
    r = run_match(cfg)
    assert not r.errors
    (rec,) = [json.loads(line) for line in open(out)]
    assert rec["result"] == "1-0" and rec["reason"] == "checkmate", rec
    ref = Hex("mccooey", ENDGAME)
    for t in rec["moves"]:
        assert t in ref.legal()
        ref.make(t)
    assert not ref.legal() and ref.in_check()
    assert not stray_engines()
