"""The one move type.

Inside the engine a move is an int (fast to build, hash and compare):

    bits  0-11  to cell                                               (CELL mask)
    bits 12-23  from cell; a drop from the hand has from == to       (FROM_SHIFT)
    bits 24-30  piece type id: the promotion result, the dropped type, or the fission
                component (at most 127 types)                        (TYPE_SHIFT, TYPE_MASK)
    bit  31     LEGS: a two-leg move, the cell it took on in passing in the acted field
    bits 32-43  acted-on cell XOR from cell (0 = none): Notake actions, a pawn's passed cell,
                the cell a two-leg move took on in passing, any second cell a hook needs
                                                                     (ACTED_SHIFT)
    bits 44-55  a wall cell the move also places XOR to cell (0 = none): the duck's cell, a
                wall or arrow                                        (WALL_SHIFT)
    bits 56-61  flags (CASTLE, EP, DOUBLE, SPECIAL, FISSION, FUSION)  (FLAG_SHIFT)

A cell field is ``CELL_BITS`` = 12 bits wide and every one of its 4,096 values is a cell, so
a board has at most ``MAX_CELLS`` = 4,096 cells (0-4095).  No field value is kept back as a
marker; the three fields that need one more state take it from the move itself:

* **a drop** is a move from its cell to itself without ``SPECIAL`` or ``LEGS``
  (``IN_PLACE``): a board move that stays on its cell is always a variant's own move (a pass,
  a Notake act, Sittuyin's promotion in place: ``SPECIAL``) or a two-leg move (a Lion's igui
  or pass: ``LEGS``), and a drop never carries either flag.  Test it with ``is_drop`` or,
  in the hot loops, ``frm == to and not m & IN_PLACE``; build it with ``drop_move``.
* **the acted cell** is stored XOR the from cell: it is never the mover's own cell (a pawn's
  passed cell, a victim, a Notake act's other piece), so 0 means none and ``m & ACTED``
  still tells whether there is one.
* **the wall cell** is stored XOR the to cell: a wall, an arrow or the duck never lands where
  the mover lands, so 0 means none.

The highest bit is 61, so a move stays a small int: below 2**62, which the compiled engine
(mypyc) keeps unboxed (its short ints are 63-bit signed, -2**62 .. 2**62 - 1: bit 62 would
box the move), and a plain int anywhere else.  ``Move`` is the typed view used at the API
boundary.

Read a field with ``to_of``, ``from_of``, ``ptype_of``, ``acted_of``, ``wall_of``,
``is_drop``.  The hot loops (make/unmake, the generators, the legality filters, the
searcher's nodes, ordering and quiescence) read the fields inline with the named shifts and
masks below (compiled, a ``Final`` int is folded into the code like a literal): a helper call
costs 15-34 ns per read on CPython 3.11 (measured with timeit against the inline expression),
several per move there, which is a few percent of the search.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Final

CELL_BITS: Final = 12
CELL: Final = (1 << CELL_BITS) - 1      # a cell field's mask: m & CELL is the to cell
FROM_SHIFT: Final = 12                  # (m >> FROM_SHIFT) & CELL: the from cell (== to: a drop)
TYPE_SHIFT: Final = 24                  # (m >> TYPE_SHIFT) & TYPE_MASK: the piece type id
TYPE_MASK: Final = 127                  # 7 bits: bit 31 is the LEGS flag
ACTED_SHIFT: Final = 32                 # ((m >> ACTED_SHIFT) & CELL) ^ frm: the acted cell
WALL_SHIFT: Final = 44                  # ((m >> WALL_SHIFT) & CELL) ^ to: the wall cell
FLAG_SHIFT: Final = 56
MAX_CELLS: Final = 1 << CELL_BITS       # cells 0 .. MAX_CELLS - 1: every field value is a cell
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
# a move from a cell to itself is a board move (it stays in place) when it has one of these
# flags, and a drop otherwise: ``frm == to and not m & IN_PLACE`` is a drop
IN_PLACE: Final = SPECIAL | LEGS
DROP_CELLS: Final = 1 | (1 << FROM_SHIFT)   # t * DROP_CELLS: the from and to fields of a drop on t

# from the last cell to itself with no piece type: a drop of nothing, never a real move
NULL_MOVE: Final = CELL | (CELL << FROM_SHIFT)

# moves whose check or legality the searcher's unmade pruning does not read: castling, en
# passant, a promotion, the variant's own moves, a move acting on a second cell; a pawn's
# long step (whose second cell is its en-passant cell) is a plain quiet move there
UNMADE_NOT: Final = (FLAGS & ~DOUBLE) | PROMO
ACTED: Final = CELL << ACTED_SHIFT
WALL: Final = CELL << WALL_SHIFT


def unmade_ok(m: int) -> bool:
    """May the board move m be pruned unmade (see ``UNMADE_NOT``)?  The searcher inlines it."""
    return not m & UNMADE_NOT and (not m & ACTED or bool(m & DOUBLE))


def mk(frm: int, to: int, ptype: int = 0, acted: int = -1, flags: int = 0, wall: int = -1) -> int:
    """A board move (``frm`` a cell) or, with ``frm`` = -1, a drop on ``to`` (see
    ``drop_move``); ``acted``, ``wall``: -1 for none."""
    if frm < 0:
        frm = to
    return (to | (frm << FROM_SHIFT) | (ptype << TYPE_SHIFT) | flags
            | (((acted ^ frm) << ACTED_SHIFT) if acted >= 0 else 0)
            | (((wall ^ to) << WALL_SHIFT) if wall >= 0 else 0))


def drop_move(to: int, ptype: int) -> int:
    """The drop of a piece of type ``ptype`` on cell ``to``."""
    return to * DROP_CELLS | (ptype << TYPE_SHIFT)


def legs_victim(m: int) -> int:
    """The cell a multi-leg move (flag LEGS) captured on in passing (its acted-on cell), or
    -1.  Such a move goes from -> to; to == from is a capture without moving (igui) or, with
    no victim, a pass (out to an empty cell and back)."""
    return acted_of(m) if m & LEGS else -1


def to_of(m: int) -> int:
    return m & CELL


def from_of(m: int) -> int:
    """The from cell, or -1 for a drop."""
    f = (m >> FROM_SHIFT) & CELL
    return -1 if f == m & CELL and not m & IN_PLACE else f


def ptype_of(m: int) -> int:
    return (m >> TYPE_SHIFT) & TYPE_MASK


def acted_of(m: int) -> int:
    """The acted-on cell, or -1 for none."""
    a = (m >> ACTED_SHIFT) & CELL
    return a ^ ((m >> FROM_SHIFT) & CELL) if a else -1


def wall_of(m: int) -> int:
    """The wall cell the move places, or -1 for none."""
    w = (m >> WALL_SHIFT) & CELL
    return w ^ (m & CELL) if w else -1


def is_drop(m: int) -> bool:
    return (m >> FROM_SHIFT) & CELL == m & CELL and not m & IN_PLACE


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
        return cls(None if f < 0 else f, to_of(m), ptype_of(m), None if a < 0 else a, m & FLAGS)

    def encode(self) -> int:
        return mk(-1 if self.frm is None else self.frm, self.to, self.ptype,
                  -1 if self.acted is None else self.acted, self.flags)
