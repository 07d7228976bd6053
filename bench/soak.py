"""Soak: many games of cellfish against itself in every variant the engine knows, through the
match runner, counting every fault a tournament manager would meet.

    cellfish bench soak [--games N] [--nodes N] [--hash MB] [--concurrency C]
                        [--random-plies P] [--max-plies P] [--variants a,b|all]
                        [--scheduler ADDRESS] [--records FILE] [--seed S]

The N games (default 1000) are spread evenly over the variants; each variant is one match of
two cellfish engines (the same command) at a node limit on a generous clock (60 s + 1 s, so a
time loss would mean the engine ignored its limits), each game from a different random
opening.  Locally the runner's worker processes reuse their engines from game to game, as a
tournament manager does, so an engine's memory is watched over many games; `--scheduler`
sends the games to a Dask cluster instead (memory is then not sampled: the engines are not
this machine's children).

Report: games, results and reasons per variant; faults (illegal moves, crashes, stalls, time
losses, protocol breaks, games without a result); the peak resident memory of each engine
process (psutil, sampled every 0.2 s) against base + Hash + margin, where base is the
variant's idle engine after `isready`; and the engine processes left over at the end.
Exit code 0 when there is no fault, no engine over its bound and nothing left over.
"""
from __future__ import annotations

import argparse
import collections
import os
import re
import threading
import time

import psutil

FAULTS = (("illegal move", r"plays an illegal move|plays no move"), ("crash", r"crashed"),
          ("stall", r"stalled"), ("time loss", r"loses on time"),
          ("protocol", r"broke the protocol"), ("runner error", r"runner error|aborted"))
MB = 1024 * 1024


def fault_of(rec: dict) -> str | None:
    reason = rec.get("reason", "")
    for name, pattern in FAULTS:
        if re.search(pattern, reason):
            return name
    if rec.get("result") not in ("1-0", "0-1", "1/2-1/2"):
        return "no result"
    return None


def reason_class(reason: str) -> str:
    """A reason without its particulars (names, counts, moves): 'checkmate', 'repetition'..."""
    return re.sub(r"\s*\(.*\)$", "", reason).strip() or "?"


def split_games(total: int, names: list[str]) -> dict[str, int]:
    base, extra = divmod(total, len(names))
    return {n: base + (i < extra) for i, n in enumerate(names)}


def is_engine(p: psutil.Process) -> bool:
    try:
        cmd = p.cmdline()
    except psutil.Error:
        return False
    return "-m" in cmd and "cellfish" in cmd and "bench" not in cmd and "match" not in cmd


class MemoryWatch:
    """Samples the resident memory of every cellfish engine below this process."""

    def __init__(self, every: float = 0.2):
        self.every = every
        self.peak: dict[int, int] = {}
        self.variant_of: dict[int, str] = {}
        self.procs: dict[int, psutil.Process] = {}
        self.variant = ""
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        me = psutil.Process()
        while not self._stop.wait(self.every):
            for p in me.children(recursive=True):
                if p.pid not in self.procs and not is_engine(p):
                    continue
                try:
                    rss = p.memory_info().rss
                except psutil.Error:
                    continue
                self.procs.setdefault(p.pid, p)
                self.variant_of.setdefault(p.pid, self.variant)
                self.peak[p.pid] = max(self.peak.get(p.pid, 0), rss)

    def left_over(self) -> list[psutil.Process]:
        """Engines seen during the run that still exist (running or zombie)."""
        out = []
        for p in self.procs.values():
            try:
                if p.is_running():
                    out.append(p)
            except psutil.Error:
                pass
        return out


def idle_rss(variant: str, hash_mb: int) -> int:
    """Resident memory of a fresh engine in `variant` after isready (tables built)."""
    from match.config import cellfish_command

    from .driver import EngineProcess

    e = EngineProcess(list(cellfish_command()))
    try:
        import variants
        dialect = "usi" if variants.get(variant).template == "shogi" else "uci"
        e.handshake(dialect, 60)
        e.send(f"setoption name Hash value {hash_mb}")
        e.send(f"setoption name {dialect.upper()}_Variant value {variant}")
        e.ready(60)
        return psutil.Process(e.proc.pid).memory_info().rss
    finally:
        e.close()


def main(argv: list[str] | None = None) -> int:
    import variants
    from match import EngineSpec, MatchConfig, TimeControl, cellfish_command, run_match
    from match.runner import dask_executor

    ap = argparse.ArgumentParser(prog="cellfish bench soak", description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--nodes", type=int, default=300, help="node limit per move")
    ap.add_argument("--hash", type=int, default=16, help="Hash of each engine, MB")
    ap.add_argument("--margin", type=int, default=24, help="MB allowed above base + Hash")
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--random-plies", type=int, default=6)
    ap.add_argument("--max-plies", type=int, default=300)
    ap.add_argument("--variants", default="all")
    ap.add_argument("--scheduler", default=None, help="Dask scheduler address")
    ap.add_argument("--records", default=None, help="JSON-lines file of every game")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    names = variants.names() if a.variants == "all" else a.variants.split(",")
    plan = {v: n for v, n in split_games(a.games, names).items() if n}
    tc = TimeControl(base_ms=60000, inc_ms=1000, nodes=a.nodes)
    cmd = cellfish_command()
    opts = (("Hash", str(a.hash)),)
    engines = [EngineSpec("cellfish-a", cmd, options=opts), EngineSpec("cellfish-b", cmd, options=opts)]
    if a.records and os.path.exists(a.records):
        os.remove(a.records)
    print(f"soak: {sum(plan.values())} games over {len(plan)} variants, nodes {a.nodes}, "
          f"Hash {a.hash} MB, {a.random_plies} random plies, max {a.max_plies} plies, "
          f"{'Dask ' + a.scheduler if a.scheduler else f'{a.concurrency} local workers'}", flush=True)
    watch = MemoryWatch()
    base: dict[str, int] = {}
    if not a.scheduler:
        for v in plan:
            base[v] = idle_rss(v, a.hash)
        watch.start()
    client = None
    executor = None
    if a.scheduler:
        executor, client = dask_executor(a.scheduler)
    t0 = time.monotonic()
    per_variant: dict[str, list[dict]] = {}
    errors: list[str] = []
    try:
        for i, (v, n) in enumerate(plan.items()):
            watch.variant = v
            cfg = MatchConfig(variant=v, engines=engines, tc=tc, games=n, random_plies=a.random_plies,
                              seed=a.seed * 1000 + i, max_plies=a.max_plies,
                              concurrency=a.concurrency, records=None)
            if a.records:
                cfg.records = f"{a.records}.{v}.jsonl"
            r = run_match(cfg, executor)
            per_variant[v] = r.records
            errors += r.errors
            print(f"  {v:24s} {len(r.records):4d} games in {r.elapsed_s:6.1f} s", flush=True)
    finally:
        if not a.scheduler:
            time.sleep(0.5)
            watch.stop()
        if client is not None:
            client.close()
    elapsed = time.monotonic() - t0
    if a.records:
        with open(a.records, "w") as out:
            for v in per_variant:
                part = f"{a.records}.{v}.jsonl"
                if os.path.exists(part):
                    with open(part) as f:
                        out.write(f.read())
                    os.remove(part)
    return report(per_variant, errors, watch, base, a, elapsed)


def report(per_variant, errors, watch, base, a, elapsed) -> int:
    faults: collections.Counter = collections.Counter()
    total = 0
    print(f"\n{'variant':24s} {'games':>5s} {'1-0':>4s} {'0-1':>4s} {'draw':>4s} {'faults':>6s} "
          f"{'plies/game':>10s}  reasons")
    for v, recs in per_variant.items():
        res = collections.Counter(r.get("result") for r in recs)
        reasons = collections.Counter(reason_class(r.get("reason", "")) for r in recs)
        fv = [f for f in (fault_of(r) for r in recs) if f]
        faults.update(fv)
        total += len(recs)
        plies = sum(r.get("plies", 0) for r in recs) / max(1, len(recs))
        print(f"{v:24s} {len(recs):5d} {res['1-0']:4d} {res['0-1']:4d} {res['1/2-1/2']:4d} "
              f"{len(fv):6d} {plies:10.0f}  "
              + ", ".join(f"{k} {c}" for k, c in reasons.most_common()))
    print(f"\n{total} games in {elapsed / 60:.1f} min")
    print("faults: " + (", ".join(f"{k} {faults[k]}" for k, _ in FAULTS if faults[k])
                        + (f", no result {faults['no result']}" if faults["no result"] else "")
                        if faults else "none")
          + " (illegal moves, crashes, stalls, time losses, protocol breaks, void games)")
    for e in errors[:10]:
        print(f"  runner: {e}")
    over = 0
    if base:
        print(f"\nmemory (peak RSS of each engine process; bound = idle base + Hash {a.hash} MB "
              f"+ margin {a.margin} MB):")
        print(f"{'variant':24s} {'engines':>7s} {'base MB':>8s} {'peak MB':>8s} {'bound MB':>8s}")
        by_v: dict[str, list[int]] = collections.defaultdict(list)
        for pid, peak in watch.peak.items():
            by_v[watch.variant_of[pid]].append(peak)
        for v, peaks in by_v.items():
            if v not in base:
                continue
            bound = base[v] + (a.hash + a.margin) * MB
            n_over = sum(p > bound for p in peaks)
            over += n_over
            print(f"{v:24s} {len(peaks):7d} {base[v] / MB:8.1f} {max(peaks) / MB:8.1f} "
                  f"{bound / MB:8.1f}" + (f"  {n_over} OVER" if n_over else ""))
        print(f"engine processes watched: {len(watch.peak)}, over the bound: {over}")
    left = watch.left_over() if base else []
    print(f"engine processes left over at the end: {len(left)}"
          + ("" if base else " (not checked under --scheduler)"))
    for p in left:
        print(f"  pid {p.pid}: {' '.join(p.cmdline()) if p.is_running() else '?'}")
    return 0 if not faults and not over and not left and not errors else 1
