"""Iterative-deepening principal-variation search, generic over every variant.

The searcher owns no clock of its own: the caller passes ``Limits`` and a stop event; the
search checks both every 64 nodes, so ``stop`` is answered at once.  Results are reported
through a callback, one call per completed depth (and per MultiPV line).

Speed (everything stays in this file and ``evaluate.py``; the rules core is not touched):
* For variants that use the generic legality filter (no ``legal_moves`` override) the tree
  works on pseudo-legal moves and tests legality lazily, after ``make``, with one attack
  test on the own royal piece; a node with no legal move is scored by ``game_result``.
  Variants with their own legality filter get ``legal_moves`` at every node.
* Quiescence stands pat before it generates anything and searches only material-changing
  moves (captures, en passant, promotions, and what ``Variant.is_tactical`` declares);
  losing captures of defended pieces and captures that cannot reach alpha are skipped.
* Null-move pruning (not when in check, not without pieces beyond pawns and royals, and
  only where the variant is a plain royal-check game or sets ``null_move_ok``), reverse
  futility and futility pruning near the leaves, late-move reductions, check extension,
  aspiration windows, mate-distance pruning, killers and history.

What a variant can tell the searcher (all optional):
* ``eval_terms(pos) -> int``: centipawns for the side to move, added to the generic
  evaluation (win conditions, paralysis, anything the tables cannot see);
* ``is_tactical(pos, m) -> bool``: moves that change material other than plain captures and
  promotions (acting on another cell, fission ...): searched in quiescence, never reduced;
* ``acted_result(pos, m) -> code``: for a tactical move that acts on the cell in its
  acted-on field, the code that piece will have after the move (0 = gone); the searcher
  then orders the move as a capture, by its material swing (recruiting an enemy piece
  gains twice its value, a demotion or promotion the difference);
* ``null_move_ok``: True/False to allow or forbid null-move pruning (the default allows it
  only for plain royal-check games with the generic legality filter and no adjudication);
* ``PieceType.value``: a fixed value in centipawns instead of the mobility-derived one.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from .evaluate import Evaluator
from .game import game_result
from .movegen import attacked, in_check, legal_moves, pinned_cells, pseudo_moves
try:                                   # per-piece target walker of the rules core
    from .movegen import _complex_targets
except ImportError:                    # pragma: no cover - fall back to full generation
    _complex_targets = None
from .moves import DROP, EP, FISSION, FLAGS, FUSION, SPECIAL
from .tables import supports_attack_tables

MATE = 1_000_000
MATE_BOUND = MATE - 10_000
INF = MATE + 1
EXACT, LOWER, UPPER = 0, 1, 2
MAX_PLY = 120

# move-ordering keys
K_TT = 1 << 30
K_CAPTURE = 1 << 24
K_PROMO = 1 << 23
K_SPECIAL = 1 << 22
K_KILLER = 1 << 21
K_BAD = 1 << 20          # captures that lose material: after the killers, before quiet moves
HISTORY_MAX = (1 << 20) - 1
K_TACTICAL = K_SPECIAL   # keys at or above this are tactical moves


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
    start: float | None = None        # time.monotonic() when the go arrived (default: now)


class Stop(Exception):
    pass


class TT:
    """Transposition table: a dict bounded by an entry count derived from megabytes.
    An entry is (depth, bound, score, move); insertion order is age."""
    ENTRY_BYTES = 280    # measured ~263 at full load: dict slot, int key, 4-tuple, boxed ints

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
        if key in t:
            del t[key]            # re-inserted below: a stored position becomes young again
        elif len(t) >= self.capacity:
            # drop the oldest quarter (insertion order = age)
            for k in list(t)[: self.capacity // 4]:
                del t[k]
        t[key] = entry

    def hashfull(self) -> int:
        return min(1000, len(self.table) * 1000 // self.capacity)


class Searcher:
    CHECK_MASK = 63
    ECACHE_SIZE = 1 << 17     # evaluations kept (about 12 MB at most)

    def __init__(self, variant, tt: TT | None = None):
        v = variant
        self.variant = v
        self.ev = Evaluator(v)
        self.evaluate = self.ev.evaluate
        self.value = self.ev.value
        self.tt = tt or TT()
        caps = v.caps
        self.is_tactical_hook = v.is_tactical if caps.own_tactical else None
        self.acted_hook = v.acted_result if caps.acted_result else None
        self.adjudicate = v.adjudicate
        self.plain_adj = not caps.adjudicates
        # lazy legality: the generic filter is exactly "own royal not attacked after make"
        self.lazy = caps.lazy_legality
        self.royal = caps.royal_attacks
        self.drop_hook = v.drop_legal if v.has_drop_rule else None
        self.null_ok = caps.null_move
        self.has_extra = caps.extra_moves
        self.fast_pins = v.fast_legality and not v.capture_hook and not v.check_hook
        # quiescence skips captures of defended pieces, which needs the attack tables
        self.defence_test = all(supports_attack_tables(t) for t in v.table_list if t is not None)
        ncodes = 2 * len(v.piece_types)
        self.big = [bool(c >= 2 and v.piece_types[c >> 1] is not None
                         and not v.piece_types[c >> 1].royal and not v.piece_types[c >> 1].pawn)
                    for c in range(ncodes)]
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
            v.table_list
            v.promo
            if v.hands:
                v.drops
            if self.royal:
                v.attacks
        except Exception:       # a table the variant does not support: built (or not) on use
            pass

    # ---- helpers ------------------------------------------------------------------------
    def tactical(self, pos, m) -> bool:
        if self.is_tactical_hook is not None:
            return self.is_tactical_hook(pos, m)
        frm = (m >> 8) & 255
        if frm == DROP:
            return False
        if m & EP or (m >> 16) & 255:
            return True
        p = pos.board[m & 255]
        return bool(p) and (p & 1) != pos.side

    def in_check(self, pos) -> bool:
        if self.royal:
            k = pos.king[pos.side]
            return k >= 0 and attacked(pos, k, pos.side ^ 1)
        return in_check(pos)

    def order(self, pos, moves, ttmove, ply):
        """Moves sorted best first; returns (key, move) pairs."""
        b = pos.board
        val = self.value
        k1, k2 = self.killers[ply]
        hist = self.history
        side = pos.side
        hook = self.is_tactical_hook
        acted = self.acted_hook
        pst = self.ev.pst
        royal = self.royal
        them = side ^ 1
        keyed = []
        app = keyed.append
        for m in moves:
            if m == ttmove:
                app((K_TT, m))
                continue
            frm = (m >> 8) & 255
            if frm == DROP:
                # returns and drops: killers and history first, then where the dropped
                # piece stands best (its square value), not the generator's cell order
                if m == k1 or m == k2:
                    app((K_KILLER, m))
                else:
                    dc = ((m >> 16) & 255) * 2 + side
                    app((hist.get(m * 2 + side, 0) + pst[dc][m & 255] - val[dc], m))
                continue
            if acted is not None and m >> 24 & 255 and hook(pos, m):
                # acts on another cell (a shunt lands on it), may promote the mover:
                # ordered as a capture, by its material swing
                app((K_CAPTURE + self._acted_gain(pos, m, ((m >> 24) & 255) - 1, acted) * 16
                     - (val[b[frm]] >> 4), m))
                continue
            cap = b[m & 255]
            if cap and (cap & 1) != side:
                va = val[b[frm]]
                vv = val[cap]
                if va > vv + 50 and royal and attacked(pos, m & 255, them):
                    app((K_BAD + vv, m))       # defended and worth less than the capturer
                else:
                    app((K_CAPTURE + vv * 16 - (va >> 4), m))
                continue
            if m & EP:
                app((K_CAPTURE + 1600, m))
                continue
            if (m >> 16) & 255 and not m & (FISSION | FUSION):
                app((K_PROMO + val[((m >> 16) & 255) * 2 + side], m))
                continue
            if hook is not None and hook(pos, m):
                app((K_SPECIAL, m))
            elif m == k1 or m == k2:
                app((K_KILLER, m))
            else:
                app((hist.get(m * 2 + side, 0), m))
        keyed.sort(key=_first, reverse=True)
        return keyed

    def _acted_gain(self, pos, m, a, acted):
        """Material swing for the mover of a move acting on cell a (plus its own promotion)."""
        val = self.value
        side = pos.side
        old = pos.board[a]
        new = acted(pos, m)
        gain = (val[new] if new and (new & 1) == side else -val[new] if new else 0) \
            - (val[old] if (old & 1) == side else -val[old])
        pt = (m >> 16) & 255
        if pt and not m & (FISSION | FUSION):
            gain += val[pt * 2 + side] - val[pos.board[(m >> 8) & 255]]
        return max(0, gain)

    def _check_limits(self):
        if self.stop_event.is_set():
            raise Stop
        if self.limits.nodes is not None and self.nodes >= self.limits.nodes:
            raise Stop
        if self.hard_deadline is not None and time.monotonic() >= self.hard_deadline:
            raise Stop

    # null move: side to move passes (kept out of position.py on purpose)
    def _make_null(self, pos):
        z = pos.z
        saved = (pos.ep, pos.ep_victim, pos.hash, pos.halfmove)
        pos.hash ^= z.side ^ z.ep[pos.ep] ^ z.ep[-1]
        pos.ep = -1
        pos.ep_victim = -1
        pos.side ^= 1
        pos.halfmove = 0     # repetition scans stop here
        pos.history.append(pos.hash)
        self.null_stack.append((len(pos.stack), saved))
        return saved

    def _unmake_null(self, pos, saved):
        self.null_stack.pop()
        pos.history.pop()
        pos.side ^= 1
        pos.ep, pos.ep_victim, pos.hash, pos.halfmove = saved

    # ---- the search ---------------------------------------------------------------------
    def search(self, pos, limits: Limits, stop_event, on_info=None):
        """Returns (best move, ponder move or None, score). best move is None when the side
        to move has no legal move.  The position is left as it was, also after a stop."""
        base = self._base = len(pos.stack)
        self.null_stack = []
        try:
            return self._search(pos, limits, stop_event, on_info)
        finally:
            self._unwind(pos, base)

    def _unwind(self, pos, base):
        """Take back what an aborted search left made (moves and null moves, newest first)."""
        ns = self.null_stack
        while len(pos.stack) > base or ns:
            if ns and ns[-1][0] == len(pos.stack):
                self._unmake_null(pos, ns[-1][1])
            else:
                pos.unmake()

    def _search(self, pos, limits, stop_event, on_info):
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
        root_moves = legal_moves(pos)
        if limits.searchmoves:
            root_moves = [m for m in root_moves if m in limits.searchmoves] or root_moves
        if not root_moves:
            return None, None, None
        tte = self.tt.get(pos.hash)
        first = [k for _, k in self.order(pos, root_moves, tte[3] if tte else 0, 0)]
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
            self.iter_best = None
            try:
                if multipv == 1:
                    score, pv = self.aspiration(pos, depth, prev_score)
                    lines.append((score, pv))
                else:
                    excluded: list[int] = []
                    for k in range(multipv):
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

    def _ponder_from_tt(self, pos, best):
        """A ponder move when the PV stops after the best move: the hash move of the reply."""
        pos.make(best)
        try:
            tte = self.tt.get(pos.hash)
            if tte is not None and tte[3] and tte[3] in legal_moves(pos):
                return tte[3]
            return None
        finally:
            pos.unmake()

    def info(self, depth, score, pv, multipv):
        el = max(1e-6, time.monotonic() - self.t0)
        d = {"depth": depth, "seldepth": max(self.seldepth, depth), "score": score,
             "nodes": self.nodes, "nps": int(self.nodes / el), "time": int(el * 1000),
             "hashfull": self.tt.hashfull(), "pv": pv}
        if multipv:
            d["multipv"] = multipv
        return d

    def aspiration(self, pos, depth, prev):
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

    def root(self, pos, moves, depth, alpha, beta):
        self.root_depth = depth
        alpha0 = alpha
        best = -INF
        best_pv = [moves[0]]
        make, unmake = pos.make, pos.unmake
        for i, m in enumerate(moves):
            make(m)
            if i == 0:
                score = -self.negamax(pos, depth - 1, -beta, -alpha, 1, True)
            else:
                score = -self.negamax(pos, depth - 1, -alpha - 1, -alpha, 1, True)
                if alpha < score < beta:
                    score = -self.negamax(pos, depth - 1, -beta, -alpha, 1, True)
            unmake()
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

    def negamax(self, pos, depth, alpha, beta, ply, do_null, chk=None):
        self.nodes += 1
        if not (self.nodes & self.CHECK_MASK):
            self._check_limits()
        self.pv_after = []
        if not self.plain_adj:
            r = self.adjudicate(pos)
            if r is not None:
                return _result_score(r, ply)
        # repetition inside the tree (or of a game position) is a draw
        h = pos.hash
        hist = pos.history
        i = len(hist) - 3
        lo = i + 3 - pos.halfmove - 1
        if lo < 0:
            lo = 0
        while i >= lo:
            if hist[i] == h:
                return 0
            i -= 2
        v = self.variant
        if v.move_rule_plies and pos.halfmove >= v.move_rule_plies:
            return 0
        if ply >= MAX_PLY:
            return self.evaluate(pos)
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
                s = _from_tt(tscore, ply)
                if tflag == EXACT or (tflag == LOWER and s >= beta) or (tflag == UPPER and s <= alpha):
                    return s
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
                r = 3 if depth >= 6 else 2
                saved = self._make_null(pos)
                score = -self.negamax(pos, depth - 1 - r, -beta, -beta + 1, ply + 1, False)
                self._unmake_null(pos, saved)
                if score >= beta:
                    return beta if score >= MATE_BOUND else score
        lazy = self.lazy
        side = pos.side
        them = side ^ 1
        royal = self.royal
        drop_hook = self.drop_hook
        make, unmake = pos.make, pos.unmake
        best = -INF
        best_move = 0
        best_pv: list[int] = []
        alpha0 = alpha
        count = 0
        killers = self.killers[ply]
        tried = 0
        if lazy and ttmove and not ttmove & FLAGS and self._plausible(pos, ttmove):
            # the hash move first, before anything is generated: often it refutes at once
            if drop_hook is None or (ttmove >> 8) & 255 != DROP or drop_hook(pos, ttmove):
                make(ttmove)
                k = pos.king[side]
                if royal and k >= 0 and attacked(pos, k, them):
                    unmake()
                else:
                    tried = ttmove
                    count = 1
                    score = -self.negamax(pos, depth - 1, -beta, -alpha, ply + 1, True)
                    unmake()
                    best = score
                    best_move = ttmove
                    if pv_node:
                        best_pv = [ttmove] + self.pv_after
                    if score > alpha:
                        alpha = score
                        if score >= beta:
                            if not self.tactical(pos, ttmove):
                                self._reward(killers, ttmove, side, depth)
                            self.tt.put(h, (depth, LOWER, _to_tt(best, ply), best_move))
                            self.pv_after = best_pv
                            return best
        if lazy:
            moves = pseudo_moves(pos)
        else:
            moves = legal_moves(pos)
            if not moves:
                r = game_result(pos, moves)
                return _result_score(r, ply) if r else 0
        keyed = self.order(pos, moves, ttmove, ply)
        futile = False
        if static is not None and depth <= 2 and static + 150 * depth <= alpha:
            futile = True
        # not in check: only royal moves, moves of pinned pieces and en passant can expose
        # the royal piece (the rules core's own shortcut, for variants where it holds)
        kcell = pos.king[side]
        pinned = pinned_cells(pos, kcell, them) \
            if lazy and royal and self.fast_pins and not check and kcell >= 0 else None
        for key, m in keyed:
            if m == tried:
                continue
            if lazy:
                frm = (m >> 8) & 255
                if drop_hook is not None and frm == DROP and not drop_hook(pos, m):
                    continue
                make(m)
                if royal and (pinned is None or frm == kcell or frm in pinned or m & EP):
                    k = pos.king[side]
                    if k >= 0 and attacked(pos, k, them):
                        unmake()
                        continue
            else:
                make(m)
            count += 1
            quiet = key < K_TACTICAL
            gives = None
            if quiet and count > 1 and not check and (futile or (depth >= 3 and count > 3)):
                gives = self.in_check(pos)
                if futile and not gives:
                    unmake()
                    if best < static:
                        best = static
                    continue
                red = 0 if gives or key >= K_KILLER else (1 if count < 10 or depth < 5 else 2)
                if pv_node and red:
                    red -= 1
            else:
                red = 0
            if count == 1:
                score = -self.negamax(pos, depth - 1, -beta, -alpha, ply + 1, True, gives)
            else:
                score = -self.negamax(pos, depth - 1 - red, -alpha - 1, -alpha, ply + 1, True, gives)
                if score > alpha and (red or score < beta):
                    score = -self.negamax(pos, depth - 1, -beta, -alpha, ply + 1, True, gives)
            unmake()
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
        if count == 0:
            r = game_result(pos, [])
            self.pv_after = []
            return _result_score(r, ply) if r else 0
        if best_move:
            flag = EXACT if alpha0 < best < beta else (LOWER if best >= beta else UPPER)
            self.tt.put(h, (depth, flag, _to_tt(best, ply), best_move))
        self.pv_after = best_pv
        return best

    def _eval_store(self, pos, h):
        """Static evaluation through a small cache keyed by the position's hash."""
        e = self.evaluate(pos)
        c = self.ecache
        if len(c) >= self.ECACHE_SIZE:
            c.clear()
        c[h] = e
        return e

    def _reward(self, killers, m, side, depth):
        if killers[0] != m:
            killers[1] = killers[0]
            killers[0] = m
        hk = m * 2 + side
        hv = self.history.get(hk, 0) + depth * depth
        self.history[hk] = hv if hv < HISTORY_MAX else HISTORY_MAX

    @staticmethod
    def _plausible(pos, m):
        """Cheap sanity check of a hash move (guards against key collisions)."""
        b = pos.board
        side = pos.side
        frm = (m >> 8) & 255
        to = m & 255
        p = b[to]
        if p and (p & 1) == side:
            return False
        if frm == DROP:
            return not p and pos.hand[((m >> 16) & 255) * 2 + side] > 0
        q = b[frm]
        return bool(q) and (q & 1) == side

    def _has_pieces(self, pos):
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

    def captures(self, pos):
        """Pseudo-legal captures, en-passant captures and promotions (plus the variant's
        extra moves), without the quiet moves and castling that quiescence never plays."""
        if _complex_targets is None:
            return pseudo_moves(pos)
        v = self.variant
        tl = v.table_list
        promo = v.promo
        b = pos.board
        side = pos.side
        ep = pos.ep
        out: list[int] = []
        app = out.append
        for s in pos.occ[side]:
            code = b[s]
            T = tl[code]
            base = s << 8
            pr = promo.get(code)
            if T.simple and pr is None:
                for t in T.leaps[s]:
                    p = b[t]
                    if p and (p & 1) != side:
                        app(base | t)
                for ray in T.rides[s]:
                    for t in ray:
                        p = b[t]
                        if p:
                            if (p & 1) != side:
                                app(base | t)
                            break
                continue
            tg: list[int] = []
            _complex_targets(T, s, b, side, ep, tg.append)
            for t in tg:
                to = t & 255
                p = b[to]
                cap = (p and (p & 1) != side) or (t & EP)
                opts = pr.get((s, to)) if pr is not None else None
                if opts is None:
                    if cap:
                        app(base | t)
                else:
                    for o in opts:
                        if cap or o:
                            app(base | t | (o << 16))
        if self.has_extra:
            v.extra_moves(pos, out)
        return out

    def quiesce(self, pos, alpha, beta, ply, qply, chk=None):
        self.nodes += 1
        if not (self.nodes & self.CHECK_MASK):
            self._check_limits()
        if ply > self.seldepth:
            self.seldepth = ply
        self.pv_after = []
        if not self.lazy:
            return self._quiesce_full(pos, alpha, beta, ply, qply)
        if not self.plain_adj:
            r = self.adjudicate(pos)
            if r is not None:
                return _result_score(r, ply)
        side = pos.side
        them = side ^ 1
        check = chk if chk is not None else (qply < 2 and self.in_check(pos))
        if check:
            # evasions: every legal move, no standing pat
            moves = [m for _, m in self.order(pos, pseudo_moves(pos), 0, min(ply, MAX_PLY))]
            best = -INF
            make, unmake = pos.make, pos.unmake
            drop_hook = self.drop_hook
            royal = self.royal
            best_pv: list[int] = []
            for m in moves:
                if drop_hook is not None and (m >> 8) & 255 == DROP and not drop_hook(pos, m):
                    continue
                make(m)
                if royal:
                    k = pos.king[side]
                    if k >= 0 and attacked(pos, k, them):
                        unmake()
                        continue
                score = -self.quiesce(pos, -beta, -alpha, ply + 1, qply + 1)
                unmake()
                if score > best:
                    best = score
                    if score > alpha:
                        alpha = score
                        best_pv = [m] + self.pv_after
                        if score >= beta:
                            break
            if best == -INF:
                r = game_result(pos, [])
                self.pv_after = []
                return _result_score(r, ply) if r else 0
            self.pv_after = best_pv
            return best
        stand = self.ecache.get(pos.hash)
        if stand is None:
            stand = self._eval_store(pos, pos.hash)
        if stand >= beta or qply >= 10 or ply >= MAX_PLY:
            return stand
        if stand > alpha:
            alpha = stand
        b = pos.board
        val = self.value
        hook = self.is_tactical_hook
        cand = []
        app = cand.append
        for m in self.captures(pos):
            frm = (m >> 8) & 255
            if frm == DROP:
                continue
            cap = b[m & 255]
            if cap and (cap & 1) != side:
                gain = val[cap]
                if m & 0xFF0000 and not m & (FISSION | FUSION):
                    gain += val[((m >> 16) & 255) * 2 + side] - val[b[frm]]
                elif stand + gain + 200 <= alpha:
                    continue        # delta pruning
                app((gain * 16 - (val[b[frm]] >> 4), m, gain))
            elif m & EP:
                app((100 * 16, m, 100))
            elif m & 0xFF0000 and not m & (FISSION | FUSION):
                gain = val[((m >> 16) & 255) * 2 + side] - val[b[frm]]
                if gain > 0:
                    app((gain * 16, m, gain))
            elif hook is not None and hook(pos, m):
                app((0, m, 0))
        if not cand:
            return stand
        cand.sort(key=_first, reverse=True)
        make, unmake = pos.make, pos.unmake
        royal = self.royal
        kcell = pos.king[side]
        # the check status is known (none) only for the first quiescence plies
        pinned = pinned_cells(pos, kcell, them) \
            if royal and self.fast_pins and qply < 2 and kcell >= 0 else None
        best_pv: list[int] = []
        for _, m, gain in cand:
            frm = (m >> 8) & 255
            # a capture by a more valuable piece of a defended piece loses material
            if gain and val[b[frm]] > gain + 50 and not m & 0xFF0000 and \
                    self.defence_test and attacked(pos, m & 255, them):
                continue
            make(m)
            if royal and (pinned is None or frm == kcell or frm in pinned or m & EP):
                k = pos.king[side]
                if k >= 0 and attacked(pos, k, them):
                    unmake()
                    continue
            score = -self.quiesce(pos, -beta, -alpha, ply + 1, qply + 1)
            unmake()
            if score > alpha:
                alpha = score
                best_pv = [m] + self.pv_after
                if score >= beta:
                    break
        self.pv_after = best_pv
        return alpha

    def _quiesce_full(self, pos, alpha, beta, ply, qply):
        """Quiescence for variants with their own legality filter or win adjudication:
        stand pat first (unless in check), then the tactical legal moves."""
        check = qply < 2 and in_check(pos)
        stand = None
        if not check:
            stand = self.evaluate(pos)
            if stand >= beta or qply >= 4 or ply >= MAX_PLY:
                return stand
        moves = legal_moves(pos)
        if not moves:
            r = game_result(pos, moves)
            return _result_score(r, ply) if r else 0
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
                p = b[m & 255] if (m >> 8) & 255 != DROP else 0
                if p and (p & 1) != side and not m & SPECIAL and not (m >> 24) & 255 \
                        and stand + val[p] + 200 <= alpha and not (m >> 16) & 255:
                    continue        # delta pruning of a plain capture
                tact.append(m)
            if not tact:
                return stand
        best_pv: list[int] = []
        for _, m in self.order(pos, tact, 0, min(ply, MAX_PLY)):
            pos.make(m)
            r = self.adjudicate(pos)
            if r is not None:
                score = -_result_score(r, ply + 1)
                self.pv_after = []
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


def _first(x):
    return x[0]


def _result_score(r, ply):
    score, _reason = r
    if score > 0:
        return MATE - ply
    if score < 0:
        return -(MATE - ply)
    return 0


def _to_tt(s, ply):
    if s >= MATE_BOUND:
        return s + ply
    if s <= -MATE_BOUND:
        return s - ply
    return s


def _from_tt(s, ply):
    if s >= MATE_BOUND:
        return s - ply
    if s <= -MATE_BOUND:
        return s + ply
    return s
