"""Pieces that exist only as a promoted form (a cellfish extension of the variants-file
format).

    promotedOnlyTypes = hd      the pieces h and d are only what other pieces promote to

Fairy-Stockfish's shogi names the Horse and the Dragon as pieces of their own (``dragonHorse
= h``, ``bers = d``) so that ``promotedPieceType = b:h r:d`` can say what a promoted Bishop
and Rook move like.  cellfish makes each promoted form a piece type of its own (``+B``, moving
as h), so h and d would also be pieces in their own right, written ``H`` and ``D`` and never
reached by any move.  With this key they are not: they give only their moves to the promoted
forms, and a position text naming them is refused as an unknown piece.  See
docs/variant-files.md ("Promoted-only pieces").
"""
from __future__ import annotations

from typing import Any

from .registry import names

PIECESET_KEYS = names("pieceset")


def pieceset_attrs(val: dict[str, str], pieces: list[tuple[str, str, str]], attrs: dict[str, Any],
                   error: type) -> None:
    """Read ``promotedOnlyTypes`` (after the drop keys: it needs ``promotedPieceType``)."""
    if "promotedOnlyTypes" not in val:
        return
    text = val["promotedOnlyTypes"]
    letters = {letter for _, letter, _ in pieces}
    promoted = attrs.get("promoted_of", {})
    out = set()
    for ch in text.lower():
        if ch == "-" or ch.isspace():
            continue
        if ch not in letters:
            raise error("promotedOnlyTypes", "no piece has this letter", ch)
        if ch not in promoted.values():
            raise error("promotedOnlyTypes", "not a promoted type of promotedPieceType", ch)
        if ch in promoted or ch == attrs.get("royal_letter"):
            raise error("promotedOnlyTypes", "a piece of its own (it promotes, or is the king)", ch)
        if attrs.get("drop_loop") or ch in attrs["pawn_letters"]:
            raise error("promotedOnlyTypes", "would be needed as a piece of its own "
                                             "(dropLoop, pawnTypes)", ch)
        out.add(ch)
    attrs["promoted_only"] = frozenset(out)
