"""Stalemate decided by the pieces (``stalematePieceCount``), with Fairy-Stockfish's meaning
(docs/variant-files.md): a side without a legal move, not in check, gets ``stalemateValue``
with fewer pieces on the board than the other side, its opposite with more, and a draw with as
many (suicide chess: fewer wins; Reversi: more wins)."""
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
        """The side with fewer pieces gets ``stalemateValue``, the other its opposite, as
        Fairy-Stockfish scores it (suicide: fewer wins; Reversi, whose stalemate value is a
        loss: more wins)."""
        diff = len(pos.occ[pos.side]) - len(pos.occ[pos.side ^ 1])
        value = {"win": 1, "loss": -1, "draw": 0}[self.stalemate_result]
        return (0 if diff == 0 else value if diff < 0 else -value, "stalemate")
