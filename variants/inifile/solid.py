"""Solid boards (a cellfish extension of the variants-file format): the levels of a board form
one 3D space instead of separate boards.

    levels = 5            how many levels (levels.py); with solid the board is files x ranks x levels
    solid = true          pieces move in 3D, written in the 3D notation (engine/pieces3d.py)
    blackFrame = rank     the axes Black's frame reverses (file, rank, level; default file rank)
    axisOrder = level file rank   the order of a cell's coordinates inside the engine (plugins,
                          tables); the notation still writes vectors as (file, rank, level)
    ringKeepingTypes = pf the pieces whose rank-changing moves stay on files of their ring

A cell is named level + file + rank (``ac1``) and the position text writes the levels in
order separated by ``|``, as on any levelled board.  Every piece of a solid board (the king
too; it defaults to ``O S T``, one step in each of the 26 directions) is a ``customPieceN``
in the 3D notation; Fairy-Stockfish's predefined 2D pieces are refused.  Regions may name a
level (``e*5``: level e, every file, rank 5).  See docs/variant-files.md.
"""
from __future__ import annotations

from dataclasses import replace

from engine.geometry import Geometry, grid_levels
from engine.pieces import BENT, PieceType
from engine.pieces3d import Piece3DError, parse_piece3d

from .registry import names
from .filevariant import RuleBase

SOLID_KEYS = names("solid")
AXES = ("file", "rank", "level")
# the attributes of a section that hold regions (cells as (file, rank) or (file, rank, level))
REGION_ATTRS = ("promo_region", "double_region", "triple_region", "drop_region", "ep_region",
                "flag_regions", "piece_drop_region")
KING3D = "O S T"


def is_solid(val: dict[str, str], error: type) -> bool:
    """Does the section ask for a solid board (``solid = true``, which needs ``levels``)?"""
    text = val.get("solid", "false")
    if text.lower() in ("false", "0", "no"):
        for key in ("blackFrame", "axisOrder", "ringKeepingTypes"):
            if key in val:
                raise error(key, "needs solid = true", val[key])
        return False
    if text.lower() not in ("true", "1", "yes"):
        raise error("solid", "not true or false", text)
    if "levels" not in val:
        raise error("solid", "needs levels (the number of levels of the 3D board)", text)
    return True


def check_piece(key: str, letter: str, betza: str, error: type) -> str:
    """The 3D definition of a piece line of a solid board (the king's default if none);
    ``error(key, what, token)`` for a predefined 2D piece or a bad term."""
    if key == "king" and not betza:
        betza = KING3D
    elif not key.startswith("customPiece") and key != "king":
        raise error(key, "a predefined piece moves in 2D: on a solid board write a customPiece "
                         "in the 3D notation", key)
    try:
        parse_piece3d(betza)
    except Piece3DError as e:
        raise error(key, e.what, e.token) from None
    return betza


def solid_bases(val: dict[str, str], pieces: tuple[tuple[str, str, str], ...], royal: str,
                error: type) -> tuple[type, ...]:
    """The mixin a solid section adds to its class (none without ``solid``).  A bent piece
    and a royal piece may not meet: check is found through attack tables, which bent paths
    do not fit (yet)."""
    if not is_solid(val, error):
        return ()
    if royal:
        for key, _letter, text in pieces:
            if any(a.kind == BENT for a in parse_piece3d(text)):
                raise error(key, "a bent piece in a game with a royal piece (check by bent "
                                 "paths is not supported)", text)
    text = val.get("blackFrame", "file rank")
    flips = text.replace(",", " ").split()
    for w in flips:
        if w not in AXES:
            raise error("blackFrame", "not file, rank or level", w)
    if len(set(flips)) != len(flips):
        raise error("blackFrame", "an axis named twice", text)
    if "rank" not in flips:
        raise error("blackFrame", "Black's frame reverses the rank axis (Black moves the other way)",
                    text)
    axes = axis_order(val, error)
    letters = {letter for _k, letter, _t in pieces}
    ring = val.get("ringKeepingTypes", "").replace("-", "").replace(" ", "").lower()
    for ch in ring:
        if ch not in letters:
            raise error("ringKeepingTypes", "no piece has this letter", ch)
    return (type("Solid", (SolidBoard,), {"black_flips": tuple(AXES.index(w) for w in flips),
                                          "axes": axes, "ring_letters": frozenset(ring)}),)


def axis_order(val: dict[str, str], error: type) -> tuple[int, ...]:
    """``axisOrder``: the engine's coordinate order as indices of (file, rank, level)."""
    if "axisOrder" not in val:
        return (0, 1, 2)
    text = val["axisOrder"]
    words = text.replace(",", " ").split()
    for w in words:
        if w not in AXES:
            raise error("axisOrder", "not file, rank or level", w)
    if sorted(words) != sorted(AXES):
        raise error("axisOrder", "names each of file, rank and level once", text)
    if val.get("castling", "true").lower() in ("true", "1", "yes"):
        raise error("axisOrder", "needs castling = false (castling reads (file, rank, level) "
                                 "cells)", text)
    return tuple(AXES.index(w) for w in words)


def engine_cells(region, axes: tuple[int, ...], levels: int):
    """A region of (file, rank) or (file, rank, level) entries as cells in the engine's
    coordinate order (a (file, rank) entry holds on every level)."""
    if region is None:
        return None
    if isinstance(region, dict):
        return {k: engine_cells(r, axes, levels) for k, r in region.items()}
    if isinstance(region, tuple):
        return tuple(engine_cells(r, axes, levels) for r in region)
    full = [c if len(c) > 2 else c + (lv,) for c in region
            for lv in (range(levels) if len(c) == 2 else (0,))]
    return frozenset(tuple(c[a] for a in axes) for c in full)


def engine_regions(attrs: dict, holes: frozenset, axes: tuple[int, ...], levels: int) -> frozenset:
    """Turn the region attributes (and return the holes) into the engine's coordinate order."""
    if axes == (0, 1, 2):
        return holes
    for name in REGION_ATTRS:
        if name in attrs:
            attrs[name] = engine_cells(attrs[name], axes, levels)
    return engine_cells(holes, axes, levels)


def merge_atoms(atoms):
    """Terms of one kind (leap or ride, the same mode, range and stops) as one atom, their
    vectors in term order without repeats: ``O fS fT`` is one leap over 14 vectors.  The
    compiled tables are the same (each table keeps its order); a repeated ride is no longer
    two rays."""
    out: list = []
    where: dict = {}
    for a in atoms:
        if a.kind == BENT or callable(a.vectors):
            out.append(a)
            continue
        key = (a.kind, a.mode, a.max_dist, a.stops, a.origin, a.flag)
        i = where.get(key)
        if i is None:
            where[key] = len(out)
            out.append(a)
        else:
            vecs = out[i].vectors + tuple(v for v in a.vectors if v not in out[i].vectors)
            out[i] = replace(out[i], vectors=vecs)
    return tuple(out)


class SolidBoard(RuleBase):
    """Mixin of a file variant on a solid board: 3D pieces, Black's frame, no en passant; the
    coordinate order of ``axisOrder`` and the rings of ``ringKeepingTypes``."""
    black_flips: tuple[int, ...] = (0, 1)
    axes: tuple[int, ...] = (0, 1, 2)       # engine coordinate i is notation axis axes[i]
    ring_letters: frozenset[str] = frozenset()
    files: int
    ranks: int
    level_names: str

    def make_geometry(self):
        if self.axes == (0, 1, 2):
            return super().make_geometry()
        base = grid_levels(self.files, self.ranks, self.level_names)
        geo = Geometry([tuple(c[a] for a in self.axes) for c in base.coords], base.names)
        geo.level_axis = self.axes.index(2)
        return geo

    def _flips(self) -> tuple[int, ...]:
        return tuple(i for i, a in enumerate(self.axes) if a in self.black_flips)

    def _size(self) -> tuple[int, ...]:
        size = (self.files, self.ranks, len(self.level_names))
        return tuple(size[a] for a in self.axes)

    def orient(self, v):
        flips = self._flips()
        return tuple(-x if i in flips else x for i, x in enumerate(v))

    def white_coord(self, coord, color):
        if color == 0:
            return coord
        size, flips = self._size(), self._flips()
        return tuple(size[i] - 1 - x if i in flips else x for i, x in enumerate(coord))

    def rank_of(self, cell: int, color: int) -> int:
        """The cell's rank in the colour's own frame: 0 its back rank."""
        r = self.geometry.coords[cell][self.axes.index(1)]
        return r if color == 0 else self.ranks - 1 - r

    def _engine(self, v):
        return tuple(v[a] for a in self.axes)

    def _notation(self, v):
        out = [0, 0, 0]
        for i, a in enumerate(self.axes):
            out[a] = v[i]
        return tuple(out)

    def _piece(self, name: str, letter: str, betza: str) -> PieceType:
        """The piece from its 3D definition (no double step, no en passant: those are the
        2D pawn's), its vectors in the engine's coordinate order."""
        atoms = merge_atoms(parse_piece3d(betza, self.axes))
        if self.axes != (0, 1, 2):
            atoms = tuple(self._reorder(a) for a in atoms)
        if letter in self.ring_letters:
            atoms = tuple(self._ring_keeping(a) for a in atoms)
        return PieceType(name, letter.upper(), atoms,
                         royal=(letter == self.royal_letter),
                         pawn=letter in self.pawn_letters)

    def _reorder(self, a):
        vecs = tuple(self._engine(v) for v in a.vectors)
        if a.turns is None:
            return replace(a, vectors=vecs)
        turns = a.turns
        return replace(a, vectors=vecs,
                       turns=lambda v: [self._engine(w) for w in turns(self._notation(v))])

    # ---- rings (ringKeepingTypes) ----------------------------------------------------------
    def _ring(self, c) -> int:
        """The ring of the file of engine coordinates ``c``: square rings of files around the
        board's central rank axis, 0 the innermost (max(|2 file - (files-1)|,
        |2 level - (levels-1)|) // 2)."""
        n = self._notation(c)
        return max(abs(2 * n[0] - (self.files - 1)), abs(2 * n[2] - (len(self.level_names) - 1))) // 2

    @property
    def ring_of(self) -> list[int]:
        """The ring of every cell (``_ring``)."""
        r = self.__dict__.get("_ring_of")
        if r is None:
            r = self.__dict__["_ring_of"] = [self._ring(c) for c in self.geometry.coords]
        return r

    def _ring_keeping(self, a):
        """The atom of a ``ringKeepingTypes`` piece: its vectors on a cell are those that keep
        the rank or land on a file of the cell's own ring (a function of the cell, in the
        owner's frame: the ring does not depend on the rank)."""
        if a.kind == BENT or callable(a.vectors):
            return a
        vecs, ra, ring = a.vectors, self.axes.index(1), self._ring

        def at(c, vecs=vecs):
            here = ring(c)
            return tuple(v for v in vecs
                         if not v[ra] or ring(tuple(x + y for x, y in zip(c, v))) == here)
        return replace(a, vectors=at)
