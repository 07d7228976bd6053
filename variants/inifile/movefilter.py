"""``MoveFilter``'s rules written into the promotion table where they depend on the move
alone: ``TableMoveFilter``.

``drops.MoveFilter`` keeps, of the moves the generators make, those whose result
(``DropRules.results``: stay, promote, or neither where the piece could never move on) the
promotion keys allow.  That is a legality filter of the variant's own, so the searcher takes
the legal moves at every node and every legality shortcut of the core is off (engine/rules.py,
``own_legality``).  Where neither ``promotionLimit`` (the pieces on the board) nor
``piecePromotionOnCapture`` (whether the move captures) nor an en-passant capture (whose
promotion choices the filter strips) takes part, the answer depends on the piece, its cell
and its destination alone, so it is worked out once per move of the tables: the promotion
table keeps of each move's choices those the filter would keep, and an empty entry makes the
generators leave the move out (the attack tables keep it, as the filter does: a piece still
gives check where it may not go).  The legal moves are the same, in the same order.

The swap is made only where every move a filter would see comes from the tables: no other
rule part and no plugin adds moves (``extra_moves``; promoted drops are drops, which the
filter lets pass) or gives promotion choices of its own.
"""
from __future__ import annotations

from typing import Any

from engine.betza import parse_betza
from engine.pieces import CAPTURE, LEAP
from engine.tables import Promotions, reachable

from .drops import MoveFilter, PromotedDrops
from .filevariant import RuleBase


class TableMoveFilter(RuleBase):
    """``MoveFilter`` for a section whose filter depends on the move alone: its answers in the
    promotion table (``build_promotions``), no legality filter of its own."""

    def build_promotions(self) -> Promotions:
        base = super().build_promotions()
        out: Promotions = {}
        n = self.geometry.size
        for code, tab in self.tables.items():
            d = dict(base.get(code, {}))
            for s in range(n):
                for t in reachable(tab, s):
                    keep = self.results(code, s, t, False, None)    # type: ignore[attr-defined]
                    opts = d.get((s, t), (0,))      # no entry: the plain move alone
                    kept = tuple(o for o in opts if o in keep)
                    if kept == opts:
                        continue
                    d[(s, t)] = kept
            if d:
                out[code] = d
        return out


def en_passant(attrs: dict[str, Any]) -> bool:
    """Can a piece of the section take en passant?  The ``pawn`` piece and a piece with a
    capture-only leap, when the en-passant types name them (``moverules.FileRules``)."""
    types = attrs["ep_types"][0] | attrs["ep_types"][1]
    for key, letter, betza in attrs["pieces"]:
        if letter not in types:
            continue
        if key == "pawn":
            return True
        atoms = parse_betza(betza, initial=lambda c, col: True)
        if any(a.mode == CAPTURE and a.kind == LEAP for a in atoms):
            return True
    return False


OWN = ("extra_moves", "promotion_options", "build_promotions")


def table_filters(parts: dict[str, tuple[type, ...]], attrs: dict[str, Any]) -> tuple[type, ...]:
    """The section's ``drop_filters`` part, with ``MoveFilter`` replaced by
    ``TableMoveFilter`` where the filter depends on the move alone and the tables make every
    move it would see."""
    filters = parts.get("drop_filters", ())
    if MoveFilter not in filters or attrs["limits"] or attrs["on_capture"] or en_passant(attrs):
        return filters
    from .drops import DropRules
    # the board's classes (the file variant's base, chess's, the core's) and the drop rules
    # make the moves and choices the filter sees
    known = {k for cls in parts.get("board", ()) for k in cls.__mro__} | {MoveFilter, PromotedDrops, DropRules}
    for classes in parts.values():
        for cls in classes:
            for k in cls.__mro__:
                if k not in known and any(hook in k.__dict__ for hook in OWN):
                    return filters
    return tuple(TableMoveFilter if c is MoveFilter else c for c in filters)
