"""Position: board, hands, side to move, rights, clocks, hash; make and unmake.

The board is a flat list of piece codes (type id * 2 + colour, 0 = empty) over the variant's
cells.  ``occ[colour]`` is the set of cells a side occupies; ``hand`` is a flat list of counts
indexed by piece code; ``king[colour]`` the cell of the royal piece (-1 when there is none).
Every change goes through the primitives ``put``/``clear`` or the inlined paths of ``make``,
which keep the Zobrist hash exact.

``acc`` is the evaluator's sum over the pieces of ``accw[code][cell]`` (the square values, a
small int) and ``acch`` the sum of ``acchw[code][cell]`` (phase weights and pawn cells, see
``Evaluator.prime``), kept by ``make`` along its plain paths and restored by ``unmake``; ``acch``
changes only when a capture, a promotion or a piece the pawn terms follow moves.  A variant's own
moves and capture hooks, and ``put`` and ``clear``, leave ``acc`` ``None``, and the evaluator sums
both afresh when it next needs them.  The sum itself is the int ``acc_sum``, ``NO_SUM`` for
None (``acc`` reads and sets it as ``int | None``): compiled, an int attribute is stored
unboxed, where ``int | None`` made an int object at every move (the sum is rarely below 257).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .moves import (ACTED_SHIFT, CASTLE, CELL, DOUBLE, EP, FLAGS, FROM_SHIFT, IN_PLACE, LEGS, FROM_TO, NULL_MOVE,
                    SPECIAL, TYPE_MASK, TYPE_SHIFT)

# the record make keeps for unmake (engine/undo.py), and its names, also read from here
from .undo import (NO_SUM, U_ACC as U_ACC, U_ACCH as U_ACCH, U_CAP as U_CAP, U_CASTLE as U_CASTLE,
                   U_CODE as U_CODE, U_EP as U_EP, U_EP_VICTIM as U_EP_VICTIM, U_EXTRA as U_EXTRA,
                   U_HALFMOVE as U_HALFMOVE, U_HASH as U_HASH, U_MOVE as U_MOVE, Undo)

if TYPE_CHECKING:
    from .movedata import MoveData
    from .variant import Variant
    from .zobrist import Zobrist

# the attributes of a Position (its __slots__, and what copy() copies)
_SLOTS = ("variant", "board", "occ", "hand", "side", "ep", "ep_victim", "castle",
          "halfmove", "fullmove", "hash", "king", "stack", "history", "z",
          "_royal", "_pawn", "_handtype", "_handsrc", "_cmask", "_cbymove", "_castles", "extra", "acc_sum",
          "accw", "acch", "acchw", "md", "journal", "_jbuf", "_capfx", "_spjournal", "_dropfx", "_movefx",
          "_mjournals", "_spare")


class Position:
    __slots__ = _SLOTS

    def __init__(self, variant: Variant) -> None:
        v = variant
        self.variant = v
        n = v.geometry.size
        ncodes = 2 * len(v.piece_types)
        self.board = [0] * n
        self.occ: list[set[int]] = [set(), set()]
        self.hand = [0] * ncodes
        self.side = 0
        self.ep = -1
        self.ep_victim = -1
        self.castle = 0
        self.halfmove = 0
        self.fullmove = 1
        self.z: Zobrist = v.zobrist
        self.hash = 0
        self.king = [-1, -1]
        self.stack: list[Undo] = []
        self.history: list[int] = []
        self.extra: Any = None          # a variant's own state from the position text (a count's limit)
        self.acc_sum = NO_SUM           # the evaluator's sum, while kept (``acc``)
        self.accw: list[list[int]] | None = None
        self.acch = 0                   # meaningful while acc is not None
        self.acchw: list[list[int]] = []
        self.md: MoveData | None = None     # the variant's move data, on first use (movedata.of)
        # while a variant's hook runs inside make: the changes its put, clear and add_hand make,
        # as (cell, code before) and (-1 - hand code, count before), for unmake to put back
        self.journal: list[tuple[int, int]] | None = None
        self._jbuf: list[tuple[int, int]] = []
        pr = v.position_rules            # what make and unmake read, per code and cell (engine/rules.py)
        self._capfx = pr.capture_effects
        self._dropfx = pr.drop_effects
        self._movefx = pr.move_effects      # Variant.after_move runs after every move
        # per move made (with _movefx): what after_move changed, for unmake to put back
        self._mjournals: list[list[tuple[int, int]]] = []
        self._spare: list[Undo] = []        # records unmake is done with, for make to fill again
        self._spjournal = pr.journal_special
        self._royal = pr.royal
        self._pawn = pr.pawn
        self._handtype = pr.handtype
        self._handsrc = pr.handsrc
        self._cmask = pr.cmask
        self._cbymove = pr.cbymove         # (read by a variant's hooks)
        self._castles = pr.castle_cells

    @property
    def acc(self) -> int | None:
        """The evaluator's sum while ``make`` keeps it, else None (``acc_sum``, ``NO_SUM``)."""
        a = self.acc_sum
        return a if a != NO_SUM else None

    @acc.setter
    def acc(self, value: int | None) -> None:
        self.acc_sum = value if value is not None else NO_SUM

    # ---- primitives -----------------------------------------------------------------------
    def put(self, cell: int, code: int) -> None:
        """Place code on an empty cell."""
        j = self.journal
        if j is not None:
            j.append((cell, 0))
        self.acc_sum = NO_SUM
        self.board[cell] = code
        self.occ[code & 1].add(cell)
        self.hash ^= self.z.piece[code][cell]
        if self._royal[code]:
            self.king[code & 1] = cell

    def clear(self, cell: int) -> int:
        code = self.board[cell]
        if code:
            j = self.journal
            if j is not None:
                j.append((cell, code))
            self.acc_sum = NO_SUM
            self.board[cell] = 0
            self.occ[code & 1].discard(cell)
            self.hash ^= self.z.piece[code][cell]
            if self._royal[code] and self.king[code & 1] == cell:
                self.king[code & 1] = -1
        return code

    def set_cell(self, cell: int, code: int) -> None:
        self.clear(cell)
        if code:
            self.put(cell, code)

    def add_hand(self, code: int, delta: int) -> None:
        n = self.hand[code]
        j = self.journal
        if j is not None:
            j.append((-1 - code, n))
        self.hash ^= self.z.hand[code][n] ^ self.z.hand[code][n + delta]
        self.hand[code] = n + delta

    def set_castle(self, rights: int) -> None:
        self.hash ^= self.z.castle_key(self.castle) ^ self.z.castle_key(rights)
        self.castle = rights

    def set_ep(self, cell: int, victim: int = -1) -> None:
        self.hash ^= self.z.ep[self.ep] ^ self.z.ep[cell]
        self.ep = cell
        self.ep_victim = victim

    def compute_hash(self) -> int:
        z = self.z
        h = z.castle_key(self.castle) ^ z.ep[self.ep]
        if self.side:
            h ^= z.side
        for c, p in enumerate(self.board):
            if p:
                h ^= z.piece[p][c]
        for code, n in enumerate(self.hand):
            if n:
                h ^= z.hand[code][0] ^ z.hand[code][n]
        return h

    def reset_state(self) -> None:
        """Recompute derived state after a position was set up cell by cell."""
        self.occ = [set(), set()]
        self.king = [-1, -1]
        for c, p in enumerate(self.board):
            if p:
                self.occ[p & 1].add(c)
                if self._royal[p]:
                    self.king[p & 1] = c
        self.hash = self.compute_hash()
        self.stack = []
        self._mjournals = []
        self.history = [self.hash]
        self.acc_sum = NO_SUM

    def copy(self) -> "Position":
        p = Position(self.variant)      # not __new__ alone: a compiled class needs its __init__
        for s in _SLOTS:
            setattr(p, s, getattr(self, s))
        p.board = self.board[:]
        p.occ = [set(self.occ[0]), set(self.occ[1])]
        p.hand = self.hand[:]
        p.king = self.king[:]
        p.stack = [u.copy() for u in self.stack]    # make refills records that unmake took off
        p._spare = []
        p._mjournals = self._mjournals[:]
        p.history = self.history[:]
        p._jbuf = []
        return p

    # ---- make / unmake ----------------------------------------------------------------
    def make(self, m: int) -> None:
        z = self.z
        b = self.board
        side = self.side
        to = m & CELL
        frm = (m >> FROM_SHIFT) & CELL
        old = self.acc_sum
        ah0 = self.acch
        ah = ah0
        ep0 = self.ep
        epv0 = self.ep_victim
        castle0 = self.castle
        half0 = self.halfmove
        h0 = self.hash
        h = h0 ^ z.side
        if ep0 >= 0:                    # the en-passant cell lapses
            h ^= z.ep[ep0] ^ z.ep[-1]
            self.ep = -1
        extra: Any = None
        cap = 0
        code = 0
        rook = 0                        # a castling rook's code, placed after the king
        rook_from = rook_to = 0
        W = self.accw if old != NO_SUM else None        # the evaluator's sum is kept
        H = self.acchw
        a = old if old != NO_SUM else 0
        if frm == to and not m & IN_PLACE:      # a drop (moves.is_drop)
            code = ((m >> TYPE_SHIFT) & TYPE_MASK) * 2 + side
            b[to] = code
            if W is not None:
                a += W[code][to]
                ah += H[code][to]
            self.occ[side].add(to)
            hc = self._handsrc[code]
            n = self.hand[hc]
            self.hand[hc] = n - 1
            h ^= z.piece[code][to] ^ z.hand[hc][n] ^ z.hand[hc][n - 1]
            if self._royal[code]:
                self.king[side] = to
            v = self.variant
            if v.drop_resets_clock or (self._pawn[code] is not None and v.pawn_drop_resets_clock):
                self.halfmove = 0
            else:
                self.halfmove += 1
            if self._dropfx:
                # the variant's drop effects (Placement's castling rights, Reversi's flips):
                # the position records the board changes and takes them back
                self.hash = h
                jd: list[tuple[int, int]] = []
                self.journal = jd
                v.after_drop(self, m)
                self.journal = None
                if jd:
                    extra = jd
                h = self.hash
                W = None
        elif m & SPECIAL:
            self.hash = h
            if self._spjournal:             # the position undoes what the hook changed
                j: list[tuple[int, int]] = []
                self.journal = j
                self.variant.make_special(self, m)
                self.journal = None
                extra = j
                self._hook_rights(j)
            else:
                extra = self.variant.make_special(self, m)
            h = self.hash
            W = None
        else:
            code = b[frm]
            cap = b[to]
            occ = self.occ[side]
            if m & FLAGS:
                if m & CASTLE:
                    # the rook leaves first and lands after the king: in Chess960 either may
                    # land where the other stood, and the move names the rook's cell
                    rook_from, rook_to, king_to = self._castles[m & FROM_TO]
                    rook = b[rook_from]
                    b[rook_from] = 0
                    occ.discard(rook_from)
                    h ^= z.piece[rook][rook_from]
                    if W is not None:
                        a -= W[rook][rook_from]
                        ah -= H[rook][rook_from]
                    to = king_to
                    cap = 0
                elif m & EP:
                    vc = epv0
                    cap = b[vc]
                    b[vc] = 0
                    self.occ[side ^ 1].discard(vc)
                    h ^= z.piece[cap][vc]
                    if W is not None:
                        a -= W[cap][vc]
                        ah -= H[cap][vc]
                    extra = cap
                    ht = self._handtype[cap]
                    if ht:
                        hc = ht * 2 + side
                        n = self.hand[hc]
                        self.hand[hc] = n + 1
                        h ^= z.hand[hc][n] ^ z.hand[hc][n + 1]
                    cap = 0
                elif m & DOUBLE and not (m >> TYPE_SHIFT) & TYPE_MASK:    # a promoting step leaves none
                    e = ((m >> ACTED_SHIFT) & CELL) ^ frm
                    self.ep = e
                    self.ep_victim = to
                    h ^= z.ep[-1] ^ z.ep[e]
                elif m & LEGS:
                    # a multi-leg move: the piece on the acted-on cell is taken in passing;
                    # to == frm (igui, a pass) lands the mover back where it stood
                    if to == frm:
                        cap = 0
                    vc = (m >> ACTED_SHIFT) & CELL     # moves.legs_victim
                    if vc:
                        vc ^= frm
                        vic = b[vc]
                        b[vc] = 0
                        self.occ[side ^ 1].discard(vc)
                        h ^= z.piece[vic][vc]
                        if W is not None:
                            a -= W[vic][vc]
                            ah -= H[vic][vc]
                        if self._royal[vic]:
                            self.king[side ^ 1] = -1
                        ht = self._handtype[vic]
                        if ht:
                            hc = ht * 2 + side
                            n = self.hand[hc]
                            self.hand[hc] = n + 1
                            h ^= z.hand[hc][n] ^ z.hand[hc][n + 1]
                        extra = vic
            b[frm] = 0
            occ.discard(frm)
            h ^= z.piece[code][frm]
            if cap:
                self.occ[side ^ 1].discard(to)
                h ^= z.piece[cap][to]
                if self._royal[cap]:
                    self.king[side ^ 1] = -1
                ht = self._handtype[cap]
                if ht:
                    hc = ht * 2 + side
                    n = self.hand[hc]
                    self.hand[hc] = n + 1
                    h ^= z.hand[hc][n] ^ z.hand[hc][n + 1]
            pt = (m >> TYPE_SHIFT) & TYPE_MASK
            newcode = pt * 2 + side if pt else code
            b[to] = newcode
            occ.add(to)
            h ^= z.piece[newcode][to]
            if W is not None:
                a += W[newcode][to] - W[code][frm]
                d = H[newcode][to] - H[code][frm]       # 0 for a piece the pawn terms ignore
                if d:
                    ah += d
                if cap:
                    # (apart: where the mover's d is 0, one operation on the wide acch, not two)
                    a -= W[cap][to]
                    ah -= H[cap][to]
            if rook:
                b[rook_to] = rook
                occ.add(rook_to)
                h ^= z.piece[rook][rook_to]
                if W is not None:
                    a += W[rook][rook_to]
                    ah += H[rook][rook_to]
            if self._royal[newcode]:
                self.king[side] = to
            rv = self._pawn[code]           # (empty for a pawn: no int made for the test)
            if cap or extra or (rv is not None and (not rv or (m & FROM_TO) not in rv)) \
                    or (pt and self.variant.promotion_resets_clock):
                self.halfmove = 0
            else:
                self.halfmove += 1
            c0 = self.castle
            if c0:
                cm = self._cmask
                nc = c0 & cm[frm] & cm[to]
                if rook:
                    nc &= cm[rook_from]     # the rook's own rights (a Seirawan gate) lapse too
                if nc != c0:
                    if c0 < 256:            # and so nc, some of its bits: Zobrist.castle_key's table
                        h ^= z.castle[c0] ^ z.castle[nc]
                    else:
                        h ^= z.castle_key(c0) ^ z.castle_key(nc)
                    self.castle = nc
            if cap and self._capfx and not m & LEGS:  # a multi-leg move keeps its victim
                self.hash = h
                jc = self._jbuf                 # empty: kept for the next hook when it stays so
                self.journal = jc
                self.variant.after_capture(self, m, code, cap)
                self.journal = None
                if jc:
                    extra = jc
                    self._jbuf = []
                    self._hook_rights(jc)
                h = self.hash
                W = None
        if side:
            self.fullmove += 1
        self.side = side ^ 1
        self.hash = h
        self.acc_sum = a if W is not None else NO_SUM
        self.acch = ah
        sp = self._spare
        if sp:          # refill a record unmake is done with (written out: no call, interpreted)
            u = sp.pop()
            u.move = m
            u.ep = ep0
            u.ep_victim = epv0
            u.castle = castle0
            u.halfmove = half0
            u.hash = h0
            u.acc = old
            u.acch = ah0
            u.cap = cap
            u.extra = extra
            u.code = code
        else:
            u = Undo(m, ep0, epv0, castle0, half0, h0, old, ah0, cap, extra, code)
        self.stack.append(u)
        self.history.append(h)
        if self._movefx:                    # the hook reads the move's record on the stack
            jm: list[tuple[int, int]] = []
            self.journal = jm
            self.variant.after_move(self, m)
            self.journal = None
            self._mjournals.append(jm)
            if jm:
                self._hook_rights(jm)
                self.history[-1] = self.hash

    def _hook_rights(self, journal: list[tuple[int, int]]) -> None:
        """A castling right lapses when a variant's hook changed its king's or rook's cell."""
        nc = self.castle
        cm = self._cmask
        for cell, _ in journal:
            if cell >= 0:
                nc &= cm[cell]
        if nc != self.castle:
            self.set_castle(nc)

    def _undo_journal(self, journal: list[tuple[int, int]]) -> None:
        """Put back, newest first, what a variant's hook changed through put, clear and
        add_hand (the hash and the evaluator's sum come back from the move's record)."""
        b = self.board
        for cell, old in reversed(journal):
            if cell < 0:
                self.hand[-1 - cell] = old
                continue
            cur = b[cell]
            if cur:
                self.occ[cur & 1].discard(cell)
                if self._royal[cur]:
                    self.king[cur & 1] = -1
            b[cell] = old
            if old:
                self.occ[old & 1].add(cell)
                if self._royal[old]:
                    self.king[old & 1] = cell

    def make_null(self) -> None:
        """The side to move passes (the searcher's null move): no piece moves, the en-passant
        cell lapses, and the move clock restarts so that repetition scans stop here.  Taken
        back by ``unmake`` like any move."""
        z = self.z
        side = self.side
        u = Undo(NULL_MOVE, self.ep, self.ep_victim, self.castle, self.halfmove, self.hash,
                 self.acc_sum, self.acch, 0, None, 0)
        self.hash ^= z.side ^ z.ep[self.ep] ^ z.ep[-1]
        self.ep = -1
        self.ep_victim = -1
        self.halfmove = 0
        if side:
            self.fullmove += 1
        self.side = side ^ 1
        self.stack.append(u)
        self.history.append(self.hash)

    def unmake(self) -> None:
        """Take back the last move (or null move)."""
        u = self.stack.pop()
        m = u.move
        cap = u.cap
        extra = u.extra
        code = u.code
        self.history.pop()
        side = self.side ^ 1
        self.side = side
        if side:
            self.fullmove -= 1
        b = self.board
        to = m & CELL
        frm = (m >> FROM_SHIFT) & CELL
        if self._movefx and m != NULL_MOVE:
            self._undo_journal(self._mjournals.pop())
        if frm == to and not m & IN_PLACE:     # a drop, or a null move (a drop of nothing)
            if m == NULL_MOVE:
                self.ep = u.ep
                self.ep_victim = u.ep_victim
                self.halfmove = u.halfmove
                self.hash = u.hash
                self.acc_sum = u.acc
                self.acch = u.acch
                self._spare.append(u)
                return
            if extra is not None:
                self._undo_journal(extra)
            code = b[to]
            b[to] = 0
            self.occ[side].discard(to)
            self.hand[self._handsrc[code]] += 1
            if self._royal[code]:
                self.king[side] = -1
        elif m & SPECIAL:
            if self._spjournal:
                self._undo_journal(extra)
            else:
                self.variant.unmake_special(self, m, extra)
        elif m & CASTLE:
            rook_from, rook_to, king_to = self._castles[m & FROM_TO]
            occ = self.occ[side]
            rook = b[rook_to]
            b[king_to] = 0
            occ.discard(king_to)
            b[rook_to] = 0
            occ.discard(rook_to)
            b[frm] = code
            occ.add(frm)
            b[rook_from] = rook
            occ.add(rook_from)
            if self._royal[code]:
                self.king[side] = frm
        elif m & LEGS:
            occ = self.occ[side]
            occ.discard(to)
            b[to] = cap
            if cap:
                self.occ[side ^ 1].add(to)
                if self._royal[cap]:
                    self.king[side ^ 1] = to
                ht = self._handtype[cap]
                if ht:
                    self.hand[ht * 2 + side] -= 1
            b[frm] = code
            occ.add(frm)
            if self._royal[code]:
                self.king[side] = frm
            vc = (m >> ACTED_SHIFT) & CELL     # moves.legs_victim
            if vc:
                vc ^= frm
                b[vc] = extra
                self.occ[side ^ 1].add(vc)
                if self._royal[extra]:
                    self.king[side ^ 1] = vc
                ht = self._handtype[extra]
                if ht:
                    self.hand[ht * 2 + side] -= 1
        else:
            if cap and extra is not None and self._capfx:
                self._undo_journal(extra)
            occ = self.occ[side]
            occ.discard(to)
            b[frm] = code
            occ.add(frm)
            if self._royal[code]:
                self.king[side] = frm
            if cap:
                b[to] = cap
                self.occ[side ^ 1].add(to)
                if self._royal[cap]:
                    self.king[side ^ 1] = to
                ht = self._handtype[cap]
                if ht:
                    self.hand[ht * 2 + side] -= 1
            else:
                b[to] = 0
            if m & FLAGS:
                if m & EP:
                    epv = u.ep_victim
                    b[epv] = extra
                    self.occ[side ^ 1].add(epv)
                    ht = self._handtype[extra]
                    if ht:
                        self.hand[ht * 2 + side] -= 1
        self.ep = u.ep
        self.ep_victim = u.ep_victim
        self.castle = u.castle
        self.halfmove = u.halfmove
        self.hash = u.hash
        self.acc_sum = u.acc            # after unmake_special, whose put and clear drop it
        self.acch = u.acch
        self._spare.append(u)
