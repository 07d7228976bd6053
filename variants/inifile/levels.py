"""Level keys (cellfish extensions of the variants-file format): several boards of the same
size stacked as levels, e.g. the two boards of Alice Chess.

    levels = 2          how many boards (2..8); without the key the board is plain 2D
    levelNames = ab     one lowercase letter per level, bottom first (default a, b, c, ...)

The board is files x ranks x levels; a cell is named level + file + rank (``ae2``); the
position text writes the levels in order, separated by ``|``; `d` draws them side by side.
A piece moves within its own level (its 2D vectors are lifted with level offset 0) unless a
plugin says otherwise; castling happens on the first level (where ``startFen``'s king
stands).  See docs/variant-files.md.
"""
from __future__ import annotations

from engine.geometry import grid_levels
from engine.notation.formats import LevelledText
from engine.variant import MAX_CELLS
from variants.chess import ChessText

from .registry import names
from .values import LETTER_FILES
from .filevariant import RuleBase

LEVEL_KEYS = names("level")
MAX_LEVELS = 8


class LevelledChessText(LevelledText, ChessText):
    """FEN with the levels separated by '|' (the layout and picture of ``LevelledText``) and
    the en-passant field of chess (the victim on the same level)."""


class LevelledBoard(RuleBase):
    """Mixin of a file variant with levels: its geometry and its text format."""
    level_names = "ab"
    home_level = (0,)
    notation_class = LevelledChessText

    def make_geometry(self):
        return grid_levels(self.files, self.ranks, self.level_names)


def level_bases(val: dict[str, str], files: int, ranks: int, error: type) -> tuple[type[LevelledBoard], ...]:
    """The bases a section's level keys add to its class (none without ``levels``);
    ``error(key, what, token)`` is raised for a bad value."""
    if "levels" not in val:
        if "levelNames" in val:
            raise error("levelNames", "needs levels", val["levelNames"])
        return ()
    text = val["levels"]
    try:
        n = int(text)
    except ValueError:
        raise error("levels", "not a whole number", text) from None
    if not 2 <= n <= MAX_LEVELS:
        raise error("levels", f"out of range 2..{MAX_LEVELS}", text)
    if files > LETTER_FILES:
        raise error("levels", f"at most {LETTER_FILES} files (a .. z) on a board of levels", text)
    if n * files * ranks > MAX_CELLS:
        raise error("levels", f"{n * files * ranks} cells, more than the {MAX_CELLS} "
                    f"a move can name", text)
    names = val.get("levelNames", "abcdefgh"[:n])
    if len(names) != n:
        raise error("levelNames", f"needs one letter for each of the {n} levels", names)
    for ch in names:
        if not ("a" <= ch <= "z"):
            raise error("levelNames", "not a lowercase letter", ch)
    if len(set(names)) != n:
        raise error("levelNames", "a letter used twice", names)
    return (type("Levels", (LevelledBoard,), {"level_names": names}),)
