"""Pieces as data.

A piece is a list of atoms.  An atom is a set of vectors (in the first player's frame) and a
way of using them:

* ``leap``  - jump straight to cell + v, never blocked;
* ``ride``  - cell + k*v for k = 1, 2, ... through empty cells; ``stops`` may restrict the
  distances at which the piece can stop (odd-only riders, a double step that can only stop at
  2), ``max_dist`` bounds k;
* ``bent``  - one step v to c1 (a destination itself), then, only if c1 is empty, a ride from
  c1 along each vector of ``turns(v)``;
* ``hop``   - along the line of v through empty cells to the first piece of either colour (the
  screen), over it, then on through empty cells; ``max_dist`` bounds how far beyond the
  screen (1: a grasshopper lands right behind it).  A cannon is ``ride`` MOVE plus ``hop``
  CAPTURE;
* ``zigzag`` - a crooked rider: a first step v, then for each w of ``turns(v)`` the steps w,
  v, w, v, ... through empty cells (every cell a destination, the first piece met ends the
  path; ``max_dist`` bounds the number of steps).  With ``perpendicular`` as turns this is
  Betza's crooked piece: zB turns 90 degrees at every step, alternately left and right.

* ``legs`` - a move in two legs: a first step v to c1 (``mode``: MOVE, the cell must be
  empty; CAPTURE, it must hold an enemy piece, taken in passing; BOTH, either), then one step
  w of ``turns(v)`` from c1 (``mode2`` for the last cell).  A second step back onto the
  start is a capture without moving (after a capture on c1) or a pass (after an empty c1).
  A first leg to an empty cell followed by a step elsewhere is a plain move (a lame leap).

``mode`` says whether the atom moves, captures or both.  ``vectors`` may instead be a function
of the cell's coordinates (pieces whose directions depend on where they stand).
``origin`` restricts the atom to some from-cells (a predicate on coordinates, first player's
frame).  ``flag`` marks special moves: ``double`` (leaves an en-passant cell behind) and ``ep``
(may capture en passant).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Final, Sequence

from .geometry import Coord

LEAP: Final = "leap"
RIDE: Final = "ride"
BENT: Final = "bent"
HOP: Final = "hop"
LAME: Final = "lame"
ZIGZAG: Final = "zigzag"
LEGS: Final = "legs"
BOTH: Final = "both"
MOVE: Final = "move"
CAPTURE: Final = "capture"


@dataclass(frozen=True)
class Atom:
    vectors: tuple[Coord, ...] | Callable[[Coord], Sequence[Coord]]
    kind: str = LEAP
    mode: str = BOTH
    max_dist: int | None = None
    stops: frozenset[int] | None = None
    origin: Callable[[Coord, int], bool] | None = None
    flag: str | None = None
    turns: Callable[[Coord], Sequence[Coord]] | None = None
    mode2: str = BOTH             # legs: the second leg's mode

    def vectors_at(self, coord: Coord) -> Sequence[Coord]:
        v = self.vectors
        return v(coord) if callable(v) else v


def leap(vectors: Sequence[Coord], mode: str = BOTH, **kw: Any) -> Atom:
    return Atom(tuple(vectors), LEAP, mode, **kw)


def ride(vectors: Sequence[Coord], mode: str = BOTH, **kw: Any) -> Atom:
    return Atom(tuple(vectors), RIDE, mode, **kw)


def hop(vectors: Sequence[Coord], mode: str = BOTH, **kw: Any) -> Atom:
    return Atom(tuple(vectors), HOP, mode, **kw)


def lame(vectors: Sequence[Coord], mode: str = BOTH, **kw: Any) -> Atom:
    return Atom(tuple(vectors), LAME, mode, **kw)


def perpendicular(v: Coord) -> tuple[Coord, ...]:
    """The two 2D vectors at right angles to v (v turned left, then right)."""
    return ((-v[1], v[0]), (v[1], -v[0]))


def zigzag(vectors: Sequence[Coord], mode: str = BOTH,
           turns: Callable[[Coord], Sequence[Coord]] = perpendicular, **kw: Any) -> Atom:
    return Atom(tuple(vectors), ZIGZAG, mode, turns=turns, **kw)


def legs(vectors: Sequence[Coord], mode: str, turns: Callable[[Coord], Sequence[Coord]],
         mode2: str = BOTH, **kw: Any) -> Atom:
    """A two-leg atom (see the module's text): first steps ``vectors`` (leg mode ``mode``),
    then from there each step of ``turns(v)`` (mode ``mode2``)."""
    return Atom(tuple(vectors), LEGS, mode, turns=turns, mode2=mode2, **kw)


def lame_path(v: Coord) -> tuple[Coord, ...]:
    """The cells a lame leap of vector v passes (not the target): each step moves along the
    axes whose remaining distance is largest, so an oblique leap starts straight and ends
    diagonally ((1, 2): (0, 1); (2, 3): (0, 1), (1, 2)); (2, 2) passes (1, 1)."""
    cur = [0] * len(v)
    out: list[Coord] = []
    while True:
        rest = [a - b for a, b in zip(v, cur)]
        top = max(abs(r) for r in rest)
        if top == 0:
            return tuple(out[:-1])
        cur = [c + ((r > 0) - (r < 0) if abs(r) == top else 0) for c, r in zip(cur, rest)]
        out.append(tuple(cur))


@dataclass
class PieceType:
    """One kind of piece.  ``token`` is its text in position strings (uppercase form)."""
    name: str
    token: str
    atoms: tuple[Atom, ...]
    royal: bool = False
    pawn: bool = False            # resets the move clock, may be barred from some drops
    demotes_to: str | None = None  # token of the piece it returns to the hand as
    promoted: bool = False        # a promoted form (shogi +X, knavish Q~)
    components: tuple[str, ...] = ()  # compound pieces: component tokens
    value: int | None = None      # centipawns; derived from mobility when None
    id: int = 0                   # set by the variant: index in its piece list
    extra: dict = field(default_factory=dict)

    @property
    def letter(self) -> str:
        return self.token


def compound_atoms(*types: PieceType) -> tuple[Atom, ...]:
    out: list[Atom] = []
    for t in types:
        out.extend(t.atoms)
    return tuple(out)


# -- common 2D vector sets -------------------------------------------------------------
ORTH = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAG = ((1, 1), (-1, 1), (1, -1), (-1, -1))
KNIGHT = ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))
KING = ORTH + DIAG
