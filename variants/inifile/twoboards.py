"""One board of a two-board game, as Fairy-Stockfish plays it from one engine's side
(``twoBoards``), and the piece a setup or a two-board game makes a side drop
(``mustDropType``).

``twoBoards`` (bughouse, koedem, supply): the game is played on two boards by two teams, and
what a player captures goes to the partner, on the other board.  An engine sees one board: a
capture leaves the board and is added to no hand here (``capturesToHand`` stays as given:
Fairy-Stockfish's two-board games set it false), and a side's hand is whatever the position
text gives it, however many pieces of a kind that is (the partner's captures reach it as a new
position text, ``position fen ...[Qn] ...``).  So the key changes no rule of the board: it is
read, checked to have a hand to drop from, and kept as ``two_boards`` for the protocol and the
GUI.  Fairy-Stockfish's search also lets a side drop a piece its partner may yet send (its
"virtual drops"); that is a search policy, not a legal move, and this engine does not play it.

``mustDropType`` (with ``mustDrop``): while a side holds a piece of this type, it may drop no
other piece, and it must drop one of this type when such a drop is legal (koedem: a side that
holds a king must put it back on the board); placement.py applies it.
"""
from __future__ import annotations

from typing import Any

from .values import KeyError_, as_bool


def two_board_attrs(val: dict[str, str], letters: set[str], attrs: dict[str, Any]) -> None:
    """Read ``twoBoards`` and ``mustDropType`` into ``attrs`` (``two_boards``,
    ``must_drop_type``: a piece letter or '')."""
    two = as_bool("twoBoards", val.get("twoBoards", "false"))
    if two and not as_bool("pieceDrops", val.get("pieceDrops", "false")):
        raise KeyError_("twoBoards", "needs pieceDrops (the hand the partner fills)", "true")
    attrs["two_boards"] = two
    kind = val.get("mustDropType", "*").strip().lower()
    if kind in ("*", ""):
        kind = ""
    elif len(kind) != 1 or kind not in letters:
        raise KeyError_("mustDropType", "one piece letter of the section, or *", val["mustDropType"])
    elif not as_bool("mustDrop", val.get("mustDrop", "false")):
        raise KeyError_("mustDropType", "needs mustDrop", val["mustDropType"])
    attrs["must_drop_type"] = kind
