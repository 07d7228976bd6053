"""Move text: one canonical text per legal move and dialect, and parsing by matching it.

  <from><to>            plain move, capture, castling (the king's move), fusion; a castling
                        move a plain king move would write alike (or whose king stays) is
                        written as the king taking its rook (``Variant.castle_written``)
  <from><to>q           promotion: lowercase token letter of the new piece
  <from><to>+           promotion to a '+'-token piece (shogi, knavish optional promotion)
  <from><to>-           demotion of a '+' piece (variants files with pieceDemotion)
  P@e4 / P*5e           drop (UCI / USI); +L@e4 drops a piece in promoted form
  <from><to>/b          fission: the component that moves
  <from><to>[+],<cell>  a move that also acts on another cell (Notake)
  <from><to>,<to><cell> a move that also moves the wall (the duck) to cell
  <from><cell><to>      a two-leg move taking the piece on cell in passing, as USI engines of
                        Chu Shogi write the Lion's double move (7g7f6f; e4e5e6 in UCI);
                        <from><cell><from> captures without moving (igui)
  <from><from>          a two-leg move out to an empty cell and back: a pass
  0000                  null move
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..moves import (CASTLE, FISSION, NULL_MOVE, SPECIAL, acted_of, from_of,
                     legs_victim, ptype_of, to_of, wall_of)
from .errors import MoveTextError

if TYPE_CHECKING:
    from ..variant import Variant


def piece_letter(variant: Variant, tid: int) -> str:
    tok = variant.piece_type(tid).token
    return tok


def move_text(variant: Variant, m: int, dialect: str = "uci") -> str:
    if m == NULL_MOVE:
        return "0000"
    geo = variant.geometry
    to = to_of(m)
    frm = from_of(m)
    pt = ptype_of(m)
    if frm < 0:                 # a drop
        sep = "*" if dialect == "usi" else "@"
        return f"{piece_letter(variant, pt)}{sep}{geo.name(to, dialect)}"
    if m & CASTLE and variant.castle_written:
        to = variant.castle_written.get((frm, to), to)
    victim = legs_victim(m)
    if victim >= 0:             # the cell taken in passing between the two
        s = geo.name(frm, dialect) + geo.name(victim, dialect) + geo.name(to, dialect)
    else:
        s = geo.name(frm, dialect) + geo.name(to, dialect)
    if m & FISSION:
        s += "/" + variant.piece_type(pt).token.lower()
    elif pt:
        s += variant.notation.promotion_text(pt)
    acted = acted_of(m)
    if acted >= 0 and m & SPECIAL:
        s += variant.notation.acted_text(to, acted, dialect)
    wall = wall_of(m)
    if wall >= 0:               # the square the move also walls (the duck, a wall, an arrow),
        s += "," + geo.name(to, dialect) + geo.name(wall, dialect)     # as Fairy-Stockfish
    return s


def parse_move(variant: Variant, legal: list[int], text: str, dialect: str = "uci") -> int:
    """The legal move whose canonical text is `text` (exact, else case-insensitive if unique)."""
    if text == "0000":
        return NULL_MOVE
    texts = {move_text(variant, m, dialect): m for m in legal}
    m = texts.get(text)
    if m is not None:
        return m
    low = [mv for t, mv in texts.items() if t.lower() == text.lower()]
    if len(low) == 1:
        return low[0]
    raise MoveTextError(f"illegal or unknown move ({text})")
