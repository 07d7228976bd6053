"""Helpers shared by the 3D (Nichtschach) tests."""
from __future__ import annotations

from engine.moves import CELL, FROM_SHIFT
from engine.movegen import pseudo_moves
from engine.notation.move_text import move_text
from engine.position import Position


def shapes(pos):
    """Pseudo-legal moves from the tables alone.  The sparse positions of these tests would be
    lost games (no side has two pieces per direction), and a finished game has no moves, so
    the game-over rule (the variant's extra_moves hook) is switched off here."""
    v = pos.variant
    v.extra_moves = lambda p, out: None      # instance attribute shadows the hook
    try:
        return pseudo_moves(pos)
    finally:
        del v.extra_moves


def board(cells: dict, v, side: int = 0) -> Position:
    """A position with the given pieces ({'wc3': 'P', ...}; uppercase White, lowercase
    Black), `side` to move (0 White, 1 Black), hands empty."""
    pos = Position(v)
    for name, tok in cells.items():
        pt = v.by_token[tok.upper()]
        pos.board[v.geometry.by_name[name]] = pt.id * 2 + (0 if tok.isupper() else 1)
    pos.side = side
    pos.reset_state()
    return pos


def moves_from(v, pos, cell):
    c = v.geometry.by_name[cell]
    return sorted(move_text(v, m) for m in shapes(pos) if (m >> FROM_SHIFT) & CELL == c)


def targets_from(v, pos, cell):
    return sorted(t[3:6] for t in moves_from(v, pos, cell))


def _shipped_sections(file: str) -> list[str]:
    from pathlib import Path

    import variants
    return variants.shipped_names_of(str(Path(variants.SHIPPED_DIR) / file))


# the eleven Flipped-return Nichtschach games: the sections of variants/files/nichtschach.ini
NAMES = _shipped_sections("nichtschach.ini")
