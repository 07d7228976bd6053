"""The one move type.

Inside the engine a move is an int (fast to build, hash and compare):

    bits  0-11  to cell                                               (CELL mask)
    bits 12-23  from cell (DROP for a drop from the hand)            (FROM_SHIFT)
    bits 24-30  piece type id: the promotion result, the dropped type, or the fission
                component (at most 127 types)                        (TYPE_SHIFT, TYPE_MASK)
    bit  31     LEGS: a two-leg move, the cell it took on in passing in the acted field
    bits 32-43  acted-on cell + 1 (0 = none): Notake actions, a pawn's passed cell, the cell
                a two-leg move took on in passing, any second cell a hook needs
                                                                     (ACTED_SHIFT)
    bits 44-55  a wall cell the move also places + 1 (0 = none): the duck's cell
                                                                     (WALL_SHIFT)
    bits 56-61  flags (CASTLE, EP, DOUBLE, SPECIAL, FISSION, FUSION)  (FLAG_SHIFT)

A cell field is ``CELL_BITS`` = 12 bits wide: a board has at most ``MAX_CELLS`` = 4,095
cells (0-4094; 4095 is DROP in the from field).  The highest bit is 61, so a move stays a
small int: below 2**62, which the compiled engine (mypyc) keeps unboxed, and a plain int
anywhere else.  ``Move`` is the typed view used at the API boundary.

Read a field with ``to_of``, ``from_of``, ``ptype_of``, ``acted_of``, ``is_drop``.  The hot
loops (make/unmake, the generators, the legality filters, the searcher's nodes, ordering
and quiescence) read the fields inline with the named shifts and masks below (compiled,
a ``Final`` int is folded into the code like a literal): a helper call costs 15-34 ns per
read on CPython 3.11 (measured with timeit against the inline expression), several per
move there, which is a few percent of the search.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Final

CELL_BITS: Final = 12
CELL: Final = (1 << CELL_BITS) - 1      # a cell field's mask: m & CELL is the to cell
FROM_SHIFT: Final = 12                  # (m >> FROM_SHIFT) & CELL: the from cell
TYPE_SHIFT: Final = 24                  # (m >> TYPE_SHIFT) & TYPE_MASK: the piece type id
TYPE_MASK: Final = 127                  # 7 bits: bit 31 is the LEGS flag
ACTED_SHIFT: Final = 32                 # ((m >> ACTED_SHIFT) & CELL) - 1: the acted cell
WALL_SHIFT: Final = 44                  # ((m >> WALL_SHIFT) & CELL) - 1: the wall cell
FLAG_SHIFT: Final = 56
DROP: Final = CELL                      # the from field of a drop
MAX_CELLS: Final = CELL                 # cells 0 .. MAX_CELLS - 1 (DROP is no cell)
FROM_TO: Final = (1 << TYPE_SHIFT) - 1  # m & FROM_TO: the from and to fields alone
PROMO: Final = TYPE_MASK << TYPE_SHIFT  # m & PROMO: the type field (promotion, drop ...)
CASTLE: Final = 1 << FLAG_SHIFT
EP: Final = 2 << FLAG_SHIFT
DOUBLE: Final = 4 << FLAG_SHIFT
SPECIAL: Final = 8 << FLAG_SHIFT     # made and unmade by the variant's own hook
FISSION: Final = 16 << FLAG_SHIFT
FUSION: Final = 32 << FLAG_SHIFT
# a two-leg move (Chu Shogi's Lion): the first leg's cell, where it took a piece in passing, is
# the acted cell (none for a pass out and back); to == from is a capture without moving (igui).
# The six flags above fill bits 56-61 and bit 62 would box the move in compiled code, so this
# flag narrows the type field by one bit
LEGS: Final = 1 << 31
FLAGS: Final = ~((1 << FLAG_SHIFT) - 1) | LEGS

NULL_MOVE: Final = DROP | (DROP << FROM_SHIFT)  # from DROP to DROP: never a real move

# moves whose check or legality the searcher's unmade pruning does not read: castling, en
# passant, a promotion, the variant's own moves, a move acting on a second cell; a pawn's
# long step (whose second cell is its en-passant cell) is a plain quiet move there
UNMADE_NOT: Final = (FLAGS & ~DOUBLE) | PROMO
ACTED: Final = CELL << ACTED_SHIFT


def unmade_ok(m: int) -> bool:
    """May the board move m be pruned unmade (see ``UNMADE_NOT``)?  The searcher inlines it."""
    return not m & UNMADE_NOT and (not m & ACTED or bool(m & DOUBLE))


def mk(frm: int, to: int, ptype: int = 0, acted: int = -1, flags: int = 0) -> int:
    return to | (frm << FROM_SHIFT) | (ptype << TYPE_SHIFT) | ((acted + 1) << ACTED_SHIFT) | flags


def legs_victim(m: int) -> int:
    """The cell a multi-leg move (flag LEGS) captured on in passing (its acted-on cell), or
    -1.  Such a move goes from -> to; to == from is a capture without moving (igui) or, with
    no victim, a pass (out to an empty cell and back)."""
    return acted_of(m) if m & LEGS else -1


def to_of(m: int) -> int:
    return m & CELL


def from_of(m: int) -> int:
    return (m >> FROM_SHIFT) & CELL


def ptype_of(m: int) -> int:
    return (m >> TYPE_SHIFT) & TYPE_MASK


def acted_of(m: int) -> int:
    return ((m >> ACTED_SHIFT) & CELL) - 1


def is_drop(m: int) -> bool:
    return (m >> FROM_SHIFT) & CELL == DROP


@dataclass(frozen=True)
class Move:
    frm: int | None          # None for a drop
    to: int
    ptype: int = 0           # promotion / drop / fission component type id
    acted: int | None = None
    flags: int = 0

    @classmethod
    def decode(cls, m: int) -> "Move":
        f = from_of(m)
        a = acted_of(m)
        return cls(None if f == DROP else f, to_of(m), ptype_of(m), None if a < 0 else a, m & FLAGS)

    def encode(self) -> int:
        return mk(DROP if self.frm is None else self.frm, self.to, self.ptype,
                  -1 if self.acted is None else self.acted, self.flags)
