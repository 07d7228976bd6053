"""Speed of this tree against an earlier revision of cellfish, in the same run: perft and a
fixed-depth search from each variant's start, each measured in a fresh process by this tree's
code and by the revision's (extracted with ``git archive``), alternating, best of N rounds.

The default revision is the last one where the seed games (Nichtschach, Ninepiece, Nested,
Notake) were Python modules; since then they are shipped variants files plus plugins, and
this shows whether that costs speed (issue 16: within 5%).

    cellfish bench against [--rev REV] [--variants a,b] [--depth N] [--search-depth N] [--rounds N]

A ratio above 1.00 means this tree is faster.  Needs a git clone with the revision's history.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODULES_REV = "fe3d44c"     # the seed games still Python modules (variants/nichtschach.py ...)

# variant -> (perft depth, search depth): a few seconds each on a small machine
DEFAULTS = {
    "elefantnichtschach": (3, 4),
    "springernichtschach-x": (3, 3),
    "ninepiece-nichtschach": (3, 3),
    "nested-a": (5, 5),
    "nested-b": (4, 5),
    "notake-approach": (4, 5),
    "notake-rifle": (4, 5),
}

WORKER = r"""
import json, sys, threading, time
import variants
from engine.game import perft
from engine.notation.position_text import parse
from engine.search import TT, Limits, Searcher
name, depth, sdepth = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
v = variants.get(name)
pos = parse(v, v.start_fen)
perft(pos, 1)
t = time.perf_counter(); n = perft(pos, depth); tp = time.perf_counter() - t
s = Searcher(v, TT(16))
t = time.perf_counter()
best, _, _ = s.search(pos, Limits(depth=sdepth), threading.Event())
ts = time.perf_counter() - t
print(json.dumps({"perft": n, "perft_s": tp, "nodes": s.nodes, "search_s": ts}))
"""


def extract(rev: str, into: str) -> None:
    data = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", rev],
                          check=True, capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(data)) as tf:
        tf.extractall(into, filter="data")


def measure(tree: str, name: str, depth: int, sdepth: int) -> dict:
    env = dict(os.environ, PYTHONPATH=tree)
    out = subprocess.run([sys.executable, "-c", WORKER, name, str(depth), str(sdepth)], env=env,
                         cwd=tree, capture_output=True, text=True, timeout=900)
    if out.returncode:
        raise RuntimeError(f"{name} in {tree}: {out.stderr.strip().splitlines()[-1:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="cellfish bench against", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rev", default=MODULES_REV)
    ap.add_argument("--variants", default=",".join(DEFAULTS))
    ap.add_argument("--depth", type=int, help="perft depth for every variant")
    ap.add_argument("--search-depth", type=int, help="search depth for every variant")
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args(argv)
    names = [n for n in a.variants.split(",") if n]
    with tempfile.TemporaryDirectory(prefix="cellfish-rev-") as ref:
        try:
            extract(a.rev, ref)
        except (subprocess.CalledProcessError, OSError) as e:
            print(f"cannot extract revision {a.rev}: {e} (a clone with its history is needed)")
            return 2
        print(f"this tree against {a.rev}, best of {a.rounds} rounds each, alternating; ratio > 1: faster now")
        print(f"{'variant':<24} {'perft':>14} {'ref s':>7} {'now s':>7} {'ratio':>6}   "
              f"{'search nodes':>12} {'ref s':>7} {'now s':>7} {'ratio':>6}")
        rc = 0
        worst = 9.9
        for name in names:
            d0, s0 = DEFAULTS.get(name, (3, 4))
            d, sd = a.depth or d0, a.search_depth or s0
            best: dict[str, dict] = {}
            for _ in range(a.rounds):
                for label, tree in (("ref", ref), ("now", str(ROOT))):
                    r = measure(tree, name, d, sd)
                    b = best.get(label)
                    if b is None:
                        best[label] = r
                    else:
                        b["perft_s"] = min(b["perft_s"], r["perft_s"])
                        b["search_s"] = min(b["search_s"], r["search_s"])
                        if (b["perft"], b["nodes"]) != (r["perft"], r["nodes"]):
                            print(f"{name}: figures differ between rounds")
                            rc = 1
            r0, r1 = best["ref"], best["now"]
            same = r0["perft"] == r1["perft"]
            rp = r0["perft_s"] / r1["perft_s"]
            rs = r0["search_s"] / r1["search_s"]
            worst = min(worst, rp, rs)
            print(f"{name:<24} {r1['perft']:>14,} {r0['perft_s']:7.2f} {r1['perft_s']:7.2f} {rp:6.2f}   "
                  f"{r1['nodes']:>12,} {r0['search_s']:7.2f} {r1['search_s']:7.2f} {rs:6.2f}"
                  + ("" if same else f"   PERFT DIFFERS (ref {r0['perft']:,})")
                  + ("" if r0["nodes"] == r1["nodes"] else f"   search nodes differ (ref {r0['nodes']:,})"),
                  flush=True)
            if not same:
                rc = 1
        print(f"slowest ratio {worst:.2f} (target >= 0.95)")
        return rc


if __name__ == "__main__":
    sys.exit(main())
