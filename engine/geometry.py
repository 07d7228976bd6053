"""Board geometry: a finite set of cells with integer coordinates in any dimension.

A cell is a small int (its index); coordinates are tuples.  Holes are simply coordinates
that are not cells.  Names are given per cell (one name per dialect if needed).  All the
move tables of a variant are compiled from this object, so the move generator never sees
coordinates at all.
"""
from __future__ import annotations

from typing import Callable, Iterable, Sequence

Coord = tuple[int, ...]


class Geometry:
    def __init__(self, coords: Sequence[Coord], names: Sequence[str],
                 alt_names: dict[str, Sequence[str]] | None = None) -> None:
        if len(coords) != len(names):
            raise ValueError("one name per cell")
        self.coords: tuple[Coord, ...] = tuple(tuple(c) for c in coords)
        self.dims = len(self.coords[0])
        self.size = len(self.coords)
        self.index: dict[Coord, int] = {c: i for i, c in enumerate(self.coords)}
        self.names: tuple[str, ...] = tuple(names)
        self.by_name: dict[str, int] = {n: i for i, n in enumerate(self.names)}
        self.alt_names: dict[str, tuple[str, ...]] = {}
        self.alt_by_name: dict[str, dict[str, int]] = {}
        for dialect, ns in (alt_names or {}).items():
            self.alt_names[dialect] = tuple(ns)
            self.alt_by_name[dialect] = {n: i for i, n in enumerate(ns)}
        # a levelled board (grid_levels): which coordinate is the level, and whether a vector
        # shorter than the coordinates is lifted with zeros (a 2D move stays on its level)
        self.level_axis: int | None = None
        self.lift_vectors = False
        # a hexagonal board (``hexagon``): cells are hexagons in axial coordinates
        self.hexagonal = False

    def _lift(self, vec: Coord) -> Coord:
        return tuple(vec) + (0,) * (self.dims - len(vec)) if self.lift_vectors else vec

    # -- naming -------------------------------------------------------------------
    def name(self, cell: int, dialect: str = "uci") -> str:
        alt = self.alt_names.get(dialect)
        return alt[cell] if alt else self.names[cell]

    def parse(self, text: str, dialect: str = "uci") -> int | None:
        table = self.alt_by_name.get(dialect, self.by_name)
        return table.get(text)

    # -- walking --------------------------------------------------------------------
    def step(self, cell: int, vec: Coord, k: int = 1) -> int | None:
        c = self.coords[cell]
        vec = self._lift(vec)
        return self.index.get(tuple(a + k * b for a, b in zip(c, vec)))

    def ray(self, cell: int, vec: Coord, limit: int | None = None) -> list[int]:
        """Cells at distance 1, 2, ... along vec, stopping at the first non-cell."""
        out: list[int] = []
        c = self.coords[cell]
        vec = self._lift(vec)
        k = 1
        while limit is None or k <= limit:
            t = self.index.get(tuple(a + k * b for a, b in zip(c, vec)))
            if t is None:
                break
            out.append(t)
            k += 1
        return out

    def cells_where(self, pred: Callable[[Coord], bool]) -> frozenset[int]:
        return frozenset(i for i, c in enumerate(self.coords) if pred(c))

    def without(self, holes: Iterable[Coord]) -> Geometry:
        """The same board with the cells at ``holes`` left out (renumbered in order; names,
        level axis and vector lifting kept)."""
        gone = set(map(tuple, holes))
        keep = [i for i, c in enumerate(self.coords) if c not in gone]
        if not keep:
            raise ValueError("every cell is a hole")
        geo = Geometry([self.coords[i] for i in keep], [self.names[i] for i in keep],
                       {d: [ns[i] for i in keep] for d, ns in self.alt_names.items()})
        geo.level_axis, geo.lift_vectors = self.level_axis, self.lift_vectors
        geo.hexagonal = self.hexagonal
        return geo


def grid2d(files: int, ranks: int) -> Geometry:
    """Rectangular board, file letters a.. and rank numbers 1.. (ranks may have two digits)."""
    coords = [(x, y) for y in range(ranks) for x in range(files)]
    names = [f"{chr(97 + x)}{y + 1}" for x, y in coords]
    return Geometry(coords, names)


def grid3d(levels: int, files: int, ranks: int, level_letters: str) -> Geometry:
    coords = [(l, f, r) for l in range(levels) for r in range(ranks) for f in range(files)]
    names = [f"{level_letters[l]}{chr(97 + f)}{r + 1}" for l, f, r in coords]
    geo = Geometry(coords, names)
    geo.level_axis = 0
    return geo


def grid_levels(files: int, ranks: int, level_names: str) -> Geometry:
    """Several boards of files x ranks, one per level letter: cells (file, rank, level) named
    level + file + rank (``ae2``), numbered level by level.  A 2D vector is lifted with level
    offset 0, so a piece of a 2D game moves within its own level."""
    coords = [(f, r, lv) for lv in range(len(level_names)) for r in range(ranks)
              for f in range(files)]
    names = [f"{level_names[lv]}{chr(97 + f)}{r + 1}" for f, r, lv in coords]
    geo = Geometry(coords, names)
    geo.level_axis = 2
    geo.lift_vectors = True
    return geo


HEX_FILES = "abcdefghiklmnopqrstuvwxyz"   # hex players' file letters: no j


def hexagon(side: int) -> Geometry:
    """The hexagon of hexagons with ``side`` cells on each edge (Glinski's board: side 6, 91
    cells), cells standing in files (columns) of lengths side, side + 1 .. 2 side - 1 .. side,
    named by a file letter (a, b, .. without j) and a rank counted from 1 at each file's foot.

    Coordinates are axial (x, y): x is the file, and y grows up the file, so the six
    orthogonal neighbours (through an edge) are (0, +-1), (+-1, 0), (1, -1), (-1, 1) and the
    six diagonal ones (through a corner) (1, 1), (-1, -1), (2, -1), (-2, 1), (1, -2),
    (-1, 2).  The height of a cell above the board's lowest cell, in half cells, is
    ``2 y + x - (side - 1)`` (``hex_height``); a file's foot rises by half a cell per file
    away from the middle file.  Cells are numbered by rank, then by file."""
    if not 2 <= side <= (len(HEX_FILES) + 1) // 2:
        raise ValueError(f"a hexagon of side {side}")
    mid = side - 1
    cells: list[tuple[int, int, int]] = []          # (rank, file, y)
    for x in range(2 * side - 1):
        for r in range(2 * side - 1 - abs(x - mid)):
            cells.append((r, x, r + max(0, mid - x)))
    cells.sort()
    coords = [(x, y) for _r, x, y in cells]
    names = [f"{HEX_FILES[x]}{r + 1}" for r, x, _y in cells]
    geo = Geometry(coords, names)
    geo.hexagonal = True
    return geo


def hex_height(v: Coord) -> int:
    """How far a vector of the hexagon's axial coordinates climbs, in half cells."""
    return 2 * v[1] + v[0]


HEX_ORTH: tuple[Coord, ...] = ((0, 1), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1))
HEX_DIAG: tuple[Coord, ...] = ((1, 1), (2, -1), (1, -2), (-1, -1), (-2, 1), (-1, 2))
HEX_KNIGHT: tuple[Coord, ...] = ((1, 2), (2, 1), (3, -1), (3, -2), (2, -3), (1, -3),
                                 (-1, -2), (-2, -1), (-3, 1), (-3, 2), (-2, 3), (-1, 3))


def all_sign_permutations(base: Iterable[int]) -> list[Coord]:
    """Every vector obtained from base by permuting axes and flipping signs (no duplicates)."""
    from itertools import permutations, product
    base = tuple(base)
    seen: set[Coord] = set()
    for perm in permutations(base):
        for signs in product((1, -1), repeat=len(base)):
            v = tuple(p * s for p, s in zip(perm, signs))
            seen.add(v)
    return sorted(seen)
