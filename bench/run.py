"""`cellfish bench <name> [args]`: one table of subcommand -> function(argv) -> exit code.

To add a benchmark, add one entry to SUBCOMMANDS (the function is imported on use, so a
broken or slow module does not slow down the others)."""
from __future__ import annotations

import importlib
import sys

# name -> ("module:function", one-line help)
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "search": ("bench.search_nps:main", "search nodes per second on chess and shogi start positions"),
    "match": ("bench.match:main", "strength ladder: random mover, greedy mover, sunfish"),
    "latency": ("bench.latency:main", "uci->uciok from process start, stop->bestmove, isready"),
    "memory": ("bench.memory:main", "resident memory during a 10 s search (psutil)"),
    "perft": ("bench.perft_chess:main", "chess perft speed (bench/perft_chess.py)"),
    "perft3d": ("bench.perft3d:main", "3D (Nichtschach) perft speed (bench/perft3d.py)"),
    "against": ("bench.against_rev:main",
                "perft and fixed-depth search against an earlier revision, same run (default: the seed modules)"),
    "module": ("bench.file_vs_module:main",
               "a variant from a file against the same game written by hand (Knavish, chess, shogi), same run"),
    "ladder": ("bench.ladder:main",
               "cellfish against Fairy-Stockfish (npm, Node.js) at UCI_Elo levels: chess, knavish, shogi"),
    "soak": ("bench.soak:main",
             "N self-play games over every variant through the match runner: faults, memory, leftovers"),
    "all": ("bench.run:run_all", "search, latency, memory and a short match"),
}


def _resolve(spec: str):
    mod, fn = spec.split(":")
    return getattr(importlib.import_module(mod), fn)


def run_all(argv: list[str]) -> int:
    rc = 0
    for name in ("search", "latency", "memory"):
        print(f"== bench {name}", flush=True)
        rc |= _resolve(SUBCOMMANDS[name][0])([])
    print("== bench match --quick", flush=True)
    rc |= _resolve(SUBCOMMANDS["match"][0])(["--quick"])
    return rc


def usage() -> None:
    print("usage: cellfish bench <subcommand> [options]")
    for name, (_, text) in SUBCOMMANDS.items():
        print(f"  {name:10s} {text}")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help", "help"):
        usage()
        return 0
    entry = SUBCOMMANDS.get(argv[0])
    if entry is None:
        print(f"unknown bench subcommand: {argv[0]}")
        usage()
        return 2
    return int(_resolve(entry[0])(argv[1:]) or 0)


if __name__ == "__main__":
    sys.exit(main())
