"""What a side's pieces mean to a win rule of the kind "keep enough pieces of each kind" (a
direction, a class, a victory group), kept per army for the plugins that have such a rule.

The memo itself is compiled with the engine (``engine.armies.ArmyMemo``: per army, and per
position by its hash; a position reached by an ordinary move follows from the position
before it); what it counts afresh, a side's sorted codes, is read here."""
from __future__ import annotations

from engine.armies import ArmyMemo

__all__ = ["ArmyMemo", "army_codes", "army_memo"]


def army_codes(pos, side: int) -> tuple[int, ...]:
    """The sorted codes of ``side``'s board pieces: an army's key."""
    b = pos.board
    return tuple(sorted(map(b.__getitem__, pos.occ[side])))


def army_memo(compute) -> ArmyMemo:
    """A memo of ``compute`` (sorted codes -> the rule's facts) for a plugin."""
    return ArmyMemo(compute, army_codes)
