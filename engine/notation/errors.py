"""The error type of the game's notation: text that names no position or no legal move."""
from __future__ import annotations


class NotationError(ValueError):
    """Position or move text that does not fit the game; the message names the bad token."""


class PositionTextError(NotationError):
    """Position text (FEN, SFEN, 3D-FEN, Nested FEN) that does not describe a position."""


class MoveTextError(NotationError):
    """Move text that names no legal move of the position."""
