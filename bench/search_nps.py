"""Search speed: nodes per second of the real searcher on start positions (and a chess
middlegame, and two shogi positions of move 46 with pieces in both hands, where drops make
most of the moves), in-process, a fixed time each.

    cellfish bench search [--time S] [--variants chess,shogi,...]
"""
from __future__ import annotations

import argparse
import threading
import time

import variants
from engine.search import TT, Limits, Searcher
from engine.notation.move_text import move_text
from engine.notation.position_text import parse

POSITIONS = {
    "chess": [None, "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"],
    "shogi": [None, "ln4g1l/1r1kp4/pppp3p1/4P+P3/P7p/6P2/1P4NPP/3+s2GKR/L5+pNL[BGNbgsssppp] w 0 46",
              "lnlg4l/1rk6/pppp4p/7+S1/4B3s/1G1PBPP2/LP2P1NPP/6GK1/1N+r3S2[NPPPPgspp] w 1 46"],
}


def measure(name: str, fen: str | None, seconds: float, hash_mb: int = 16):
    v = variants.get(name)
    pos = parse(v, fen or v.start_fen)
    s = Searcher(v, TT(hash_mb))
    depth = [0]
    t0 = time.monotonic()
    best, _, score = s.search(pos, Limits(movetime=seconds), threading.Event(),
                              lambda i: depth.__setitem__(0, i["depth"]))
    dt = time.monotonic() - t0
    return {"variant": name, "position": fen or "startpos", "nodes": s.nodes, "seconds": dt,
            "nps": int(s.nodes / dt), "depth": depth[0], "best": move_text(v, best, "uci") if best else None}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="cellfish bench search")
    ap.add_argument("--time", type=float, default=5.0)
    ap.add_argument("--variants", default="chess,shogi")
    a = ap.parse_args(argv)
    names = variants.names() if a.variants == "all" else a.variants.split(",")
    for name in names:
        for fen in POSITIONS.get(name, [None]):
            r = measure(name, fen, a.time)
            print(f"{r['variant']:24s} {r['position'][:40]:40s} depth {r['depth']:2d} nodes {r['nodes']:8d} "
                  f"time {r['seconds']:5.2f} s  nps {r['nps']:7d}  best {r['best']}", flush=True)
    return 0
