"""Iterative deepening: the search's driver above the tree (``Searcher`` in ``search.py`` adds
the tree itself, ``negamax``).

It deepens one ply at a time from the root's legal moves, each depth through aspiration windows
(``aspiration``) around the last score, or one full window per line with MultiPV; it keeps the
best line of an unfinished depth for a stop (``iter_best``), reorders the root's moves by the
last depth's lines, and decides when to stop: the depth, node, mate and time limits of
``Limits`` (a soft deadline not to start a depth, a hard one checked inside the tree), a forced
move, a mate found.  Results go to a callback, one call per completed depth and line (``info``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import gc
import time

from .limits import Limits, Stop
from .movegen import legal_moves
from .ordering import _first
from .quiesce import Quiescence
from .tt import EXACT, INF, LOWER, MATE, MATE_BOUND, MAX_PLY, TT, UPPER

if TYPE_CHECKING:
    from threading import Event
    from typing import Callable

    from .position import Position


class Deepening(Quiescence):
    GC_YOUNG = 20_000         # the cyclic collector's young threshold while searching (see search)
    iter_best: tuple[int, list[int]] | None   # the depth's best root line so far (for a stop)
    tt: TT
    last_pv: list[int]

    def negamax(self, pos: Position, depth: int, alpha: int, beta: int, ply: int, do_null: bool,
                chk: bool | None = None) -> int:
        """The tree below the root (``Searcher.negamax``)."""
        raise NotImplementedError

    def search(self, pos: Position, limits: Limits, stop_event: Event,
               on_info: Callable | None = None) -> tuple[int | None, int | None, int | None]:
        """(best move, ponder move, score): None for a missing one (no legal move; the score also for a
        stop before any line).  The position is left as it was, also after a stop."""
        base = self._base = len(pos.stack)
        # CPython's default (700) runs the collector every few hundred nodes, as the TT and the
        # history fill, each time over every young object; the search makes almost no cycles.
        # Compiled, 4-6% more nodes per second in chess and Knavish middlegames (measured)
        old = gc.get_threshold()
        if old[0] < self.GC_YOUNG:
            gc.set_threshold(self.GC_YOUNG, old[1], old[2])
        try:
            return self._search(pos, limits, stop_event, on_info)
        finally:
            self._unwind(pos, base)
            if gc.get_threshold()[0] == self.GC_YOUNG:
                gc.set_threshold(old[0], old[1], old[2])

    def _unwind(self, pos: Position, base: int):
        """Take back what an aborted search left made (moves and null moves: ``unmake`` takes either)."""
        while len(pos.stack) > base:
            pos.unmake()

    def _search(self, pos: Position, limits: Limits, stop_event: Event,
                on_info: Callable | None) -> tuple[int | None, int | None, int | None]:
        self.limits = limits
        self.stop_event = stop_event
        self.nodes = 0
        self.seldepth = 0
        self.t0 = limits.start if limits.start is not None else time.monotonic()
        self.hard_deadline = self.t0 + limits.hard_time if limits.hard_time is not None else None
        self.soft_deadline = self.t0 + limits.soft_time if limits.soft_time is not None else None
        if limits.movetime is not None:
            md = self.t0 + limits.movetime
            self.hard_deadline = md if self.hard_deadline is None else min(md, self.hard_deadline)
        self.killers = [[0, 0] for _ in range(MAX_PLY + 8)]
        self.age_history()          # aged instead of forgotten
        self.ev.prime(pos)          # make keeps the evaluator's sum from here on (Position.acc)
        root_moves = legal_moves(pos)
        if limits.searchmoves:
            root_moves = [m for m in root_moves if m in limits.searchmoves] or root_moves
        if not root_moves:
            return None, None, None
        tte = self.tt.get(pos.hash)
        first = self.ordered(pos, root_moves, tte[3] if tte else 0, 0)
        best, ponder, best_score = first[0], None, None
        self.last_pv = [best]
        max_depth = min(limits.depth or MAX_PLY, MAX_PLY)
        if limits.mate:
            max_depth = min(max_depth, 2 * limits.mate)
        multipv = max(1, min(limits.multipv, len(root_moves)))
        self.root_order = first
        prev_score = None
        for depth in range(1, max_depth + 1):
            lines = []
            self._new_depth()
            try:
                if multipv == 1:
                    score, pv = self.aspiration(pos, depth, prev_score)
                    lines.append((score, pv))
                else:
                    excluded: list[int] = []
                    for _k in range(multipv):
                        cand = [m for m in self.root_order if m not in excluded]
                        score, pv = self.root(pos, cand, depth, -INF, INF)
                        lines.append((score, pv))
                        excluded.append(pv[0])
            except Stop:
                self._unwind(pos, self._base)
                if lines and lines[0][1]:
                    part_score, pv = lines[0]
                elif self.iter_best is not None:
                    part_score, pv = self.iter_best
                else:
                    pv = None
                # The unfinished depth counts only when it changes the move (or no depth was
                # finished): then its line is printed before bestmove.  Otherwise the last
                # printed line stands, so bestmove and ponder always match the last pv shown.
                if pv and (pv[0] != best or best_score is None):
                    best_score = part_score
                    if on_info and multipv == 1:
                        on_info(self.info(depth, best_score, pv, None))
                    best = pv[0]
                    ponder = pv[1] if len(pv) > 1 else None
                    self.last_pv = pv
                break
            best_score, pv = lines[0]
            prev_score = best_score
            best = pv[0]
            ponder = pv[1] if len(pv) > 1 else None
            self.last_pv = pv
            lead = [line[1][0] for line in sorted(lines, key=_first, reverse=True)]
            self.root_order = lead + [m for m in self.root_order if m not in lead]
            if on_info:
                for i, (score, line) in enumerate(lines):
                    on_info(self.info(depth, score, line, i + 1 if multipv > 1 else None))
            if abs(best_score) >= MATE_BOUND:
                mate_in = (MATE - abs(best_score) + 1) // 2
                if limits.mate and best_score > 0 and mate_in <= limits.mate:
                    break
                if not limits.infinite and depth > MATE - abs(best_score) + 2:
                    break
            if len(root_moves) == 1 and not limits.infinite and limits.depth is None \
                    and limits.nodes is None and limits.movetime is None and depth >= 2:
                break
            if self.soft_deadline is not None:
                now = time.monotonic()
                if now >= self.soft_deadline:
                    break
                # the next depth takes a few times longer than this one: do not start it
                # when it cannot finish before the hard limit
                spent = now - self.t0
                if self.hard_deadline is not None and self.hard_deadline > self.soft_deadline \
                        and now + 1.5 * spent > self.hard_deadline:
                    break
        if ponder is None and best is not None:
            ponder = self._ponder_from_tt(pos, best)
        return best, ponder, best_score

    def _ponder_from_tt(self, pos: Position, best: int):
        """A ponder move when the PV stops after the best move: the hash move of the reply."""
        pos.make(best)
        try:
            tte = self.tt.get(pos.hash)
            if tte is not None and tte[3] and tte[3] in legal_moves(pos):
                return tte[3]
            return None
        finally:
            pos.unmake()

    def _new_depth(self) -> None:
        # not assigned in _search itself: mypy would narrow it to None there, and mypyc trusts that
        self.iter_best = None

    def info(self, depth: int, score: int, pv: list[int], multipv: int | None) -> dict:
        el = max(1e-6, time.monotonic() - self.t0)
        d = {"depth": depth, "seldepth": max(self.seldepth, depth), "score": score,
             "nodes": self.nodes, "nps": int(self.nodes / el), "time": int(el * 1000),
             "hashfull": self.tt.hashfull(), "pv": pv}
        if multipv:
            d["multipv"] = multipv
        return d

    def aspiration(self, pos: Position, depth: int, prev: int | None) -> tuple[int, list[int]]:
        if prev is None or depth < 4 or abs(prev) >= MATE_BOUND:
            return self.root(pos, self.root_order, depth, -INF, INF)
        delta = 40
        alpha, beta = prev - delta, prev + delta
        while True:
            score, pv = self.root(pos, self.root_order, depth, alpha, beta)
            if score <= alpha:
                alpha = max(-INF, score - delta)
            elif score >= beta:
                beta = min(INF, score + delta)
                self.root_order = [pv[0]] + [m for m in self.root_order if m != pv[0]]
            else:
                return score, pv
            delta *= 4
            if delta > 2000:
                alpha, beta = -INF, INF

    def root(self, pos: Position, moves: list[int], depth: int, alpha: int, beta: int) -> tuple[int, list[int]]:
        self.root_depth = depth
        alpha0 = alpha
        best = -INF
        best_pv = [moves[0]]
        for i, m in enumerate(moves):
            pos.make(m)
            if i == 0:
                score = -self.negamax(pos, depth - 1, -beta, -alpha, 1, True)
            else:
                score = -self.negamax(pos, depth - 1, -alpha - 1, -alpha, 1, True)
                if alpha < score < beta:
                    score = -self.negamax(pos, depth - 1, -beta, -alpha, 1, True)
            pos.unmake()
            if score > best:
                best = score
                best_pv = [m] + self.pv_after
                if score > alpha:
                    alpha = score
                    if self.iter_best is None or score > self.iter_best[0] or i == 0:
                        self.iter_best = (score, best_pv)
                    if score >= beta:
                        break
        if best > -INF:
            flag = LOWER if best >= beta else (UPPER if best <= alpha0 else EXACT)
            self.tt.put(pos.hash, (depth, flag, best, best_pv[0]))
        return best, best_pv
