"""Quiescence: at the horizon, only material-changing moves are searched (captures, en
passant, promotions, and what the variant declares tactical), after standing pat.

A capture gains the piece's value plus what the variant's ``capture_gains`` adds (a frozen army,
a won game); a capture that wins the game at once is searched first and never pruned as too
small a gain or as a capture of a defended piece.

``Quiescence`` is a layer of the ``Searcher`` (SearchState, then MoveOrdering, then
Quiescence, then Searcher: one line of single inheritance, which mypyc can compile).
Variants with the generic legality filter test legality lazily after ``make``; variants with
their own filter get ``legal_moves`` (``_quiesce_full``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .game import game_result
from .movegen import attacked, evasions, in_check, legal_moves, legal_tactical, pinned_cells, pseudo_moves
from .moves import ACTED_SHIFT, CELL, EP, FISSION, FROM_SHIFT, FUSION, IN_PLACE, PROMO, SPECIAL, TYPE_MASK, TYPE_SHIFT
from .ordering import LAST, SLOT_BITS, MoveOrdering
from .search_state import NO_PV
from .tt import INF, MAX_PLY, result_score
from .variant import CAPTURE_WINS

if TYPE_CHECKING:
    from .position import Position


class Quiescence(MoveOrdering):
    def captures(self, pos: Position) -> list[int]:
        """Pseudo-legal captures, en-passant captures and promotions (plus the variant's
        extra moves), without the quiet moves and castling that quiescence never plays."""
        return pseudo_moves(pos, True)

    def quiesce(self, pos: Position, alpha: int, beta: int, ply: int, qply: int,
                chk: bool | None = None) -> int:
        self.nodes += 1
        if not (self.nodes & self.CHECK_MASK):
            self._check_limits()
        if ply > self.seldepth:
            self.seldepth = ply
        self.pv_after = NO_PV
        if not self.lazy:
            return self._quiesce_full(pos, alpha, beta, ply, qply)
        if not self.plain_adj:
            r = self.adjudicate(pos)
            if r is not None:
                return result_score(r, ply)
        side = pos.side
        them = side ^ 1
        check = chk if chk is not None else (qply < 2 and self.in_check(pos))
        if check:
            # evasions: every legal move, no standing pat
            if self.fast_evasions and pos.king[side] >= 0:
                moves = evasions(pos, pseudo_moves(pos, drops=False), pos.king[side], them, True)
            else:
                moves = pseudo_moves(pos)
            moves = self.ordered(pos, moves, 0, min(ply, MAX_PLY))
            best = -INF
            drop_hook = self.drop_hook
            royal = self.royal
            best_pv: list[int] = NO_PV
            for m in moves:
                if drop_hook is not None and (m >> FROM_SHIFT) & CELL == m & CELL and not m & IN_PLACE \
                        and not drop_hook(pos, m):       # a drop (moves.is_drop) the rule refuses
                    continue
                pos.make(m)
                if royal:
                    k = pos.king[side]
                    if k >= 0 and attacked(pos, k, them):
                        pos.unmake()
                        continue
                score = -self.quiesce(pos, -beta, -alpha, ply + 1, qply + 1)
                pos.unmake()
                if score > best:
                    best = score
                    if score > alpha:
                        alpha = score
                        best_pv = [m] + self.pv_after
                        if score >= beta:
                            break
            if best == -INF:
                r = game_result(pos, [])
                self.pv_after = NO_PV
                return result_score(r, ply) if r else 0
            self.pv_after = best_pv
            return best
        # the evaluation cache is read, not written: a quiescence node's position comes again
        # about one time in six (the tree's nodes one in two), and storing every one cost more
        # than the evaluations it saved (Knavish 4% more nodes per second, chess the same)
        stand = self.ecache.get(pos.hash)
        if stand is None:
            stand = self.ev.evaluate(pos)
        if stand >= beta or qply >= self.qplies or ply >= MAX_PLY:
            return stand
        if stand > alpha:
            alpha = stand
        b = pos.board
        val = self.value
        hook = self.is_tactical_hook
        extra = self.gains_hook(pos) if self.gains_hook is not None else None
        # sort entries (ordering.SLOT_BITS) of the moves kept: their key and their index in
        # cmoves and cgains (each move's gain)
        cand: list[float] = []
        cmoves: list[int] = []
        cgains: list[int] = []
        for m in self.captures(pos):
            frm = (m >> FROM_SHIFT) & CELL
            to = m & CELL
            if frm == to and not m & IN_PLACE:     # a drop (moves.is_drop)
                continue
            cap = b[to]
            if cap and (cap & 1) != side:
                gain = val[cap]
                if extra is not None:
                    if extra[cap] >= CAPTURE_WINS:
                        cand.append(float(((CAPTURE_WINS * 16) << SLOT_BITS) + LAST - len(cmoves)))
                        cmoves.append(m)
                        cgains.append(CAPTURE_WINS)    # wins: first, never pruned
                        continue
                    gain += extra[cap]
                if m & PROMO and not m & (FISSION | FUSION):
                    gain += val[((m >> TYPE_SHIFT) & TYPE_MASK) * 2 + side] - val[b[frm]]
                elif stand + gain + 200 <= alpha:
                    continue        # delta pruning
                cand.append(float(((gain * 16 - (val[b[frm]] >> 4)) << SLOT_BITS) + LAST - len(cmoves)))
                cmoves.append(m)
                cgains.append(gain)
            elif m & EP:
                cand.append(float(((100 * 16) << SLOT_BITS) + LAST - len(cmoves)))
                cmoves.append(m)
                cgains.append(100)
            elif m & PROMO and not m & (FISSION | FUSION):
                gain = val[((m >> TYPE_SHIFT) & TYPE_MASK) * 2 + side] - val[b[frm]]
                if gain > 0:
                    cand.append(float(((gain * 16) << SLOT_BITS) + LAST - len(cmoves)))
                    cmoves.append(m)
                    cgains.append(gain)
            elif hook is not None and hook(pos, m):
                cand.append(float(LAST - len(cmoves)))
                cmoves.append(m)
                cgains.append(0)
        if not cand:
            return stand
        cand.sort(reverse=True)
        royal = self.royal
        kcell = pos.king[side]
        # the check status is known (none) only for the first quiescence plies
        pinned = pinned_cells(pos, kcell, them) \
            if royal and self.fast_pins and qply < 2 and kcell >= 0 else None
        best_pv = NO_PV
        for e in cand:
            j = LAST - (int(e) & LAST)
            m = cmoves[j]
            gain = cgains[j]
            frm = (m >> FROM_SHIFT) & CELL
            # a capture by a more valuable piece of a defended piece loses material
            if gain and val[b[frm]] > gain + 50 and not m & PROMO and \
                    self.defence_test and attacked(pos, m & CELL, them):
                continue
            pos.make(m)
            if royal and (pinned is None or frm == kcell or frm in pinned or m & EP):
                k = pos.king[side]
                if k >= 0 and attacked(pos, k, them):
                    pos.unmake()
                    continue
            score = -self.quiesce(pos, -beta, -alpha, ply + 1, qply + 1)
            pos.unmake()
            if score > alpha:
                alpha = score
                best_pv = [m] + self.pv_after
                if score >= beta:
                    break
        self.pv_after = best_pv
        return alpha

    def _quiesce_full(self, pos: Position, alpha: int, beta: int, ply: int, qply: int) -> int:
        """Quiescence for variants with their own legality filter or win adjudication:
        stand pat first (unless in check), then the tactical legal moves.  Every legal move is
        generated, to see a stalemate, unless the variant's ``stalemate_risk`` rules it out."""
        check = qply < 2 and in_check(pos)
        stand = 0                       # standing pat is not an option in check
        if not check:
            hk: object = pos.hash   # boxed once for both dict calls (see tt.TT)
            cached = self.ecache.get(hk)
            stand = self._eval_store(pos, hk) if cached is None else cached
            if stand >= beta or qply >= min(4, self.qplies) or ply >= MAX_PLY:
                return stand
        if check or self.stalemate_hook is None or self.stalemate_hook(pos):
            moves = legal_moves(pos)
            if not moves:
                r = game_result(pos, moves)
                return result_score(r, ply) if r else 0
        else:
            # the variant rules out a stalemate here: the quiet moves are not generated
            moves = legal_tactical(pos)
            if not moves:
                return stand
        extra = self.gains_hook(pos) if self.gains_hook is not None else None
        if check:
            tact = moves
            best = -INF
        else:
            if stand > alpha:
                alpha = stand
            best = stand
            b = pos.board
            val = self.value
            side = pos.side
            tact = []
            for m in moves:
                if not self.tactical(pos, m):
                    continue
                p = b[m & CELL] if (m >> FROM_SHIFT) & CELL != m & CELL or m & IN_PLACE else 0
                if p and (p & 1) != side and not m & SPECIAL and not (m >> ACTED_SHIFT) & CELL \
                        and stand + val[p] + (extra[p] if extra else 0) + 200 <= alpha \
                        and not (m >> TYPE_SHIFT) & TYPE_MASK:
                    continue        # delta pruning of a plain capture
                tact.append(m)
            if not tact:
                return stand
        best_pv: list[int] = NO_PV
        for _, m in self.order(pos, tact, 0, min(ply, MAX_PLY), extra):
            pos.make(m)
            r = self.adjudicate(pos)
            if r is not None:
                score = -result_score(r, ply + 1)
                self.pv_after = NO_PV
            else:
                score = -self.quiesce(pos, -beta, -alpha, ply + 1, qply + 1)
            pos.unmake()
            if score > best:
                best = score
            if score > alpha:
                alpha = score
                best_pv = [m] + self.pv_after
                if score >= beta:
                    break
        self.pv_after = best_pv
        return best if check else alpha
