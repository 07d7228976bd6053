"""Ataxx's rules (Fairy-Stockfish's ``enclosingDrop = ataxx``, ``flipEnclosedPieces = ataxx``
and ``freeDrops`` keys), beside Reversi's in reversi.py, which also plays the pass, the full
board and the piece count that end an Ataxx game.

``enclosingDrop = ataxx``: a drop goes next to (a king's step from) a piece of the mover's
(reversi.py filters the drops).  ``flipEnclosedPieces = ataxx``: after a drop or a move, the
other side's pieces next to the cell reached change sides (``Variant.after_move``).
``freeDrops``: drops take nothing from a hand (a side may always drop; the position text shows
no hand).  A repetition is decided by the count (reversi.py, ``materialCounting = unweighted``).
"""
from __future__ import annotations

from typing import Any

from engine.moves import CELL, SPECIAL, is_drop

from .filevariant import RuleBase

KING_STEPS = tuple((dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy)


def free_drop_attrs(val: dict[str, str], attrs: dict) -> bool:
    """``freeDrops`` read into the class attributes; True when the section has it."""
    from .values import as_bool
    attrs["free_drops"] = as_bool("freeDrops", val.get("freeDrops", "false"))
    return attrs["free_drops"]


def neighbours(v: Any, cell: int) -> list[int]:
    """The cells a king's step from ``cell``."""
    geo = v.geometry
    x, y = geo.coords[cell][:2]
    return [c for c in (geo.index.get((x + dx, y + dy)) for dx, dy in KING_STEPS) if c is not None]


class AtaxxRules(RuleBase):
    """The flips after every move and drop, and free drops."""
    ataxx_flip = False
    free_drops = False

    def after_move(self, pos, m: int) -> None:
        super().after_move(pos, m)
        if m & SPECIAL:                 # a pass
            return
        to = m & CELL
        if self.free_drops and is_drop(m):
            pos.add_hand(self.hand_source(pos.board[to]), 1)   # the hand it took from is full again
        if self.ataxx_flip:
            b = pos.board
            them = pos.side             # the mover's opponent is to move now
            for c in neighbours(self, to):
                if b[c] and b[c] & 1 == them:
                    pos.set_cell(c, b[c] ^ 1)


def free_drop_text(attrs: dict, text_cls: type) -> type:
    """The position text of a section with ``freeDrops``: no hand written, one piece of each
    kind held by each side when the text is read (a drop takes it and gives it back)."""
    if not attrs.get("free_drops"):
        return text_cls

    base: Any = text_cls

    def init_fields(self, pos) -> None:
        base.init_fields(self, pos)
        v = self.variant
        for pt in v.piece_types[1:]:
            if pt is not None and not pt.promoted:
                for col in (0, 1):
                    pos.hand[pt.id * 2 + col] = 1

    return type(f"{text_cls.__name__}FreeDrops", (text_cls,),
                {"hand_in_board": False, "init_fields": init_fields})
