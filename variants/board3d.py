"""The shared 6x6x6 board of the Nichtschach 3D family (docs/variants/nichtschach.md, "The board").

Cells are ``(l, f, r)``: level u..z (0..5, u at the bottom), filestack a..f, rank 1..6; the
text name is level letter + filestack letter + rank, e.g. ``wc2``.  A *file* is a pair
``(l, f)``; files lie in three square rings around the rank axis (inner 4, middle 12,
outer 20).  White moves toward rank 6; Black's vectors are White's with the rank component
negated, so every piece is written once, in White's frame.

This module holds what games on this board share: geometry, frames, direction sets, rings and
the ring-keeping lateral offsets, the 3D-FEN layout and the ``d`` diagram.  Ninepiece
Nichtschach (``variants/ninepiece.py``) is built on it; the Flipped-return games are the shipped
file ``variants/files/nichtschach.ini``, whose coverage plugin reads the direction sets here.
"""
from __future__ import annotations

from itertools import product

from engine.geometry import all_sign_permutations, grid3d
from engine.notation.formats import LevelledText
from engine.variant import WHITE, Variant

SIZE = 6
LEVELS = "uvwxyz"

# ---- direction sets, White's frame: (dl, df, dr), forward = dr > 0 ------------------------
O6 = tuple(all_sign_permutations((1, 0, 0)))          # orthogonal
SD12 = tuple(all_sign_permutations((1, 1, 0)))        # two nonzero components
ND8 = tuple(product((1, -1), repeat=3))               # three nonzero components (triagonal)
DIRS26 = O6 + SD12 + ND8


def _fwd(vs):
    return tuple(v for v in vs if v[2] > 0)


def _bwd(vs):
    return tuple(v for v in vs if v[2] < 0)


def _side(vs):
    return tuple(v for v in vs if v[2] == 0)


fO, bO, sO = _fwd(O6), _bwd(O6), _side(O6)
fSD, bSD, sSD = _fwd(SD12), _bwd(SD12), _side(SD12)
fND, bND = _fwd(ND8), _bwd(ND8)
F9 = fO + fSD + fND                                    # the 9 forward directions
B9 = bO + bSD + bND


def times(k: int, vs):
    """The vectors of vs multiplied by k (``2·O6`` = Dabbaba leaps)."""
    return tuple(tuple(k * a for a in v) for v in vs)


DIR_INDEX = {d: i for i, d in enumerate(DIRS26)}


def unit_direction(v):
    """The unit direction of which v is a positive multiple, or None (oblique leaps)."""
    k = max(abs(a) for a in v)
    if k == 0 or any(a not in (-k, 0, k) for a in v):
        return None
    return tuple(a // k for a in v)


def direction_mask(vectors) -> int:
    """26-bit mask of the unit directions that the displacements in `vectors` move along."""
    m = 0
    for v in vectors:
        d = unit_direction(v)
        if d is not None:
            m |= 1 << DIR_INDEX[d]
    return m


ALL26 = (1 << 26) - 1


# ---- rings and ring-keeping offsets ----------------------------------------------------
def ring(l: int, f: int) -> int:
    """0 inner (wc wd xc xd), 1 middle, 2 outer (level u/z or filestack a/f)."""
    return (max(abs(2 * l - 5), abs(2 * f - 5)) - 1) // 2


LATERAL = ((1, 0), (-1, 0), (0, 1), (0, -1))


def ring_keeping(l: int, f: int) -> tuple[tuple[int, int], ...]:
    """N(file): the lateral unit offsets (dl, df) that land on a file of the same ring.
    Every file has exactly two."""
    r0 = ring(l, f)
    return tuple((dl, df) for dl, df in LATERAL
                 if 0 <= l + dl < SIZE and 0 <= f + df < SIZE and ring(l + dl, f + df) == r0)


class Board3DText(LevelledText):
    """3D-FEN: six levels separated by '|', the hand as its own field after the side; held
    pieces R B Q U D G first, the other letters alphabetically, F and P last
    (docs/variants/nichtschach.md, "The board"); the `d` picture shows the six levels side by
    side (``LevelledText``)."""
    fields = ("side", "hand", "halfmove", "fullmove")
    hand_in_board = False
    empty_hand_text = "-"

    def hand_order(self):
        v = self.variant
        toks = [pt.token for pt in v.piece_types if pt is not None]
        first = [t for t in v.hand_first if t in toks]
        last = [t for t in v.hand_last if t in toks]
        mid = sorted(t for t in toks if t not in first and t not in last)
        return [v.by_token[t].id for t in first + mid + last]


# ---- the board class ---------------------------------------------------------------------
class Board3D(Variant):
    """6x6x6 cube, 3D-FEN with the hand as its own field, six-level diagram.

    Subclasses set ``piece_types`` (and the rules) before calling ``super().__init__()``.
    ``hand_first`` / ``hand_last`` give the canonical hand order of docs/variants/nichtschach.md, "The board":
    R B Q U D G first, the other letters alphabetically, F and P last."""
    template = "fairy"
    notation_class = Board3DText
    hand_first = "RBQUDG"
    hand_last = "FP"

    def __init__(self):
        self.geometry = grid3d(SIZE, SIZE, SIZE, LEVELS)
        super().__init__()
        geo = self.geometry
        self.ring_of = [ring(c[0], c[1]) for c in geo.coords]

    # -- frames ------------------------------------------------------------------------
    def orient(self, v):
        return (v[0], v[1], -v[2])

    def white_coord(self, coord, color):
        if color == WHITE:
            return coord
        return (coord[0], coord[1], SIZE - 1 - coord[2])

    def rank_of(self, cell: int, color: int) -> int:
        """0 = own back rank .. 5 = far rank, in the colour's own frame."""
        r = self.geometry.coords[cell][2]
        return r if color == WHITE else SIZE - 1 - r

    def in_camp(self, cell: int, color: int) -> bool:
        """The colour's own half: ranks 1-3 for White, 4-6 for Black."""
        return self.rank_of(cell, color) < SIZE // 2
