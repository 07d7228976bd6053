"""A variant from a variants file against the same game written by hand, on this tree's engine,
in one run: perft and a fixed-depth search, each measured in a fresh process, the two
alternating, best of N rounds; the times are the process's CPU time, not the wall clock.

    cellfish bench module [--variants knavish,chess,shogi] [--depth N] [--search-depth N]
                          [--rounds N] [--start-only] [--compiled]

The pairs (file form, hand-written form):

* ``knavish``, ``knavish8``, ``knavish-kneader``, ``knavish-promotion``, ``knavish-returns``:
  the shipped ``variants/files/knavish.ini`` against ``bench/knavish_module.py``, the module the
  game was until f0fc727 ported to today's core with the file's pieces in the file's order, so
  both search the very same nodes;
* ``chess``: ``bench/fsf_chess.ini`` (Fairy-Stockfish's template written as a section) against
  the built-in chess (``variants/chess.py``); the built-in one has chess's square tables and
  pawn structure terms, which a file cannot name, so their searches differ and the search's
  nodes per second are compared;
* ``shogi``: a section ``[fsfshogi:shogi]`` against the built-in shogi (``variants/shogi.py``),
  compared the same way.

Each search runs from the start and from the middlegame positions the other benches use (Knavish
and chess: ``MIDDLEGAMES`` of ``bench/against_rev.py``; shogi: ``POSITIONS`` of
``bench/search_nps.py``).  A ratio above 1.00 means the file is faster.  ``--compiled`` runs the
engine's compiled build (``cellfish native``, made first when missing) in both; the variant
classes are interpreted in either engine.  The load average is printed before and after: on a
shared machine only ratios of one run mean anything.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# name -> (perft depth, search depth): a few seconds each, interpreted, on a small machine
DEFAULTS = {
    "knavish": (4, 5),
    "knavish8": (5, 6),
    "knavish-kneader": (4, 6),
    "knavish-promotion": (4, 6),
    "knavish-returns": (4, 6),
    "chess": (5, 6),
    "shogi": (4, 5),
}

# perft one ply deeper with --compiled (a few seconds there); the search is one ply deeper for all
COMPILED_DEEPER = ("knavish-kneader", "knavish-promotion", "knavish-returns", "shogi")

WORKER = r"""
import json, sys, threading, time
import variants
from engine.game import perft
from engine.notation.position_text import parse
from engine.search import TT, Limits, Searcher
form, name, depth, sdepth, fens = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), json.loads(sys.argv[5])
if form == "module":
    if name.startswith("knavish"):
        from bench.knavish_module import VARIANTS
        v = VARIANTS[name]()
    else:
        v = variants.get(name)
elif name == "chess":
    variants.load_file("bench/fsf_chess.ini")
    v = variants.get("fsfchess")
elif name == "shogi":
    import os, tempfile
    fd, path = tempfile.mkstemp(suffix=".ini")
    with os.fdopen(fd, "w") as f:
        f.write("[fsfshogi:shogi]\n")
    variants.load_file(path)
    os.unlink(path)
    v = variants.get("fsfshogi")
else:
    v = variants.get(name)
pos = parse(v, v.start_fen)
perft(pos, 1)
# CPU time of this process: on a shared machine the wall clock also counts the time other
# jobs hold the cores (it ran 3-5 times the CPU time here under a load of 6)
clock = time.process_time
t = clock(); n = perft(pos, depth); tp = clock() - t
nodes = 0
ts = 0.0
for fen in [v.start_fen] + fens:
    s = Searcher(v, TT(16))
    p = parse(v, fen)
    t = clock()
    s.search(p, Limits(depth=sdepth), threading.Event())
    ts += clock() - t
    nodes += s.nodes
from engine import _native
print(json.dumps({"perft": n, "perft_s": tp, "nodes": nodes, "search_s": ts,
                  "compiled": _native.active is not None, "class": type(v).__name__}))
"""


def middlegames(name: str) -> list[str]:
    from bench.against_rev import MIDDLEGAMES
    from bench.search_nps import POSITIONS
    if name in MIDDLEGAMES:
        return list(MIDDLEGAMES[name])
    return [f for f in POSITIONS.get(name, []) if f]


def measure(form: str, name: str, depth: int, sdepth: int, fens: list[str], native: bool) -> dict:
    """Perft and search figures of one form of the game in a fresh process of this tree."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), CELLFISH_NATIVE="1" if native else "0")
    out = subprocess.run([sys.executable, "-c", WORKER, form, name, str(depth), str(sdepth), json.dumps(fens)],
                         env=env, cwd=str(ROOT), capture_output=True, text=True, timeout=1800)
    if out.returncode:
        raise RuntimeError(f"{name} ({form}): {out.stderr.strip().splitlines()[-1:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="cellfish bench module", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variants", default="knavish,chess,shogi")
    ap.add_argument("--depth", type=int, help="perft depth for every variant")
    ap.add_argument("--search-depth", type=int, help="search depth for every variant")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--start-only", action="store_true", help="search the start position only")
    ap.add_argument("--compiled", action="store_true",
                    help="run the engine's compiled build (cellfish native) in both, made first when missing")
    a = ap.parse_args(argv)
    names = [n for n in a.variants.split(",") if n]
    unknown = [n for n in names if n not in DEFAULTS]
    if unknown:
        print(f"no hand-written form of {', '.join(unknown)} (known: {', '.join(DEFAULTS)})")
        return 2
    if a.compiled:
        from cellfish.native import build
        error = build(ROOT / "engine")
        if error:
            print(f"cannot build the compiled engine: {error}")
            return 2
    print(f"file (now) against hand-written (ref), {'compiled' if a.compiled else 'interpreted'} engine, "
          f"best of {a.rounds} rounds each, alternating; ratio > 1: the file is faster; load {load()}")
    print(f"{'variant':<18} {'perft':>11} {'ref s':>7} {'now s':>7} {'ratio':>6}   "
          f"{'nodes ref':>9} {'nodes now':>9} {'ref s':>7} {'now s':>7} {'ratio':>6} {'n/s ratio':>9}")
    rc = 0
    for name in names:
        d0, s0 = DEFAULTS[name]
        if a.compiled:                  # the compiled engine runs 3-6 times faster
            d0, s0 = d0 + (name in COMPILED_DEEPER), s0 + 1
        d, sd = a.depth or d0, a.search_depth or s0
        fens = [] if a.start_only else middlegames(name)
        best: dict[str, dict] = {}
        for _ in range(a.rounds):
            for label, form in (("ref", "module"), ("now", "file")):
                r = measure(form, name, d, sd, fens, a.compiled)
                if a.compiled and not r["compiled"]:
                    print(f"{name}: the compiled build was not loaded")
                    return 2
                b = best.setdefault(label, r)
                if b is not r:
                    b["perft_s"] = min(b["perft_s"], r["perft_s"])
                    b["search_s"] = min(b["search_s"], r["search_s"])
                    if (b["perft"], b["nodes"]) != (r["perft"], r["nodes"]):
                        print(f"{name}: figures differ between rounds")
                        rc = 1
        r0, r1 = best["ref"], best["now"]
        rp = r0["perft_s"] / r1["perft_s"]
        rs = r0["search_s"] / r1["search_s"]
        rn = (r1["nodes"] / r1["search_s"]) / (r0["nodes"] / r0["search_s"])
        print(f"{name:<18} {r1['perft']:>11,} {r0['perft_s']:7.2f} {r1['perft_s']:7.2f} {rp:6.2f}   "
              f"{r0['nodes']:>9,} {r1['nodes']:>9,} {r0['search_s']:7.2f} {r1['search_s']:7.2f} {rs:6.2f} {rn:9.2f}"
              + ("" if r0["perft"] == r1["perft"] else f"   PERFT DIFFERS (ref {r0['perft']:,})")
              + (f"   (start and {len(fens)} middlegames)" if fens else ""), flush=True)
        if r0["perft"] != r1["perft"]:
            rc = 1
    print(f"load {load()}")
    return rc


if __name__ == "__main__":
    sys.exit(main())
