"""What a side's pieces mean to a win rule of the kind "keep enough pieces of each kind" (a
direction, a class, a victory group), kept per army for the plugins that have such a rule."""
from __future__ import annotations

from engine.moves import TYPE_SHIFT, is_drop


class ArmyMemo:
    """What a side's win rule makes of its board pieces, computed once per army.

    Such facts (which directions or groups a side still holds, how thin they are, which
    captures would end the game) depend only on the multiset of piece codes the side has on
    the board: captures, returns and promotions change it, other moves do not.  ``get`` keys
    them by the sorted codes, and remembers them per side by the position's hash (adjudication,
    evaluation and capture gains each ask of the same node); a position reached by a plain
    move (no capture, promotion, drop, flag or hook) has the armies of the position before it,
    whose facts are then read by that position's hash, without sorting the codes again."""

    SIZE = 50_000           # armies (and positions) kept; each memo starts over when full

    def __init__(self, compute) -> None:
        self._compute = compute         # sorted tuple of codes -> the facts
        self._memo: dict = {}
        self._seen: list[dict] = [{}, {}]   # per side: position hash -> the facts

    def get(self, pos, side: int):
        seen = self._seen[side]
        h = pos.hash
        r = seen.get(h)
        if r is not None:
            return r
        st = pos.stack
        if st:
            rec, cap, extra, _code = st[-1]
            m = rec[0]
            # from and to cells alone (no promotion, second cell or flag), not a drop, no capture
            if m < 1 << TYPE_SHIFT and not cap and extra is None and not is_drop(m) \
                    and len(pos.history) >= 2:
                r = seen.get(pos.history[-2])
        if r is None:
            b = pos.board
            key = tuple(sorted(map(b.__getitem__, pos.occ[side])))
            memo = self._memo
            r = memo.get(key)
            if r is None:
                if len(memo) >= self.SIZE:
                    memo.clear()
                r = memo[key] = self._compute(key)
        if len(seen) >= self.SIZE:
            seen.clear()
        seen[h] = r
        return r
