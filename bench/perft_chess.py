"""Chess perft speed of our core as a ratio of python-chess's, measured in one run.

Counting mode (both sides): leaves are counted without making the last move
(python-chess: legal_moves.count(); cellfish: len(legal_moves(pos))).  Two cellfish forms are
timed on the same positions: the built-in chess and chess loaded from a variants file
(bench/fsf_chess.ini, Fairy-Stockfish's template written as a section); each must count the
same leaves as python-chess.  Without python-chess (a plain ``pip install .``) only cellfish is
timed, its counts checked against the positions' known ones.  The first line says which
engine runs (compiled or interpreted, ``cellfish native``).
Usage: cellfish bench perft [--repeat N]   or   python bench/perft_chess.py
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

POSITIONS = [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 4),
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5),
    ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 4),
    ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 3),
    ("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 3),
]
# their leaf counts at those depths (the standard perft positions' published figures)
KNOWN = [197281, 97862, 674624, 422333, 62379, 89890]


def ref_perft(board, depth):
    if depth == 1:
        return board.legal_moves.count()
    n = 0
    for m in board.legal_moves:
        board.push(m)
        n += ref_perft(board, depth - 1)
        board.pop()
    return n


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="cellfish bench perft", description=__doc__)
    ap.add_argument("--repeat", type=int, default=1, help="runs per position (best time kept)")
    a = ap.parse_args(argv)
    from cellfish.native import status
    print(f"cellfish engine: {status()}")
    try:
        import chess
    except ImportError:
        chess = None
        print("python-chess is not installed (pip install chess, or the test extras): cellfish alone, "
              "its counts checked against the known ones")
    import variants
    from engine.game import perft
    from engine.notation.position_text import parse

    variants.load_file(str(Path(__file__).resolve().parent / "fsf_chess.ini"))
    forms = [("chess", variants.get("chess")), ("file", variants.get("fsfchess"))]
    tot = {name: 0.0 for name, _ in forms}
    tot_ref = 0.0
    tot_nodes = 0
    print(f"{'position':<40} {'depth':>5} {'nodes':>10} {'chess n/s':>11} {'file n/s':>10} "
          f"{'python-chess n/s':>17} {'ratio':>6} {'file':>6}")
    for (fen, depth), known in zip(POSITIONS, KNOWN):
        best = {name: float("inf") for name, _ in forms}
        best_r = float("inf")
        nr = known
        for _ in range(a.repeat):
            if chess is not None:
                b = chess.Board(fen)
                t = time.perf_counter()
                nr = ref_perft(b, depth)
                best_r = min(best_r, time.perf_counter() - t)
            for name, v in forms:
                pos = parse(v, fen)
                t = time.perf_counter()
                n = perft(pos, depth)
                best[name] = min(best[name], time.perf_counter() - t)
                if n != nr:
                    print(f"MISMATCH on {fen} ({name}): cellfish {n}, {'python-chess' if chess else 'known'} {nr}")
                    return 1
        for name in best:
            tot[name] += best[name]
        tot_ref += best_r
        tot_nodes += nr
        ref = (f"{nr / best_r:>17,.0f} {best_r / best['chess']:>6.2f} {best_r / best['file']:>6.2f}"
               if chess else f"{'-':>17} {'-':>6} {'-':>6}")
        print(f"{fen[:40]:<40} {depth:>5} {nr:>10} {nr / best['chess']:>11,.0f} {nr / best['file']:>10,.0f} {ref}")
    if chess is None:
        print(f"{'total':<40} {'':>5} {tot_nodes:>10} {tot_nodes / tot['chess']:>11,.0f} "
              f"{tot_nodes / tot['file']:>10,.0f}")
        return 0
    print(f"{'total':<40} {'':>5} {tot_nodes:>10} {tot_nodes / tot['chess']:>11,.0f} "
          f"{tot_nodes / tot['file']:>10,.0f} {tot_nodes / tot_ref:>17,.0f} "
          f"{tot_ref / tot['chess']:>6.2f} {tot_ref / tot['file']:>6.2f}")
    from engine import _native
    target = ">= 6x compiled (issue 48)" if _native.active else ">= 0.5x interpreted, goal >= 1.0x"
    print(f"ratio cellfish / python-chess (same counting mode): {tot_ref / tot['chess']:.2f}x "
          f"(target {target}); python-chess {chess.__version__}")
    print(f"ratio chess from a variants file (bench/fsf_chess.ini) / python-chess: "
          f"{tot_ref / tot['file']:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
