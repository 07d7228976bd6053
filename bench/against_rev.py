"""Speed of this tree against an earlier revision of cellfish, in the same run: perft and a
fixed-depth search from each variant's start (with ``--middlegames``, the search from the
middlegame positions of ``MIDDLEGAMES`` instead, where a variant has them), each measured in a
fresh process by this tree's code and by the revision's (extracted with ``git archive``),
alternating, best of N rounds; the times are the process's CPU time (on a shared machine the
wall clock also counts the time other jobs hold the cores).  Each process builds its tables
before the clock starts: the generator's by a perft of depth 1, the attack tables (which a
search builds at its first attack test) by reading them, so that the figures are of the count
and the search alone.

The default revision is the last one where the seed games (Nichtschach, Ninepiece, Nested,
Notake) were Python modules; since then they are shipped variants files plus plugins, and
this shows whether that costs speed (issue 16: within 5%).

    cellfish bench against [--rev REV [--compiled] | --native] [--variants a,b] [--depth N] [--search-depth N]
                           [--rounds N] [--middlegames]

With ``--native`` the reference is this tree interpreted and "now" is the same tree running its
compiled build (``cellfish native --build``, made first if missing): what compiling gains, with
the same nodes.

A ratio above 1.00 means this tree is faster; where the two search different numbers of nodes
(a change of move order), the search's ratio is of the time to the depth, and the nodes per
second are shown beside it; every row also ends with the ratio of nodes per CPU second, the
figure to quote when the node counts differ.  Needs a git clone with the revision's history.
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

# variant -> middlegame positions (from games of cellfish against itself) for --middlegames
MIDDLEGAMES = {
    "knavish": [
        "1dn4n2/r2bqkb2r/ppppcppp1p/2c2nd1n1/5D1N1C/4P3p1/4PN2D1/1PCN1PPPPP/5KB2R/4Q2ND1 b - - 3 31",
        "4c2nd1/r2d1kb2r/p1bncppppp/2pnp1n1dq/1pNd2P3/1P1D4P1/2P2CD3/P1BPCPNB1P/R2DQ1KN1R/2N3D3 b kq - 3 31",
        "7nd1/r4kb2r/pp3pppp1/3dp3d1/P3n5/1P5n1p/4N2C1P/1c1PPNP1P1/3BK1D1D1/7N1R w - - 0 44",
        "2n7/r2d1kbn1r/pp1p1pnp1p/4q1d3/3d6/2pc2n3/6DCD1/PPPPP1P1PP/1DNB2KC1R/RDN4N2 b kq - 1 31",
        "1dnc3nd1/r2b2k3/1pp1p2pp1/1d6d1/3pNc4/7p2/2PP3P1P/P2D1PPBP1/R2D1K1ND1/2N4NDR b - - 2 31",
        "7n2/rdnb2k2r/pnppp1p3/1p1d3cpp/1P8/P6n2/2CNP5/1DPP1P1P1q/R3Q1BN2/2ND2KND1 b - - 1 31"],
    # move 16 of games of cellfish against itself (4 random plies, then depth 3)
    "elefantnichtschach": [
        "rubenr/pppppp/6/2P3/PP1PPP/R1BENR|nad1au/pppppp/6/6/1PP1PP/NAA2U|ek1lab/ppppp1/6/3K2/P1PPPP/E3YB|"
        "byl1ke/pppppp/6/6/fPPPPP/B1L1KE|ua3n/pppLpp/2p3/6/PPPPPP/UA1DAN|rne2r/ppp1pp/3p2/6/PPPPPP/RNEBUR "
        "w [DEKKLLNYdkkllnyfffp] 0 16",
        "r2enr/pppp1p/3p2/6/PPPP1P/RUBENR|nadga1/u2Lpp/2p3/6/PPPPPP/NADGAU|e1qlyb/pppp1p/3np1/6/PPPPPP/EKQLYB|"
        "b1lyke/pppppp/p5/6/PPPPPP/BYLQKE|uagda1/1p1ppp/1f4/3PG1/PP2PP/R2fAN|rnebur/pppppp/6/6/P1PPPP/1NEB1R "
        "w [ENFFFFrknnyf] 0 16",
        "r1benr/ppp1pp/6/P3P1/1PP2P/RUBENR|1adgau/pp1ppp/3pp1/6/PPPPPP/NADGAU|ekqlyb/pppp1p/5f/2U3/PPPPPP/EKQLYB|"
        "by1qke/pppppp/p4f/2PQ2/PP1PPP/BYLQKE|uagda1/1ppppp/3f2/6/1nPPPU/UAGDAN|rnebur/1ppppp/p5/2P3/P1PPBP/RNE2R "
        "w [NFff] 0 16"],
    "ninepiece-nichtschach": [
        "rg2ar/pp2pp/6/6/PPP1PP/RG1FR1|aScfbg/p1p1pp/3p2/6/P1PPP1/AsCNBG|fnuucs/ppp1p1/2pp2/1P4/PPPPP1/FNUUCS|"
        "scuunf/pp1ppp/6/6/PP1PPP/SCUUNF|gbncba/ppp1pp/6/6/PPPBPP/GB3A|ra1sgr/pp1ppp/2p3/6/PPPPPP/RAFSGR w [-] 0 16",
        "r2far/pp1p1p/6/6/2P1P1/RG1FAR|abcnbg/1p1g1p/p2p2/P5/PPP1P1/AB1NBG|fnuucs/p1pppp/4c1/6/PPPPPP/FNUUCS|"
        "scuunf/pppp1p/6/3C2/PPPPPP/SCUUNF|gbn1ba/pppppp/6/6/PPPPP1/GBNCBA|1(ra)fsgr/pppppp/6/5P/PPPPPP/RAFSGR "
        "w [-] 0 16",
        "Ggsfar/2pppp/c3p1/6/2PP2/2SF1R|3nbg/ppppp1/6/P4P/PPPPPP/ABCNBG|1nuucs/1ppppp/6/6/P1PPPP/FNUUCS|"
        "scuunf/pppppp/6/6/PPPPPP/SCUUNF|gbncba/pppppp/p5/P4P/1PPPPP/GBNCBA|rafsgr/1pp1pp/2p3/6/PPP1P1/RA1FGR "
        "w [-] 0 16"],
    "chess": [
        "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
        "r2q1rk1/pp2bppp/2n1pn2/3p4/3P1B2/2PB1N2/PP1N1PPP/R2QK2R w KQ - 0 10"],
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
# CPU time of this process: the wall clock also counts the time other jobs hold the cores
clock = time.process_time
t = clock(); n = perft(pos, depth); tp = clock() - t
for lazy in ("attacks", "attack_masks"):    # the attack tables, built on the search's first need
    try:
        getattr(v, lazy)
    except Exception:
        pass
nodes = 0
ts = tc = 0.0
for fen in json.loads(sys.argv[4]) if len(sys.argv) > 4 else [v.start_fen]:
    s = Searcher(v, TT(16))
    p = parse(v, fen)
    t = clock()
    s.search(p, Limits(depth=sdepth), threading.Event())
    ts += clock() - t
    nodes += s.nodes
try:
    from engine import _native
    compiled = _native.active is not None
except ImportError:
    compiled = False
tc = ts    # CPU time already (kept as its own field for the nodes-per-second ratio)
print(json.dumps({"perft": n, "perft_s": tp, "nodes": nodes, "search_s": ts, "search_cpu": tc,
                  "compiled": compiled}))
"""


def extract(rev: str, into: str) -> None:
    data = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", rev],
                          check=True, capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(data)) as tf:
        tf.extractall(into, filter="data")


def own_cache() -> str:
    """Where a revision's engine is compiled by that revision's own ``cellfish native --build``:
    apart from this tree's cache, whose builds are made by this tree's procedure (flags,
    profile-guided or not), so that a build made by another never stands in for it."""
    from engine import _native
    return str(_native.cache_root().parent / "native-own")


def build_own(tree: str) -> str | None:
    """Compile ``tree``'s engine as that tree does itself (``python -m cellfish native --build``
    with the tree first on the path) into ``own_cache()``; None, or the error."""
    env = dict(os.environ, PYTHONPATH=tree, CELLFISH_NATIVE_DIR=own_cache())
    try:
        out = subprocess.run([sys.executable, "-m", "cellfish", "native", "--build"], cwd=tree, env=env,
                             capture_output=True, text=True, timeout=1800)
    except (OSError, subprocess.TimeoutExpired) as e:
        return str(e)
    return None if out.returncode == 0 else (out.stdout + out.stderr).strip()[-400:]


def measure(tree: str, name: str, depth: int, sdepth: int, fens: list[str] | None = None,
            native: bool = False, cache: str | None = None) -> dict:
    """Perft and search figures of ``tree``'s engine in a fresh process; ``native``: its compiled
    build (``cellfish native``; from the cache folder ``cache`` when given), else its files as
    they read."""
    env = dict(os.environ, PYTHONPATH=tree, CELLFISH_NATIVE="1" if native else "0")
    if cache:
        env["CELLFISH_NATIVE_DIR"] = cache
    args = [name, str(depth), str(sdepth)] + ([json.dumps(fens)] if fens else [])
    out = subprocess.run([sys.executable, "-c", WORKER, *args], env=env,
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
    ap.add_argument("--native", action="store_true",
                    help="this tree interpreted against its compiled build (cellfish native), "
                         "instead of a revision")
    ap.add_argument("--compiled", action="store_true",
                    help="with --rev: both trees run their compiled builds (cellfish native), each "
                         "built first when missing")
    ap.add_argument("--middlegames", action="store_true",
                    help="search the variant's middlegame positions (MIDDLEGAMES) instead of its start")
    a = ap.parse_args(argv)
    names = [n for n in a.variants.split(",") if n]
    with tempfile.TemporaryDirectory(prefix="cellfish-rev-") as tmp:
        if a.native:
            from cellfish.native import build
            ref, now = str(ROOT), str(ROOT)
            error = build(ROOT / "engine")
            if error:
                print(f"cannot build the compiled engine: {error}")
                return 2
            print(f"this tree interpreted (ref) against its compiled build (now), best of {a.rounds} rounds "
                  "each, alternating; ratio > 1: faster compiled")
        else:
            ref, now = tmp, str(ROOT)
            try:
                extract(a.rev, ref)
            except (subprocess.CalledProcessError, OSError) as e:
                print(f"cannot extract revision {a.rev}: {e} (a clone with its history is needed)")
                return 2
            if a.compiled:
                # each tree compiled by its own procedure: the revision's as it built itself
                from cellfish.native import build
                for tree, error in ((ref, build_own(ref)), (now, build(Path(now) / "engine"))):
                    if error:
                        print(f"cannot build the compiled engine of {tree}: {error}")
                        return 2
            print(f"this tree against {a.rev}" + (", both compiled" if a.compiled else "")
                  + f", best of {a.rounds} rounds each, alternating; ratio > 1: faster now")
        print(f"{'variant':<24} {'perft':>14} {'ref s':>7} {'now s':>7} {'ratio':>6}   "
              f"{'search nodes':>12} {'ref s':>7} {'now s':>7} {'ratio':>6}")
        rc = 0
        worst = 9.9
        for name in names:
            d0, s0 = DEFAULTS.get(name, (3, 4))
            d, sd = a.depth or d0, a.search_depth or s0
            fens = MIDDLEGAMES.get(name) if a.middlegames else None
            best: dict[str, dict] = {}
            for _ in range(a.rounds):
                for label, tree in (("ref", ref), ("now", now)):
                    r = measure(tree, name, d, sd, fens,
                                native=a.compiled or (a.native and label == "now"),
                                cache=own_cache() if a.compiled and label == "ref" else None)
                    if a.compiled and not r.get("compiled"):
                        print(f"{name}: the {label} tree did not load its compiled build")
                        return 2
                    b = best.get(label)
                    if b is None:
                        best[label] = r
                    else:
                        b["perft_s"] = min(b["perft_s"], r["perft_s"])
                        b["search_s"] = min(b["search_s"], r["search_s"])
                        b["search_cpu"] = min(b["search_cpu"], r["search_cpu"])
                        if (b["perft"], b["nodes"]) != (r["perft"], r["nodes"]):
                            print(f"{name}: figures differ between rounds")
                            rc = 1
            r0, r1 = best["ref"], best["now"]
            same = r0["perft"] == r1["perft"]
            rp = r0["perft_s"] / r1["perft_s"]
            rs = r0["search_s"] / r1["search_s"]
            # nodes per second of the search's CPU time (its process's, ``time.process_time``):
            # the ratio a loaded machine disturbs least (with the same nodes, the CPU times' ratio)
            rcpu = (r1["nodes"] * max(r0["search_cpu"], 1e-9)) / (max(r0["nodes"], 1) * max(r1["search_cpu"], 1e-9))
            worst = min(worst, rp, rs)
            print(f"{name:<24} {r1['perft']:>14,} {r0['perft_s']:7.2f} {r1['perft_s']:7.2f} {rp:6.2f}   "
                  f"{r1['nodes']:>12,} {r0['search_s']:7.2f} {r1['search_s']:7.2f} {rs:6.2f}"
                  f"   cpu {r0['search_cpu']:.2f} / {r1['search_cpu']:.2f} s, ratio {rcpu:.2f}"
                  + ("" if same else f"   PERFT DIFFERS (ref {r0['perft']:,})")
                  + ("" if r0["nodes"] == r1["nodes"] else
                     f"   search nodes differ (ref {r0['nodes']:,}); nodes/s ref "
                     f"{r0['nodes'] / r0['search_s']:,.0f}, now {r1['nodes'] / r1['search_s']:,.0f}")
                  + (f"   ({len(fens)} middlegames)" if fens else ""),
                  flush=True)
            if not same:
                rc = 1
        print(f"slowest ratio {worst:.2f} (target >= 0.95)")
        return rc


if __name__ == "__main__":
    sys.exit(main())
