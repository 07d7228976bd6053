"""Iterative-deepening principal-variation search, generic over every variant.

The searcher owns no clock: the caller passes ``Limits`` and a stop event, checked every 64 nodes, so
``stop`` is answered at once.  Results go to a callback, one call per completed depth (and MultiPV line).

The searcher's rooms: this file (the tree: negamax and its pruning), ``deepening.py``
(iterative deepening, aspiration and the root), ``quiesce.py`` (quiescence), ``ordering.py``
(move ordering), ``tt.py`` (transposition table and mate scores), ``limits.py`` (limits and
time allocation), ``evaluate.py``.

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

import time

from .evaluate import Evaluator
from .game import game_result
from .limits import Limits, Stop
from .movegen import attacked, evasions, in_check, legal_moves, pinned_cells, pseudo_moves
from .moves import ACTED, CELL, DOUBLE, EP, FLAGS, FROM_SHIFT, IN_PLACE, TYPE_MASK, TYPE_SHIFT, UNMADE_NOT
from .ordering import K_BAD, K_KILLER, K_TACTICAL, NO_MOVE, REST_DROPS, REST_NONE, Picker
from .deepening import Deepening
from .quiet_checks import quiet_checks
from .search_state import NO_PV
from .reductions import LMP_COUNT, REDUCTION
from .tt import EXACT, INF, LOWER, MATE, MATE_BOUND, MAX_PLY, TT, UPPER, from_tt, result_score, to_tt

if TYPE_CHECKING:

    from .position import Position
    from .variant import Variant

__all__ = ["MATE", "MATE_BOUND", "TT", "Limits", "Searcher", "Stop"]


class Searcher(Deepening):
    CHECK_MASK = 63
    IIR_DEPTH = 4             # nodes this deep without a hash move are searched a ply shallower
    ECACHE_SIZE = 1 << 17     # evaluations kept (about 12 MB at most)

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
        self.ecache: dict[object, int] = {}
        self._warm_up()
        self.killers = [[0, 0] for _ in range(MAX_PLY + 8)]
        self.new_history(v.geometry.size)

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
        # the hash as one object for the TT and the evaluation cache (a dict call boxes an
        # unboxed int anew each time: see tt.TT)
        hk: object = h
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
        tte = self.tt.get(hk)
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
            static = self.ecache.get(hk)
            if static is None:
                static = self._eval_store(pos, hk)
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
                            self.tt.put(hk, (depth, LOWER, to_tt(best, ply), best_move))
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
            self.tt.put(hk, (depth, flag, to_tt(best, ply), best_move))
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
