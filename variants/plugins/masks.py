"""What a side's pieces mean to a win rule of the kind "keep enough pieces of each kind" (a
direction, a class, a victory group), kept per army for the plugins that have such a rule."""
from __future__ import annotations


class ArmyMemo:
    """What a side's win rule makes of its board pieces, computed once per army.

    Such facts (which directions or groups a side still holds, how thin they are, which
    captures would end the game) depend only on the multiset of piece codes the side has on
    the board: captures, returns and promotions change it, other moves do not.  ``get`` keys
    them by the sorted codes, and remembers the last position asked of each side by its hash,
    since adjudication, evaluation and capture gains each ask of the same node."""

    SIZE = 50_000           # armies kept; the memo starts over when full

    def __init__(self, compute) -> None:
        self._compute = compute         # sorted tuple of codes -> the facts
        self._memo: dict = {}
        self._last: list[tuple] = [(None, None), (None, None)]

    def get(self, pos, side: int):
        last = self._last[side]
        if last[0] == pos.hash:
            return last[1]
        b = pos.board
        key = tuple(sorted(map(b.__getitem__, pos.occ[side])))
        memo = self._memo
        r = memo.get(key)
        if r is None:
            if len(memo) >= self.SIZE:
                memo.clear()
            r = memo[key] = self._compute(key)
        self._last[side] = (pos.hash, r)
        return r
