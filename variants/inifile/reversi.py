"""Reversi's drops (Fairy-Stockfish's ``enclosingDrop = reversi``, ``enclosingDropStart``,
``flipEnclosedPieces = reversi``, ``passOnStalemate``, ``stalematePieceCount``,
``materialCounting = unweighted`` and ``adjudicateFullBoard`` keys): Flipersi and Othello
(flipello).

``enclosingDrop = reversi``: a drop must enclose, on a line in one of the eight directions, a
run of enemy pieces between the dropped piece and another of the mover's; while a cell of
``enclosingDropStart`` is empty, drops go there instead, enclosing or not.
``flipEnclosedPieces = reversi``: the pieces so enclosed change sides (``Variant.after_drop``).
``passOnStalemate``: a side without a move passes, written as its piece on the first of its
cells staying there (``d4d4``); after two passes in a row the game is over.
``stalematePieceCount``: a side without a move (or the game ended by the two passes) wins
with more pieces on the board than the other, loses with fewer, draws with as many;
``adjudicateFullBoard`` with ``materialCounting = unweighted``: so does a full board.
"""
from __future__ import annotations

from typing import Any

from engine.moves import CELL, FROM_SHIFT, SPECIAL, is_drop

from .ataxx import neighbours
from .filevariant import RuleBase
from .values import KeyError_, as_bool, as_region

DIRS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))


def reversi_attrs(val: dict[str, str], attrs: dict[str, Any], files: int, ranks: int) -> bool:
    """Read the Reversi keys; True when the section has one."""
    def choice(key: str, allowed: tuple[str, ...]) -> str:
        v = val.get(key, "none").lower()
        if v not in allowed:
            raise KeyError_(key, f"one of {', '.join(allowed)}", val[key])
        return v
    enclosing = choice("enclosingDrop", ("none", "reversi", "ataxx"))
    flip = choice("flipEnclosedPieces", ("none", "reversi", "ataxx"))
    attrs["enclosing_drop"] = enclosing == "reversi"
    attrs["flip_enclosed"] = flip == "reversi"
    attrs["ataxx_drop"] = enclosing == "ataxx"      # ataxx.py
    attrs["ataxx_flip"] = flip == "ataxx"
    attrs["enclosing_start"] = as_region("enclosingDropStart", val["enclosingDropStart"], files, ranks) \
        if "enclosingDropStart" in val else frozenset()
    attrs["pass_on_stalemate"] = as_bool("passOnStalemate", val.get("passOnStalemate", "false"))
    attrs["stalemate_piece_count"] = as_bool("stalematePieceCount", val.get("stalematePieceCount", "false"))
    attrs["material_counting"] = val.get("materialCounting", "none").lower() == "unweighted"
    attrs["full_board"] = as_bool("adjudicateFullBoard", val.get("adjudicateFullBoard", "false"))
    if attrs["full_board"] and not attrs["material_counting"]:
        raise KeyError_("adjudicateFullBoard", "needs materialCounting", val["adjudicateFullBoard"])
    return any(attrs[k] for k in ("enclosing_drop", "flip_enclosed", "pass_on_stalemate",
                                  "stalemate_piece_count", "full_board", "ataxx_drop", "ataxx_flip")) \
        or bool(attrs["enclosing_start"])


class ReversiRules(RuleBase):
    """The Reversi keys (a mixin of the file variant's class, before its drop rules)."""
    enclosing_drop = False
    flip_enclosed = False
    ataxx_drop = False
    enclosing_start: frozenset = frozenset()
    pass_on_stalemate = False
    stalemate_piece_count = False
    material_counting = False
    full_board = False

    def _enclosed(self, pos, side: int, cell: int) -> list[int]:
        """The enemy cells a piece of `side` on `cell` encloses."""
        v: Any = self
        geo = v.geometry
        b = pos.board
        x, y = geo.coords[cell][:2]
        out: list[int] = []
        for dx, dy in DIRS:
            run: list[int] = []
            cx, cy = x + dx, y + dy
            while True:
                c = geo.index.get((cx, cy))
                if c is None or not b[c]:
                    run = []
                    break
                if b[c] & 1 == side:
                    break
                run.append(c)
                cx, cy = cx + dx, cy + dy
            out.extend(run)
        return out

    def _passed(self, pos) -> int:
        """How many of the last moves were passes."""
        n = 0
        for u in reversed(pos.stack):
            m = u.move
            if m & SPECIAL and (m >> FROM_SHIFT) & CELL == m & CELL:
                n += 1
            else:
                break
        return n

    def legal_moves(self, pos, pseudo):
        v: Any = self
        moves = super().legal_moves(pos, pseudo)
        if moves is None:
            from engine.movegen import royal_filter
            moves = royal_filter(pos, pseudo)
        if self._over(pos):
            return []
        side = pos.side
        start = [c for c in range(v.geometry.size) if v.geometry.coords[c][:2] in self.enclosing_start
                 and not pos.board[c]]
        if start:
            moves = [m for m in moves if not is_drop(m) or m & CELL in start]
        elif self.enclosing_drop:
            moves = [m for m in moves if not is_drop(m) or self._enclosed(pos, side, m & CELL)]
        elif self.ataxx_drop:           # Ataxx: a drop next to a piece of the mover's
            b = pos.board
            moves = [m for m in moves if not is_drop(m)
                     or any(b[c] and b[c] & 1 == side for c in neighbours(v, m & CELL))]
        if not moves and self.pass_on_stalemate and pos.occ[side] and self._passed(pos) < 2:
            geo = v.geometry
            cell = min(pos.occ[side], key=lambda c: (geo.coords[c][1], geo.coords[c][0]))
            moves = [cell | (cell << FROM_SHIFT) | SPECIAL]
        return moves

    def make_special(self, pos, m: int) -> None:
        pos.halfmove += 1            # a pass

    def after_drop(self, pos, m: int) -> None:
        super().after_drop(pos, m)
        if self.flip_enclosed:
            side = pos.board[m & CELL] & 1
            for c in self._enclosed(pos, side, m & CELL):
                code = pos.board[c]
                pos.set_cell(c, code ^ 1)

    def _count(self, pos) -> int:
        """The side to move's result by the pieces on the board: 1, 0 or -1."""
        mine, theirs = len(pos.occ[pos.side]), len(pos.occ[pos.side ^ 1])
        return (mine > theirs) - (mine < theirs)

    def _over(self, pos) -> bool:
        v: Any = self
        if self.full_board and all(pos.board[c] for c in range(v.geometry.size)):
            return True
        return self.pass_on_stalemate and self._passed(pos) >= 2

    def check_ok_repetition(self, pos, count: int):
        """With ``materialCounting = unweighted`` a repetition Fairy-Stockfish would draw is
        judged by the count (Ataxx's pieces may jump to and fro)."""
        r = super().check_ok_repetition(pos, count)
        if r is not None and r[0] == 0 and self.material_counting:
            return (self._count(pos), "piece count")
        return r

    def adjudicate(self, pos):
        r = super().adjudicate(pos)
        if r is not None:
            return r
        if self._over(pos):
            return (self._count(pos), "piece count")
        # a side left without a move (no pass): stalemate.py's stalematePieceCount decides
        return None
