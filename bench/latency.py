"""Protocol latencies measured on the real process through pipes:
uci -> uciok counted from process start, isready -> readyok during a search,
stop -> bestmove, quit -> exit during a search.

    cellfish bench latency [--runs N]
"""
from __future__ import annotations

import argparse
import statistics
import time

from .driver import EngineProcess

MIDDLE = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"


def _summary(label, xs, target_ms):
    ms = [1000 * x for x in xs]
    ok = "ok" if max(ms) < target_ms else "OVER"
    print(f"{label:34s} median {statistics.median(ms):7.1f} ms  max {max(ms):7.1f} ms  "
          f"(target < {target_ms} ms: {ok}, {len(ms)} runs)", flush=True)
    return max(ms) < target_ms


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="cellfish bench latency")
    ap.add_argument("--runs", type=int, default=5)
    a = ap.parse_args(argv)
    start, ready, stop, quit_ = [], [], [], []
    for _ in range(a.runs):
        e = EngineProcess()
        try:
            e.send("uci")
            out = e.until(lambda l: l == "uciok", 30)
            start.append(out[-1][0] - e.t_start)
            e.ready()
            e.send(f"position fen {MIDDLE}")
            e.send("go infinite")
            time.sleep(0.5)
            t0 = e.send("isready")
            out = e.until(lambda l: l == "readyok", 10)
            ready.append(out[-1][0] - t0)
            time.sleep(0.5)
            t0 = e.send("stop")
            out = e.until_prefix("bestmove", 10)
            stop.append(out[-1][0] - t0)
            e.send("go infinite")
            time.sleep(0.5)
            t0 = e.send("quit")
            e.wait_exit(10)
            quit_.append(time.monotonic() - t0)
        finally:
            e.close()
    ok = _summary("uci -> uciok from process start", start, 500)
    ok &= _summary("isready -> readyok during search", ready, 50)
    ok &= _summary("stop -> bestmove", stop, 50)
    ok &= _summary("quit -> exit during search", quit_, 100)
    return 0
