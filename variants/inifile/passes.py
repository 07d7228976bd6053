"""Passing (``pass``, ``passOnStalemate`` and their ``…White``/``…Black`` forms), with
Fairy-Stockfish's meaning (docs/variant-files.md): a side may pass instead of moving, never
while in check; with ``passOnStalemate`` only when it has no other legal move.  A pass is
written as a move of the side's king to its own square (``e1e1``), or without a royal king of
its piece on the lowest square (rank first, then file), and counts for the move rule as a
move of that piece; it lets an en-passant chance lapse.  Two passes in a row end the game drawn.
"""
from __future__ import annotations

from engine.moves import CELL, FROM_SHIFT, SPECIAL, mk
from engine.variant import Result

from .filevariant import RuleBase
from .registry import names
from .values import as_bool

PASS_KEYS = names("passes")


def _both(val: dict[str, str], key: str) -> tuple[bool, bool]:
    both = as_bool(key, val.get(key, "false"))
    white, black = (as_bool(key + c, val[key + c]) if key + c in val else both
                    for c in ("White", "Black"))
    return white, black


def pass_attrs(val: dict[str, str], attrs: dict) -> None:
    """The pass keys read into the class attributes (per colour)."""
    attrs["pass_any"] = _both(val, "pass")
    attrs["pass_stalemate"] = _both(val, "passOnStalemate")
    if any(attrs["pass_any"]) or any(attrs["pass_stalemate"]):
        attrs["decided_no_moves"] = True        # no move after two passes


def pass_bases(attrs: dict) -> tuple[type, ...]:
    """The rule part of a section whose sides may pass (none otherwise)."""
    return (PassRules,) if any(attrs.get("pass_any", ())) or any(attrs.get("pass_stalemate", ())) else ()


class PassRules(RuleBase):
    """The pass move (``extra_moves``, ``make_special``) and, with ``passOnStalemate``, its
    limit to positions without another move (``legal_moves``)."""
    pass_any = (False, False)
    pass_stalemate = (False, False)

    def __init__(self) -> None:
        super().__init__()
        coords = self.geometry.coords
        self._rank_order = sorted(range(len(coords)), key=lambda c: (coords[c][1], coords[c][0]))

    def _pass_cell(self, pos) -> int:
        k = pos.king[pos.side]
        if k >= 0:
            return k
        own = pos.occ[pos.side]
        return next((c for c in self._rank_order if c in own), -1)

    def _pass(self, pos) -> int:
        c = self._pass_cell(pos)
        return mk(c, c, flags=SPECIAL) if c >= 0 else 0

    def extra_moves(self, pos, out: list) -> None:
        super().extra_moves(pos, out)
        side = pos.side
        if self.pass_any[side] or self.pass_stalemate[side]:
            m = self._pass(pos)
            if m:
                out.append(m)

    def make_special(self, pos, move: int) -> None:
        if (move >> FROM_SHIFT) & CELL != move & CELL:
            super().make_special(pos, move)
            return
        # a pass: nothing moves; the count restarts as if the passing piece had moved (a pawn
        # on the lowest square of a side without a royal king restarts it)
        if self.resets_move_clock(pos.board[move & CELL]):
            pos.halfmove = 0
        else:
            pos.halfmove += 1

    def adjudicate(self, pos) -> Result:
        r = super().adjudicate(pos)
        if r is None and len(pos.stack) >= 2 and all(_is_pass(u.move) for u in pos.stack[-2:]):
            return (0, "both passed")
        return r

    def legal_moves(self, pos, pseudo):
        moves = super().legal_moves(pos, pseudo)
        side = pos.side
        if not self.pass_stalemate[side] or self.pass_any[side]:
            return moves
        if moves is None:
            from engine.movegen import royal_filter
            moves = royal_filter(pos, pseudo)
        others = [m for m in moves if not _is_pass(m)]
        return others or moves


def _is_pass(m: int) -> bool:
    return bool(m & SPECIAL) and (m >> FROM_SHIFT) & CELL == m & CELL
