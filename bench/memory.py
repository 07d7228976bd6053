"""Resident memory of the engine process during a long search (psutil), against the
budget of 80 MB + Hash.

    cellfish bench memory [--seconds S] [--hash MB] [--variant NAME | --families]

`--families` measures one variant of every game family in turn (chess, shogi, knavish,
notake, 3D, ninepiece, nested), the same ones `bench latency` uses.
"""
from __future__ import annotations

import argparse
import time

import psutil

from .driver import EngineProcess


def measure(seconds: float, hash_mb: int, variant: str):
    e = EngineProcess()
    try:
        e.handshake()
        e.send(f"setoption name Hash value {hash_mb}")
        if variant != "chess":
            e.send(f"setoption name UCI_Variant value {variant}")
        e.ready()
        proc = psutil.Process(e.proc.pid)
        idle = proc.memory_info().rss
        e.send("position startpos")
        e.send("go infinite")
        peak = idle
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            time.sleep(0.2)
            peak = max(peak, proc.memory_info().rss)
        e.send("stop")
        out = e.until_prefix("bestmove", 10)
        hashfull = [l for _, l in out if " hashfull " in l]
        hf = hashfull[-1].split(" hashfull ")[1].split()[0] if hashfull else "?"
        return idle, peak, hf
    finally:
        e.close()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="cellfish bench memory")
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--hash", type=int, default=16)
    ap.add_argument("--variant", default="chess")
    ap.add_argument("--families", action="store_true", help="one variant of every family")
    a = ap.parse_args(argv)
    if a.families:
        from .latency import FAMILIES
        names = [f[1] for f in FAMILIES.values()]
    else:
        names = [a.variant]
    budget = 80 + a.hash
    mb = 1024 * 1024
    over = 0
    for name in names:
        idle, peak, hf = measure(a.seconds, a.hash, name)
        over += peak / mb > budget
        print(f"{name}: Hash {a.hash} MB, {a.seconds:.0f} s search: RSS idle {idle / mb:.1f} MB, "
              f"peak {peak / mb:.1f} MB, hashfull {hf} (budget {budget} MB: "
              f"{'ok' if peak / mb <= budget else 'OVER'})", flush=True)
    return 1 if over else 0
