"""Stalemate decided by the pieces (``stalematePieceCount``), with Fairy-Stockfish's meaning
(docs/variant-files.md): a side without a legal move, not in check, wins with fewer pieces on
the board than the other side, loses with more, and draws with as many (suicide chess)."""
from __future__ import annotations

from engine.variant import Result

from .filevariant import RuleBase
from .registry import names
from .values import as_bool

STALEMATE_KEYS = names("stalemate")


def stalemate_attrs(val: dict[str, str], attrs: dict) -> None:
    """``stalematePieceCount`` read into the class attributes."""
    attrs["stalemate_count"] = as_bool("stalematePieceCount", val.get("stalematePieceCount", "false"))


def stalemate_bases(attrs: dict) -> tuple[type, ...]:
    """The rule part of a section whose stalemates count pieces (none otherwise)."""
    return (StalemateCount,) if attrs.get("stalemate_count") else ()


class StalemateCount(RuleBase):
    """``stalemate_outcome`` by the count of the pieces on the board."""
    stalemate_count = True

    def stalemate_outcome(self, pos) -> Result:
        diff = len(pos.occ[pos.side]) - len(pos.occ[pos.side ^ 1])
        return (0 if diff == 0 else 1 if diff < 0 else -1, "stalemate")
