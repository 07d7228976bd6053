"""The match runner on a Dask cluster (local worker processes on loopback): a chess match
through the command line, Knavish, a 3D game and Nested B, SPRT, and a worker killed in the
middle of a game (the game is replayed on another worker or void with a reason)."""
from __future__ import annotations

import io
import json
import os
import sys
import threading
import time
from contextlib import redirect_stdout

import psutil
import pytest
from match_helpers import ROOT, fake, replay

from match import EngineSpec, MatchConfig, TimeControl, cellfish_command, run_match
from match.records import to_pgn


# ---- Dask --------------------------------------------------------------------------------------
# the scheduler's HTTP server binds port 8787 even without a dashboard; a free port instead, so
# clusters of two test processes at once do not collide (and warn)
FREE_PORT = "127.0.0.1:0"


def test_same_match_on_a_dask_cluster(tmp_path, stray_engines):
    """A real local cluster (two worker processes on loopback): the games are played by the
    Dask workers, as each record's `worker` shows, and replay."""
    import distributed

    from cellfish.match_cli import main
    out = tmp_path / "d.jsonl"
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  protocol="tcp", host="127.0.0.1",
                                  dashboard_address=FREE_PORT) as cl, distributed.Client(cl) as client:
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
    recs = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(recs) == 2 and all(x["result"] in ("1-0", "0-1", "1/2-1/2") for x in recs)
    for rec in recs:
        assert rec["worker"]["pid"] in worker_pids       # played in a Dask worker process
        assert rec["fresh"] == [True, True]              # no engine reuse on an executor
        replay(rec)
        assert to_pgn(rec).count("[Result ") == 1
    assert not stray_engines()


# ---- more Dask cases: other variants, SPRT, a worker killed mid-game ----------------------------
DEADLINE = 30.0


def local_cluster(n=2):
    import distributed
    return distributed.LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                    protocol="tcp", host="127.0.0.1", dashboard_address=FREE_PORT)


def cf(name, **tc):
    return EngineSpec(name, cellfish_command(), cwd=str(ROOT), tc=TimeControl(**tc))


def no_strays_left(stray_engines):
    """Wait (30 s at most) for engines orphaned by a dead worker to see the end of their input
    and exit, reaping them as they go; true when none is left."""
    end = time.monotonic() + DEADLINE
    while stray_engines() and time.monotonic() < end:
        stray_engines.reap()
        time.sleep(0.2)
    return not stray_engines()


@pytest.fixture(scope="module")
def dask_client():
    import distributed
    with local_cluster() as cl, distributed.Client(cl) as client:
        yield client


@pytest.mark.parametrize("variant,plies", [("knavish", 12), ("elefantnichtschach", 8),
                                           ("nested-b", 10)])
def test_other_variants_on_dask(dask_client, variant, plies, stray_engines):
    """Knavish, a 3D game and Nested B on Dask workers: every game finishes with a result
    and replays move by move through the rules core."""
    cfg = MatchConfig(variant, [cf("d1", depth=1), cf("n200", nodes=200)], games=2,
                      max_plies=plies, random_plies=2)
    r = run_match(cfg, dask_client.get_executor(pure=False))
    assert len(r.records) == 2 and not r.errors
    worker_pids = set(dask_client.run(os.getpid).values())
    for rec in r.records:
        assert rec["result"] in ("1-0", "0-1", "1/2-1/2"), rec["reason"]
        assert rec["worker"]["pid"] in worker_pids
        replay(rec)
    assert no_strays_left(stray_engines)


def test_sprt_on_dask(dask_client, stray_engines):
    """SPRT with the games on Dask: cellfish against an engine that always plays an illegal
    move is decided (H1) long before the 40 games, and the futures still queued are dropped."""
    cfg = MatchConfig("chess", [cf("cf"), fake("illegal", after=0)], tc=TimeControl(depth=1),
                      games=40, sprt=(0, 100, 0.1, 0.1), max_plies=10)
    r = run_match(cfg, dask_client.get_executor(pure=False))
    assert r.sprt["decision"] == "H1"
    assert len(r.records) < 40
    assert all(rec["result"] == "1-0" or rec["result"] == "0-1" for rec in r.records)
    assert "H1 accepted" in r.table()
    assert no_strays_left(stray_engines)


def test_a_worker_killed_mid_game(stray_engines):
    """A Dask worker process is killed while its game runs: the run still finishes, every game
    has a record (replayed on another worker, or void with the runner's reason), and no engine
    is left behind (the killed worker's engines see their input end and exit)."""
    import distributed
    with local_cluster() as cl, distributed.Client(cl) as client:
        worker_pids = set(client.run(os.getpid).values())
        cfg = MatchConfig("chess", [cf("a", movetime_ms=300), cf("b", movetime_ms=300)], games=2,
                          max_plies=24, random_plies=2)
        box = []
        t = threading.Thread(target=lambda: box.append(
            run_match(cfg, client.get_executor(pure=False))), daemon=True)
        t.start()
        victim = None
        end = time.monotonic() + DEADLINE
        while victim is None and time.monotonic() < end:     # a worker with a game running
            for pid in worker_pids:
                try:
                    kids = psutil.Process(pid).children(recursive=True)
                except psutil.Error:
                    continue
                if any("cellfish" in " ".join(k.cmdline()) for k in kids if k.is_running()):
                    victim = pid
                    break
            time.sleep(0.1)
        assert victim is not None, "no game started on a worker"
        psutil.Process(victim).kill()
        t.join(180)
        assert not t.is_alive(), "the run did not finish after a worker was killed"
    r = box[0]
    assert len(r.records) == 2
    for rec in r.records:
        if rec["result"] == "*":
            assert "runner error" in rec["reason"], rec["reason"]
        else:
            assert rec["result"] in ("1-0", "0-1", "1/2-1/2")
            assert rec["worker"]["pid"] != victim       # its game could not end there
            replay(rec)
    assert no_strays_left(stray_engines)
