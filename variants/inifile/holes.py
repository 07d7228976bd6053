"""Holes (a cellfish extension of the variants-file format): cells left out of the board.

    holes = d4 e4 d5 e5      squares, whole ranks (*4) or files (d*) as in the region keys;
                             on a levelled board a token may name its level (bd4, b**)

A hole is no cell: no piece stands on it, a rider stops in front of it (it blocks like a
piece that cannot be captured), a lame leap or a pawn's double step through it is impossible,
and a leaper jumps over it as over any cell.  The position text writes a hole as ``*`` (a run
of empty cells never spans one), ``d`` draws it as ``*``.  See docs/variant-files.md.
"""
from __future__ import annotations

from collections.abc import Callable

from .registry import names
from .filevariant import RuleBase
from .values import FILE_NAMES

HOLE_KEYS = names("hole")


def _name(c: tuple[int, ...], levels: str) -> str:
    return (levels[c[2]] if len(c) > 2 else "") + FILE_NAMES[c[0]] + str(c[1] + 1)


def hole_coords(val: dict[str, str], files: int, ranks: int, levels: str,
                region: Callable[..., frozenset], error: type) -> frozenset[tuple[int, ...]]:
    """The coordinates of the section's holes (none without the key): (file, rank), or
    (file, rank, level) on a levelled board, where a token without a level holds on every
    level."""
    if "holes" not in val:
        return frozenset()
    text = val["holes"]
    if not text.split() or text.strip() == "-":
        raise error("holes", "names no cell (leave the key out for a board without holes)", text)
    cells = region("holes", text, files, ranks, levels=levels)
    if levels:
        cells = frozenset(c if len(c) > 2 else c + (lv,) for c in cells for lv in range(len(levels)))
    if len(cells) >= files * ranks * max(1, len(levels)):
        raise error("holes", "every cell is a hole", text)
    return frozenset(cells)


def check_castling(attrs: dict, holes: frozenset, ranks: int, levels: str, error: type) -> None:
    """A castling king or rook cannot start, pass or land on a hole."""
    if not holes or not attrs.get("castle_on") or not attrs.get("castle_king"):
        return
    kf, ks, qs = attrs["castle_files"]
    rk, rq = attrs.get("rook_files", (7, 0))
    for rank in (attrs.get("castle_rank", 0), ranks - 1 - attrs.get("castle_rank", 0)):
        for files in ((kf, ks, rk, None if ks is None else ks - 1),
                      (kf, qs, rq, None if qs is None else qs + 1)):
            if None in files:
                continue                    # no castling to a side off the board
            for f in range(min(files), max(files) + 1):
                c = (f, rank) + ((0,) if levels else ())
                if c in holes:
                    raise error("holes", "castling passes or lands on a hole (set castling = false "
                                         "or move the hole)", _name(c, levels))


class HoledBoard(RuleBase):
    """Mixin of a file variant whose board has holes: its geometry without them."""
    hole_coords: frozenset[tuple[int, ...]] = frozenset()

    def make_geometry(self):
        return super().make_geometry().without(self.hole_coords)


def hole_bases(holes: frozenset) -> tuple[type, ...]:
    return (type("Holes", (HoledBoard,), {"hole_coords": holes}),) if holes else ()
