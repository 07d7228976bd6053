"""The game's notation: position text (FEN, SFEN, 3D-FEN, Nested FEN) and move text.

Notation belongs to the rules core, as FEN and SAN belong to python-chess's core: the protocol
layer only reads lines and prints answers, and the match runner, the benches and the tests use
the same functions.  Errors are ``NotationError`` (``PositionTextError``, ``MoveTextError``).
"""
from __future__ import annotations

from .errors import MoveTextError, NotationError, PositionTextError
from .move_text import move_text, parse_move
from .position_text import code_token, format as format_position, parse as parse_position, token_code

__all__ = ["NotationError", "PositionTextError", "MoveTextError", "move_text", "parse_move",
           "parse_position", "format_position", "code_token", "token_code"]
