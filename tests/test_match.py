"""The match runner: parsing, statistics, fault injection, chess against sunfish, shogi over
USI, the command line with an openings file, SPRT, and the same match on a Dask cluster.

Games are tiny (depth 1-2, a few plies) so the file stays well under a minute."""
from __future__ import annotations

import io
import json
import math
import os
import re
import subprocess
import sys
from contextlib import redirect_stdout
from pathlib import Path

import chess
import chess.pgn
import psutil
import pytest

import variants
from engine.movegen import legal_moves
from match import (ConfigError, EngineSpec, MatchConfig, TimeControl, cellfish_command,
                   parse_engine, parse_tc, run_match)
from match import stats
from match.records import to_pgn
from engine.notation.move_text import parse_move
from engine.notation.position_text import parse as parse_position

ROOT = Path(__file__).resolve().parent.parent
FAKE = str(ROOT / "tests" / "fakes" / "fake_engine.py")
CELLFISH = cellfish_command()


def cellfish(name: str, **tc) -> EngineSpec:
    return EngineSpec(name, CELLFISH, cwd=str(ROOT), tc=TimeControl(**tc) if tc else None)


def fake(mode: str, after: int = 1, **tc) -> EngineSpec:
    return EngineSpec(f"fake-{mode}", (sys.executable, FAKE, mode, str(after)),
                      tc=TimeControl(**tc) if tc else None)


def replay(rec: dict):
    """Check every move of a record against the rules core; return the final position."""
    v = variants.get(rec["variant"])
    pos = parse_position(v, rec["start"])
    for t in rec["opening"] + rec["moves"]:
        pos.make(parse_move(v, legal_moves(pos), t, rec["dialect"]))
    return pos


def test_the_stray_check_sees_orphans_and_zombies(stray_engines):
    """The no-leftover check used below: an engine whose parent exits without reaping it
    (as a dying pool worker would leave it) is seen alive, and once dead, as a zombie
    (Linux: the test process is a child subreaper, so the orphan is re-parented to it)."""
    import time
    sh = f'"{sys.executable}" -c "import time; time.sleep(30)" fake_engine.py >/dev/null 2>&1 &'
    subprocess.run(["sh", "-c", sh], check=True, stdin=subprocess.DEVNULL)  # sh exits at once
    end = time.monotonic() + 5
    found = []
    while time.monotonic() < end:       # until the forked shell has become the Python program
        found = stray_engines()
        try:
            if len(found) == 1 and found[0].cmdline()[:2] == [sys.executable, "-c"]:
                break
        except psutil.Error:
            pass
        time.sleep(0.05)
    assert len(found) == 1 and found[0].cmdline()[-1] == "fake_engine.py"
    found[0].kill()
    if sys.platform.startswith("linux"):
        assert found[0].ppid() == os.getpid()
        time.sleep(0.2)
        assert [p.status() for p in stray_engines()] == [psutil.STATUS_ZOMBIE]
    stray_engines.reap()
    assert not stray_engines()


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
    import random
    from match.records import san
    from engine.notation.move_text import move_text
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
    from cellfish.match_cli import ProgressBar
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
def test_faulty_engines_lose_with_a_reason(tmp_path, stray_engines):
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
    assert not stray_engines()


def test_a_flood_of_output_does_not_hold_the_deadline_off(stray_engines):
    engines = [cellfish("cf", depth=1), fake("flood", after=0, movetime_ms=300)]
    cfg = MatchConfig("chess", engines, tc=TimeControl(depth=1), games=2, time_margin_ms=200)
    r = run_match(cfg)
    for rec in r.records:
        assert rec["reason"] == "fake-flood loses on time (no move within 500 ms)", rec["reason"]
    assert not stray_engines()


@pytest.mark.parametrize("concurrency", [1, 2])
def test_clean_engines_are_reused_between_games(concurrency, stray_engines):
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
    assert not stray_engines()


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


def test_an_engine_that_never_answers_isready_stalls(stray_engines):
    """`noready` answers the handshake's isready but not the one after ucinewgame."""
    cfg = MatchConfig("chess", [cellfish("cf"), fake("noready", after=1)], tc=TimeControl(depth=1),
                      games=1, stall_s=1.0)
    rec = run_match(cfg).records[0]
    assert (rec["result"], rec["faulty"], rec["moves"]) == ("1-0", "fake-noready", [])
    assert rec["reason"] == "fake-noready stalled at start (no readyok within 1 s after isready)"
    assert not stray_engines()


def test_a_deaf_engine_cannot_block_the_referee(stray_engines):
    """An engine that stops reading: once the pipe to it is full a write fails with a stall
    after `write_s` instead of blocking the referee for ever, and close() still ends it."""
    import time
    from match.engine import EngineFault, EngineProcess
    e = EngineProcess(fake("deaf", after=0), "uci", write_s=0.5)
    e.start()
    try:
        e.handshake("chess", "chess", 10, 10)
        e.send("position startpos")
        e.send("go depth 1")                   # it stops reading here
        t0 = time.monotonic()
        with pytest.raises(EngineFault) as f:
            for _ in range(100):               # up to 1 MB, far more than a pipe holds
                e.send("position startpos moves " + "e2e4 " * 2000)
        assert f.value.kind == "stall" and "does not read its input" in f.value.text
        assert time.monotonic() - t0 < 3
    finally:
        t0 = time.monotonic()
        e.close()
        assert time.monotonic() - t0 < 4
    assert not stray_engines()


# ---- SPRT --------------------------------------------------------------------------------------
def logistic_score(elo: float) -> float:
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def reference_llr(w, d, l, elo0, elo1):
    """The GSPRT log-likelihood ratio in its normal approximation, from first principles: the
    mean score x of n games is about normal with variance sigma^2 / n (sigma^2: the variance
    of one game's score, 1, 1/2 or 0), so LLR = ln N(x; s1, sigma^2/n) - ln N(x; s0, sigma^2/n)
    = n ((x - s0)^2 - (x - s1)^2) / (2 sigma^2), s0 and s1 the logistic scores of elo0 and
    elo1.  As documented, x and sigma^2 count half a game more of each kind (n does not)."""
    n = w + d + l
    games = [(1.0, w + 0.5), (0.5, d + 0.5), (0.0, l + 0.5)]     # (score, weight)
    weight = sum(c for _, c in games)
    x = sum(a * c for a, c in games) / weight
    var = sum(c * (a - x) ** 2 for a, c in games) / weight
    s0, s1 = logistic_score(elo0), logistic_score(elo1)
    return n * ((x - s0) ** 2 - (x - s1) ** 2) / (2 * var)


def exact_gsprt_llr(w, d, l, elo0, elo1):
    """The exact generalised LLR of the trinomial: n * sum q_i ln(p1_i / p0_i), with p_s the
    most likely W/D/L distribution whose expected score is s (Lagrange: p_i = q_i / (1 +
    lam (a_i - s)), lam found by bisection)."""
    n = w + d + l
    q, a = [w / n, d / n, l / n], [1.0, 0.5, 0.0]

    def most_likely(s):
        f = lambda lam: sum(qi * (ai - s) / (1 + lam * (ai - s)) for qi, ai in zip(q, a))  # noqa: E731
        lo, hi = -1 / (1 - s) + 1e-12, 1 / s - 1e-12               # f falls from + to -
        for _ in range(200):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if f(mid) > 0 else (lo, mid)
        return [qi / (1 + lo * (ai - s)) for qi, ai in zip(q, a)]

    p0, p1 = most_likely(logistic_score(elo0)), most_likely(logistic_score(elo1))
    return n * sum(qi * math.log(x1 / x0) for qi, x0, x1 in zip(q, p0, p1) if qi > 0)


def test_sprt_llr_against_first_principles():
    for w, d, l, e0, e1 in [(300, 400, 250, 0, 10), (120, 160, 100, 0, 20), (100, 300, 120, -5, 5),
                            (3, 5, 9, 0, 50), (7, 0, 0, 0, 100), (0, 0, 4, 0, 100)]:
        assert stats.sprt_llr(w, d, l, e0, e1) == pytest.approx(reference_llr(w, d, l, e0, e1), rel=1e-9)
    # ... and that approximation is the trinomial GSPRT's for small Elo gaps and many games
    for w, d, l, e0, e1 in [(300, 400, 250, 0, 10), (120, 160, 100, 0, 20), (100, 300, 120, -5, 5)]:
        assert stats.sprt_llr(w, d, l, e0, e1) == pytest.approx(exact_gsprt_llr(w, d, l, e0, e1), rel=0.01)
    assert stats.sprt_bounds(0.05, 0.1) == pytest.approx((math.log(0.1 / 0.95), math.log(0.9 / 0.05)))


@pytest.mark.parametrize("decision,concurrency", [("H1", 1), ("H0", 2)])
def test_sprt_stops_early(decision, concurrency, stray_engines):
    """cellfish against a fake that always plays an illegal move: H1 (the first engine is
    ELO1 stronger) when cellfish is first, H0 when the fake is; at the first game that
    takes the LLR out of the bounds.  With two worker processes the runner stops the pool
    at once, and no engine is left."""
    engines = [cellfish("cf"), fake("illegal", after=0)]
    if decision == "H0":
        engines.reverse()
    cfg = MatchConfig("chess", engines, tc=TimeControl(depth=1), games=40, sprt=(0, 100, 0.1, 0.1),
                      max_plies=10, concurrency=concurrency)
    r = run_match(cfg)
    ps = r.pairs[(0, 1)]
    lo, hi = math.log(0.1 / 0.9), math.log(0.9 / 0.1)
    assert r.sprt["decision"] == decision
    assert (r.sprt["lower"], r.sprt["upper"]) == pytest.approx((lo, hi))
    assert r.sprt["llr"] == pytest.approx(reference_llr(ps.w, ps.d, ps.l, 0, 100))
    one_game_less = (ps.w - 1, 0, 0) if decision == "H1" else (0, 0, ps.l - 1)
    assert lo < reference_llr(*one_game_less, 0, 100) < hi
    assert (ps.w, ps.d, ps.l) == ((ps.n, 0, 0) if decision == "H1" else (0, 0, ps.n))
    assert len(r.records) == ps.n < 40
    assert f"{decision} accepted" in r.table()
    assert not stray_engines()


def test_sprt_on_the_command_line(tmp_path, stray_engines):
    out = tmp_path / "s.jsonl"
    p = subprocess.run(
        [*CELLFISH, "match", "--engine", f"cmd={sys.executable} {FAKE} ok", "name=good",
         "--engine", f"cmd={sys.executable} {FAKE} illegal 0", "name=bad", "--depth", "1",
         "--games", "40", "--sprt", "0", "100", "0.1", "0.1", "--records", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    recs = [json.loads(line) for line in open(out)]
    assert 1 < len(recs) < 40 and all(x["faulty"] == "bad" for x in recs)
    m = re.search(r"SPRT elo0=0 elo1=100 alpha=0.1 beta=0.1: LLR (\S+) \[(\S+), (\S+)\] "
                  r"-> H1 accepted", p.stdout)
    assert m, p.stdout
    llr, lo, hi = map(float, m.groups())
    assert llr == pytest.approx(reference_llr(len(recs), 0, 0, 0, 100), abs=0.005)
    assert (lo, hi) == pytest.approx((math.log(0.1 / 0.9), math.log(0.9 / 0.1)), abs=0.005)
    assert llr >= hi > reference_llr(len(recs) - 1, 0, 0, 0, 100)
    assert "good vs bad" in p.stdout and f"{len(recs)} games" in p.stdout
    assert not stray_engines()


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


def test_ctrl_c_stops_the_run_and_leaves_no_process(tmp_path, stray_engines):
    import signal
    import time
    p = subprocess.Popen(
        [*CELLFISH, "match", "--engine", "cmd=cellfish", "name=a", "--engine", "cmd=cellfish",
         "name=b", "--tc", "30+1", "--games", "6", "--concurrency", "2",
         "--records", str(tmp_path / "i.jsonl")],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True)
    deadline = time.monotonic() + 20
    tree = {}
    while time.monotonic() < deadline:   # wait until both games have their engines running
        for c in psutil.Process(p.pid).children(recursive=True):
            try:
                tree.setdefault(c, " ".join(c.cmdline()))
            except psutil.Error:
                pass
        if sum("cellfish" in cmd for c, cmd in tree.items() if c.is_running()) >= 4:
            break
        time.sleep(0.2)
    os.killpg(p.pid, signal.SIGINT)
    out, err = p.communicate(timeout=30)
    assert p.returncode == 130, err
    assert "interrupted after" in out
    workers = [c for c, cmd in tree.items() if "spawn_main" in cmd]
    engines = [c for c, cmd in tree.items() if "cellfish" in cmd]
    assert len(workers) == 2 and len(engines) >= 4
    # multiprocessing's resource tracker outlives the runner by a moment (it ends when its
    # pipe closes); we are its subreaper now, so we reap it.  It is no engine.
    for t in [c for c, cmd in tree.items() if "resource_tracker" in cmd]:
        end = time.monotonic() + 5
        while time.monotonic() < end:
            try:
                if os.waitpid(t.pid, os.WNOHANG)[0]:
                    break
            except ChildProcessError:
                break
            time.sleep(0.05)
    # strict: no worker or engine left, running or zombie (the test process is a child
    # subreaper, so an engine orphaned by a worker would be re-parented to it and seen here)
    assert not [c for c in workers + engines if c.is_running()]
    assert not stray_engines()


# ---- Dask --------------------------------------------------------------------------------------
def test_same_match_on_a_dask_cluster(tmp_path, stray_engines):
    """A real local cluster (two worker processes on loopback): the games are played by the
    Dask workers, as each record's `worker` shows, and replay."""
    import distributed
    from cellfish.match_cli import main
    out = tmp_path / "d.jsonl"
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  protocol="tcp", host="127.0.0.1",
                                  dashboard_address=None) as cl, distributed.Client(cl) as client:
        assert cl.scheduler_address.startswith("tcp://127.0.0.1:")
        worker_pids = set(client.run(os.getpid).values())
        buf = io.StringIO()
        with redirect_stdout(buf):
            rc = main(["--variant", "chess", "--engine", f"cmd={sys.executable} -m cellfish",
                       "name=d1", "depth=1", f"dir={ROOT}", "--engine",
                       f"cmd={sys.executable} -m cellfish", "name=d2", "depth=2", f"dir={ROOT}",
                       "--games", "2", "--max-plies", "12", "--random-plies", "2",
                       "--scheduler", cl.scheduler_address, "--records", str(out), "--no-progress"])
    assert rc == 0
    assert "d1 vs d2" in buf.getvalue()
    assert len(worker_pids) == 2 and os.getpid() not in worker_pids
    recs = [json.loads(line) for line in open(out)]
    assert len(recs) == 2 and all(x["result"] in ("1-0", "0-1", "1/2-1/2") for x in recs)
    for rec in recs:
        assert rec["worker"]["pid"] in worker_pids       # played in a Dask worker process
        assert rec["fresh"] == [True, True]              # no engine reuse on an executor
        replay(rec)
        assert to_pgn(rec).count("[Result ") == 1
    assert not stray_engines()
