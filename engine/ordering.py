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
K_TACTICAL: Final = K_SPECIAL   # keys at or above this are tactical moves


# the sort key of (key, move, ...) entries: a C getter, not a function called per entry
_first: Final = itemgetter(0)


class MoveOrdering(SearchState):
    def order(self, pos: Position, moves: list[int], ttmove: int, ply: int,
              extra: list[int] | None = None) -> list[tuple[int, int]]:
        """Moves sorted best first; returns (key, move) pairs.  ``extra``: what a capture of
        each code gains beyond its value (``Variant.capture_gains``), when known."""
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
        keyed: list[tuple[int, int]] = []
        for m in moves:
            if m == ttmove:
                keyed.append((K_TT, m))
                continue
            frm = (m >> FROM_SHIFT) & CELL
            if frm == m & CELL and not m & IN_PLACE:     # a drop (moves.is_drop)
                # returns and drops: killers and history first, then where the dropped
                # piece stands best (its square value), not the generator's cell order
                if m == k1 or m == k2:
                    keyed.append((K_KILLER, m))
                else:
                    dc = ((m >> TYPE_SHIFT) & TYPE_MASK) * 2 + side
                    keyed.append((hist.get(m * 2 + side, 0) + pst[dc][m & CELL] - val[dc], m))
                continue
            if acted is not None and hook is not None and m >> ACTED_SHIFT & CELL and hook(pos, m):
                # acts on another cell (a shunt lands on it), may promote the mover:
                # ordered as a capture, by its material swing
                keyed.append((K_CAPTURE + self._acted_gain(pos, m, ((m >> ACTED_SHIFT) & CELL) ^ frm, acted) * 16
                     - (val[b[frm]] >> 4), m))
                continue
            cap = b[m & CELL]
            if cap and (cap & 1) != side:
                va = val[b[frm]]
                vv = val[cap] if extra is None else val[cap] + extra[cap]
                if va > vv + 50 and royal and attacked(pos, m & CELL, them):
                    keyed.append((K_BAD + vv, m))       # defended and worth less than the capturer
                else:
                    keyed.append((K_CAPTURE + vv * 16 - (va >> 4), m))
                continue
            if m & EP:
                keyed.append((K_CAPTURE + 1600, m))
                continue
            if (m >> TYPE_SHIFT) & TYPE_MASK and not m & (FISSION | FUSION):
                keyed.append((K_PROMO + val[((m >> TYPE_SHIFT) & TYPE_MASK) * 2 + side], m))
                continue
            if hook is not None and hook(pos, m):
                keyed.append((K_SPECIAL, m))
            elif m == k1 or m == k2:
                keyed.append((K_KILLER, m))
            else:
                keyed.append((hist.get(m * 2 + side, 0), m))
        keyed.sort(key=_first, reverse=True)
        return keyed

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
        hk = m * 2 + side
        hv = self.history.get(hk, 0) + depth * depth
        self.history[hk] = hv if hv < HISTORY_MAX else HISTORY_MAX

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

    def _with_drops(self, pos: Position, keyed: list[tuple[int, int]], first: list[int],
                    ttmove: int, ply: int) -> Iterator[tuple[int, int]]:
        """``keyed`` (the board moves and the drops of ``first``, sorted), then, once the
        keys fall below the killers', the rest merged with the other drops by key: the order
        a full generation gives, except that the drops' history is read when they come.
        Generated between two moves of the node's loop, so the position is the node's."""
        i = 0
        n = len(keyed)
        while i < n and keyed[i][0] >= K_KILLER:
            yield keyed[i]
            i += 1
        drops = drop_moves(pos)
        if first:
            drops = [m for m in drops if m not in first]
        rest = keyed[i:] + self.order(pos, drops, ttmove, ply)
        rest.sort(key=_first, reverse=True)
        yield from rest

    def _staged_quiets(self, pos: Position, ttmove: int, ply: int) -> Iterator[tuple[int, int]]:
        """Every pseudo-legal move, keyed and in the order of ``order`` over all of them, but
        the quiet moves are generated and keyed only once the captures and promotions that
        sort above the killers have failed to cut the node off (about half the nodes of a
        Knavish search are cut off by one of those).  For variants whose tactical moves are
        those ``pseudo_moves(pos, True)`` gives (no ``is_tactical`` hook) and no drops.
        Generated between two moves of the node's loop, so the position is the node's."""
        caps = self.order(pos, pseudo_moves(pos, True), ttmove, ply)
        i = 0
        n = len(caps)
        while i < n and caps[i][0] >= K_KILLER:
            yield caps[i]
            i += 1
        rest = caps[i:] + self.order(pos, quiet_moves(pos), ttmove, ply)
        rest.sort(key=_first, reverse=True)
        yield from rest

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
