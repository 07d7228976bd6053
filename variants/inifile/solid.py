"""Solid boards (a cellfish extension of the variants-file format): the levels of a board form
one 3D space instead of separate boards.

    levels = 5            how many levels (levels.py); with solid the board is files x ranks x levels
    solid = true          pieces move in 3D, written in the 3D notation (engine/pieces3d.py)
    blackFrame = rank     the axes Black's frame reverses (file, rank, level; default file rank)

A cell is named level + file + rank (``ac1``) and the position text writes the levels in
order separated by ``|``, as on any levelled board.  Every piece of a solid board (the king
too; it defaults to ``O S T``, one step in each of the 26 directions) is a ``customPieceN``
in the 3D notation; Fairy-Stockfish's predefined 2D pieces are refused.  Regions may name a
level (``e*5``: level e, every file, rank 5).  See docs/variant-files.md.
"""
from __future__ import annotations

from engine.pieces import BENT, PieceType
from engine.pieces3d import Piece3DError, parse_piece3d

SOLID_KEYS = frozenset({"solid", "blackFrame"})
AXES = ("file", "rank", "level")
KING3D = "O S T"


def is_solid(val: dict[str, str], error: type) -> bool:
    """Does the section ask for a solid board (``solid = true``, which needs ``levels``)?"""
    text = val.get("solid", "false")
    if text.lower() in ("false", "0", "no"):
        if "blackFrame" in val:
            raise error("blackFrame", "needs solid = true", val["blackFrame"])
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
    return (type("Solid", (SolidBoard,), {"black_flips": tuple(AXES.index(w) for w in flips)}),)


class SolidBoard:
    """Mixin of a file variant on a solid board: 3D pieces, Black's frame, no en passant."""
    black_flips: tuple[int, ...] = (0, 1)
    files: int
    ranks: int
    level_names: str

    def orient(self, v):
        return tuple(-x if i in self.black_flips else x for i, x in enumerate(v))

    def white_coord(self, coord, color):
        if color == 0:
            return coord
        size = (self.files, self.ranks, len(self.level_names))
        return tuple(size[i] - 1 - x if i in self.black_flips else x for i, x in enumerate(coord))

    def _piece(self, name: str, letter: str, betza: str) -> PieceType:
        """The piece from its 3D definition (no double step, no en passant: those are the
        2D pawn's)."""
        return PieceType(name, letter.upper(), parse_piece3d(betza),
                         royal=(letter == self.royal_letter),       # type: ignore[attr-defined]
                         pawn=letter in self.pawn_letters)          # type: ignore[attr-defined]
