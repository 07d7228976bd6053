"""Protocol latencies measured on the real process through pipes, in every game family:
uci -> uciok counted from process start; during a search: isready -> readyok, stop ->
bestmove, quit -> exit; during `go perft`: isready -> readyok, stop -> the `perft
incomplete` line, quit -> exit.

    cellfish bench latency [--runs N] [--family NAME ...]

Targets: readyok and stop within 50 ms, exit within 100 ms, uciok within 500 ms.
"""
from __future__ import annotations

import argparse
import statistics
import time

from .driver import EngineProcess

MIDDLE = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"

# family -> (dialect, variant, a position command, a perft depth that runs for minutes)
FAMILIES = {
    "chess": ("uci", "chess", f"position fen {MIDDLE}", 7),
    "shogi": ("usi", "shogi", "position startpos", 6),
    "knavish": ("uci", "knavish", "position startpos", 6),
    "notake": ("usi", "notake-tow", "position startpos", 6),
    "3d": ("uci", "elefantnichtschach", "position startpos", 5),
    "ninepiece": ("uci", "ninepiece-nichtschach", "position startpos", 5),
    "nested": ("uci", "nested-a", "position startpos", 6),
}
TARGETS = {"uciok": 500, "isready": 50, "stop": 50, "quit": 100}
SETTLE = 0.5     # seconds the search or count runs before it is interrupted


def _start(dialect: str, variant: str, position: str) -> EngineProcess:
    e = EngineProcess()
    e.handshake(dialect, 30)
    name = "USI_Variant" if dialect == "usi" else "UCI_Variant"
    e.send(f"setoption name {name} value {variant}")
    e.send(position)
    e.ready(30)
    return e


def _interrupt(e: EngineProcess, go: str, ended, acc: dict, kind: str) -> None:
    """Start `go`, let it run, then time isready -> readyok and stop -> `ended`."""
    e.send(go)
    time.sleep(SETTLE)
    t0 = e.send("isready")
    out = e.until(lambda l: l == "readyok", 30)
    acc[f"isready during {kind}"].append(out[-1][0] - t0)
    time.sleep(SETTLE)
    t0 = e.send("stop")
    out = e.until(ended, 30)
    acc[f"stop during {kind}"].append(out[-1][0] - t0)


def _quit(e: EngineProcess, go: str, acc: dict, kind: str) -> None:
    e.send(go)
    time.sleep(SETTLE)
    t0 = e.send("quit")
    e.wait_exit(30)
    acc[f"quit during {kind}"].append(time.monotonic() - t0)


def measure(family: str, runs: int) -> dict[str, list[float]]:
    dialect, variant, position, depth = FAMILIES[family]
    acc: dict[str, list[float]] = {k: [] for k in (
        "uci -> uciok from process start", "isready during search", "stop during search",
        "quit during search", "isready during perft", "stop during perft", "quit during perft")}
    for _ in range(runs):
        for kind, go in (("search", "go infinite"), ("perft", f"go perft {depth}")):
            e = _start(dialect, variant, position)
            try:
                if kind == "search":
                    first = next(t for t, d, l in e.transcript if d == "<" and l in ("uciok", "usiok"))
                    acc["uci -> uciok from process start"].append(first - e.t_start)
                    _interrupt(e, go, lambda l: l.startswith("bestmove"), acc, kind)
                else:
                    _interrupt(e, go, lambda l: l.startswith("info string perft incomplete"), acc, kind)
                _quit(e, go, acc, kind)
            finally:
                e.close()
    return acc


def _target(label: str) -> int:
    return next(v for k, v in TARGETS.items() if k in label)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="cellfish bench latency")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--family", nargs="*", choices=sorted(FAMILIES), default=list(FAMILIES))
    a = ap.parse_args(argv)
    print(f"{'family':10s} {'event':34s} {'median':>9s} {'max':>9s}  target", flush=True)
    over = 0
    for fam in a.family:
        for label, xs in measure(fam, a.runs).items():
            ms = [1000 * x for x in xs]
            target = _target(label)
            ok = max(ms) < target
            over += not ok
            print(f"{fam:10s} {label:34s} {statistics.median(ms):7.1f}ms {max(ms):7.1f}ms  "
                  f"< {target} ms: {'ok' if ok else 'OVER'}", flush=True)
    print(f"{over} figure(s) over target", flush=True)
    return 0
