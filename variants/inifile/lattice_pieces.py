"""The piece notation of a lattice board (docs/variant-files.md, "Lattice boards").

Betza's atoms are steps of the square grid; on a lattice every vector is written on the
doubled grid, where a step from a square to a corner point is (1, 1) and from a square to
the next square (2, 0).  A piece is one or more terms separated by spaces; a term is an
optional modifier, an atom and an optional range:

  atom      [a,b]          every axis order and sign of (a, b), listed as (a,b) (-a,b) (a,-b)
                           (-a,-b), then the same for (b,a), repeats dropped: [1,1] is the
                           four steps square <-> vertex, [2,0] the four square -> square steps
            <x,y>          one exact vector (file, rank); several in a row (<1,1><-1,1>) are
                           one atom with those vectors in that order
  range     (none)         a leap: never blocked
            *              a ride: k times the vector, k = 1, 2 ..., through empty cells
                           (only the cells at whole multiples of the vector can block it)
            *N             a ride of at most N steps
  modifier  m, c           move only, capture only (neither: both)

Vectors are in White's frame; Black's are White's in the section's ``blackFrame``.  The order
of the vectors is the order moves are generated in (it shows in perft divide lists only).
"""
from __future__ import annotations

import re

from engine.pieces import BOTH, CAPTURE, MOVE, Atom, leap, ride

_VEC = r"-?\d+,-?\d+"
_TERM = re.compile(rf"(?P<mod>[mc]?)(?P<atom>\[{_VEC}\]|(?:<{_VEC}>)+)(?P<range>\*\d*)?")


class LatticePieceError(ValueError):
    """A lattice piece that cannot be read: ``token`` is the bad term."""

    def __init__(self, what: str, token: str) -> None:
        super().__init__(f"{what} ({token})")
        self.what, self.token = what, token


def sign_set(a: int, b: int) -> tuple[tuple[int, int], ...]:
    """Every axis order and sign of (a, b), in the order of the module docstring."""
    out: list[tuple[int, int]] = []
    for p, q in ((a, b), (b, a)):
        for sx, sy in ((1, 1), (-1, 1), (1, -1), (-1, -1)):
            v = (sx * p, sy * q)
            if v not in out:
                out.append(v)
    return tuple(out)


def _term(tok: str) -> Atom:
    m = _TERM.fullmatch(tok)
    if m is None:
        raise LatticePieceError("not a lattice term (m or c, [a,b] or <x,y>..., * or *N)", tok)
    text = m.group("atom")
    if text[0] == "[":
        a, b = (int(x) for x in text[1:-1].split(","))
        vectors = sign_set(a, b)
    else:
        vectors = tuple((int(x), int(y)) for x, y in re.findall(r"<(-?\d+),(-?\d+)>", text))
        if len(set(vectors)) != len(vectors):
            raise LatticePieceError("a vector given twice", tok)
    if any(v == (0, 0) for v in vectors):
        raise LatticePieceError("a vector needs a nonzero component", tok)
    mode = {"m": MOVE, "c": CAPTURE, "": BOTH}[m.group("mod")]
    rng = m.group("range")
    if rng is None:
        return leap(vectors, mode)
    limit = int(rng[1:]) if rng[1:] else None
    if limit is not None and limit < 1:
        raise LatticePieceError("a ride of at most 0 steps", tok)
    return ride(vectors, mode, max_dist=limit)


def parse_lattice_piece(text: str) -> tuple[Atom, ...]:
    """The atoms of a lattice piece; raises LatticePieceError."""
    toks = text.split()
    if not toks:
        raise LatticePieceError("a piece needs at least one term", text)
    return tuple(_term(t) for t in toks)
