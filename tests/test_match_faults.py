"""The match runner under faults: the no-leftover check itself, engines that crash, stall,
flood, never answer or stop reading, engine reuse, the time margin, and Ctrl-C.

Games are tiny (depth 1-2, a few plies)."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import psutil
import pytest
from match_helpers import CELLFISH, FAKE, ROOT, cellfish, fake, replay

from match import (
    EngineSpec,
    MatchConfig,
    TimeControl,
    run_match,
)


def test_the_stray_check_sees_orphans_and_zombies(stray_engines):
    """The no-leftover check used below: an engine whose parent exits without reaping it
    (as a dying pool worker would leave it) is seen alive, and once dead, as a zombie
    (Linux: the test process is a child subreaper, so the orphan is re-parented to it)."""
    import time
    sh = f'"{sys.executable}" -c "import time; time.sleep(120)" fake_engine.py >/dev/null 2>&1 &'
    subprocess.run(["sh", "-c", sh], check=True, stdin=subprocess.DEVNULL)  # sh exits at once
    end = time.monotonic() + 30
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
        end = time.monotonic() + 30     # until the kill has landed
        while time.monotonic() < end and [p.status() for p in stray_engines()] != [psutil.STATUS_ZOMBIE]:
            time.sleep(0.05)
        assert [p.status() for p in stray_engines()] == [psutil.STATUS_ZOMBIE]
    stray_engines.reap()
    assert not stray_engines()


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
    (after `write_s`) instead of blocking the referee for ever, and close() still ends it.
    Each step runs in a thread that must finish within a generous deadline: what is asserted
    is that it finishes and how, not how fast."""
    import threading

    from match.engine import EngineFault, EngineProcess

    def finishes(fn):
        box = []

        def run():
            try:
                box.append(("ok", fn()))
            except Exception as exc:  # noqa: BLE001 -- handed to the test thread
                box.append(("raised", exc))
        t = threading.Thread(target=run, daemon=True)
        t.start()
        t.join(30)
        assert not t.is_alive(), "blocked for 30 s"
        return box[0]

    e = EngineProcess(fake("deaf", after=0), "uci", write_s=0.5)
    e.start()
    try:
        e.handshake("chess", "chess", 10, 10)
        e.send("position startpos")
        e.send("go depth 1")                   # it stops reading here

        def flood():
            for _ in range(100):               # up to 1 MB, far more than a pipe holds
                e.send("position startpos moves " + "e2e4 " * 2000)
        how, f = finishes(flood)
        assert how == "raised" and isinstance(f, EngineFault), (how, f)
        assert f.kind == "stall" and "does not read its input" in f.text
    finally:
        finishes(e.close)
    assert not stray_engines()


def test_ctrl_c_stops_the_run_and_leaves_no_process(tmp_path, stray_engines):
    """Ctrl-C (SIGINT to the whole process group, as a terminal sends it) while both games of
    a two-worker run are being played: exit code 130, the partial table, and no process left.

    The processes are told apart by what they are, not by a command line seen in passing (a
    child caught between fork and exec still shows its parent's command line: a worker looks
    like `cellfish match`, an engine like a pool worker).  Each game pairs a cellfish engine
    with a fake that logs its input to a file named by its pid; once both fakes have been sent
    a `position`, both games are past the handshake (every engine answered uciok and readyok),
    so the run is: the runner; its two pool workers (the fakes' parents) and multiprocessing's
    resource tracker; under each worker exactly its game's two engines, and nothing below.

    The runner starts with SIGINT at its default, as a terminal's foreground job has it: a
    test run started in the background of a non-interactive shell inherits SIGINT ignored,
    and so would the runner, its workers and its engines (the run then never ends)."""
    import signal
    import time

    from match.config import resolve_command
    fake_cmd = f"{sys.executable} {FAKE} ok 0"
    p = subprocess.Popen(
        [*CELLFISH, "match", "--engine", "cmd=cellfish", "name=a",
         "--engine", f"cmd={fake_cmd}", "name=b", f"env.FAKE_LOG={tmp_path}/fake-{{pid}}.log",
         "--tc", "30+1", "--games", "6", "--concurrency", "2", "--records", str(tmp_path / "i.jsonl")],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    runner = psutil.Process(p.pid)

    def fakes_in_game() -> list[int]:
        pids = []
        for f in tmp_path.glob("fake-*.log"):
            if any(ln.startswith("position") for ln in f.read_text().splitlines()):
                pids.append(int(f.name[len("fake-"):-len(".log")]))
        return sorted(pids)

    def trackers_beside(workers: list[psutil.Process]) -> list[psutil.Process]:
        """The runner's children other than the workers, once each shows the tracker's
        command line (an empty list until then)."""
        rest = [c for c in runner.children() if c not in workers]
        try:
            done = all("multiprocessing.resource_tracker" in " ".join(c.cmdline()) for c in rest)
        except psutil.Error:
            done = False
        return rest if done else []

    try:
        deadline = time.monotonic() + 30
        while len(fakes_in_game()) < 2 and p.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        fakes = [psutil.Process(pid) for pid in fakes_in_game()]
        assert len(fakes) == 2, (p.poll(), fakes)
        workers = [psutil.Process(f.ppid()) for f in fakes]
        assert len({w.pid for w in workers}) == 2           # one game in each worker
        # the runner's other child is the resource tracker, spawned before the workers (wait
        # for its exec to be visible, should it lag)
        trackers = []
        while not trackers and time.monotonic() < deadline:
            trackers = trackers_beside(workers)
            time.sleep(0.05)
        snapshot = {c.pid for c in runner.children(recursive=True)}
        engine_cmd = resolve_command(["cellfish"])[0]
        engines = []
        for w, f in zip(workers, fakes):
            assert w.ppid() == p.pid and "multiprocessing.spawn" in " ".join(w.cmdline())
            kids = w.children()
            assert f in kids and len(kids) == 2, kids
            cf_engine = next(k for k in kids if k != f)
            assert cf_engine.cmdline()[-1] == engine_cmd, cf_engine.cmdline()
            engines += [f, cf_engine]
        assert all(e.children() == [] for e in engines)
        assert len(trackers) == 1
        assert snapshot == {c.pid for c in workers + engines + trackers}
    finally:
        os.killpg(p.pid, signal.SIGINT)
        out, err = p.communicate(timeout=30)
    assert p.returncode == 130, err
    assert "interrupted after" in out
    # multiprocessing's resource tracker outlives the runner by a moment (it ends when its
    # pipe closes); we are its subreaper now, so we reap it.  It is no engine.
    end = time.monotonic() + 30
    while time.monotonic() < end:
        try:
            if os.waitpid(trackers[0].pid, os.WNOHANG)[0]:
                break
        except ChildProcessError:
            break
        time.sleep(0.05)
    # strict: no worker, engine or tracker left, running or zombie (the test process is a
    # child subreaper, so an engine orphaned by a worker would be re-parented to it and be
    # seen here)
    assert not [c for c in workers + engines + trackers if c.is_running()]
    assert not stray_engines()


def test_engine_options_go_before_the_variant(tmp_path, stray_engines):
    """An engine whose variants come from a file (VariantPath, as with Fairy-Stockfish) knows
    the variant only after that option: the runner sends the engine's own options first, then
    UCI_Variant (as cutechess-cli does), so the engine plays the match's variant.  Sent the
    other way round, it would refuse the variant and answer chess moves: illegal moves."""
    ini = tmp_path / "defs.ini"
    ini.write_text("[knavish8]\n[shako:chess]\n")
    spec = fake("variantpath", 0, depth=1)
    spec = EngineSpec(spec.name, spec.cmd, options=(("VariantPath", str(ini)),), tc=spec.tc)
    log = tmp_path / "fake.log"
    cfg = MatchConfig("knavish8", [spec, cellfish("d1", depth=1)], games=2, max_plies=8)
    os.environ["FAKE_LOG"] = str(log)
    try:
        r = run_match(cfg)
    finally:
        del os.environ["FAKE_LOG"]
    sent = [ln.split() for ln in log.read_text().splitlines()]
    setopts = [ln[2] for ln in sent if ln[:1] == ["setoption"]]
    assert setopts[:2] == ["VariantPath", "UCI_Variant"]
    assert len(r.records) == 2
    for rec in r.records:
        assert rec["variant"] == "knavish8"
        assert "illegal" not in rec["reason"], rec["reason"]
        assert rec["plies"] == 8, rec       # both engines played out the move limit
        replay(rec)
    assert not stray_engines()


@pytest.mark.parametrize("sig", ["SIGTERM", "SIGKILL"])
def test_a_runner_stopped_by_a_signal_leaves_no_worker_or_engine(tmp_path, stray_engines, sig):
    """The runner alone (not its process group) is sent SIGTERM, as a service manager or a
    tournament script stops it, or SIGKILL, which it cannot catch, while two games run in two
    pool workers.  SIGTERM ends the run as Ctrl-C does (exit 130, the partial table); after
    SIGKILL each worker sees that it was re-parented and kills its engines and itself.  Either
    way no worker and no engine plays on as an orphan: they are all gone within 30 s."""
    import signal
    import time

    fake_cmd = f"{sys.executable} {FAKE} ok 0"
    p = subprocess.Popen(
        [*CELLFISH, "match", "--engine", "cmd=cellfish", "name=a",
         "--engine", f"cmd={fake_cmd}", "name=b", f"env.FAKE_LOG={tmp_path}/fake-{{pid}}.log",
         "--tc", "30+1", "--games", "6", "--concurrency", "2", "--records", str(tmp_path / "s.jsonl")],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 30
        fakes: list[int] = []
        while len(fakes) < 2 and p.poll() is None and time.monotonic() < deadline:
            fakes = [int(f.name[len("fake-"):-len(".log")]) for f in tmp_path.glob("fake-*.log")
                     if any(ln.startswith("position") for ln in f.read_text().splitlines())]
            time.sleep(0.05)
        assert len(fakes) == 2, p.poll()
        workers = [psutil.Process(psutil.Process(f).ppid()) for f in fakes]
        engines = [k for w in workers for k in w.children()]
        assert len(engines) == 4 and all(w.ppid() == p.pid for w in workers)
        p.send_signal(getattr(signal, sig))
        out, err = p.communicate(timeout=30)
        if sig == "SIGTERM":
            assert p.returncode == 130, err
            assert "interrupted after" in out
        else:
            assert p.returncode == -signal.SIGKILL
        end = time.monotonic() + 30
        left = workers + engines
        while left and time.monotonic() < end:
            for c in workers:              # re-parented to us (subreaper): reap them
                try:
                    os.waitpid(c.pid, os.WNOHANG)
                except ChildProcessError:
                    pass
            left = [c for c in workers + engines
                    if c.is_running() and c.status() != psutil.STATUS_ZOMBIE]
            time.sleep(0.1)
        assert not left, [c.pid for c in left]
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.communicate(timeout=30)
    for c in psutil.Process().children():      # the resource tracker, ended with its pipe
        if c.status() == psutil.STATUS_ZOMBIE:
            os.waitpid(c.pid, 0)
