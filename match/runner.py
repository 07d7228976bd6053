"""Schedule the games of a match on any ``concurrent.futures.Executor`` and tally them.

Local runs use a process pool (``concurrency`` workers, spawned, so no state leaks from the
parent); ``--scheduler`` runs the very same ``play_game`` calls through a Dask
``distributed`` client's executor.  Records are written as games finish, in finishing order.
"""
from __future__ import annotations

import concurrent.futures as cf
import concurrent.futures.process  # noqa: F401  (BrokenProcessPool)
import math
import multiprocessing
import multiprocessing.util
import os
import signal
import threading
import time
import uuid
from fractions import Fraction
from dataclasses import dataclass, field, replace


import variants

from .config import ConfigError, EngineSpec, GameSpec, MatchConfig, TimeControl
from .engine import kill_all, kill_descendants, on_stop_signal
from .openings import load_openings, random_opening
from .records import RecordWriter
from .referee import ABORTS, close_cached, play_game, result_shares
from . import stats


def effective_tc(match_tc: TimeControl, own: TimeControl | None) -> TimeControl:
    """The engine's own clock/movetime replace the match's; its depth/nodes are added."""
    tc = match_tc
    if own is not None:
        if own.has_clock or own.movetime_ms is not None:
            tc = TimeControl(own.base_ms, own.inc_ms, own.byoyomi_ms, own.movetime_ms,
                             tc.depth, tc.nodes)
        if own.depth is not None or own.nodes is not None:
            tc = TimeControl(tc.base_ms, tc.inc_ms, tc.byoyomi_ms, tc.movetime_ms,
                             own.depth if own.depth is not None else tc.depth,
                             own.nodes if own.nodes is not None else tc.nodes)
    return tc


def pairings(n: int, tournament: str) -> list[tuple[int, int]]:
    if tournament == "gauntlet":
        return [(0, j) for j in range(1, n)]
    if tournament == "round-robin":
        return [(i, j) for i in range(n) for j in range(i + 1, n)]
    raise ConfigError(f"tournament must be round-robin or gauntlet ({tournament})")


def load_variant_files(paths: tuple[str, ...]) -> None:
    """Load variants files into this process (the runner, a worker); a bad file is a
    ConfigError naming its problems."""
    for path in paths:
        try:
            variants.load_file(path)
        except variants.VariantFileError as e:
            raise ConfigError(f"variants file {path}: " + "; ".join(str(p) for p in e.problems)) from None


def with_variant_path(e: EngineSpec, paths: tuple[str, ...]) -> EngineSpec:
    """The engine told to load the files (``setoption name VariantPath``) before the variant
    is set, unless its own settings name a VariantPath."""
    if not paths or any(k.lower() == "variantpath" for k, _ in e.options):
        return e
    return replace(e, options=tuple(("VariantPath", p) for p in paths) + e.options)


def build_games(cfg: MatchConfig) -> list[GameSpec]:
    files = tuple(os.path.abspath(p) for p in cfg.variant_files)
    load_variant_files(files)
    if cfg.variant not in variants.names():
        raise ConfigError(f"unknown variant ({cfg.variant})")
    try:
        variants.get(cfg.variant)
    except ImportError as e:
        raise ConfigError(f"variant {cfg.variant} is not available ({e})") from None
    if len(cfg.engines) < 2:
        raise ConfigError("a match needs at least two engines")
    if cfg.games < 1:
        raise ConfigError("games must be at least 1")
    names = [e.name for e in cfg.engines]
    if len(set(names)) != len(names):
        raise ConfigError(f"engine names must differ ({', '.join(names)}); set name=...")
    engines = [with_variant_path(e, files) for e in cfg.engines]
    tcs = [effective_tc(cfg.tc, e.tc) for e in cfg.engines]
    for e, tc in zip(cfg.engines, tcs):
        if not (tc.has_clock or tc.movetime_ms is not None or tc.depth or tc.nodes):
            raise ConfigError(f"no time control for {e.name}: give --tc, --movetime, --depth "
                              f"or --nodes (or per engine tc=, st=, depth=, nodes=)")
    pairs = pairings(len(cfg.engines), cfg.tournament)
    if cfg.openings:
        book = load_openings(cfg.variant, cfg.openings)
    else:
        book = None
    n_open = (cfg.games + 1) // 2
    openings = []
    for k in range(n_open):
        if book is not None:
            openings.append(book[k % len(book)])
        elif cfg.random_plies > 0:
            openings.append((None, random_opening(cfg.variant, cfg.random_plies, f"{cfg.seed}:{k}")))
        else:
            openings.append((None, ()))
    games = []
    idx = 0
    for g in range(cfg.games):
        for (a, b) in pairs:
            w, bl = (a, b) if g % 2 == 0 else (b, a)
            start, moves = openings[g // 2]
            games.append(GameSpec(
                index=idx, pair=(w, bl), variant=cfg.variant,
                white=engines[w], black=engines[bl], tc_white=tcs[w], tc_black=tcs[bl],
                start=start, opening=moves, max_plies=cfg.max_plies,
                time_margin_ms=cfg.time_margin_ms, stall_s=cfg.stall_s,
                handshake_s=cfg.handshake_s, opening_index=(g // 2) % len(book) if book else g // 2,
                variant_files=files))
            idx += 1
    return games


@dataclass
class PairScore:
    a: int
    b: int
    w: float = 0    # wins of a (a fractional result counts a share: ``MatchResult.add``)
    d: float = 0
    l: float = 0    # losses of a

    @property
    def n(self):
        return self.w + self.d + self.l


@dataclass
class MatchResult:
    engines: list[str]
    pairs: dict[tuple[int, int], PairScore]
    records: list[dict] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    sprt: dict | None = None
    interrupted: bool = False
    total: int = 0
    elapsed_s: float = 0.0

    def add(self, rec: dict) -> None:
        """Count a game: a win, a draw, a loss; a fractional result (Glinski's stalemate,
        ``3/4-1/4``) as its share of each, so the score stays the points (3/4: half a win
        and half a draw)."""
        self.records.append(rec)
        shares = result_shares(rec.get("result"))
        if shares is None:
            return
        w, b = rec["pair"]
        key = (min(w, b), max(w, b))
        ps = self.pairs[key]
        p = shares[0] if w == key[0] else shares[1]     # a's share
        if p in (0, 1) or p == Fraction(1, 2):
            if p == 1:
                ps.w += 1
            elif p == 0:
                ps.l += 1
            else:
                ps.d += 1
        elif p > Fraction(1, 2):
            ps.w += float(2 * p - 1)
            ps.d += float(2 - 2 * p)
        else:
            ps.d += float(2 * p)
            ps.l += float(1 - 2 * p)

    def engine_totals(self) -> list[tuple[int, int, int]]:
        t = [[0, 0, 0] for _ in self.engines]
        for ps in self.pairs.values():
            t[ps.a][0] += ps.w
            t[ps.a][1] += ps.d
            t[ps.a][2] += ps.l
            t[ps.b][0] += ps.l
            t[ps.b][1] += ps.d
            t[ps.b][2] += ps.w
        return [tuple(x) for x in t]

    def table(self) -> str:
        rows = []
        head = f"{'pairing':<36} {'games':>5} {'W':>4} {'D':>4} {'L':>4} {'score':>6} {'elo':>7} {'+/-':>6} {'LOS':>6}"
        rows.append(head)
        rows.append("-" * len(head))
        for (a, b), ps in self.pairs.items():
            label = f"{self.engines[a]} vs {self.engines[b]}"
            rows.append(self._row(label, ps.w, ps.d, ps.l))
        if len(self.engines) > 2:
            rows.append("")
            rows.append(f"{'engine (all its games)':<36} {'games':>5} {'W':>4} {'D':>4} {'L':>4} "
                        f"{'score':>6} {'elo':>7} {'+/-':>6} {'LOS':>6}")
            rows.append("-" * len(head))
            totals = self.engine_totals()
            order = sorted(range(len(self.engines)),
                           key=lambda i: -(totals[i][0] + 0.5 * totals[i][1]))
            for i in order:
                rows.append(self._row(self.engines[i], *totals[i]))
        if self.sprt:
            s = self.sprt
            rows.append("")
            rows.append(f"SPRT elo0={s['elo0']:g} elo1={s['elo1']:g} alpha={s['alpha']:g} beta={s['beta']:g}: "
                        f"LLR {s['llr']:.2f} [{s['lower']:.2f}, {s['upper']:.2f}] "
                        + (f"-> {s['decision']} accepted" if s["decision"] else "-> no decision"))
        if self.interrupted:
            rows.append("")
            rows.append(f"interrupted after {len(self.records)} of {self.total} games")
        if self.errors:
            rows.append("")
            rows.append(f"{len(self.errors)} game(s) could not be played: {self.errors[0]}")
        return "\n".join(rows)

    @staticmethod
    def _row(label, w, d, l) -> str:
        n = w + d + l
        if n == 0:
            return f"{label:<36} {0:>5}"
        p = (w + 0.5 * d) / n
        elo, margin = stats.elo_and_margin(w, d, l)
        return (f"{label:<36} {n:>5g} {w:>4g} {d:>4g} {l:>4g} {100 * p:>5.1f}% "
                f"{stats.fmt_elo(elo):>7} {stats.fmt_margin(margin):>6} {100 * stats.los(w, l):>5.1f}%")


def local_executor(concurrency: int) -> cf.Executor:
    """One game at a time: a thread (the engines are processes anyway).  More: a pool of
    spawned processes (a script calling run_match then needs the usual
    ``if __name__ == "__main__":`` guard of multiprocessing)."""
    if concurrency <= 1:
        return cf.ThreadPoolExecutor(max_workers=1)
    return cf.ProcessPoolExecutor(max_workers=max(1, concurrency),
                                  mp_context=multiprocessing.get_context("spawn"),
                                  initializer=_worker_init)


def dask_executor(address: str):
    """(executor, client) for an existing Dask cluster; needs `pip install cellfish[dask]`."""
    try:
        from distributed import Client
    except ImportError:
        raise ConfigError("--scheduler needs the Dask package: pip install 'cellfish[dask]'") from None
    client = Client(address)
    return client.get_executor(pure=False), client


def _worker_init() -> None:
    """Pool workers ignore Ctrl-C (the runner stops them itself, see _stop_pool), kill and
    reap their engines on SIGTERM, and close the engines they kept for reuse when they exit.
    A worker whose runner is gone without stopping it (killed by SIGKILL, or by a signal
    it had no time to pass on) notices that it was re-parented, kills and reaps its engines
    and exits, instead of playing on as an orphan."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, on_stop_signal(_worker_term))
    multiprocessing.util.Finalize(None, close_cached, exitpriority=10)
    threading.Thread(target=_watch_runner, args=(os.getppid(),), daemon=True,
                     name="runner-watch").start()


def _watch_runner(runner: int) -> None:
    while True:
        time.sleep(0.5)
        if os.getppid() != runner:
            kill_all()
            os._exit(1)


def _worker_term(signum, frame) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    kill_all()           # an engine must die with its worker, and be reaped by it
    os._exit(128 + signum)


def _stop_pool(ex: cf.Executor) -> None:
    """Stop a local process pool's workers and their engines at once (early stop, Ctrl-C):
    SIGTERM, on which each worker kills and reaps its engines and exits; a worker still
    there after 5 s is killed with its process tree.  The workers are waited for through
    their own multiprocessing objects: reaping them behind the pool's back would make it
    believe them alive for ever (its shutdown would spin)."""
    workers = list((getattr(ex, "_processes", None) or {}).values())
    for w in workers:
        try:
            w.terminate()
        except (OSError, ValueError):
            pass
    deadline = time.monotonic() + 5
    for w in workers:
        w.join(max(0.0, deadline - time.monotonic()))
    for w in workers:
        if w.is_alive():
            kill_descendants(w.pid)
            w.kill()
            w.join(5)


def _void_record(g: GameSpec, msg: str) -> dict:
    return {"game": g.index, "variant": g.variant, "white": g.white.name, "black": g.black.name,
            "engines": [g.white.name, g.black.name], "pair": list(g.pair), "result": "*",
            "reason": msg, "moves": [], "plies": 0}


def run_match(cfg: MatchConfig, executor: cf.Executor | None = None, progress=None) -> MatchResult:
    """Play the match; `executor` defaults to local workers (cfg.concurrency of them).
    `progress(done, total, result)` is called after every game.  Ctrl-C stops the run and
    returns the games so far with `result.interrupted` set."""
    run_id = uuid.uuid4().hex
    own = executor is None
    reuse = own if cfg.reuse_engines is None else cfg.reuse_engines
    games = [replace(g, run_id=run_id, reuse=reuse) for g in build_games(cfg)]
    result = MatchResult([e.name for e in cfg.engines],
                         {p: PairScore(*p) for p in pairings(len(cfg.engines), cfg.tournament)},
                         total=len(games))
    if cfg.sprt and len(cfg.engines) != 2:
        raise ConfigError("SPRT needs exactly two engines")
    writer = RecordWriter(cfg.records, cfg.pgn, cfg.variant, cfg.event)
    ex = local_executor(cfg.concurrency) if own else executor
    abort = ABORTS.setdefault(run_id, threading.Event())
    t0 = time.monotonic()
    futures = []
    early = False
    try:
        futures = [ex.submit(play_game, g) for g in games]
        by_future = dict(zip(futures, games))
        if progress:
            progress(0, len(games), result)
        for fut in cf.as_completed(futures):
            if fut.cancelled():
                continue
            g = by_future[fut]
            try:
                rec = fut.result()
            except cf.CancelledError:
                continue
            except cf.process.BrokenProcessPool:
                raise ConfigError("the local worker processes died (killed, out of memory, or "
                                  "a script that calls run_match without the "
                                  "`if __name__ == '__main__':` guard)") from None
            except Exception as e:   # a bug or a lost worker: this game is void, the run goes on
                msg = f"game {g.index + 1}: {type(e).__name__}: {e}"
                result.errors.append(msg)
                rec = _void_record(g, f"runner error ({msg})")
                writer.write_json(rec)
                result.records.append(rec)
            else:
                result.add(rec)
                writer.write(rec)
            if cfg.sprt:
                ps = next(iter(result.pairs.values()))
                elo0, elo1, alpha, beta = cfg.sprt
                llr, lo, hi, dec = stats.sprt_state(ps.w, ps.d, ps.l, elo0, elo1, alpha, beta)
                result.sprt = {"elo0": elo0, "elo1": elo1, "alpha": alpha, "beta": beta,
                               "llr": llr, "lower": lo, "upper": hi, "decision": dec}
            if progress:
                progress(len(result.records), len(games), result)
            if result.sprt and result.sprt["decision"]:
                early = True
                break
    except KeyboardInterrupt:
        early = True
        result.interrupted = True
    finally:
        abort.set()          # games still running in this process's threads stop at once
        if own and early and isinstance(ex, cf.ProcessPoolExecutor):
            _stop_pool(ex)   # the pool breaks and fails its pending futures itself
            ex.shutdown(wait=True)
        else:
            for f in futures:
                f.cancel()
            if own:
                ex.shutdown(wait=True, cancel_futures=True)
        close_cached(run_id)     # engines kept by games that ran in this process's threads
        ABORTS.pop(run_id, None)
        writer.close()
        result.elapsed_s = time.monotonic() - t0
    return result


def games_per_minute(result: MatchResult) -> float:
    n = len(result.records)
    return math.nan if result.elapsed_s <= 0 else 60.0 * n / result.elapsed_s
