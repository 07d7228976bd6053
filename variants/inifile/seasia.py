"""The keys of Fairy-Stockfish's south-east Asian games that no other key can say
(docs/variant-files.md):

* ``sittuyinRookDrop`` (sittuyin): the ``rook`` piece is dropped only on its side's first
  rank (:meth:`SittuyinRules.drop_allowed`).
* ``sittuyinPromotion`` (sittuyin): a pawn never promotes by stepping into the promotion
  region.  Instead, as a move of its own, a pawn standing in that region (any pawn, when it
  is its side's only one) becomes a piece of ``promotionPieceTypes`` (within
  ``promotionLimit``) on its own cell or on an empty cell that piece could move to, provided
  the new piece attacks no enemy piece from there (so it never gives check).  The move is
  written as a promotion (``d5d5f``, ``d5e6f``) (:meth:`SittuyinRules.extra_moves`).
* ``cambodianMoves`` (Cambodian chess, with ``gating``): the king and the ``fers`` pieces
  on their gates, that is on their first-rank cells they have not left yet (the castling
  field's file letters, ``DEde``), have a first move of their own: the king, when not in
  check, leaps as a knight onto an empty cell of the rank in front of it (``d1b2``,
  ``d1f2``); the fers steps two cells straight forward onto an empty cell (``e1e3``).  A
  rook that moves onto the file or rank of the other side's king still on its gate takes
  that king's leap away (:class:`CambodianMoves`).

Fairy-Stockfish's ``cambodian`` count (``countingRule = cambodian``) is counting.py's.
"""
from __future__ import annotations

from typing import Any

from engine.movegen import in_check
from engine.moves import CASTLE, CELL, EP, FROM_SHIFT, SPECIAL, TYPE_MASK, TYPE_SHIFT, is_drop
from engine.variant import WHITE

from .counting import CountingText
from .filevariant import RuleBase
from .gating import GatingText
from .values import KeyError_, as_bool, in_region


def seasia_attrs(val: dict[str, str], pieces: tuple[tuple[str, str, str], ...],
                 attrs: dict[str, Any]) -> tuple[type, ...]:
    """Set the class attributes of these keys; the rule parts they need."""
    letter_of = {name: letter for name, letter, _ in pieces}
    rook_drop = as_bool("sittuyinRookDrop", val.get("sittuyinRookDrop", "false"))
    promotion = as_bool("sittuyinPromotion", val.get("sittuyinPromotion", "false"))
    cambodian = as_bool("cambodianMoves", val.get("cambodianMoves", "false"))
    if rook_drop and not attrs.get("hands"):
        raise KeyError_("sittuyinRookDrop", "needs pieceDrops", "true")
    if cambodian and not as_bool("gating", val.get("gating", "false")):
        raise KeyError_("cambodianMoves", "needs gating (the first moves are the gates')", "true")
    attrs["rook_letter"] = letter_of.get("rook", "") if rook_drop else ""
    attrs["sittuyin_promotion"] = promotion
    if promotion:
        # the promotion region is where a pawn may promote by a move of its own, not by a step
        attrs["sittuyin_zone"] = attrs["promo_region"]
        attrs["promo_region"] = (frozenset(), frozenset())
    attrs["cambodian_king"] = letter_of.get("king", "") if cambodian else ""
    attrs["cambodian_fers"] = letter_of.get("fers", "") if cambodian else ""
    attrs["cambodian_rook"] = letter_of.get("rook", "") if cambodian else ""
    return ((SittuyinRules,) if rook_drop or promotion else ()) \
        + ((CambodianMoves,) if cambodian else ())


class CambodianText(CountingText, GatingText):
    """The position text of a game with gates and a count (Cambodian chess): the gates in
    the castling field, the count in the en-passant and half-move fields."""


class SittuyinRules(RuleBase):
    """sittuyinRookDrop and sittuyinPromotion."""
    rook_letter = ""
    sittuyin_promotion = False
    sittuyin_zone: tuple[frozenset, frozenset] = (frozenset(), frozenset())

    def drop_allowed(self, code: int, cell: int) -> bool:
        if self.rook_letter:
            pt = self.piece_types[code >> 1]
            if pt is not None and pt.token.lower() == self.rook_letter:
                home = 0 if code & 1 == WHITE else self.ranks - 1
                if self.geometry.coords[cell][1] != home:
                    return False
        return super().drop_allowed(code, cell)

    def extra_moves(self, pos, out: list) -> None:
        super().extra_moves(pos, out)
        if not self.sittuyin_promotion:
            return
        v: Any = self
        side = pos.side
        b = pos.board
        coords = self.geometry.coords
        pawns = [c for c in pos.occ[side] if self.piece_types[b[c] >> 1].token.lower() == v.fsf_pawn]
        if len(pawns) > 1:
            zone = self.sittuyin_zone[side]
            pawns = [c for c in pawns if in_region(coords[c], zone)]
        if not pawns:
            return
        counts: dict[str, int] = {}
        for c in pos.occ[side]:
            letter = self.piece_types[b[c] >> 1].token.lower().rstrip("~")
            counts[letter] = counts.get(letter, 0) + 1
        for letter in sorted(v.promo_letters[side]):
            limit = v.limits.get(letter)
            if limit is not None and counts.get(letter, 0) >= limit:
                continue
            pt = self.by_token[letter.upper()]
            code = pt.id * 2 + side
            tab = v.tables[code]
            for frm in pawns:
                for to in (frm, *(t for t in tab.leaps[frm] + tab.mleaps[frm] if not b[t]),
                           *(t for ray in tab.rides[frm] + tab.mrides[frm] for t in self._open(b, ray))):
                    if not self._attacks_enemy(pos, code, frm, to):
                        out.append((frm << FROM_SHIFT) | to | (pt.id << TYPE_SHIFT) | SPECIAL)

    def make_special(self, pos, m: int):
        frm, to = (m >> FROM_SHIFT) & CELL, m & CELL
        if not self.sittuyin_promotion or m & (CASTLE | EP) or is_drop(m) or not (m >> TYPE_SHIFT) & TYPE_MASK:
            return super().make_special(pos, m)
        pos.clear(frm)                  # the pawn becomes the piece, on its cell or beside it
        pos.put(to, ((m >> TYPE_SHIFT) & TYPE_MASK) * 2 + pos.side)
        pos.halfmove = 0
        return None

    @staticmethod
    def _open(board: list[int], ray) -> list[int]:
        """The empty cells of a ray up to its first piece."""
        out = []
        for t in ray:
            if board[t]:
                break
            out.append(t)
        return out

    def _attacks_enemy(self, pos, code: int, frm: int, to: int) -> bool:
        """Would the piece ``code`` on ``to`` (the pawn gone from ``frm``) attack an enemy
        piece by its leaps and rides?"""
        v: Any = self
        tab = v.tables[code]
        b = pos.board
        enemy = code & 1 ^ 1
        for t in tab.leaps[to] + tab.cleaps[to]:
            if b[t] and b[t] & 1 == enemy and t != frm:
                return True
        for ray in tab.caprides[to]:
            for t in ray:
                if t != frm and b[t]:
                    if b[t] & 1 == enemy:
                        return True
                    break
        return False


class CambodianMoves(RuleBase):
    """cambodianMoves: the first moves of the king and the fers from their gates."""
    notation_class = CambodianText      # before the count's and the gates' own (asia.py)
    cambodian_king = ""
    cambodian_fers = ""
    cambodian_rook = ""
    after_move_cells = False        # after_move changes castling rights only

    def extra_moves(self, pos, out: list) -> None:
        super().extra_moves(pos, out)
        v: Any = self
        side = pos.side
        rights = pos.castle
        gates = v.gate_bit
        b = pos.board
        geo = self.geometry
        ahead = 1 if side == WHITE else -1
        king = pos.king[side]
        if king >= 0 and rights & gates.get(king, 0) and not in_check(pos):
            x, y = geo.coords[king][:2]
            for dx in (-2, 2):
                t = geo.index.get((x + dx, y + ahead) + geo.coords[king][2:])
                if t is not None and not b[t]:
                    out.append((king << FROM_SHIFT) | t)
        if not self.cambodian_fers:
            return
        fers = self.by_token[self.cambodian_fers.upper()].id * 2 + side
        for c in pos.occ[side]:
            if b[c] == fers and rights & gates.get(c, 0):
                x, y = geo.coords[c][:2]
                t = geo.index.get((x, y + 2 * ahead) + geo.coords[c][2:])
                if t is not None and not b[t]:
                    out.append((c << FROM_SHIFT) | t)

    def after_move(self, pos, move: int) -> None:
        super().after_move(pos, move)
        if not self.cambodian_rook or is_drop(move):
            return
        to = move & CELL
        code = pos.board[to]
        if not code or self.piece_types[code >> 1].token.lower() != self.cambodian_rook:
            return
        them = (code & 1) ^ 1
        king = pos.king[them]
        v: Any = self
        bit = v.gate_bit.get(king, 0) if king >= 0 else 0
        if not pos.castle & bit:
            return
        geo = self.geometry
        (kx, ky), (tx, ty) = geo.coords[king][:2], geo.coords[to][:2]
        if kx == tx or ky == ty:        # a rook's line, on the empty board
            pos.set_castle(pos.castle & ~bit)

