"""Castling as a rule of the game (``oppositeCastling``, ``castlingWins``), with Fairy-Stockfish's
meaning (docs/variant-files.md):

* ``oppositeCastling``: a side that castles takes from the other side its right to castle on
  the same wing, so the two kings end on opposite wings.
* ``castlingWins`` (castling rights, as ``KQkq``): a castling move of a listed right wins for
  the side that makes it, and a side that had listed rights and has lost them all has lost.
"""
from __future__ import annotations

from engine.moves import CASTLE, CELL, FROM_SHIFT
from engine.variant import WHITE, Result

from .filevariant import RuleBase
from .registry import names
from .values import KeyError_, as_bool

CASTLE_KEYS = names("castle")


def castle_attrs(val: dict[str, str], attrs: dict) -> None:
    """The castling rule keys read into the class attributes."""
    attrs["opposite_castling"] = as_bool("oppositeCastling", val.get("oppositeCastling", "false"))
    wins = val.get("castlingWins", "-").strip()
    if wins in ("", "-"):
        wins = ""
    for ch in wins:
        if ch not in "KQkq":
            raise KeyError_("castlingWins", "castling rights are K, Q, k and q", ch)
    attrs["castling_wins"] = frozenset(wins)
    if wins:
        attrs["decided_no_moves"] = True


def castle_bases(attrs: dict) -> tuple[type, ...]:
    """The rule part of a section with these keys (none otherwise)."""
    return (CastleRules,) if attrs.get("opposite_castling") or attrs.get("castling_wins") else ()


class CastleRules(RuleBase):
    """``after_move`` (opposite castling) and ``adjudicate`` (castling wins)."""
    opposite_castling = False
    castling_wins: frozenset[str] = frozenset()
    after_move_cells = False        # after_move changes castling rights only

    def __init__(self) -> None:
        super().__init__()
        geo = self.geometry
        # per castling rule: its wing (+1 toward the higher files, -1 the lower)
        self._wing = {(r.king_from, r.king_to): (1 if geo.coords[r.king_to][0] > geo.coords[r.king_from][0]
                                                 else -1, r) for r in self.castling}
        # per colour: the rights bits of its listed winning castlings
        self._win_bits = [0, 0]
        for r in self.castling:
            letter = "KQ"[self._wing[(r.king_from, r.king_to)][0] < 0]
            if (letter if r.color == WHITE else letter.lower()) in self.castling_wins:
                self._win_bits[r.color] |= r.bit

    def _castled(self, pos):
        """The castling rule of the last move, if it castled."""
        if not pos.stack:
            return None
        m = pos.stack[-1].move
        if not m & CASTLE:
            return None
        return self._wing.get(((m >> FROM_SHIFT) & CELL, m & CELL))

    def after_move(self, pos, move: int) -> None:
        super().after_move(pos, move)
        if not self.opposite_castling or not move & CASTLE:
            return
        wing, rule = self._wing[((move >> FROM_SHIFT) & CELL, move & CELL)]
        lose = 0
        for r in self.castling:
            if r.color != rule.color and self._wing[(r.king_from, r.king_to)][0] == wing:
                lose |= r.bit
        if pos.castle & lose:
            pos.set_castle(pos.castle & ~lose)

    def adjudicate(self, pos) -> Result:
        r = super().adjudicate(pos)
        if r is not None or not self.castling_wins:
            return r
        last = self._castled(pos)
        if last is not None and last[1].bit & self._win_bits[last[1].color]:
            return (-1, "castling")
        for col in (pos.side ^ 1, pos.side):
            bits = self._win_bits[col]
            if bits and not pos.castle & bits:
                return (-1 if col == pos.side else 1, "castling rights lost")
        return None
