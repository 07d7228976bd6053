"""Random xiangqi games that seek repetitions, compared with Fairy-Stockfish (pyffish) at
every ply: the same legal moves and the same result (its ``is_optional_game_end`` and
``game_result`` through ``fsf_oracle.fsf_result``), so that repetitions judged by perpetual
check, by the chasing rule (``chasingRule = axf``) or drawn are met often.

A move is drawn with weights: the move back of the mover's previous move (a cycle), a move
after which the moved piece attacks a piece of the other side (a chase), a capture (seldom,
to keep the pieces), any other move.  Used by tests/test_xiangqi_chasing.py with a few
games; run as a script for a larger sweep::

    PYTHONPATH=. python tests/chase_oracle.py --games 200 --plies 120
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass, field

import pyffish
from fsf_oracle import fsf_result

import variants
from engine.game import game_result
from engine.movegen import legal_moves
from engine.moves import CELL, FROM_SHIFT
from engine.notation import move_text, parse_position

# start positions: the opening, and sparse middlegames where rooks, horses and cannons meet
FENS = (
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "3akab2/9/4b4/p3p3p/2n3c2/2P3r2/P3P3P/2N1B1C2/4A4/2BAK1R2 w - - 0 1",
    "2bak4/4a4/4b4/4p4/2r3n2/9/2C1P1N2/4B4/4A4/2BAK1R2 w - - 0 1",
    "4k4/4a4/9/9/2n1c4/9/9/4R4/9/3K5 w - - 0 1",
    "3k5/9/9/9/9/2r6/9/2N1C4/4A4/4K4 b - - 0 1",
)


@dataclass
class SweepLog:
    """What the games met: results by reason, plies compared, differences found."""
    reasons: dict[str, int] = field(default_factory=dict)
    plies: int = 0
    games: int = 0
    differences: list[tuple] = field(default_factory=list)
    examples: dict[str, tuple[str, list[str]]] = field(default_factory=dict)   # reason: a game


def _reverse(m: int) -> int:
    return ((m & CELL) << FROM_SHIFT) | ((m >> FROM_SHIFT) & CELL)


def play(name: str, games: int, plies: int, seed: str, fens: tuple[str, ...] = FENS,
         stop_on_difference: bool = True) -> SweepLog:
    """``games`` games of at most ``plies`` plies each, from the ``fens`` in turn: random
    moves, and from time to time a cycle (two moves, each side's, and their two moves back,
    twice over: a threefold repetition unless a move back is illegal), its moves chosen
    among those that attack a piece when there are some."""
    v = variants.get(name)
    rng = random.Random(seed)
    log = SweepLog()
    for g in range(games):
        fen = fens[g % len(fens)]
        pos = parse_position(v, fen)
        moves: list[str] = []
        plan: list[int] = []            # the moves of the cycle still to play
        warm = rng.randrange(0, plies // 2)     # random plies first, captures preferred
        for ply in range(plies + 1):
            legal = legal_moves(pos)
            ours = {move_text(v, m): m for m in legal}
            theirs = sorted(pyffish.legal_moves(name, fen, moves))
            r = game_result(pos, legal)
            expected = fsf_result(name, fen, moves, theirs)
            log.plies += 1
            if sorted(ours) != theirs or (r[0] if r else None) != expected:
                log.differences.append((fen, list(moves), r, expected))
                if stop_on_difference:
                    return log
                break
            if r is not None:
                log.reasons[str(r[1])] = log.reasons.get(str(r[1]), 0) + 1
                log.examples.setdefault(str(r[1]), (fen, list(moves)))
                break
            if plan and plan[0] not in legal:
                plan = []
            if plan:
                m = plan.pop(0)
            elif ply < warm:
                captures = [m for m in legal if pos.board[m & CELL]]
                m = rng.choice(captures if captures and rng.random() < 0.5 else legal)
            else:
                quiet = [m for m in legal if not pos.board[m & CELL]]
                chase = _chase_plan(pos, quiet, rng) if rng.random() < 0.3 else None
                if chase:
                    plan = chase
                    m = plan.pop(0)
                elif len(pos.stack) >= 2 and quiet and rng.random() < 0.2:
                    m = _chasing_choice(pos, quiet, rng)
                    pos.make(m)
                    legal2 = [x for x in legal_moves(pos) if not pos.board[x & CELL]]
                    pos.unmake()
                    if legal2:
                        pos.make(m)
                        reply = _chasing_choice(pos, legal2, rng)
                        pos.unmake()
                        plan = [reply, _reverse(m), _reverse(reply)] * 1 + [m, reply, _reverse(m),
                                                                          _reverse(reply)]
                else:
                    m = rng.choice(legal)
            moves.append(move_text(v, m))
            pos.make(m)
        log.games += 1
    return log


def _chase_plan(pos, quiet: list[int], rng: random.Random) -> list[int] | None:
    """A chase to play twice over, when the other side attacks a piece of the side to move:
    the piece steps away, a piece of the other side follows to attack it again, the piece
    steps back, the follower steps back."""
    b = pos.board
    v = pos.variant
    attacked = {t for s in pos.occ[pos.side ^ 1] for t in v._attacks_from(b[s], s, b)
                if b[t] and b[t] & 1 == pos.side}
    flights = [m for m in quiet if (m >> FROM_SHIFT) & CELL in attacked]
    rng.shuffle(flights)
    for flee in flights[:6]:
        pos.make(flee)
        follows = []
        for m in legal_moves(pos):
            if pos.board[m & CELL]:
                continue
            pos.make(m)
            b = pos.board
            if any(flee & CELL in v._attacks_from(b[s], s, b) for s in pos.occ[pos.side ^ 1]):
                follows.append(m)       # the fled piece attacked again (directly or not)
            pos.unmake()
        pos.unmake()
        if follows:
            follow = rng.choice(follows)
            return [flee, follow, _reverse(flee), _reverse(follow)] * 2
    return None


def _chasing_choice(pos, moves: list[int], rng: random.Random) -> int:
    """A move, three times in four one after which the moved piece attacks a piece."""
    hitting = []
    for m in moves:
        pos.make(m)
        if _attacked_by(pos, m & CELL):
            hitting.append(m)
        pos.unmake()
    return rng.choice(hitting) if hitting and rng.random() < 0.75 else rng.choice(moves)


def _attacked_by(pos, cell: int) -> set[int]:
    """The non-royal pieces of the side to move that the piece on ``cell`` (of the side
    that just moved) attacks."""
    v = pos.variant
    kinds = getattr(v, "_kind", None)
    if kinds is None:
        return set()
    b = pos.board
    return {t for t in v._attacks_from(b[cell], cell, b)
            if b[t] and b[t] & 1 == pos.side and kinds[b[t]] != "K"}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="xiangqi")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--plies", type=int, default=120)
    ap.add_argument("--seed", default="chase")
    ap.add_argument("--examples", action="store_true", help="print one game of each result")
    a = ap.parse_args(argv)
    t0 = time.monotonic()
    log = play(a.variant, a.games, a.plies, a.seed, stop_on_difference=False)
    print(f"{a.variant}: {log.games} games, {log.plies} plies compared with pyffish in "
          f"{time.monotonic() - t0:.1f} s")
    for reason, n in sorted(log.reasons.items(), key=lambda x: -x[1]):
        print(f"  {n:4d}  {reason}")
    if a.examples:
        for reason, (fen, moves) in sorted(log.examples.items()):
            print(f"  {reason}: {fen} moves {' '.join(moves)}")
    print(f"  {len(log.differences)} differences")
    for d in log.differences[:10]:
        print("   ", d)
    return 1 if log.differences else 0


if __name__ == "__main__":
    sys.exit(main())
