"""A setup phase by drops (Fairy-Stockfish's ``mustDrop``, ``dropOppositeColoredBishop`` and
``castlingDroppedPiece`` keys): Placement chess, whose players drop their pieces onto their
first rank before the first move.

``mustDrop``: while a side holds pieces and one of its drops is legal, it must drop; with
``mustDropType`` (read by twoboards.py) only a piece of that type is meant, and while a side
holds one it drops no other piece.
``dropOppositeColoredBishop``: a side's bishops end on squares of both colours: a bishop may
not be dropped on the colour its other bishops already fill, and no other piece may take a
square its bishops still in hand would need.  ``castlingDroppedPiece``: a king dropped on its
castling cell with a rook already on a corner of that rank, or such a rook dropped with the
king there, gives that castling right (``Variant.after_drop``).
"""
from __future__ import annotations

from typing import Any

from engine.movegen import royal_filter
from engine.moves import CELL, TYPE_MASK, TYPE_SHIFT, is_drop

from .filevariant import RuleBase
from .values import as_bool


def placement_attrs(val: dict[str, str], attrs: dict[str, Any]) -> bool:
    """Read the setup keys; True when the section has one."""
    for key, attr in (("mustDrop", "must_drop"), ("dropOppositeColoredBishop", "opposite_bishops"),
                      ("castlingDroppedPiece", "castling_dropped")):
        attrs[attr] = as_bool(key, val.get(key, "false"))
    return attrs["must_drop"] or attrs["opposite_bishops"] or attrs["castling_dropped"]


class PlacementRules(RuleBase):
    """The setup keys (a mixin of the file variant's class, before its drop rules)."""
    must_drop = False
    must_drop_type = ""                 # mustDropType (twoboards.py): only this type, '' any
    opposite_bishops = False
    castling_dropped = False

    def legal_moves(self, pos, pseudo):
        moves = super().legal_moves(pos, pseudo)
        if moves is None:
            moves = royal_filter(pos, pseudo)
        if self.opposite_bishops:
            moves = [m for m in moves if not is_drop(m) or self._bishops_ok(pos, m)]
        if self.must_drop and self.must_drop_type:
            moves = self._must_drop_type(pos, moves)
        elif self.must_drop and any(pos.hand[c] for c in range(2 + pos.side, len(pos.hand), 2)):
            drops = [m for m in moves if is_drop(m)]
            if drops:
                moves = drops
        return moves

    def _must_drop_type(self, pos, moves: list[int]) -> list[int]:
        """mustDropType: holding that type, a side drops nothing else, and must drop it when
        it can (Fairy-Stockfish: a move is then legal only if no drop of it is)."""
        v: Any = self
        pt = v.by_token[self.must_drop_type.upper()]
        if not pos.hand[pt.id * 2 + pos.side]:
            return moves
        mine = [m for m in moves if is_drop(m) and (m >> TYPE_SHIFT) & TYPE_MASK == pt.id]
        return mine or [m for m in moves if not is_drop(m)]

    def _bishops_ok(self, pos, m: int) -> bool:
        v: Any = self
        bishop = next((pt for n, letter, _ in v.pieces if n == "bishop"
                       for pt in [v.by_token[letter.upper()]]), None)
        if bishop is None:
            return True
        side, to = pos.side, m & CELL
        code = bishop.id * 2 + side
        geo = v.geometry

        def dark(c: int) -> bool:
            x, y = geo.coords[c][:2]
            return (x + y) % 2 == 0
        own = [c for c in pos.occ[side] if pos.board[c] == code]
        total = len(own) + pos.hand[code]
        if (m >> TYPE_SHIFT) & TYPE_MASK == bishop.id:
            return sum(dark(c) == dark(to) for c in own) + 1 <= (total + 1) // 2
        remaining = [c for c in range(geo.size) if not pos.board[c] and c != to
                     and v.drop_allowed(code, c)]
        cells = own + remaining
        return sum(dark(c) for c in cells) >= total // 2 \
            and sum(not dark(c) for c in cells) >= total // 2

    def after_drop(self, pos, m: int) -> None:
        super().after_drop(pos, m)
        if self.castling_dropped:
            rights = self._dropped_rights(pos, pos.board[m & CELL], m & CELL)
            if rights | pos.castle != pos.castle:
                pos.set_castle(pos.castle | rights)

    def _dropped_rights(self, pos, code: int, cell: int) -> int:
        """The castling rights a king or rook dropped on ``cell`` gives."""
        v: Any = self
        color = code & 1
        letter = v.piece_types[code >> 1].token.lower()
        b = pos.board
        rights = 0
        for r in v.castling:
            if r.color != color:
                continue
            if letter == v.castle_king and cell == r.king_from:
                other = b[r.rook_from]
                if other and other & 1 == color and v.piece_types[other >> 1].token.lower() in v.castle_rooks:
                    rights |= r.bit
            elif letter in v.castle_rooks and cell == r.rook_from:
                other = b[r.king_from]
                if other and other & 1 == color and v.piece_types[other >> 1].token.lower() == v.castle_king:
                    rights |= r.bit
        return rights
