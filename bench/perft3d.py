"""Perft speed on the 6x6x6 board: perft 3 of the Elefantnichtschach start (3,679,532 leaves;
target under 20 s).  Leaves are counted as len(legal moves) at depth 1, as in every perft here.

Usage: python bench/perft3d.py [--variant NAME] [--depth N] [--all]
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

EXPECTED = {  # docs/variants/nichtschach.md, Figures reproduced: start positions, perft 3
    "elefantnichtschach": 3679532, "generalnichtschach": 1326608, "schweinnichtschach": 3742056,
    "rajnichtschach": 3737436, "paschanichtschach": 3777168, "springernichtschach": 8613496,
    "baernichtschach": 1310044, "hummernichtschach": 3684152, "spaniennichtschach": 3714822,
    "springernichtschach-x": 8691294, "baernichtschach-x": 1310044,
}


def run(name: str, depth: int) -> int:
    import variants
    from engine.game import perft
    from engine.notation.position_text import parse

    v = variants.get(name)
    t0 = time.perf_counter()
    pos = parse(v, v.start_fen)
    perft(pos, 1)                       # compiles the tables
    t1 = time.perf_counter()
    n = perft(pos, depth)
    dt = time.perf_counter() - t1
    want = EXPECTED.get(name) if depth == 3 else None
    flag = "" if want is None else ("  ok" if n == want else f"  MISMATCH (expected {want})")
    print(f"{name:<24} perft {depth} = {n:>10,}  {dt:7.2f} s  {n / dt:>12,.0f} nodes/s"
          f"  (tables {t1 - t0:.2f} s){flag}")
    return 0 if want is None or n == want else 1


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--variant", default="elefantnichtschach")
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--all", action="store_true", help="every Flipped-return subvariant")
    a = ap.parse_args(argv)
    names = list(EXPECTED) if a.all else [a.variant]
    return max(run(n, a.depth) for n in names)


if __name__ == "__main__":
    sys.exit(main())
