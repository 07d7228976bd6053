"""Shared helpers of the hexagonal-chess tests: a position text from a placement, and the
engine's legal move texts of a position."""
from __future__ import annotations

import variants
from engine.geometry import hexagon
from engine.movegen import legal_moves
from engine.notation.move_text import move_text
from engine.notation.position_text import parse


def hex_fen(place: dict[str, str], side: str = "w", ep: str = "-") -> str:
    """The position text of Glinski's board with ``place`` (cell -> letter), ranks from 11
    down, each rank's cells by file (written here from the cell names alone)."""
    g = hexagon(6)
    rows: dict[int, list[str]] = {}
    for n in g.names:
        rows.setdefault(int(n[1:]), []).append(n)
    out = []
    for r in sorted(rows, reverse=True):
        text, run = "", 0
        for n in sorted(rows[r], key=lambda n: "abcdefghikl".index(n[0])):
            if n in place:
                text += (str(run) if run else "") + place[n]
                run = 0
            else:
                run += 1
        out.append(text + (str(run) if run else ""))
    return "/".join(out) + f" {side} - {ep} 0 1"


def engine_moves(name: str, fen: str) -> set[str]:
    v = variants.get(name)
    pos = parse(v, fen)
    return {move_text(v, m, "uci") for m in legal_moves(pos)}
