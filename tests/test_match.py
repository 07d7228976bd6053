"""The match runner: parsing, statistics, fault injection, chess against sunfish, shogi over
USI, the command line with an openings file, SPRT, and the same match on a Dask cluster.

Games are tiny (depth 1-2, a few plies) so the file stays well under a minute."""
from __future__ import annotations

import io
import json
import math
import os
import subprocess
import sys
from contextlib import redirect_stdout
from pathlib import Path

import psutil
import pytest

import variants
from engine.movegen import legal_moves
from match import (ConfigError, EngineSpec, MatchConfig, TimeControl, cellfish_command,
                   parse_engine, parse_tc, run_match)
from match import stats
from match.records import to_pgn
from protocol.move_text import parse_move
from protocol.position_text import parse as parse_position

ROOT = Path(__file__).resolve().parent.parent
FAKE = str(ROOT / "tests" / "fakes" / "fake_engine.py")
CELLFISH = cellfish_command()
ENGINE_MARKERS = ("protocol.cli", "fake_engine.py", "sunfish")


def cellfish(name: str, **tc) -> EngineSpec:
    return EngineSpec(name, CELLFISH, cwd=str(ROOT), tc=TimeControl(**tc) if tc else None)


def fake(mode: str, after: int = 1, **tc) -> EngineSpec:
    return EngineSpec(f"fake-{mode}", (sys.executable, FAKE, mode, str(after)),
                      tc=TimeControl(**tc) if tc else None)


@pytest.fixture(autouse=True)
def _pids_before():
    """Processes that existed before the test (other tests' engine fixtures) are not ours."""
    global PIDS_BEFORE
    PIDS_BEFORE = {p.pid for p in psutil.Process().children(recursive=True)}
    yield


PIDS_BEFORE: set[int] = set()


def engine_processes():
    """Engines and zombies that appeared during this test and are still there."""
    out = []
    for p in psutil.Process().children(recursive=True):
        try:
            if p.pid not in PIDS_BEFORE and (p.status() == psutil.STATUS_ZOMBIE or any(
                    m in " ".join(p.cmdline()) for m in ENGINE_MARKERS)):
                out.append(p)
        except psutil.NoSuchProcess:
            pass
    return out


def replay(rec: dict):
    """Check every move of a record against the rules core; return the final position."""
    v = variants.get(rec["variant"])
    pos = parse_position(v, rec["start"])
    for t in rec["opening"] + rec["moves"]:
        pos.make(parse_move(v, legal_moves(pos), t, rec["dialect"]))
    return pos


# ---- parsing and statistics -------------------------------------------------------------------
def test_parse_tc():
    assert parse_tc("10+0.1") == TimeControl(base_ms=10000, inc_ms=100)
    assert parse_tc("1:30") == TimeControl(base_ms=90000)
    assert parse_tc("30+b2") == TimeControl(base_ms=30000, byoyomi_ms=2000)
    assert parse_tc("0b0.5") == TimeControl(base_ms=0, byoyomi_ms=500)
    with pytest.raises(ConfigError):
        parse_tc("ten")


def test_parse_engine():
    e = parse_engine(["cmd=sunfish-uci --flag", "name=sf", "option.Hash=8", "tc=5+0.1", "depth=3"])
    assert e.name == "sf" and e.cmd[1:] == ("--flag",) and os.path.isabs(e.cmd[0])
    assert e.options == (("Hash", "8"),)
    assert e.tc == TimeControl(base_ms=5000, inc_ms=100, depth=3)
    with pytest.raises(ConfigError):
        parse_engine(["name=x"])
    with pytest.raises(ConfigError):
        parse_engine(["cmd=x", "colour=red"])


def test_stats():
    elo, margin = stats.elo_and_margin(6, 0, 4)          # 60%
    assert elo == pytest.approx(70.4, abs=0.1)
    assert 0 < margin < math.inf
    assert stats.elo_and_margin(5, 10, 5)[0] == 0
    assert math.isnan(stats.elo_and_margin(3, 0, 0)[1])  # a perfect score has no finite margin
    assert stats.los(10, 5) == pytest.approx(0.5 * (1 + math.erf(5 / math.sqrt(30))))
    assert stats.los(4, 4) == 0.5
    lo, hi = stats.sprt_bounds(0.05, 0.05)
    assert hi == pytest.approx(2.944, abs=1e-3) and lo == -hi
    assert stats.sprt_llr(40, 20, 10, 0, 10) > 0 > stats.sprt_llr(10, 20, 40, 0, 10)
    assert stats.sprt_llr(0, 30, 0, 0, 50) < 0          # only draws: evidence for H0 (elo 0)
    assert stats.sprt_llr(0, 0, 0, 0, 50) == 0


def test_openings_file_formats(tmp_path):
    from match.openings import load_openings, random_opening
    book = tmp_path / "b.epd"
    book.write_text("# EPD, FEN + moves, startpos\n"
                    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm e5; id \"x\";\n"
                    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 moves e7e5\n"
                    "startpos\n")
    ops = load_openings("chess", str(book))
    assert ops[0] == ("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", ())
    assert ops[1][1] == ("e7e5",) and ops[2] == (None, ())
    sfen = tmp_path / "s.txt"
    sfen.write_text("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2\n")
    assert load_openings("shogi", str(sfen))[0][0].endswith(" b 0 1")
    bad = tmp_path / "bad.txt"
    bad.write_text("startpos\nstartpos moves e2e5\n")
    with pytest.raises(ConfigError, match=r"bad.txt:2: bad opening move"):
        load_openings("chess", str(bad))
    # random openings: seeded, legal, the same for the same seed
    a = random_opening("chess", 6, "s:0")
    assert a == random_opening("chess", 6, "s:0") and len(a) == 6
    assert a != random_opening("chess", 6, "s:1")


def test_san_matches_python_chess_on_random_games():
    chess = pytest.importorskip("chess")
    import random
    from match.records import san
    from protocol.move_text import move_text
    v = variants.get("chess")
    rng = random.Random(5)
    n = 0
    for _ in range(40):
        pos, board = parse_position(v, v.start_fen), chess.Board()
        for _ in range(150):
            legal = legal_moves(pos)
            if not legal:
                break
            m = rng.choice(legal)
            assert san(v, pos, m, legal) == board.san(chess.Move.from_uci(move_text(v, m))), board.fen()
            pos.make(m)
            board.push_uci(move_text(v, m))
            n += 1
    assert n > 3000


def test_progress_bar_and_table():
    from match.runner import MatchResult, PairScore
    from protocol.match_cli import ProgressBar
    r = MatchResult(["a", "b"], {(0, 1): PairScore(0, 1, w=3, d=2, l=1)}, total=10)
    buf = io.StringIO()
    bar = ProgressBar(buf, width=10)
    bar(6, 10, r)
    bar.end()
    assert buf.getvalue().startswith("\r[######....] 6/10 games +3 =2 -1")
    assert buf.getvalue().endswith("\n")
    row = r.table().splitlines()[2].split()
    assert row[:8] == ["a", "vs", "b", "6", "3", "2", "1", "66.7%"]
    assert row[8] == "+120.4"          # -400 log10(1/0.667 - 1)


def test_bad_config_is_reported():
    with pytest.raises(ConfigError, match="unknown variant"):
        run_match(MatchConfig("no-such-game", [cellfish("a", depth=1), cellfish("b", depth=1)]))
    with pytest.raises(ConfigError, match="no time control"):
        run_match(MatchConfig("chess", [cellfish("a"), cellfish("b")]))
    with pytest.raises(ConfigError, match="names must differ"):
        run_match(MatchConfig("chess", [cellfish("a", depth=1), cellfish("a", depth=1)]))


# ---- fault injection --------------------------------------------------------------------------
def test_faulty_engines_lose_with_a_reason(tmp_path):
    """Each fake misbehaves on its second move (the first under `nohandshake`); the run goes
    on, every game gets the right result and reason, and no engine process is left."""
    engines = [cellfish("cf"), fake("illegal"), fake("garbage"), fake("silent"),
               fake("crash"), fake("slow", base_ms=1000), fake("nohandshake")]
    cfg = MatchConfig("chess", engines, tc=TimeControl(depth=1), games=2, tournament="gauntlet", max_plies=30,
                      concurrency=2, stall_s=2.5, handshake_s=2.5, time_margin_ms=100,
                      records=str(tmp_path / "faults.jsonl"))
    r = run_match(cfg)
    assert not r.errors
    recs = [json.loads(line) for line in open(tmp_path / "faults.jsonl")]
    assert len(recs) == 12
    expect = {"fake-illegal": "plays an illegal move (a1a1)",
              "fake-garbage": "plays an illegal move (???)",
              "fake-silent": "stalled (no bestmove within 2.5 s)",
              "fake-crash": "crashed (exit code 3)",
              "fake-slow": "loses on time",
              "fake-nohandshake": "stalled at start (no uciok within 2.5 s"}
    for rec in recs:
        bad = rec["white"] if rec["white"] != "cf" else rec["black"]
        assert rec["faulty"] == bad
        assert rec["result"] == ("0-1" if rec["white"] == bad else "1-0"), rec
        assert rec["reason"].startswith(bad + " " + expect[bad]), rec["reason"]
        # the fake played one good move first (none at all without a handshake)
        fake_moves = rec["moves"][(0 if rec["white"] == bad else 1)::2]
        assert len(fake_moves) == (0 if bad == "fake-nohandshake" else 1)
        # a faulty engine is never reused: each of its games starts a fresh process
        assert rec["fresh"][0 if rec["white"] == bad else 1]
        replay(rec)
    totals = dict(zip(r.engines, r.engine_totals()))
    assert totals["cf"] == (12, 0, 0)
    assert not engine_processes()


def test_a_flood_of_output_does_not_hold_the_deadline_off():
    engines = [cellfish("cf", depth=1), fake("flood", after=0, movetime_ms=300)]
    cfg = MatchConfig("chess", engines, tc=TimeControl(depth=1), games=2, time_margin_ms=200)
    r = run_match(cfg)
    for rec in r.records:
        assert rec["reason"] == "fake-flood loses on time (no move within 500 ms)", rec["reason"]
    assert not engine_processes()


@pytest.mark.parametrize("concurrency", [1, 2])
def test_clean_engines_are_reused_between_games(concurrency):
    """An engine that ended a game cleanly plays its worker's next game without a restart;
    after the run every engine is closed (process workers close theirs as they exit)."""
    cfg = MatchConfig("chess", [cellfish("d1", depth=1), cellfish("d2", depth=2)], games=6,
                      max_plies=6, concurrency=concurrency)
    r = run_match(cfg)
    starts = {"d1": 0, "d2": 0}
    for rec in r.records:
        for name, fresh in zip(rec["engines"], rec["fresh"]):
            starts[name] += fresh
    assert 1 <= starts["d1"] <= concurrency and 1 <= starts["d2"] <= concurrency
    assert not engine_processes()


def test_time_margin_is_not_a_gift_on_every_move():
    """1 s + 0.1 s, a 200 ms margin and an engine that always takes 250 ms: each move is only
    150 ms over the increment, less than the margin, but the overdraft is carried over (as in
    cutechess), so it loses on time after about (1000 + 200) / 150 = 8 moves; with the margin
    forgiven on every move it would play on for ever."""
    engines = [cellfish("cf", depth=1), fake("late", after=250, base_ms=1000, inc_ms=100)]
    cfg = MatchConfig("chess", engines, tc=TimeControl(depth=1), games=1, max_plies=60,
                      time_margin_ms=200)
    rec = run_match(cfg).records[0]
    assert rec["reason"].startswith("fake-late loses on time"), rec["reason"]
    assert 3 <= len(rec["moves"][1::2]) <= 12
    assert rec["clocks_ms"][1] <= -200


def test_sprt_stops_early():
    engines = [cellfish("cf"), fake("illegal", after=0)]
    cfg = MatchConfig("chess", engines, tc=TimeControl(depth=1), games=40, sprt=(0, 100, 0.1, 0.1), max_plies=10)
    r = run_match(cfg)
    assert r.sprt["decision"] == "H1"
    assert r.sprt["llr"] >= r.sprt["upper"]
    assert len(r.records) < 40
    assert "H1 accepted" in r.table()
    assert not engine_processes()


# ---- real engines -----------------------------------------------------------------------------
def test_chess_against_sunfish(tmp_path):
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
    chess = pytest.importorskip("chess")
    import chess.pgn
    f = open(tmp_path / "g.pgn")
    by_game = {(x["white"], x["black"]): x for x in recs}
    for _ in recs:
        g = chess.pgn.read_game(f)
        assert not g.errors
        rec = by_game[(g.headers["White"], g.headers["Black"])]
        assert [m.uci() for m in g.mainline_moves()] == rec["opening"] + rec["moves"]
        assert g.headers["Result"] == rec["result"]
    assert not engine_processes()


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


def test_ctrl_c_stops_the_run_and_leaves_no_process(tmp_path):
    import signal
    import time
    p = subprocess.Popen(
        [*CELLFISH, "match", "--engine", "cmd=cellfish", "name=a", "--engine", "cmd=cellfish",
         "name=b", "--tc", "30+1", "--games", "6", "--concurrency", "2",
         "--records", str(tmp_path / "i.jsonl")],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True)
    deadline = time.monotonic() + 20
    tree = []
    while time.monotonic() < deadline:   # wait until both games have their engines running
        tree = psutil.Process(p.pid).children(recursive=True)
        if sum("cellfish" in " ".join(c.cmdline()) for c in tree if c.is_running()) >= 4:
            break
        time.sleep(0.2)
    os.killpg(p.pid, signal.SIGINT)
    out, err = p.communicate(timeout=30)
    assert p.returncode == 130, err
    assert "interrupted after" in out
    time.sleep(0.5)
    assert not [c for c in tree if c.is_running() and c.status() != psutil.STATUS_ZOMBIE]


# ---- Dask --------------------------------------------------------------------------------------
def test_same_match_on_a_dask_cluster(tmp_path):
    distributed = pytest.importorskip("distributed")
    from protocol.match_cli import main
    out = tmp_path / "d.jsonl"
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  protocol="tcp", host="127.0.0.1", dashboard_address=None) as cl:
        assert cl.scheduler_address.startswith("tcp://127.0.0.1:")
        buf = io.StringIO()
        with redirect_stdout(buf):
            rc = main(["--variant", "chess", "--engine", f"cmd={sys.executable} -m protocol.cli",
                       "name=d1", "depth=1", f"dir={ROOT}", "--engine",
                       f"cmd={sys.executable} -m protocol.cli", "name=d2", "depth=2", f"dir={ROOT}",
                       "--games", "2", "--max-plies", "12", "--random-plies", "2",
                       "--scheduler", cl.scheduler_address, "--records", str(out), "--no-progress"])
    assert rc == 0
    assert "d1 vs d2" in buf.getvalue()
    recs = [json.loads(line) for line in open(out)]
    assert len(recs) == 2 and all(x["result"] in ("1-0", "0-1", "1/2-1/2") for x in recs)
    for rec in recs:
        replay(rec)
        assert to_pgn(rec).count("[Result ") == 1
    assert not engine_processes()
