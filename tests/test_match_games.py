"""Real games through the match runner: a round robin, engine options, PGN tags, chess against
sunfish, shogi over USI with byoyomi, checkmate adjudicated by the rules core, the USI wire
and the command line with an openings file."""
from __future__ import annotations

import json
import subprocess
import sys

import chess
import chess.pgn
from match_helpers import CELLFISH, FAKE, ROOT, cellfish, fake, replay

from match import (
    EngineSpec,
    MatchConfig,
    TimeControl,
    parse_engine,
    parse_tc,
    run_match,
)
from match.records import to_pgn


# ---- tournaments, options, PGN tags -----------------------------------------------------------
def test_three_engine_round_robin(stray_engines):
    """Every engine meets every other with both colours; the table has a row per pairing and
    a row per engine over all its games, best first."""
    engines = [cellfish("cf"), fake("ok"), fake("illegal", after=0)]
    cfg = MatchConfig("chess", engines, tc=TimeControl(depth=1), games=2, max_plies=2)
    r = run_match(cfg)
    assert not r.errors
    assert sorted(tuple(x["pair"]) for x in r.records) == [(0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1)]
    wdl = {k: (ps.w, ps.d, ps.l) for k, ps in r.pairs.items()}
    assert wdl == {(0, 1): (0, 2, 0), (0, 2): (2, 0, 0), (1, 2): (2, 0, 0)}
    assert r.engine_totals() == [(2, 2, 0), (2, 2, 0), (0, 0, 4)]
    rows = [line.split() for line in r.table().splitlines()]
    assert [x[:8] for x in rows[2:5]] == [["cf", "vs", "fake-ok", "2", "0", "2", "0", "50.0%"],
                                          ["cf", "vs", "fake-illegal", "2", "2", "0", "0", "100.0%"],
                                          ["fake-ok", "vs", "fake-illegal", "2", "2", "0", "0", "100.0%"]]
    assert rows[6][:3] == ["engine", "(all", "its"]
    assert [x[:6] for x in rows[8:11]] == [["cf", "4", "2", "2", "0", "75.0%"],
                                          ["fake-ok", "4", "2", "2", "0", "75.0%"],
                                          ["fake-illegal", "4", "0", "0", "4", "0.0%"]]
    for rec in r.records:               # depth-limited games: PGN says "no time control"
        assert '[TimeControl "-"]' in to_pgn(rec)
    assert not stray_engines()


def test_engine_options_reach_the_engine(tmp_path, stray_engines):
    log = tmp_path / "opt.log"
    e = parse_engine([f"cmd={sys.executable} {FAKE} ok", "name=opt", "option.Hash=16",
                      "option.Skill Level=3", f"env.FAKE_LOG={log}"])
    run_match(MatchConfig("chess", [cellfish("cf"), e], tc=TimeControl(depth=1), games=1, max_plies=2))
    lines = log.read_text().splitlines()
    i, j = lines.index("setoption name Hash value 16"), lines.index("setoption name Skill Level value 3")
    assert lines.index("uci") < i < j < lines.index("isready")      # after the handshake, in order
    assert not stray_engines()


def test_pgn_time_control_tag():
    """The PGN standard's TimeControl: '-' with no clock, BASE[+INC] in seconds, moves/seconds."""
    assert TimeControl(depth=3).pgn_tag() == TimeControl(nodes=500).pgn_tag() == "-"
    assert parse_tc("300+5").pgn_tag() == "300+5"
    assert parse_tc("10+0.1").pgn_tag() == "10+0.1"
    assert parse_tc("1:30").pgn_tag() == "90"
    assert TimeControl(base_ms=60000, depth=4).pgn_tag() == "60"
    assert TimeControl(movetime_ms=250).pgn_tag() == "1/0.25"
    assert parse_tc("30+b1").pgn_tag() == "?"         # byoyomi: no standard form


# ---- real engines -----------------------------------------------------------------------------
def test_chess_against_sunfish(tmp_path, stray_engines):
    sunfish = parse_engine(["cmd=sunfish-uci", "name=sunfish", "tc=5+0.1"])
    cfg = MatchConfig("chess", [cellfish("cellfish", depth=1), sunfish], games=2, max_plies=24,
                      random_plies=2, seed=7, concurrency=2,
                      records=str(tmp_path / "g.jsonl"), pgn=str(tmp_path / "g.pgn"))
    r = run_match(cfg)
    assert not r.errors and len(r.records) == 2
    recs = [json.loads(line) for line in open(tmp_path / "g.jsonl")]
    assert {(x["white"], x["black"]) for x in recs} == {("cellfish", "sunfish"), ("sunfish", "cellfish")}
    assert recs[0]["opening"] == recs[1]["opening"] and len(recs[0]["opening"]) == 2
    for rec in recs:
        assert rec["result"] in ("1-0", "0-1", "1/2-1/2")
        assert "faulty" not in rec, rec["reason"]
        assert len(rec["times_ms"]) == len(rec["scores"]) == len(rec["moves"]) == rec["plies"]
        sf_clock = rec["clocks_ms"][0 if rec["white"] == "sunfish" else 1]
        assert sf_clock is not None and sf_clock > 0
        replay(rec)
    # the PGN reads back in python-chess to the same moves
    f = open(tmp_path / "g.pgn")
    by_game = {(x["white"], x["black"]): x for x in recs}
    for _ in recs:
        g = chess.pgn.read_game(f)
        assert not g.errors
        rec = by_game[(g.headers["White"], g.headers["Black"])]
        assert [m.uci() for m in g.mainline_moves()] == rec["opening"] + rec["moves"]
        assert g.headers["Result"] == rec["result"]
        tcs = {rec["white"]: g.headers["WhiteTimeControl"], rec["black"]: g.headers["BlackTimeControl"]}
        assert tcs == {"sunfish": "5+0.1", "cellfish": "-"} and "TimeControl" not in g.headers
    assert not stray_engines()


def test_shogi_over_usi_with_byoyomi(tmp_path):
    """Shogi engines are spoken to in USI (sfen, btime for sente, byoyomi); records use USI text."""
    engines = [cellfish("d1", depth=1), cellfish("d2", depth=2)]
    cfg = MatchConfig("shogi", engines, tc=TimeControl(base_ms=0, byoyomi_ms=3000), games=2,
                      max_plies=8, concurrency=2, records=str(tmp_path / "s.jsonl"))
    r = run_match(cfg)
    assert not r.errors
    for rec in r.records:
        assert rec["dialect"] == "usi" and rec["reason"] == "move limit (8 plies)"
        assert rec["moves"][0][0].isdigit()            # USI cells: 7g7f
        assert rec["clocks_ms"] == [0, 0]
        replay(rec)


def test_checkmate_is_adjudicated_by_the_rules_core(tmp_path):
    """From a mate-in-one start both engines mate as White: one win each, reason checkmate."""
    book = tmp_path / "mate.txt"
    book.write_text("6k1/5ppp/8/8/8/8/8/R6K w - - 0 1\n")
    cfg = MatchConfig("chess", [cellfish("a"), cellfish("b")], tc=TimeControl(depth=2),
                      games=2, openings=str(book), concurrency=2)
    r = run_match(cfg)
    assert [(x["result"], x["reason"], x["moves"]) for x in r.records] == \
        [("1-0", "checkmate", ["a1a8"])] * 2
    ps = r.pairs[(0, 1)]
    assert (ps.w, ps.d, ps.l) == (1, 0, 1)


def test_usi_wire(tmp_path):
    """What a USI engine receives: usi, USI_Variant, usinewgame, position startpos moves in
    USI text, go with btime = the first player's (sente's) clock, gameover at the end."""
    logs = [tmp_path / "a.log", tmp_path / "b.log"]
    engines = [EngineSpec(f"fake-{i}", (sys.executable, FAKE, "ok"), env=(("FAKE_LOG", str(p)),))
               for i, p in enumerate(logs)]
    engines[0] = EngineSpec(engines[0].name, engines[0].cmd, env=engines[0].env,
                            tc=TimeControl(base_ms=9000, byoyomi_ms=1000))
    cfg = MatchConfig("shogi", engines, tc=TimeControl(base_ms=5000, byoyomi_ms=1000),
                      games=1, max_plies=3)
    rec = run_match(cfg).records[0]
    assert rec["reason"] == "move limit (3 plies)"
    a = logs[0].read_text().splitlines()
    b = logs[1].read_text().splitlines()
    assert a[0] == "usi" and "setoption name USI_Variant value shogi" in a
    assert "usinewgame" in a and a[-2:] == ["gameover draw", "quit"]
    assert f"position startpos moves {rec['moves'][0]}" in b
    go_a = [x for x in a if x.startswith("go")]
    assert go_a[0] == "go btime 9000 wtime 5000 byoyomi 1000"
    go_b = [x for x in b if x.startswith("go")][0].split()
    assert go_b[1] == "btime" and go_b[3] == "wtime" and go_b[4] == "5000"


def test_cli_with_openings_file(tmp_path):
    book = tmp_path / "book.txt"
    fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    book.write_text(f"# two openings\n{fen}\nstartpos moves d2d4 d7d5\n")
    out = tmp_path / "r.jsonl"
    p = subprocess.run(
        [*CELLFISH, "match", "--variant", "chess", "--engine", "cmd=cellfish", "name=d1", "depth=1",
         "--engine", "cmd=cellfish", "name=d2", "depth=2", "--games", "4", "--max-plies", "10",
         "--openings", str(book), "--concurrency", "2", "--records", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert "d1 vs d2" in p.stdout and "LOS" in p.stdout
    assert p.stderr == ""                              # no progress bar on a pipe
    recs = [json.loads(line) for line in open(out)]
    assert len(recs) == 4
    start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    assert sorted((x["opening_index"], x["start"], tuple(x["opening"])) for x in recs) == \
        [(0, fen, ())] * 2 + [(1, start, ("d2d4", "d7d5"))] * 2
    bad = subprocess.run([*CELLFISH, "match", "--engine", "cmd=cellfish"], cwd=ROOT,
                         capture_output=True, text=True, timeout=30)
    assert bad.returncode == 2 and "at least two" in bad.stderr
