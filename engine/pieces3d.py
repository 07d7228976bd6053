"""cellfish's notation for pieces of a solid (3D) board (docs/variant-files.md, "3D pieces").

Betza's letters name 2D moves only, so a 3D piece is written with direction classes.  A
piece is one or more *terms* separated by spaces; a term is modifiers, an atom, a range:

  atoms   O        the 6 orthogonal steps (1,0,0) -- every axis order and sign
          S        the 12 2D-diagonal steps (1,1,0): two coordinates change
          T        the 8 3D-diagonal (triagonal) steps (1,1,1): all three change
          2O 3S .. the same, that many times as far (2O: the 6 Dabbaba leaps)
          [a,b,c]  every axis order and sign of (a,b,c): [2,1,0] the 24 Knight leaps
          <x,y,z>  one exact vector (file, rank, level)
          A>B      bent: a step v along A (a destination itself), then, only through that
                   cell while empty, a ride along every direction w of B with v.w > 0
  range   (none)   a leap: one step of the atom, never blocked
          *        a ride: any number of steps through empty cells
          *N       a ride of at most N steps
          *odd     a ride that may stop only at odd distances (1, 3, 5 ...)
  modifiers, before the atom (in the owner's frame; letters of one group widen, groups narrow):
          m c      move only / capture only (neither: both)
          f b s    the rank step is forward (> 0), backward (< 0), none (= 0)
          u d h    the level step is up (> 0), down (< 0), none (= 0)
          r l      the file step is to the right (> 0), to the left (< 0)

Vector order (a cell's moves are generated in it, so ``go perft`` divide lines and searches
follow it): the terms in the order written, repeats dropped; within a term, the vectors of O, S,
kO, kS and [a,b,c] in ascending order and those of T and kT in descending order (+ before - on
each axis, the first axis slowest), comparing the coordinates in the engine's order
(``axes``: the section's ``axisOrder``, by default file, rank, level); modifiers only drop
vectors.  This is the order of the direction sets of the cube games' first, built-in
implementation, kept so that their protocol answers stay the same (docs/variant-files.md, "3D
pieces").

``parse_piece3d(text, axes)`` gives the piece's atoms (``engine.pieces``), vectors (file, rank,
level) in the first player's frame, or raises ``Piece3DError`` naming the bad term.
"""
from __future__ import annotations

import re
from itertools import permutations, product

from .geometry import Coord
from .pieces import BENT, BOTH, CAPTURE, LEAP, MOVE, RIDE, Atom

CLASSES: dict[str, Coord] = {"O": (1, 0, 0), "S": (1, 1, 0), "T": (1, 1, 1)}
ODD = frozenset(range(1, 64, 2))
Axes = tuple[int, ...]
NOTATION_AXES: Axes = (0, 1, 2)     # the engine's coordinate i is notation axis axes[i]
FILTERS = {"f": (1, 1), "b": (1, -1), "s": (1, 0), "u": (2, 1), "d": (2, -1), "h": (2, 0),
           "r": (0, 1), "l": (0, -1)}          # letter: (axis, sign of the component)

_ATOM = r"(?:\d*[OST]|\[-?\d+,-?\d+,-?\d+\]|<-?\d+,-?\d+,-?\d+>)"
_TERM = re.compile(rf"(?P<mods>[mcfbsudhrl]*)(?P<a>{_ATOM})(?:>(?P<b>{_ATOM}))?"
                   r"(?P<range>\*(?:odd|\d+)?)?")


class Piece3DError(ValueError):
    """A 3D piece that cannot be read: ``token`` is the bad term."""

    def __init__(self, what: str, token: str) -> None:
        super().__init__(f"{what} ({token})")
        self.what, self.token = what, token


def all_orders_and_signs(base: Coord, axes: Axes = NOTATION_AXES,
                         descending: bool = False) -> tuple[Coord, ...]:
    """Every vector with the components of ``base`` in any axis order and sign, in ascending
    (or descending) order of their coordinates taken in the order ``axes``."""
    out = {tuple(s * x for s, x in zip(signs, p))
           for p in permutations(base) for signs in product((1, -1), repeat=len(base))}
    return tuple(sorted(out, key=lambda v: tuple(v[a] for a in axes), reverse=descending))


def atom_vectors(text: str, axes: Axes = NOTATION_AXES) -> tuple[Coord, ...]:
    """The vectors an atom names (no modifiers, no range), in the canonical order (module
    docstring) for the engine's coordinate order ``axes``."""
    if text[0] in "[<":
        v = tuple(int(x) for x in text[1:-1].split(","))
        if not any(v):
            raise Piece3DError("a vector needs a nonzero component", text)
        return all_orders_and_signs(v, axes) if text[0] == "[" else (v,)
    k = int(text[:-1]) if len(text) > 1 else 1
    if k == 0:
        raise Piece3DError("a distance of 0", text)
    return all_orders_and_signs(tuple(k * x for x in CLASSES[text[-1]]), axes,
                                descending=text[-1] == "T")


def _filter(vectors: tuple[Coord, ...], mods: str) -> tuple[Coord, ...]:
    groups: dict[int, set[int]] = {}
    for ch in mods:
        if ch in FILTERS:
            axis, sign = FILTERS[ch]
            groups.setdefault(axis, set()).add(sign)
    return tuple(v for v in vectors
                 if all((v[axis] > 0) - (v[axis] < 0) in signs for axis, signs in groups.items()))


def _term(tok: str, axes: Axes) -> Atom:
    m = _TERM.fullmatch(tok)
    if m is None:
        raise Piece3DError("not a 3D term (modifiers, O S T [a,b,c] <x,y,z> or A>B, range)", tok)
    mods, rng = m.group("mods"), m.group("range") or ""
    for ch in set(mods):
        if mods.count(ch) > 1:
            raise Piece3DError(f"modifier {ch} given twice", tok)
    if "m" in mods and "c" in mods:
        raise Piece3DError("both m and c: leave both out for a piece that moves and captures", tok)
    mode = MOVE if "m" in mods else CAPTURE if "c" in mods else BOTH
    first = _filter(atom_vectors(m.group("a"), axes), mods)
    if not first:
        raise Piece3DError("the modifiers leave no direction", tok)
    max_dist: int | None = None
    stops = None
    if rng.startswith("*") and rng[1:]:
        if rng == "*odd":
            stops = ODD
        else:
            max_dist = int(rng[1:])
            if max_dist < 1:
                raise Piece3DError("a ride of at most 0 steps", tok)
    if m.group("b"):
        if mode != BOTH:
            raise Piece3DError("a bent path moves and captures (no m or c)", tok)
        if not rng.startswith("*") or stops is not None:
            raise Piece3DError("the second leg of a bent path is a ride (A>B* or A>B*N)", tok)
        second = atom_vectors(m.group("b"), axes)

        def turns(v: Coord, second: tuple[Coord, ...] = second) -> list[Coord]:
            return [w for w in second if sum(a * b for a, b in zip(v, w)) > 0]
        if not any(turns(v) for v in first):
            raise Piece3DError("no direction of the second leg goes on outward (v.w > 0)", tok)
        return Atom(first, BENT, mode, max_dist=max_dist, turns=turns)
    if not rng:
        return Atom(first, LEAP, mode)
    return Atom(first, RIDE, mode, max_dist=max_dist, stops=stops)


def parse_piece3d(text: str, axes: Axes = NOTATION_AXES) -> tuple[Atom, ...]:
    """The atoms of a 3D piece, their vectors in the canonical order for the engine's
    coordinate order ``axes`` (module docstring); raises Piece3DError."""
    toks = text.split()
    if not toks:
        raise Piece3DError("a piece needs at least one term", text)
    return tuple(_term(t, axes) for t in toks)
