"""Games per minute of the match runner: cellfish against itself in a 3D variant at a clock
(default Elefantnichtschach, 1 s + 0.1 s, concurrency 2, 4 games, the runner's 400-ply limit).

    python -m bench.match_speed [--variant V] [--tc 1+0.1] [--games 4] [--concurrency 2]
                                [--max-plies 400] [--records FILE]

Prints games per minute, plies per game, how the games ended and the clock figures (time
losses, least time left), so a change in the runner or the engine's time use shows at once.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if sys.path[0] != ROOT:          # `import match` must find the runner, not bench/match.py
    sys.path.insert(0, ROOT)

from match import EngineSpec, MatchConfig, cellfish_command, parse_tc, run_match  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="bench.match_speed", description=__doc__.split("\n\n")[0])
    p.add_argument("--variant", default="elefantnichtschach")
    p.add_argument("--tc", default="1+0.1")
    p.add_argument("--games", type=int, default=4)
    p.add_argument("--concurrency", type=int, default=2)
    p.add_argument("--max-plies", type=int, default=400)
    p.add_argument("--records", default=None)
    a = p.parse_args(argv)
    cmd = cellfish_command()
    engines = [EngineSpec("cellfish-a", cmd, cwd=ROOT), EngineSpec("cellfish-b", cmd, cwd=ROOT)]
    cfg = MatchConfig(a.variant, engines, tc=parse_tc(a.tc), games=a.games,
                      concurrency=a.concurrency, max_plies=a.max_plies or None,
                      random_plies=2, records=a.records)
    t0 = time.monotonic()
    r = run_match(cfg)
    wall = time.monotonic() - t0
    recs = r.records
    plies = [x.get("plies", 0) for x in recs]
    moves_ms = [t for x in recs for t in x.get("times_ms", [])]
    least = [c for x in recs for c in (x.get("clocks_ms") or []) if c is not None]
    print(f"variant {a.variant}, tc {a.tc}, concurrency {a.concurrency}, {len(recs)} games "
          f"in {wall:.1f} s: {60 * len(recs) / wall:.2f} games/min")
    print(f"plies per game: mean {sum(plies) / max(1, len(plies)):.1f}, min {min(plies, default=0)}, "
          f"max {max(plies, default=0)}; mean move time {sum(moves_ms) / max(1, len(moves_ms)):.0f} ms")
    print("endings: " + ", ".join(f"{n} x {why}" for why, n in Counter(
        x["reason"].split(" (")[0] for x in recs).most_common()))
    if least:
        print(f"clock left at the end (ms): min {min(least)}, max {max(least)}")
    print(r.table())
    return 0


if __name__ == "__main__":
    sys.exit(main())
