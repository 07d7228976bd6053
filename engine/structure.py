"""Pawn structure and open files: evaluation terms a variant declares as data
(``Variant.structure``; chess does).

They need more than one piece at a time, so square tables cannot hold them.  They are read
along the files (the axis across the rank axis) of a 2D board without hands (where a pawn
could come back anywhere, its file says little):

* doubled pawns: each own pawn beyond the first on a file costs ``doubled``;
* isolated pawns: an own pawn with no own pawn on a neighbouring file costs ``isolated``;
* pairs: a player holding two or more pieces of a letter in ``pair`` gains its bonus once
  (the bishop pair: two bishops cover both colours);
* open files: a piece of a letter in ``open_file`` on a file without pawns gains the first
  figure, on a file with only enemy pawns the second (a rook).

The evaluator collects the pawns and the pieces named here in the one pass it makes over
the pieces; ``StructureTables.pawns`` (kept by pawn cells) and ``pieces`` then work on file
bit masks.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from .variant import Variant

WORD_BITS: Final = 60              # cells per word of a mask (a plain int when compiled)
WORD_MASK: Final = (1 << WORD_BITS) - 1


@dataclass(frozen=True)
class Structure:
    """What a variant declares (centipawns, for the side that has it)."""
    doubled: int = 0
    isolated: int = 0
    pair: Mapping[str, int] = field(default_factory=dict)
    open_file: Mapping[str, tuple[int, int]] = field(default_factory=dict)


class StructureTables:
    """``Structure`` compiled for one variant: a file bit per cell, the neighbouring files'
    bits per cell, and the pair and open-file bonuses per piece code."""

    def __init__(self, variant: Variant, st: Structure, side_axis: int) -> None:
        coords = variant.geometry.coords
        xs = sorted({c[side_axis] for c in coords})
        index = {x: i for i, x in enumerate(xs)}
        self.file_bit = [1 << index[c[side_axis]] for c in coords]
        self.neighbours = [(fb << 1 | fb >> 1) for fb in self.file_bit]
        ncodes = 2 * len(variant.piece_types)
        self.pair = [0] * ncodes
        self.open_file: list[tuple[int, int] | None] = [None] * ncodes
        for letter, bonus in st.pair.items():
            pt = variant.by_token[letter]
            self.pair[pt.id * 2] = self.pair[pt.id * 2 + 1] = bonus
        for letter, bonus2 in st.open_file.items():
            pt = variant.by_token[letter]
            self.open_file[pt.id * 2] = self.open_file[pt.id * 2 + 1] = bonus2
        self.doubled = st.doubled
        self.isolated = st.isolated

    def codes(self) -> list[int]:
        """The piece codes the evaluator collects besides the pawns."""
        return [c for c in range(len(self.pair)) if self.pair[c] or self.open_file[c]]

    def pawns(self, p0: list[int], p1: list[int]) -> tuple[int, int, int]:
        """The pawn terms for the first player minus those for the second (``p0``/``p1``:
        the cells of each player's pawns), then each player's pawn files as bit masks."""
        fb = self.file_bit
        f0 = f1 = 0
        for c in p0:
            f0 |= fb[c]
        for c in p1:
            f1 |= fb[c]
        s = self.doubled * ((len(p1) - f1.bit_count()) - (len(p0) - f0.bit_count()))
        iso = self.isolated
        if iso:
            nb = self.neighbours
            for c in p0:
                if not nb[c] & f0:
                    s -= iso
            for c in p1:
                if not nb[c] & f1:
                    s += iso
        return s, f0, f1

    def pieces(self, b: list[int], bits: int, own: int, pawns: int) -> int:
        """The pair and open-file bonuses of one player's pieces on the cells of the mask
        ``bits`` (``own``: its pawn files, ``pawns``: the files with any pawn).  The mask is
        read WORD_BITS cells at a time (compiled, a mask wider than 62 bits is an object),
        without a list of its cells."""
        pair = self.pair
        lines = self.open_file
        fb = self.file_bit
        s = 0
        seen = counted = 0
        base = 0
        while bits:
            w = bits & WORD_MASK
            bits >>= WORD_BITS
            while w:
                low = w & -w
                w ^= low
                c = base + low.bit_length() - 1
                p = b[c]
                if pair[p]:
                    bit = 1 << p
                    if seen & bit and not counted & bit:
                        s += pair[p]
                        counted |= bit
                    seen |= bit
                ln = lines[p]
                if ln is not None:
                    f = fb[c]
                    if not pawns & f:
                        s += ln[0]
                    elif not own & f:
                        s += ln[1]
            base += WORD_BITS
        return s
