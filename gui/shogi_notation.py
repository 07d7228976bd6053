"""The western shogi notation of the move list, for the games written in USI (shogi, Notake).

A move reads: the moving piece's letter as it stands (`+R` for a promoted Rook), its cell
only when another piece of the same kind could go to the same cell (`G6g-5h`), `-` for a
move, `x` for a capture, `*` for a drop (always written: `S*5e`), the target cell, then `+`
when the piece promotes, `=` when it could have and does not.  Cells are shogi's own, as the
board's coordinates: files 9..1 from Sente's right, ranks a..i from the top (`7f`).  A move
that also acts on a cell (Notake) ends with a comma and that cell (`R-7b,2b`); one whose
piece stays where it is (Notake's rifle) is the piece, its cell and the acted-on cell
(`N8a,7c`).  No check marks.  The records and PGN keep what they write.
"""
from __future__ import annotations

from engine.moves import from_of, to_of
from engine.notation import code_token, move_text


def _cells_and_rest(v, m: int) -> tuple[int, int, str]:
    """The move's cells and what its USI text adds after them (`+`, `,7c` ...)."""
    frm, to = from_of(m), to_of(m)
    text = move_text(v, m, "usi")
    cells = v.geometry.name(frm, "usi") + v.geometry.name(to, "usi")
    return frm, to, text[len(cells):] if text.startswith(cells) else ""


def shogi_move(v, pos, m: int, legal: list[int]) -> str:
    """Move `m` of position `pos` (whose legal moves are `legal`) in the western notation."""
    name = v.geometry.name
    frm, to = from_of(m), to_of(m)
    if frm < 0:                                             # a drop
        return move_text(v, m, "usi")                       # S*5e
    code = pos.board[frm]
    letter = code_token(v, code).upper()
    frm, to, rest = _cells_and_rest(v, m)
    promo, _, acted = rest.partition(",")
    if frm == to:                                           # the piece stays (rifle)
        return f"{letter}{name(frm, 'usi')}" + (f",{acted}" if acted else "")
    # another piece of the same kind that could go there: write where this one comes from
    others = {from_of(o) for o in legal
              if from_of(o) not in (-1, frm) and to_of(o) == to
              and pos.board[from_of(o)] == code}
    origin = name(frm, "usi") if others else ""
    target = pos.board[to]
    capture = bool(target) and (target & 1) != (code & 1) and not acted
    if promo == "+":
        mark = "+"
    elif not promo and any(
            _cells_and_rest(v, o)[2].partition(",") == ("+", *rest.partition(",")[1:])
            for o in legal if from_of(o) == frm and to_of(o) == to and o != m):
        mark = "="                                          # could promote, does not
    else:
        mark = promo
    return (f"{letter}{origin}{'x' if capture else '-'}{name(to, 'usi')}{mark}"
            + (f",{acted}" if acted else ""))
