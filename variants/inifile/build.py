"""The one builder: from the keys of one section (inheritance already resolved) to a Variant
class, on every kind of board.

Every key is declared once in ``registry.py`` (its group, default, reader and the boards that
read it) and read through a :class:`~variants.inifile.section.Section`.  The builder

1. checks the section's keys against the registry: a key this board does not read is refused
   by name, never ignored (a silently ignored rule would play another game), and every value a
   context-free reader refuses is reported at once;
2. reads the keys every board shares (the stalemate value, the move-count and repetition
   rules), which a board's own rulings may refine;
3. reads the board with its board's reader: ``grid.read_grid`` for square, levelled and solid
   boards, ``lattice.read_lattice`` for boards of squares and vertices,
   ``hexboard.read_hex`` for hexagonal boards; each returns its rule parts;
4. reads the search hints and the plugins the section names, then joins the rule parts in
   ``compose.PARTS``'s order into the section's class (a move filter that depends on the
   move alone goes into the promotion table: ``movefilter.py``).

Fairy-Stockfish's keys have its meaning and default (its variants.ini header documents them).
"""
from __future__ import annotations

from engine.variant import Variant

from . import compose
from .asia import is_mobility_key
from .grid import grid_notation, read_grid
from .hints import hint_attrs
from .hexboard import is_hex_piece_key, read_hex
from .lattice import is_lattice_piece_key, read_lattice
from .movefilter import table_filters
from .plugins import plugin_bases, plugin_keys
from .registry import GRID, HEX, LATTICE, is_piece_key, on_board
from .section import Section
from .values import KeyError_

__all__ = ["build_class"]

ON_GRID = on_board(GRID)        # the keys a square, levelled or solid section may hold, but pieces and plugins
ON_LATTICE = on_board(LATTICE)  # the keys a lattice section may hold, but pieces and plugins
ON_HEX = on_board(HEX)          # the keys a hex section may hold, but pieces and plugins


def _grid_piece_key(k: str) -> bool:
    """A key named by a piece on a grid board: the piece itself, or its mobility region."""
    return is_piece_key(k) or is_mobility_key(k)


def build_class(name: str, keys: dict[str, tuple[str, int]]) -> tuple[type[Variant], dict[str, int]]:
    """The Variant class of a section; raises KeyError_ (or KeyErrors) for bad keys.  Also
    returns the line of every key, for errors found later (startFen)."""
    sec = Section(name, keys)
    lattice = sec.board in (LATTICE, HEX)     # a board with its own reader and text
    sec.check(plugin_keys(), is_hex_piece_key if sec.board == HEX
              else is_lattice_piece_key if lattice else _grid_piece_key)
    attrs: dict = {"name": name, "section_keys": keys}   # a Chess960 form is built from them
    attrs["stalemate_result"] = sec.outcome("stalemateValue")
    n = sec.number("nMoveRule")
    attrs["move_rule_plies"] = 2 * n if n else None     # a board's rulings may refine it
    attrs["repetition_count"] = sec.number("nFoldRule")
    parts = {LATTICE: read_lattice, HEX: read_hex}.get(sec.board, read_grid)(sec, attrs)
    hint_attrs(sec, attrs)                      # cellfish's search hints
    parts["plugins"] = plugin_bases(sec, KeyError_)
    if not lattice:                             # the move filter in the promotion table
        parts["drop_filters"] = table_filters(parts, attrs)
    bases = compose.bases(parts)
    if not lattice:
        attrs["notation_class"] = grid_notation(bases, attrs)
    return type(f"File_{name}", bases, attrs), sec.lines
