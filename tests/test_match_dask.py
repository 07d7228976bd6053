"""The match runner on a Dask cluster (local worker processes on loopback)."""
from __future__ import annotations

import io
import json
import os
import sys
from contextlib import redirect_stdout

from match_helpers import ROOT, replay

from match.records import to_pgn


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
