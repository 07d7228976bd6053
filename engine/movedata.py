"""What the move generators and the attack test read of a variant, gathered once per variant
in typed fields.

``Variant`` stays interpreted (variants subclass it), so in the compiled engine
(``cellfish native``) each of its attributes is a dictionary lookup and each of its lazy tables
a call of a Python property; the generators read several of them at every node.  A position
keeps its variant's ``MoveData`` in ``Position.md``, taken from ``Variant.move_data`` (built on
first use) by ``of``.  The attack tables are read on first need here too: a variant builds
them lazily, and a variant with bent pieces has none.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .position import Position
    from .attacks import MaskAttacks
    from .tables import AttackTables, PieceTables, Promotions
    from .variant import CastlingRule, Variant


class MoveData:
    __slots__ = ("variant", "tl", "promo", "pfrom", "hands", "castling", "castle_rules", "extra_moves", "atk", "masks",
                 "promo_at",
                 "own_legality", "rule_filter")

    def __init__(self, v: Variant) -> None:
        self.variant = v
        self.tl: list[PieceTables] = v.table_list         # the generator's tables by code
        self.promo: Promotions = v.promo
        self.pfrom: dict[int, frozenset[int]] = v.promo_from
        # the two read at once, by code and then cell: the code's promotions where it stands on
        # a cell it may promote from, else None (two list reads where the generators read a dict
        # and tested a frozenset for every piece of a code that promotes)
        n = len(self.tl)
        size = v.geometry.size
        never: list[dict[tuple[int, int], tuple[int, ...]] | None] = [None] * size
        self.promo_at: list[list[dict[tuple[int, int], tuple[int, ...]] | None]] = []
        for code in range(n):
            pr = self.promo.get(code)
            pf = self.pfrom.get(code, frozenset())
            self.promo_at.append(never if pr is None or not pf else
                                 [pr if c in pf else None for c in range(size)])
        self.hands: bool = bool(v.hands)
        self.castling: bool = bool(v.castling)
        self.castle_rules: list[CastlingRule] = list(v.castling)
        self.extra_moves: bool = v.rules.extra_moves
        # the class has its own legal_moves (else the default's None is not asked for), and
        # rule flags for the legal moves (``movegen.rule_filter``)
        self.own_legality: bool = v.rules.own_legality
        self.rule_filter: bool = v.rules.rule_filter
        self.atk: list[AttackTables] | None = None        # v.attacks, once read
        self.masks: list[MaskAttacks] | None = None       # v.attack_masks, once read

    def attacks(self) -> list[AttackTables]:
        a = self.atk
        if a is None:
            a = self.atk = self.variant.attacks
        return a

    def attack_masks(self) -> list[MaskAttacks]:
        a = self.masks
        if a is None:
            a = self.masks = self.variant.attack_masks
        return a


def of(pos: Position) -> MoveData:
    """The move data of the position's variant."""
    md = pos.md
    if md is None:
        md = pos.md = pos.variant.move_data
    return md
