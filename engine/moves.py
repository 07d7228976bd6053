"""The one move type.

Inside the engine a move is an int (fast to build, hash and compare):

    bits  0-7   to cell
    bits  8-15  from cell (DROP for a drop from the hand)
    bits 16-23  piece type id: the promotion result, the dropped type, or the fission component
    bits 24-31  acted-on cell + 1 (0 = none): Notake actions, any second cell a hook needs,
                the cell a multi-leg move (LEGS) captured on in passing
    bits 32-47  flags (CASTLE, EP, DOUBLE, SPECIAL, FISSION, LEGS ...)
    bits 48-55  a wall square the move also places + 1 (0 = none): the duck's square

``Move`` is the typed view used at the API boundary.

Read a field with ``to_of``, ``from_of``, ``ptype_of``, ``acted_of``, ``is_drop``.  The hot
loops (make/unmake, the generators, the legality filters, the searcher's nodes, ordering
and quiescence) read the fields inline with the same shifts and name the field in a comment
or variable: a helper call costs 15-34 ns per read on CPython 3.11 (measured with timeit
against the inline expression), several per move there, which is a few percent of the
search.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Final

DROP: Final = 255
CASTLE: Final = 1 << 32
EP: Final = 2 << 32
DOUBLE: Final = 4 << 32
SPECIAL: Final = 8 << 32     # made and unmade by the variant's own hook
FISSION: Final = 16 << 32
FUSION: Final = 32 << 32
LEGS: Final = 64 << 32      # a multi-leg move: see ``legs_victim``
FLAGS: Final = ~((1 << 32) - 1)
ACTED_SHIFT: Final = 24      # ((m >> ACTED_SHIFT) & CELL) - 1: the acted-on cell
CELL: Final = 255            # a cell field's mask
WALL_SHIFT: Final = 48       # the wall field (a square the move also walls, + 1)

NULL_MOVE: Final = 0xFFFF  # from 255 to 255: never a real move

# moves whose check or legality the searcher's unmade pruning does not read: castling, en
# passant, a promotion, the variant's own moves, a move acting on a second cell; a pawn's
# long step (whose second cell is its en-passant cell) is a plain quiet move there
UNMADE_NOT: Final = (FLAGS & ~DOUBLE) | (255 << 16)
ACTED: Final = 255 << 24


def unmade_ok(m: int) -> bool:
    """May the board move m be pruned unmade (see ``UNMADE_NOT``)?  The searcher inlines it."""
    return not m & UNMADE_NOT and (not m & ACTED or bool(m & DOUBLE))


def mk(frm: int, to: int, ptype: int = 0, acted: int = -1, flags: int = 0) -> int:
    return to | (frm << 8) | (ptype << 16) | ((acted + 1) << 24) | flags


def legs_victim(m: int) -> int:
    """The cell a multi-leg move (flag LEGS) captured on in passing (its acted-on cell), or
    -1.  Such a move goes from -> to; to == from is a capture without moving (igui) or, with
    no victim, a pass (out to an empty cell and back)."""
    return acted_of(m) if m & LEGS else -1


def to_of(m: int) -> int:
    return m & 255


def from_of(m: int) -> int:
    return (m >> 8) & 255


def ptype_of(m: int) -> int:
    return (m >> 16) & 255


def acted_of(m: int) -> int:
    return ((m >> 24) & 255) - 1


def is_drop(m: int) -> bool:
    return (m >> 8) & 255 == DROP


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
