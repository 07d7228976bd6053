"""Iterative-deepening principal-variation search, generic over every variant.

The searcher owns no clock: the caller passes ``Limits`` and a stop event, checked every 64 nodes, so
``stop`` is answered at once.  Results go to a callback, one call per completed depth (and MultiPV line).

The searcher's rooms: this file (iterative deepening, aspiration, root and negamax),
``quiesce.py`` (quiescence), ``ordering.py`` (move ordering), ``tt.py`` (transposition table
and mate scores), ``limits.py`` (limits and time allocation), ``evaluate.py``.

Speed:
* With the generic legality filter (no ``legal_moves`` override) the tree works on pseudo-legal moves and
  tests legality after ``make`` by one attack test on the own royal; a node with no legal move is scored by
  ``game_result``. Variants with their own legality filter get ``legal_moves`` at every node.
* Quiescence stands pat before it generates anything and searches only material-changing
  moves (captures, en passant, promotions, and what ``Variant.is_tactical`` declares);
  losing captures of defended pieces and captures that cannot reach alpha are skipped.
* Null-move pruning (``Position.make_null``; not in check, not without pieces beyond pawns and royals, only
  in plain royal-check games or where ``null_move_ok`` is set), reverse futility and futility pruning, late-move
  reductions and pruning (``reductions.py``), a ply less without a hash move (``IIR_DEPTH``), check extension,
  aspiration windows, mate-distance pruning, killers and history.
* In games without check (and without a drop filter) a futile node's quiet moves are pruned
  without being made, and are not even generated when a capture or the hash move comes
  first (``checkless``): the same moves are searched as when each was made and tested.
* Where check is an attack on the royal read from the attack tables (no hoppers), the same
  holds for a futile node's quiet moves and drops that give no check (``quiet_checks``),
  and in check only the moves that can end it are generated or made (``evasions``).
* In drop games the drops come only after the hash move, the captures and the killers failed to
  cut the node off (``staged_drops``); elsewhere quiet moves after the hash move and captures (``staged_quiets``).

What a variant can tell the searcher (all optional, declared on ``Variant``; which ones a
variant uses is read from its rule set, ``Variant.rules``, derived in ``engine/rules.py``):
* ``eval_terms(pos) -> int``: centipawns for the side to move, added to the generic
  evaluation (win conditions, paralysis, anything the tables cannot see);
* ``is_tactical(pos, m) -> bool``: moves that change material other than plain captures and
  promotions (acting on another cell, fission ...): searched in quiescence, never reduced;
* ``acted_result(pos, m) -> code``: for a tactical move that acts on the cell in its
  acted-on field, the code that piece will have after the move (0 = gone); the searcher
  then orders the move as a capture, by its material swing (recruiting an enemy piece
  gains twice its value, a demotion or promotion the difference);
* ``capture_gains(pos) -> list[int] | None``: by piece code, what taking that piece gains
  beyond its value (``CAPTURE_WINS``: the capture wins at once); quiescence orders and prunes
  captures by it and never prunes a winning one;
* ``null_move_ok``: True/False to allow or forbid null-move pruning (the default allows it
  only for plain royal-check games with the generic legality filter and no adjudication);
* ``PieceType.value``: a fixed value in centipawns instead of the mobility-derived one.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import gc
import time

from .evaluate import Evaluator
from .game import game_result
from .limits import Limits, Stop
from .movegen import attacked, evasions, in_check, legal_moves, pinned_cells, pseudo_moves, quiet_checks
from .moves import ACTED, CELL, DOUBLE, EP, FLAGS, FROM_SHIFT, IN_PLACE, TYPE_MASK, TYPE_SHIFT, UNMADE_NOT
from .ordering import K_BAD, K_KILLER, K_TACTICAL, NO_MOVE, REST_DROPS, REST_NONE, Picker, _first
from .quiesce import Quiescence
from .search_state import NO_PV
from .reductions import LMP_COUNT, REDUCTION
from .tt import EXACT, INF, LOWER, MATE, MATE_BOUND, MAX_PLY, TT, UPPER, from_tt, result_score, to_tt

if TYPE_CHECKING:
    from threading import Event
    from typing import Callable

    from .position import Position
    from .variant import Variant

__all__ = ["MATE", "MATE_BOUND", "TT", "Limits", "Searcher", "Stop"]


class Searcher(Quiescence):
    CHECK_MASK = 63
    IIR_DEPTH = 4             # nodes this deep without a hash move are searched a ply shallower
    ECACHE_SIZE = 1 << 17     # evaluations kept (about 12 MB at most)
    GC_YOUNG = 20_000         # the cyclic collector's young threshold while searching (see search)
    iter_best: tuple[int, list[int]] | None   # the depth's best root line so far (for a stop)

    def __init__(self, variant: Variant, tt: TT | None = None) -> None:
        v = variant
        self.variant = v
        self.ev = Evaluator(v)
        self.evaluate = self.ev.evaluate
        self.value = self.ev.value
        self.tt = tt or TT()
        r = v.rules             # the variant's rule set (engine/rules.py): nothing derived here
        self.is_tactical_hook = v.is_tactical if r.own_tactical else None
        self.acted_hook = v.acted_result if r.acted_result else None
        self.gains_hook = v.capture_gains if r.capture_gains else None
        # quiescence out of check takes only the legal tactical moves where no stalemate can come
        self.stalemate_hook = v.stalemate_risk if r.quiet_stalemates else None
        self.adjudicate = v.adjudicate
        self.plain_adj = not r.adjudicates
        # a repetition judged by the variant (xiangqi's perpetual check and chase), else a draw
        self.cycle_hook = v.judge_cycle if r.judges_cycles else None
        self.move_rule_hook = v.move_rule_extension if r.extends_move_rule else None
        self.lazy = r.lazy_legality
        self.royal = r.royal_attacks
        self.drop_hook = v.drop_legal if r.drop_rule else None
        self.null_ok = r.null_move
        self.move_rule = v.move_rule_plies or 0     # plies without a capture or pawn move: a draw
        self.qplies = v.quiescence_plies
        self.checkless = r.checkless
        self.checkless_captures = r.checkless_captures
        self.fast_pins = r.evasion_shortcut
        self.fast_evasions = r.fast_evasions
        self.staged_drops = r.staged_drops
        self.staged_quiets = r.staged_quiets
        tr = v.table_rules
        self.quiet_checks = tr.quiet_checks
        self.defence_test = tr.defence_test
        self.big = [c >= 2 and pt is not None and not pt.royal and not pt.pawn
                    for c, pt in enumerate(p for p in v.piece_types for _ in (0, 1))]
        self.nodes = 0
        self.seldepth = 0
        self.last_pv: list[int] = []
        self.ecache: dict[int, int] = {}
        self._warm_up()
        self.killers = [[0, 0] for _ in range(MAX_PLY + 8)]
        self.history: dict[int, int] = {}

    def _warm_up(self):
        """Build the variant's lazily compiled tables now rather than inside a timed search."""
        v = self.variant
        try:
            _ = v.table_list, v.promo, v.move_data
            if v.hands:
                _ = v.drops
            if self.royal:
                _ = v.attacks
        except Exception:       # a table the variant does not support: built (or not) on use
            pass

    # ---- helpers ------------------------------------------------------------------------
    def tactical(self, pos: Position, m: int) -> bool:
        if self.is_tactical_hook is not None:
            return self.is_tactical_hook(pos, m)
        if (m >> FROM_SHIFT) & CELL == m & CELL and not m & IN_PLACE:     # moves.is_drop
            return False
        if m & EP or (m >> TYPE_SHIFT) & TYPE_MASK:
            return True
        p = pos.board[m & CELL]
        return bool(p) and (p & 1) != pos.side

    def in_check(self, pos: Position) -> bool:
        if self.royal:
            k = pos.king[pos.side]
            return k >= 0 and attacked(pos, k, pos.side ^ 1)
        return in_check(pos)

    def _check_limits(self):
        if self.stop_event.is_set():
            raise Stop
        if self.limits.nodes is not None and self.nodes >= self.limits.nodes:
            raise Stop
        if self.hard_deadline is not None and time.monotonic() >= self.hard_deadline:
            raise Stop
    # ---- the search ---------------------------------------------------------------------
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
        # age the history instead of forgetting it
        self.history = {k: v >> 2 for k, v in self.history.items() if v >= 4} \
            if len(self.history) < 200_000 else {}
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

    def negamax(self, pos: Position, depth: int, alpha: int, beta: int, ply: int, do_null: bool,
                chk: bool | None = None) -> int:
        self.nodes += 1
        if not (self.nodes & self.CHECK_MASK):
            self._check_limits()
        self.pv_after = NO_PV
        if not self.plain_adj:
            r = self.adjudicate(pos)
            if r is not None:
                return result_score(r, ply)
        # repetition inside the tree (or of a game position) is a draw, unless the variant
        # judges the cycle (Variant.judge_cycle)
        h = pos.hash
        hist = pos.history
        i = len(hist) - 3
        lo = i + 3 - pos.halfmove - 1
        if lo < 0:
            lo = 0
        while i >= lo:
            if hist[i] == h:
                if self.cycle_hook is not None:
                    cr = self.cycle_hook(pos, len(hist) - 1 - i)
                    if cr is not None and cr[0]:
                        return result_score(cr, ply)
                return 0
            i -= 2
        if self.move_rule and pos.halfmove >= self.move_rule and (
                self.move_rule_hook is None
                or pos.halfmove - self.move_rule_hook(pos) >= self.move_rule):
            return 0
        if ply >= MAX_PLY:
            return self.ev.evaluate(pos)
        # mate-distance pruning
        if alpha < -MATE + ply:
            alpha = -MATE + ply
        if beta > MATE - ply - 1:
            beta = MATE - ply - 1
        if alpha >= beta:
            return alpha
        check = self.in_check(pos) if chk is None else chk
        if check and ply < 2 * self.root_depth + 8:
            depth += 1
        if depth <= 0:
            return self.quiesce(pos, alpha, beta, ply, 0, check)
        pv_node = beta - alpha > 1
        tte = self.tt.get(h)
        ttmove = 0
        if tte is not None:
            tdepth, tflag, tscore, ttmove = tte
            if tdepth >= depth and not pv_node:
                s = from_tt(tscore, ply)
                if tflag == EXACT or (tflag == LOWER and s >= beta) or (tflag == UPPER and s <= alpha):
                    return s
        if not ttmove and depth >= self.IIR_DEPTH:
            depth -= 1          # internal iterative reduction: no hash move, a ply less
        static = None
        if not check and not pv_node and abs(beta) < MATE_BOUND:
            static = self.ecache.get(h)
            if static is None:
                static = self._eval_store(pos, h)
            # reverse futility: far above beta near the leaves
            if depth <= 3 and static - 110 * depth >= beta:
                return static - 110 * depth
            # null move
            if do_null and self.null_ok and depth >= 3 and static >= beta and self._has_pieces(pos):
                nr = 3 if depth >= 6 else 2
                pos.make_null()
                score = -self.negamax(pos, depth - 1 - nr, -beta, -beta + 1, ply + 1, False)
                pos.unmake()
                if score >= beta:
                    return beta if score >= MATE_BOUND else score
        lazy = self.lazy
        side = pos.side
        them = side ^ 1
        royal = self.royal
        drop_hook = self.drop_hook
        best = -INF
        best_move = 0
        best_pv: list[int] = NO_PV
        alpha0 = alpha
        count = 0
        killers = self.killers[ply]
        tried = 0
        if lazy and ttmove and not ttmove & FLAGS and self._plausible(pos, ttmove):
            # the hash move first, before anything is generated: often it refutes at once
            if drop_hook is None or (ttmove >> FROM_SHIFT) & CELL != ttmove & CELL \
                    or ttmove & IN_PLACE or drop_hook(pos, ttmove):
                pos.make(ttmove)
                k = pos.king[side]
                if royal and k >= 0 and attacked(pos, k, them):
                    pos.unmake()
                else:
                    tried = ttmove
                    count = 1
                    score = -self.negamax(pos, depth - 1, -beta, -alpha, ply + 1, True)
                    pos.unmake()
                    best = score
                    best_move = ttmove
                    if pv_node:
                        best_pv = [ttmove] + self.pv_after
                    if score > alpha:
                        alpha = score
                        if score >= beta:
                            if not self.tactical(pos, ttmove):
                                self._reward(killers, ttmove, side, depth)
                            self.tt.put(h, (depth, LOWER, to_tt(best, ply), best_move))
                            self.pv_after = best_pv
                            return best
        futile = False
        fstatic = 0                     # the static score that makes quiet moves futile
        if static is not None and depth <= 2 and static + 150 * depth <= alpha:
            futile = True
            fstatic = static
        moves = None
        left_out = False                # quiet moves not generated: pruned as futile
        if futile and lazy and self.checkless_captures and (tried or not ttmove):
            # every quiet move after the first move searched is pruned unmade (below): when a
            # capture or the hash move comes first, the quiet moves need not be generated
            moves = pseudo_moves(pos, True)
            if moves or tried:
                left_out = True
            else:
                moves = None
        staged = None
        pk: Picker | None = None
        if moves is None:
            if lazy:
                if self.staged_quiets and not check and (tried or not ttmove):
                    # the quiet moves are generated only when the captures have not cut off
                    pk = self.staged_picker(pos, ttmove, ply)
                elif self.staged_drops and not check:
                    moves = pseudo_moves(pos, drops=False)
                    staged = self._first_drops(pos, moves, (ttmove, *killers))
                    moves += staged
                elif check and self.fast_evasions and pos.king[side] >= 0:
                    moves = evasions(pos, pseudo_moves(pos, drops=False), pos.king[side], them, True)
                else:
                    moves = pseudo_moves(pos)
            else:
                moves = legal_moves(pos)
                if not moves:
                    r = game_result(pos, moves)
                    return result_score(r, ply) if r else 0
        if pk is None:
            # staged drops: the others come once the keys fall below the killers' (_with_drops)
            pk = self.picker(pos, moves, ttmove, ply,          # type: ignore[arg-type]
                             REST_NONE if staged is None else REST_DROPS, staged)
        # not in check: only royal moves, moves of pinned pieces and en passant can expose
        # the royal piece (the rules core's own shortcut, for variants where it holds)
        kcell = pos.king[side]
        pinned = pinned_cells(pos, kcell, them) \
            if lazy and royal and self.fast_pins and not check and kcell >= 0 else None
        cut_quiet = futile and self.checkless
        # futile (or late) drops and quiet moves giving no check are pruned unmade where their legality is known
        # (a drop out of check; a move neither royal nor pinned): quiet_checks, at the first such move
        unmade_ok = pinned is not None and self.quiet_checks
        # late-move pruning: in a non-PV node out of check, quiet moves after the first LMP_COUNT[depth] (reductions.py)
        late_at = LMP_COUNT[depth] if depth < len(LMP_COUNT) and not pv_node and not check else 999
        checking: dict[int, set[int]] | None = None
        first: set[int] = set()
        while True:
            m = pk.next()
            if m == NO_MOVE:
                break
            key = pk.key
            if m == tried:
                continue
            late = count >= late_at and key < K_BAD
            if (cut_quiet or late and self.checkless and staged is None) and count and key < K_TACTICAL:
                # the keys are sorted: every move from here on is quiet, so futile, and none
                # gives check; pruned together without making them
                if futile and best < fstatic:
                    best = fstatic
                break
            if lazy:
                frm = (m >> FROM_SHIFT) & CELL
                drop = frm == m & CELL and not m & IN_PLACE     # moves.is_drop
                if drop and drop_hook is not None and not drop_hook(pos, m):
                    continue
                if (futile or late) and unmade_ok and count and key < K_TACTICAL and frm != kcell \
                        and (drop or not m & UNMADE_NOT and (not m & ACTED or m & DOUBLE)) \
                        and frm not in pinned:      # type: ignore[operator]
                    if checking is None:
                        checking, first = quiet_checks(pos)
                    if drop:
                        code = ((m >> TYPE_SHIFT) & TYPE_MASK) * 2 + side
                    elif frm in first or pos.board[m & CELL]:
                        # it may open a line, or it takes a piece (a losing capture sorts
                        # among the quiet moves) where quiet_checks lists no cell: made and
                        # tested below
                        code = -1
                    else:
                        code = pos.board[frm]
                    if code >= 0:
                        codes = checking.get(m & CELL)
                        if codes is None or code not in codes:
                            count += 1
                            if futile and best < fstatic:
                                best = fstatic
                            continue
                pos.make(m)
                if royal and (pinned is None or frm == kcell or frm in pinned or m & EP):
                    k = pos.king[side]
                    if k >= 0 and attacked(pos, k, them):
                        pos.unmake()
                        continue
            else:
                pos.make(m)
            count += 1
            quiet = key < K_TACTICAL
            gives = None
            if quiet and count > 1 and not check and (futile or late or (depth >= 3 and count > 3)):
                gives = self.in_check(pos)
                if (futile or late) and not gives:
                    pos.unmake()
                    if futile and best < fstatic:
                        best = fstatic
                    continue
                red = 0 if gives else REDUCTION[min(depth, 63)][min(count, 63)] - (key >= K_KILLER) - pv_node
                if red < 0:
                    red = 0
            else:
                red = 0
            if count == 1:
                score = -self.negamax(pos, depth - 1, -beta, -alpha, ply + 1, True, gives)
            else:
                score = -self.negamax(pos, depth - 1 - red, -alpha - 1, -alpha, ply + 1, True, gives)
                if score > alpha and (red or score < beta):
                    score = -self.negamax(pos, depth - 1, -beta, -alpha, ply + 1, True, gives)
            pos.unmake()
            if score > best:
                best = score
                best_move = m
                if pv_node:
                    best_pv = [m] + self.pv_after
                if score > alpha:
                    alpha = score
                    if score >= beta:
                        if quiet and key < K_BAD:
                            self._reward(killers, m, side, depth)
                        break
        if left_out and best < fstatic:
            best = fstatic
        if count == 0:
            r = game_result(pos, [])
            self.pv_after = NO_PV
            return result_score(r, ply) if r else 0
        if best_move:
            flag = EXACT if alpha0 < best < beta else (LOWER if best >= beta else UPPER)
            self.tt.put(h, (depth, flag, to_tt(best, ply), best_move))
        self.pv_after = best_pv
        return best

    def _has_pieces(self, pos: Position):
        big = self.big
        b = pos.board
        for c in pos.occ[pos.side]:
            if big[b[c]]:
                return True
        if self.variant.hands:
            hand = pos.hand
            for code in range(2 + pos.side, len(hand), 2):
                if hand[code]:
                    return True
        return False
