"""Move ordering: keys that sort the hash move, captures by their swing, promotions, the
variant's tactical moves, killers, and quiet moves by history; the hash move's sanity check;
in drop games the drops staged after the moves that cut most (``_first_drops``,
``_with_drops``), elsewhere the quiet moves staged after the captures (``_staged_quiets``).

``MoveOrdering`` is a layer of the ``Searcher`` (under ``Quiescence``); it reads the searcher's killers, history,
piece values and square tables, and the variant's search hooks.
"""
from __future__ import annotations

from operator import itemgetter
from typing import TYPE_CHECKING, Final

from .movegen import attacked, drop_moves, pseudo_moves, quiet_moves
from .moves import ACTED_SHIFT, CELL, EP, FISSION, FROM_SHIFT, FUSION, IN_PLACE, TYPE_MASK, TYPE_SHIFT
from .search_state import SearchState

if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Callable

    from .position import Position

K_TT: Final = 1 << 30
K_CAPTURE: Final = 1 << 24
K_PROMO: Final = 1 << 23
K_SPECIAL: Final = 1 << 22
K_KILLER: Final = 1 << 21
K_BAD: Final = 1 << 20          # captures that lose material: after the killers, before quiet moves
HISTORY_MAX: Final = (1 << 20) - 1
HISTORY_CELLS: Final = 256     # boards up to this many cells keep the plain moves' history in a list
HISTORY_KEEP: Final = 200_000   # a search starts with an empty history when it holds this many moves
PLAIN: Final = 1 << TYPE_SHIFT  # a move below this has a from and a to cell and nothing else
K_TACTICAL: Final = K_SPECIAL   # keys at or above this are tactical moves


# the sort key of (key, move, ...) entries: a C getter, not a function called per entry
_first: Final = itemgetter(0)

# A sort entry is one number: key * 2**SLOT_BITS + LAST - (the move's index in its list).
# Sorted descending, the entries come by key, and equal keys in the list's order: the order
# of a stable sort of (key, move) pairs by key, without a tuple per move nor a key function
# per entry.  It is kept as a float, exact below 2**53 (every key below 2**32): CPython sorts
# a list of floats by plain C comparisons, a list of ints wider than 30 bits by generic ones
# (measured: 60 entries 1.6 us as floats, 3.3 as ints, 2.9 as pairs by their first item).
# With e = int(entry), ``e >> SLOT_BITS`` is the key (negative ones too), ``LAST - (e & LAST)``
# the index.
SLOT_BITS: Final = 20
LAST: Final = (1 << SLOT_BITS) - 1
E_TT: Final = K_TT << SLOT_BITS
E_KILLER: Final = K_KILLER << SLOT_BITS
E_SPECIAL: Final = K_SPECIAL << SLOT_BITS
NO_MOVE: Final = -1             # Picker.next: no move left
REST_NONE: Final = 0            # Picker.rest: every move is in the list
REST_QUIETS: Final = 1          # the quiet moves come later (quiet_moves)
REST_DROPS: Final = 2           # the drops not in the list come later (drop_moves)


class MoveOrdering(SearchState):
    def order(self, pos: Position, moves: list[int], ttmove: int, ply: int,
              extra: list[int] | None = None) -> list[tuple[int, int]]:
        """Moves sorted best first; returns (key, move) pairs.  ``extra``: what a capture of
        each code gains beyond its value (``Variant.capture_gains``), when known."""
        packed: list[float] = []
        self.keys_into(pos, moves, 0, ttmove, ply, extra, packed)
        packed.sort(reverse=True)
        out: list[tuple[int, int]] = []
        for f in packed:
            e = int(f)
            out.append((e >> SLOT_BITS, moves[LAST - (e & LAST)]))
        return out

    def ordered(self, pos: Position, moves: list[int], ttmove: int, ply: int) -> list[int]:
        """The moves of ``order``, without their keys."""
        packed: list[float] = []
        self.keys_into(pos, moves, 0, ttmove, ply, None, packed)
        packed.sort(reverse=True)
        return [moves[LAST - (int(f) & LAST)] for f in packed]

    def keys_into(self, pos: Position, moves: list[int], start: int, ttmove: int, ply: int,
                  extra: list[int] | None, out: list[float]) -> None:
        """Append to ``out`` the sort entry (see ``SLOT_BITS``) of each move of
        ``moves[start:]``, by its index in ``moves``: the keys of ``order``."""
        b = pos.board
        val = self.value
        k1, k2 = self.killers[ply]
        hist = self.history
        hl = self.hlist
        hn = self.hcells
        side = pos.side
        hook = self.is_tactical_hook
        acted = self.acted_hook
        pst = self.ev.pst
        royal = self.royal
        them = side ^ 1
        for i in range(start, len(moves)):
            m = moves[i]
            r = LAST - i
            if m == ttmove:
                out.append(float(E_TT + r))
                continue
            frm = (m >> FROM_SHIFT) & CELL
            if frm == m & CELL and not m & IN_PLACE:     # a drop (moves.is_drop)
                # returns and drops: killers and history first, then where the dropped
                # piece stands best (its square value), not the generator's cell order
                if m == k1 or m == k2:
                    out.append(float(E_KILLER + r))
                else:
                    dc = ((m >> TYPE_SHIFT) & TYPE_MASK) * 2 + side
                    out.append(float(((hist.get(m * 2 + side, 0) + pst[dc][m & CELL] - val[dc]) << SLOT_BITS) + r))
                continue
            if acted is not None and hook is not None and m >> ACTED_SHIFT & CELL and hook(pos, m):
                # acts on another cell (a shunt lands on it), may promote the mover:
                # ordered as a capture, by its material swing
                out.append(float(((K_CAPTURE + self._acted_gain(pos, m, ((m >> ACTED_SHIFT) & CELL) ^ frm, acted) * 16
                     - (val[b[frm]] >> 4)) << SLOT_BITS) + r))
                continue
            cap = b[m & CELL]
            if cap and (cap & 1) != side:
                va = val[b[frm]]
                vv = val[cap] if extra is None else val[cap] + extra[cap]
                if va > vv + 50 and royal and attacked(pos, m & CELL, them):
                    out.append(float(((K_BAD + vv) << SLOT_BITS) + r))       # defended and worth less than the capturer
                else:
                    out.append(float(((K_CAPTURE + vv * 16 - (va >> 4)) << SLOT_BITS) + r))
                continue
            if m & EP:
                out.append(float(((K_CAPTURE + 1600) << SLOT_BITS) + r))
                continue
            if (m >> TYPE_SHIFT) & TYPE_MASK and not m & (FISSION | FUSION):
                out.append(float(((K_PROMO + val[((m >> TYPE_SHIFT) & TYPE_MASK) * 2 + side]) << SLOT_BITS) + r))
                continue
            if hook is not None and hook(pos, m):
                out.append(float(E_SPECIAL + r))
            elif m == k1 or m == k2:
                out.append(float(E_KILLER + r))
            elif m < PLAIN and hn:
                # hist_index, inline
                out.append(float((hl[(((m >> FROM_SHIFT) * hn + (m & CELL)) << 1) + side] << SLOT_BITS) + r))
            else:
                out.append(float((hist.get(m * 2 + side, 0) << SLOT_BITS) + r))

    def _acted_gain(self, pos: Position, m: int, a: int, acted: Callable[[Position, int], int]) -> int:
        """Material swing for the mover of a move acting on cell a (plus its own promotion)."""
        val = self.value
        side = pos.side
        old = pos.board[a]
        new = acted(pos, m)
        gain = (val[new] if new and (new & 1) == side else -val[new] if new else 0) \
            - (val[old] if (old & 1) == side else -val[old])
        pt = (m >> TYPE_SHIFT) & TYPE_MASK
        if pt and not m & (FISSION | FUSION):
            gain += val[pt * 2 + side] - val[pos.board[(m >> FROM_SHIFT) & CELL]]
        return max(0, gain)

    def _reward(self, killers: list[int], m: int, side: int, depth: int) -> None:
        if killers[0] != m:
            killers[1] = killers[0]
            killers[0] = m
        hn = self.hcells
        if m < PLAIN and hn:
            i = (((m >> FROM_SHIFT) * hn + (m & CELL)) << 1) + side     # hist_index, inline
            hl = self.hlist
            hv = hl[i]
            if not hv:
                self.hused.append(i)
            hv += depth * depth
            hl[i] = hv if hv < HISTORY_MAX else HISTORY_MAX
            return
        hk = m * 2 + side
        hv = self.history.get(hk, 0) + depth * depth
        self.history[hk] = hv if hv < HISTORY_MAX else HISTORY_MAX

    def new_history(self, cells: int) -> None:
        """An empty history for a board of ``cells`` cells.  A quiet move's history is read
        at every node for every quiet move keyed: a plain move's (from and to cells only,
        ``PLAIN``) is kept in a list by ``hist_index`` (no dict lookup, no int boxed per
        read), any other's (drops, promotions, moves with flags, acted or wall cells) in the
        dict ``history`` by ``move * 2 + side``.  The two together hold exactly what one dict
        by ``move * 2 + side`` would."""
        self.hcells = cells if cells <= HISTORY_CELLS else 0
        self.hlist = [0] * (2 * cells * cells if self.hcells else 0)
        self.hused = []
        self.history = {}

    def hist_index(self, m: int, side: int) -> int:
        """Where ``hlist`` keeps a plain move's history (-1: in ``history``, by m * 2 + side)."""
        if m < PLAIN and self.hcells:
            return (((m >> FROM_SHIFT) * self.hcells + (m & CELL)) << 1) + side
        return -1

    def history_of(self, m: int, side: int) -> int:
        i = self.hist_index(m, side)
        return self.hlist[i] if i >= 0 else self.history.get(m * 2 + side, 0)

    def set_history(self, values: dict[int, int]) -> None:
        """The history replaced by ``values`` (by move * 2 + side): for tests."""
        self.new_history(self.hcells or HISTORY_CELLS + 1)
        for k, v in values.items():
            i = self.hist_index(k >> 1, k & 1)
            if i < 0:
                self.history[k] = v
            elif v:
                if not self.hlist[i]:
                    self.hused.append(i)
                self.hlist[i] = v

    def age_history(self) -> None:
        """At a new search every entry is quartered (an entry that falls to 0 is gone);
        with ``HISTORY_KEEP`` entries or more, the history starts empty."""
        hl = self.hlist
        if len(self.history) + len(self.hused) >= HISTORY_KEEP:
            for i in self.hused:
                hl[i] = 0
            self.hused = []
            self.history = {}
            return
        self.history = {k: v >> 2 for k, v in self.history.items() if v >= 4}
        kept: list[int] = []
        for i in self.hused:
            v = hl[i] >> 2
            hl[i] = v
            if v:
                kept.append(i)
        self.hused = kept

    def _first_drops(self, pos: Position, moves: list[int], cands: tuple[int, ...]) -> list[int]:
        """The drops among ``cands`` (the hash move and the killers) that the generator would
        give here and ``moves`` does not hold yet: they are ordered with the board moves."""
        out: list[int] = []
        hand = pos.hand
        b = pos.board
        side = pos.side
        drops = self.variant.drops
        for m in cands:
            if m and (m >> FROM_SHIFT) & CELL == m & CELL and not m & IN_PLACE and m not in out:
                code = ((m >> TYPE_SHIFT) & TYPE_MASK) * 2 + side
                t = m & CELL
                if code < len(hand) and hand[code] and not b[t] and t in drops[code] \
                        and m not in moves:
                    out.append(m)
        return out

    def picker(self, pos: Position, moves: list[int], ttmove: int, ply: int, rest: int = REST_NONE,
               skip: list[int] | None = None) -> Picker:
        """The moves of a node one at a time, in the order of ``order``; ``rest``: the moves
        generated only once the keys fall below the killers' (``Picker``).  ``moves`` becomes
        the picker's own."""
        packed: list[float] = []
        self.keys_into(pos, moves, 0, ttmove, ply, None, packed)
        packed.sort(reverse=True)
        return Picker(self, pos, moves, packed, ttmove, ply, rest, skip)

    def staged_picker(self, pos: Position, ttmove: int, ply: int) -> Picker:
        """The picker of ``_staged_quiets``: the captures now, the quiet moves later."""
        return self.picker(pos, pseudo_moves(pos, True), ttmove, ply, REST_QUIETS)

    def _with_drops(self, pos: Position, keyed: list[tuple[int, int]], first: list[int],
                    ttmove: int, ply: int) -> Iterator[tuple[int, int]]:
        """``keyed`` (the board moves and the drops of ``first``, sorted), then, once the
        keys fall below the killers', the rest merged with the other drops by key: the order
        a full generation gives, except that the drops' history is read when they come.
        Generated between two moves of the node's loop, so the position is the node's (the
        searcher's own loop runs the same ``Picker``)."""
        moves = [m for _, m in keyed]
        packed = [float((keyed[i][0] << SLOT_BITS) + LAST - i) for i in range(len(keyed))]
        pk = Picker(self, pos, moves, packed, ttmove, ply, REST_DROPS, first)
        m = pk.next()
        while m != NO_MOVE:
            yield pk.key, m
            m = pk.next()

    def _staged_quiets(self, pos: Position, ttmove: int, ply: int) -> Iterator[tuple[int, int]]:
        """Every pseudo-legal move, keyed and in the order of ``order`` over all of them, but
        the quiet moves are generated and keyed only once the captures and promotions that
        sort above the killers have failed to cut the node off (about half the nodes of a
        Knavish search are cut off by one of those).  For variants whose tactical moves are
        those ``pseudo_moves(pos, True)`` gives (no ``is_tactical`` hook) and no drops.
        Generated between two moves of the node's loop, so the position is the node's (the
        searcher's own loop runs the same ``Picker``)."""
        pk = self.staged_picker(pos, ttmove, ply)
        m = pk.next()
        while m != NO_MOVE:
            yield pk.key, m
            m = pk.next()

    @staticmethod
    def _plausible(pos: Position, m: int) -> bool:
        """Cheap sanity check of a hash move (guards against key collisions)."""
        b = pos.board
        side = pos.side
        frm = (m >> FROM_SHIFT) & CELL
        to = m & CELL
        p = b[to]
        if p and (p & 1) == side:
            return False
        if frm == to and not m & IN_PLACE:     # a drop (moves.is_drop)
            return not p and pos.hand[pos._handsrc[((m >> TYPE_SHIFT) & TYPE_MASK) * 2 + side]] > 0
        q = b[frm]
        return bool(q) and (q & 1) == side


class Picker:
    """A node's moves best first, one per ``next`` (``NO_MOVE`` after the last), ``key`` the
    last one's key: the order of ``MoveOrdering.order``, read from sort entries (see
    ``SLOT_BITS``).  With ``rest`` set, once the keys fall below the killers' (or the list
    ends), the moves still to come are generated (the quiet moves, or the drops but those of
    ``skip``), keyed and merged with the entries left: their indices follow the list's, so
    equal keys still come in the order of one stable sort over all the moves.  ``next`` is
    called between two moves of the node's loop, so the position is the node's."""

    def __init__(self, owner: MoveOrdering, pos: Position, moves: list[int], packed: list[float],
                 ttmove: int, ply: int, rest: int, skip: list[int] | None) -> None:
        self.owner = owner
        self.pos = pos
        self.moves = moves
        self.packed = packed
        self.i = 0
        self.key = 0
        self.ttmove = ttmove
        self.ply = ply
        self.rest = rest
        self.skip = skip

    def next(self) -> int:
        while True:
            i = self.i
            packed = self.packed
            if i < len(packed):
                e = int(packed[i])
                key = e >> SLOT_BITS
                if key >= K_KILLER or self.rest == REST_NONE:
                    self.i = i + 1
                    self.key = key
                    return self.moves[LAST - (e & LAST)]
            elif self.rest == REST_NONE:
                return NO_MOVE
            self._merge_rest()

    def _merge_rest(self) -> None:
        pos = self.pos
        if self.rest == REST_QUIETS:
            more = quiet_moves(pos)
        else:
            more = drop_moves(pos)
            skip = self.skip
            if skip:
                more = [m for m in more if m not in skip]
        self.rest = REST_NONE
        moves = self.moves
        start = len(moves)
        moves.extend(more)
        tail = self.packed[self.i:]
        self.owner.keys_into(pos, moves, start, self.ttmove, self.ply, None, tail)
        tail.sort(reverse=True)
        self.packed = tail
        self.i = 0
