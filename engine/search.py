"""Iterative-deepening principal-variation search, generic over every variant.

The searcher owns no clock of its own: the caller passes ``Limits`` and a stop event; the
search checks both every few hundred nodes, so ``stop`` is answered at once.  Results are
reported through a callback, one call per completed depth (and per MultiPV line).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from .evaluate import Evaluator
from .game import game_result
from .movegen import in_check, legal_moves
from .moves import DROP, EP, SPECIAL

MATE = 1_000_000
MATE_BOUND = MATE - 10_000
INF = MATE + 1
EXACT, LOWER, UPPER = 0, 1, 2


@dataclass
class Limits:
    depth: int | None = None
    nodes: int | None = None
    movetime: float | None = None     # seconds, hard
    soft_time: float | None = None    # seconds: do not start a new depth after this
    hard_time: float | None = None    # seconds: abort the search after this
    mate: int | None = None           # moves
    infinite: bool = False
    searchmoves: list[int] = field(default_factory=list)
    multipv: int = 1


class Stop(Exception):
    pass


class TT:
    """Transposition table: a dict bounded by an entry count derived from megabytes."""
    ENTRY_BYTES = 160

    def __init__(self, mb: int = 16):
        self.resize(mb)

    def resize(self, mb: int):
        self.capacity = max(1024, int(mb * 1024 * 1024 / self.ENTRY_BYTES))
        self.table: dict[int, tuple] = {}

    def clear(self):
        self.table.clear()

    def get(self, key):
        return self.table.get(key)

    def put(self, key, entry):
        t = self.table
        if len(t) >= self.capacity and key not in t:
            # drop an arbitrary old quarter (insertion order = age)
            for k in list(t)[: self.capacity // 4]:
                del t[k]
        t[key] = entry

    def hashfull(self) -> int:
        return min(1000, len(self.table) * 1000 // self.capacity)


class Searcher:
    CHECK_EVERY = 255

    def __init__(self, variant, tt: TT | None = None):
        self.variant = variant
        self.ev = Evaluator(variant)
        self.tt = tt or TT()
        self.is_tactical_hook = getattr(variant, "is_tactical", None)
        self.adjudicate = variant.adjudicate
        self.nodes = 0

    # ---- helpers ------------------------------------------------------------------------
    def tactical(self, pos, m) -> bool:
        if self.is_tactical_hook is not None:
            return self.is_tactical_hook(pos, m)
        frm = (m >> 8) & 255
        if frm == DROP:
            return False
        return bool(pos.board[m & 255]) or bool(m & EP) or bool((m >> 16) & 255)

    def order(self, pos, moves, ttmove, ply):
        b = pos.board
        val = self.ev.value
        killers = self.killers[ply] if ply < len(self.killers) else ()
        hist = self.history
        side = pos.side
        keyed = []
        for m in moves:
            if m == ttmove:
                k = 1 << 30
            else:
                to = m & 255
                frm = (m >> 8) & 255
                cap = b[to] if frm != DROP else 0
                if cap and (cap & 1) != side:
                    k = (1 << 24) + val[cap] * 16 - (val[b[frm]] >> 4)
                elif (m >> 16) & 255 and frm != DROP:
                    k = (1 << 23)
                elif m & SPECIAL and self.tactical(pos, m):
                    k = (1 << 22)
                elif m in killers:
                    k = (1 << 21)
                else:
                    k = hist.get((side, m), 0)
            keyed.append((k, m))
        keyed.sort(key=lambda km: km[0], reverse=True)
        return [m for _, m in keyed]

    def _check_limits(self):
        if self.stop_event.is_set():
            raise Stop
        if self.limits.nodes is not None and self.nodes >= self.limits.nodes:
            raise Stop
        if self.hard_deadline is not None and time.monotonic() >= self.hard_deadline:
            raise Stop

    # ---- the search ---------------------------------------------------------------------
    def search(self, pos, limits: Limits, stop_event, on_info=None):
        """Returns (best move, ponder move or None, score). best move is None when the side
        to move has no legal move."""
        self.limits = limits
        self.stop_event = stop_event
        self.nodes = 0
        self.seldepth = 0
        self.t0 = time.monotonic()
        self.hard_deadline = self.t0 + limits.hard_time if limits.hard_time is not None else None
        self.soft_deadline = self.t0 + limits.soft_time if limits.soft_time is not None else None
        if limits.movetime is not None:
            md = self.t0 + limits.movetime
            self.hard_deadline = md if self.hard_deadline is None else min(md, self.hard_deadline)
        self.killers = [[0, 0] for _ in range(256)]
        self.history = {}
        root_moves = legal_moves(pos)
        if limits.searchmoves:
            root_moves = [m for m in root_moves if m in limits.searchmoves] or root_moves
        if not root_moves:
            return None, None, None
        best, ponder, best_score = root_moves[0], None, None
        max_depth = limits.depth or 128
        if limits.mate:
            max_depth = min(max_depth, 2 * limits.mate)
        multipv = max(1, min(limits.multipv, len(root_moves)))
        self.root_order = list(root_moves)
        for depth in range(1, max_depth + 1):
            excluded: list[int] = []
            lines = []
            try:
                for k in range(multipv):
                    cand = [m for m in self.root_order if m not in excluded]
                    score, pv = self.root(pos, cand, depth)
                    lines.append((score, pv))
                    excluded.append(pv[0])
            except Stop:
                if lines and lines[0][1]:
                    best, best_score = lines[0][1][0], lines[0][0]
                    ponder = lines[0][1][1] if len(lines[0][1]) > 1 else None
                break
            best_score, pv = lines[0]
            best = pv[0]
            ponder = pv[1] if len(pv) > 1 else None
            self.root_order = [pv[0]] + [m for m in self.root_order if m != pv[0]]
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
            if self.soft_deadline is not None and time.monotonic() >= self.soft_deadline:
                break
        return best, ponder, best_score

    def info(self, depth, score, pv, multipv):
        el = max(1e-6, time.monotonic() - self.t0)
        d = {"depth": depth, "seldepth": max(self.seldepth, depth), "score": score,
             "nodes": self.nodes, "nps": int(self.nodes / el), "time": int(el * 1000),
             "hashfull": self.tt.hashfull(), "pv": pv}
        if multipv:
            d["multipv"] = multipv
        return d

    def root(self, pos, moves, depth):
        alpha, beta = -INF, INF
        best_pv = [moves[0]]
        best = -INF
        for i, m in enumerate(moves):
            pos.make(m)
            if i == 0:
                score = -self.negamax(pos, depth - 1, -beta, -alpha, 1)
            else:
                score = -self.negamax(pos, depth - 1, -alpha - 1, -alpha, 1)
                if alpha < score < beta:
                    score = -self.negamax(pos, depth - 1, -beta, -alpha, 1)
            pos.unmake()
            if score > best:
                best = score
                best_pv = [m] + self.pv_after
                if score > alpha:
                    alpha = score
        return best, best_pv

    def negamax(self, pos, depth, alpha, beta, ply):
        self.nodes += 1
        if not (self.nodes & self.CHECK_EVERY):
            self._check_limits()
        self.pv_after = []
        r = self.adjudicate(pos)
        if r is not None:
            return self._result_score(r, ply)
        # repetition inside the search tree counts as a draw at once
        h = pos.hash
        if ply:
            hist = pos.history
            if h in hist[-2 - min(pos.halfmove, 100):-1]:
                return 0
        if depth <= 0:
            return self.quiesce(pos, alpha, beta, ply, 0)
        tte = self.tt.get(h)
        ttmove = 0
        if tte is not None:
            tdepth, tflag, tscore, ttmove = tte
            if tdepth >= depth and ply:
                s = self._from_tt(tscore, ply)
                if tflag == EXACT or (tflag == LOWER and s >= beta) or (tflag == UPPER and s <= alpha):
                    self.pv_after = [ttmove] if ttmove else []
                    return s
        moves = legal_moves(pos)
        if not moves:
            r = game_result(pos, moves)
            return self._result_score(r, ply) if r else 0
        v = self.variant
        if v.move_rule_plies and pos.halfmove >= v.move_rule_plies:
            return 0
        check = in_check(pos)
        if check:
            depth += 1
        moves = self.order(pos, moves, ttmove, ply)
        best = -INF
        best_move = moves[0]
        best_pv: list[int] = []
        alpha0 = alpha
        for i, m in enumerate(moves):
            pos.make(m)
            if i == 0:
                score = -self.negamax(pos, depth - 1, -beta, -alpha, ply + 1)
            else:
                red = 1 if (depth >= 3 and i >= 4 and not check and not self.tactical(pos, m)) else 0
                score = -self.negamax(pos, depth - 1 - red, -alpha - 1, -alpha, ply + 1)
                if alpha < score and (red or score < beta):
                    score = -self.negamax(pos, depth - 1, -beta, -alpha, ply + 1)
            pos.unmake()
            if score > best:
                best = score
                best_move = m
                best_pv = [m] + self.pv_after
                if score > alpha:
                    alpha = score
                    if score >= beta:
                        if not self.tactical(pos, m):
                            k = self.killers[ply] if ply < len(self.killers) else None
                            if k is not None and k[0] != m:
                                k[1] = k[0]
                                k[0] = m
                            key = (pos.side, m)
                            self.history[key] = self.history.get(key, 0) + depth * depth
                        break
        flag = EXACT if alpha0 < best < beta else (LOWER if best >= beta else UPPER)
        self.tt.put(h, (depth, flag, self._to_tt(best, ply), best_move))
        self.pv_after = best_pv
        return best

    def quiesce(self, pos, alpha, beta, ply, qply):
        self.nodes += 1
        if not (self.nodes & self.CHECK_EVERY):
            self._check_limits()
        if ply > self.seldepth:
            self.seldepth = ply
        self.pv_after = []
        moves = legal_moves(pos)
        if not moves:
            r = game_result(pos, moves)
            return self._result_score(r, ply) if r else 0
        stand = self.ev.evaluate(pos)
        if stand >= beta or qply >= 8:
            return stand
        if stand > alpha:
            alpha = stand
        tact = [m for m in moves if self.tactical(pos, m)]
        if not tact:
            return stand
        best_pv: list[int] = []
        for m in self.order(pos, tact, 0, min(ply, 255)):
            pos.make(m)
            r = self.adjudicate(pos)
            if r is not None:
                score = -self._result_score(r, ply + 1)
                self.pv_after = []
            else:
                score = -self.quiesce(pos, -beta, -alpha, ply + 1, qply + 1)
            pos.unmake()
            if score > alpha:
                alpha = score
                best_pv = [m] + self.pv_after
                if score >= beta:
                    break
        self.pv_after = best_pv
        return alpha

    @staticmethod
    def _result_score(r, ply):
        score, _reason = r
        if score > 0:
            return MATE - ply
        if score < 0:
            return -(MATE - ply)
        return 0

    @staticmethod
    def _to_tt(s, ply):
        if s >= MATE_BOUND:
            return s + ply
        if s <= -MATE_BOUND:
            return s - ply
        return s

    @staticmethod
    def _from_tt(s, ply):
        if s >= MATE_BOUND:
            return s - ply
        if s <= -MATE_BOUND:
            return s + ply
        return s
