"""`cellfish bench ladder`: cellfish against Fairy-Stockfish at several UCI_Elo levels.

Fairy-Stockfish is the npm package fairy-stockfish-nnue.wasm run under Node.js through
bench/fsf_wrapper.js (which copies a VariantPath file into the WebAssembly file system).
The package is installed into a cache folder with `npm install` when missing. Games are
played by the match runner (match/, the code behind `cellfish match`) as a gauntlet:
cellfish against one Fairy-Stockfish per level, colours alternating. Per family it prints
games, W/D/L, score and cellfish's Elo on Fairy-Stockfish's UCI_Elo scale with a 95% margin.
"""
from __future__ import annotations

import argparse
import math
import os
import re
import shlex
import shutil
import subprocess
import sys
import threading
from collections import Counter

from match.config import EngineSpec, MatchConfig, cellfish_command, parse_tc
from match.runner import run_match
from match.stats import elo_and_margin, score_of

PACKAGE = "fairy-stockfish-nnue.wasm"
PACKAGE_VERSION = "1.1.12"
HERE = os.path.dirname(os.path.abspath(__file__))
WRAPPER = os.path.join(HERE, "fsf_wrapper.js")
ROOT = os.path.dirname(HERE)
# the Knavish family as cellfish ships it; Fairy-Stockfish ignores the cellfish ruling keys
# in it (docs/variant-files.md) and plays its own rule at those points
KNAVISH_INI = os.path.join(ROOT, "variants", "files", "knavish.ini")

# family -> (variant, VariantPath file or None); the dialect (UCI/USI) is the variant's own
FAMILIES: dict[str, tuple[str, str | None]] = {
    "chess": ("chess", None),
    "knavish": ("knavish", KNAVISH_INI),
    "shogi": ("shogi", None),
}
DIALECT = {"shogi": "usi"}


class SetupError(RuntimeError):
    pass


def cache_dir() -> str:
    return os.environ.get("CELLFISH_FSF_DIR") or os.path.join(
        os.path.expanduser("~"), ".cache", "cellfish", "fairy-stockfish")


def ensure_fsf(cache: str | None = None, log=print) -> str:
    """The package folder of Fairy-Stockfish, installed with npm when missing."""
    cache = cache or cache_dir()
    pkg = os.path.join(cache, "node_modules", PACKAGE)
    if shutil.which("node") is None:
        raise SetupError("Node.js is missing: `cellfish bench ladder` runs Fairy-Stockfish "
                         f"({PACKAGE}) under `node`; install Node.js (version 16 or newer)")
    if os.path.isfile(os.path.join(pkg, "stockfish.js")):
        return pkg
    if shutil.which("npm") is None:
        raise SetupError(f"npm is missing: it is needed once to install {PACKAGE} into {cache}")
    os.makedirs(cache, exist_ok=True)
    log(f"installing {PACKAGE}@{PACKAGE_VERSION} into {cache}")
    r = subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--prefix", cache,
                        f"{PACKAGE}@{PACKAGE_VERSION}"], capture_output=True, text=True)
    if r.returncode != 0 or not os.path.isfile(os.path.join(pkg, "stockfish.js")):
        raise SetupError(f"npm install {PACKAGE} failed: {(r.stderr or r.stdout).strip()[-400:]}")
    return pkg


def fsf_options(family: str, elo: int) -> tuple[tuple[str, str], ...]:
    """setoption pairs in the order sent: VariantPath first (the runner then sends the variant)."""
    _, path = FAMILIES[family]
    prefix = "USI" if DIALECT.get(family) == "usi" else "UCI"
    opts: list[tuple[str, str]] = []
    if path:
        opts.append(("VariantPath", path))
    opts += [(f"{prefix}_LimitStrength", "true"), (f"{prefix}_Elo", str(elo))]
    return tuple(opts)


def check_opponent(pkg: str, timeout: float = 60.0) -> None:
    """Start Fairy-Stockfish once and wait for its ``uciok``: a reference that cannot start
    would otherwise lose every game at its first move, and the ladder would print a rating
    made of forfeits."""
    if not os.path.isfile(WRAPPER):
        raise SetupError(f"{WRAPPER} is missing: the ladder runs Fairy-Stockfish through it "
                         "(a package installed without its data files?)")
    cmd = ["node", "--no-experimental-fetch", WRAPPER, pkg]
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    seen: list[str] = []
    ready = threading.Event()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            seen.append(line)
            if line.strip() == "uciok":
                ready.set()
                return
    threading.Thread(target=read, daemon=True).start()
    assert proc.stdin is not None
    proc.stdin.write("uci\n")
    proc.stdin.flush()
    ok = ready.wait(timeout)
    try:
        proc.stdin.write("quit\n")
        proc.stdin.flush()
        proc.wait(10)
    except (OSError, subprocess.TimeoutExpired):
        proc.kill()
    if not ok:
        err = proc.stderr.read() if proc.stderr else ""
        tail = (err or "".join(seen)).strip()[-400:]
        raise SetupError(f"Fairy-Stockfish gave no uciok within {timeout:.0f} s "
                         f"(exit code {proc.poll()}): {tail}")


def fsf_engine(pkg: str, family: str, elo: int) -> EngineSpec:
    cmd = ("node", "--no-experimental-fetch", WRAPPER, pkg)
    return EngineSpec(name=f"fsf-{elo}", cmd=cmd, options=fsf_options(family, elo))


def ladder_config(pkg: str, family: str, levels: list[int], games: int, tc: str,
                  concurrency: int, seed: int = 1, engine: tuple[str, ...] | None = None,
                  records: str | None = None) -> MatchConfig:
    """``engine``: the command of the cellfish to rate (default: this checkout's);
    ``records``: a prefix, the games going to ``<prefix>-<family>.jsonl`` (default: not kept)."""
    variant, _ = FAMILIES[family]
    engines = [EngineSpec(name="cellfish", cmd=engine or cellfish_command())]
    engines += [fsf_engine(pkg, family, elo) for elo in levels]
    return MatchConfig(variant=variant, engines=engines, tc=parse_tc(tc), games=games,
                       tournament="gauntlet", concurrency=concurrency, seed=seed,
                       event=f"cellfish bench ladder {family}",
                       records=f"{records}-{family}.jsonl" if records else None)


def ladder_elo(rows: list[tuple[int, int, int, int]]) -> tuple[float, float]:
    """Elo on the levels' scale from (level, W, D, L) rows, and its 95% margin.

    The rating R solves sum(score_i) = sum(n_i * E(R - level_i)) (logistic model, draws as
    half); its variance by the delta method from the observed per-game score variance.
    With one level this is that level plus match.stats.elo_and_margin. All-lost (or all-won)
    gives -inf (+inf) and an undefined margin."""
    rows = [r for r in rows if r[1] + r[2] + r[3] > 0]
    if not rows:
        return math.nan, math.nan
    n = sum(w + d + l for _, w, d, l in rows)
    s = sum(w + 0.5 * d for _, w, d, l in rows)
    if s <= 0:
        return -math.inf, math.nan
    if s >= n:
        return math.inf, math.nan
    if len(rows) == 1:
        lvl, w, d, l = rows[0]
        e, m = elo_and_margin(w, d, l)
        return lvl + e, m

    def excess(r: float) -> float:
        return sum((w + d + l) * score_of(r - lvl) for lvl, w, d, l in rows) - s

    lo, hi = min(r[0] for r in rows) - 2000.0, max(r[0] for r in rows) + 2000.0
    for _ in range(100):
        mid = (lo + hi) / 2
        if excess(mid) > 0:
            hi = mid
        else:
            lo = mid
    r = (lo + hi) / 2
    p_all = s / n
    var = sum(w * (1 - p_all) ** 2 + d * (0.5 - p_all) ** 2 + l * p_all ** 2 for _, w, d, l in rows)
    slope = sum((w + d + l) * score_of(r - lvl) * (1 - score_of(r - lvl)) for lvl, w, d, l in rows)
    slope *= math.log(10) / 400.0
    if var == 0 or slope == 0:
        return r, math.nan
    return r, 1.959964 * math.sqrt(var) / slope


def _fmt(x: float) -> str:
    return f"{x:.0f}" if math.isfinite(x) else ("-" if math.isnan(x) else ("+inf" if x > 0 else "-inf"))


def report(family: str, tc: str, levels: list[int], totals: list[tuple[int, int, int]]) -> str:
    """totals[i]: cellfish's W/D/L against levels[i]."""
    rows = [(lvl, *t) for lvl, t in zip(levels, totals)]
    out = [f"{family} ({tc})", f"  {'level':>8} {'games':>5} {'W':>3} {'D':>3} {'L':>3} {'score':>6}"]
    for lvl, w, d, l in rows + [("all", *map(sum, zip(*totals)))]:
        n = w + d + l
        sc = f"{(w + 0.5 * d) / n:.3f}" if n else "-"
        out.append(f"  {lvl!s:>8} {n:5d} {w:3d} {d:3d} {l:3d} {sc:>6}")
    elo, margin = ladder_elo(rows)
    out.append(f"  cellfish Elo on Fairy-Stockfish's UCI_Elo scale: {_fmt(elo)} +/- {_fmt(margin)} (95%)")
    return "\n".join(out)


def endings(records: list[dict]) -> Counter:
    """How the games ended, counted: a reason's figures (``no move within 325 ms``) are left
    out, so that each kind of ending is one count."""
    return Counter(re.sub(r" \(no move within \d+ ms\)", "", str(r.get("reason"))) for r in records)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="cellfish bench ladder", description=__doc__.splitlines()[0])
    ap.add_argument("--tc", default="10+0.1", help="time control, as for cellfish match (default 10+0.1)")
    ap.add_argument("--games", type=int, default=6, help="games per level (default 6)")
    ap.add_argument("--levels", default="1500,2000", help="Fairy-Stockfish UCI_Elo levels, comma separated")
    ap.add_argument("--concurrency", type=int, default=1)
    ap.add_argument("--families", default="chess,knavish,shogi", help=f"of {','.join(FAMILIES)}")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--engine", default=None,
                    help="command of the cellfish to rate, e.g. a wrapper running another revision "
                         "(default: this checkout's, with the running interpreter)")
    ap.add_argument("--records", metavar="PREFIX", default=None,
                    help="keep the games as JSON lines, one file per family: PREFIX-<family>.jsonl")
    a = ap.parse_args(argv)
    engine = tuple(shlex.split(a.engine)) if a.engine else None
    fams = [f.strip() for f in a.families.split(",") if f.strip()]
    bad = [f for f in fams if f not in FAMILIES]
    if bad:
        print(f"unknown family: {', '.join(bad)} (known: {', '.join(FAMILIES)})")
        return 2
    levels = [int(x) for x in a.levels.split(",") if x.strip()]
    try:
        pkg = ensure_fsf()
        check_opponent(pkg)
    except SetupError as e:
        print(f"error: {e}")
        return 2
    if engine is None:
        from cellfish.native import status
        print(f"cellfish engine: {status()}", flush=True)
    for fam in fams:
        cfg = ladder_config(pkg, fam, levels, a.games, a.tc, a.concurrency, a.seed, engine, a.records)
        res = run_match(cfg)
        totals = res.engine_totals()[1:]
        # engine_totals counts each Fairy-Stockfish's own result: turn it round for cellfish
        print(report(fam, a.tc, levels, [(l_, d, w) for w, d, l_ in totals]), flush=True)
        ends = endings(res.records)
        print("  endings: " + ", ".join(f"{k} {v}" for k, v in ends.most_common()), flush=True)
        for err in res.errors:
            print(f"  error: {err}")
        if res.interrupted:
            return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
