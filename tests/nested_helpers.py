"""Helpers shared by the Nested Chess rule tests: set-up from a {cell: token} dict, move texts."""
from __future__ import annotations

from engine.movegen import legal_moves
from engine.notation.move_text import move_text, parse_move
from engine.notation.position_text import format, parse
from engine.position import Position


def setup(v, pieces, side="w"):
    """Position from {cell name: token} (upper = White)."""
    pos = Position(v)
    for name, tok in pieces.items():
        code = v.by_token[tok.upper()].id * 2 + (0 if tok.isupper() else 1)
        pos.put(v.geometry.by_name[name], code)
    pos.side = 0 if side == "w" else 1
    pos.reset_state()
    return parse(v, format(pos))          # through the text, so validation runs


def texts(pos):
    return sorted(move_text(pos.variant, m) for m in legal_moves(pos))


def from_cell(pos, cell):
    return sorted(t for t in texts(pos) if t.startswith(cell) and not t[len(cell)].isdigit())


def play(pos, *moves):
    for t in moves:
        pos.make(parse_move(pos.variant, legal_moves(pos), t))
    return pos


def cells_of(v, pos, tok):
    code = v.by_token[tok.upper()].id * 2 + (0 if tok.isupper() else 1)
    return sorted(v.geometry.name(c) for c, p in enumerate(pos.board) if p == code)
