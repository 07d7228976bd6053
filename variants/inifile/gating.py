"""Gating (Fairy-Stockfish's ``gating`` and ``seirawanGating`` keys): Seirawan chess's
pieces in hand enter the board behind a piece leaving its first-rank cell for the first time.

``gating``: a side keeps a gate on each cell of its castling rank whose piece has not moved
yet; a move from or to the cell closes it.  The gates are written with the castling rights,
Fairy-Stockfish's way: ``K`` and ``Q`` stand for the castling and for the gates of the king's
and that rook's cells, any other open gate is its file's letter (``KQBCDFGkqbcdfg``).

``seirawanGating``: a move from an open gate may put a piece of the mover's hand on the
cell it leaves, written after the move as a promotion is (``b1c3h``); castling may put it on
the king's cell (``e1g1h``) or on the rook's, then written from the rook's cell to the
king's (``h1e1h``).  The hand is in the position text (``[HEhe]``); without ``pieceDrops``
its pieces enter only so.  Gating moves are the variant's own (``make_special``), the other
moves of a gate's piece stay plain moves.
"""
from __future__ import annotations

from typing import Any

from engine.moves import CASTLE, CELL, FROM_SHIFT, SPECIAL, TYPE_MASK, TYPE_SHIFT, is_drop
from engine.notation.position_text import PositionTextError
from engine.variant import BLACK, WHITE

from .moverules import CastlingText
from .filevariant import RuleBase
from .values import as_bool

GATE_BIT = 8            # the first gate bit (the castling rights keep the bits below)


def gating_attrs(val: dict[str, str], attrs: dict[str, Any]) -> bool:
    """Read ``gating`` and ``seirawanGating``; True when the section has gates.  A section
    with Seirawan gating has a hand even without ``pieceDrops``."""
    gating = as_bool("gating", val.get("gating", "false"))
    seirawan = as_bool("seirawanGating", val.get("seirawanGating", "false"))
    if seirawan and not gating:
        from .values import KeyError_
        raise KeyError_("seirawanGating", "needs gating", val["seirawanGating"])
    attrs["seirawan_gating"] = seirawan
    attrs["piece_drops"] = attrs["hands"]
    if seirawan:
        attrs["hands"] = True
    return gating


class GatingText(CastlingText):
    """The castling field with the gates: ``K``/``Q`` (castling, and the gates of its king and
    rook), then the other open gates' files, White's then Black's."""

    def parse_castling(self, text: str, board: list[int]) -> int:
        v: Any = self.variant
        if text == "-":
            return 0
        rights = 0
        for ch in text:
            color = WHITE if ch.isupper() else BLACK
            cells = v.gate_cells[color]
            rules = [r for r in v.castling if r.char == ch]
            if rules:
                for r in rules:
                    king, rook = board[r.king_from], board[r.rook_from]
                    if king and rook and king & 1 == color and rook & 1 == color \
                            and self.castles(king, rook):
                        rights |= r.bit | v.gate_bit[r.king_from] | v.gate_bit[r.rook_from]
                continue
            f = ord(ch.lower()) - ord("a")
            if not 0 <= f < len(cells):
                raise PositionTextError(f"bad castling field ({text})")
            c = cells[f]
            if c >= 0 and board[c] and board[c] & 1 == color:
                rights |= v.gate_bit[c]
        return rights

    def format_castling(self, rights: int) -> str:
        v: Any = self.variant
        out = []
        for color in (WHITE, BLACK):
            implied = set()
            for r in v.castling:
                if r.color == color and rights & r.bit:
                    out.append(r.char)
                    implied |= {r.king_from, r.rook_from}
            for f, c in enumerate(v.gate_cells[color]):
                if c >= 0 and c not in implied and rights & v.gate_bit[c]:
                    out.append(chr(ord("A" if color == WHITE else "a") + f))
        return "".join(out) or "-"


class GatingRules(RuleBase):
    """Gates kept with the castling rights; Seirawan gating moves (a mixin of the file
    variant's class, before its drop rules)."""
    notation_class = GatingText
    seirawan_gating = False
    piece_drops = True
    gate_cells: tuple[list[int], list[int]]
    gate_bit: dict[int, int]

    def __init__(self) -> None:
        super().__init__()
        v: Any = self
        geo = v.geometry
        self.gate_bit = {}
        cells: tuple[list[int], list[int]] = ([], [])
        for color in (WHITE, BLACK):
            rank = v.castle_rank if color == WHITE else v.ranks - 1 - v.castle_rank
            for f in range(v.files):
                c = geo.index.get((f, rank) + v.home_level, -1)
                cells[color].append(c)
                if c >= 0:
                    self.gate_bit[c] = 1 << (GATE_BIT + color * v.files + f)
        self.gate_cells = cells
        self.extra_rights = tuple(self.gate_bit.items())
        # castling by (rook's cell, king's cell): the move that gates on the rook's cell
        self.rook_gated = {(r.rook_from, r.king_from): r for r in v.castling}

    def drop_allowed(self, code: int, cell: int) -> bool:
        return self.piece_drops and super().drop_allowed(code, cell)

    def extra_moves(self, pos, out: list) -> None:
        super().extra_moves(pos, out)
        if not self.seirawan_gating:
            return
        side = pos.side
        hand = [t for t in range(1, len(pos.variant.piece_types))
                if pos.hand[t * 2 + side] and pos.variant.piece_types[t] is not None]
        rights = pos.castle
        if not hand or rights < 1 << GATE_BIT:
            return
        bits = self.gate_bit
        v: Any = self
        for m in list(out):
            frm = (m >> FROM_SHIFT) & CELL
            if is_drop(m) or m & SPECIAL or not rights & bits.get(frm, 0):
                continue
            for t in self._gated(hand, side, frm):
                out.append(m | (t << TYPE_SHIFT) | SPECIAL)
            if m & CASTLE:          # gating on the rook's cell: written rook's cell to king's
                rule = v.position_rules.cbymove[(frm, m & CELL)]
                if rights & bits[rule.rook_from]:
                    for t in self._gated(hand, side, rule.rook_from):
                        out.append(rule.king_from | (rule.rook_from << FROM_SHIFT) | (t << TYPE_SHIFT)
                                   | SPECIAL | CASTLE)

    def _gated(self, hand: list[int], side: int, cell: int) -> list[int]:
        """The types of the hand that may enter on this cell: where they could be dropped
        (a pawn not on its first rank), whether or not the game has drops."""
        allowed = super().drop_allowed
        return [t for t in hand if allowed(t * 2 + side, cell)]

    def make_special(self, pos, m: int) -> None:
        v: Any = self
        side = pos.side
        frm, to = (m >> FROM_SHIFT) & CELL, m & CELL
        gated = ((m >> TYPE_SHIFT) & TYPE_MASK) * 2 + side
        if m & CASTLE:
            rook_gate = (frm, to) in self.rook_gated and pos.board[frm] \
                and pos.variant.piece_types[pos.board[frm] >> 1].token.lower() != v.castle_king
            rule = self.rook_gated[(frm, to)] if rook_gate else v.position_rules.cbymove[(frm, to)]
            king = pos.clear(rule.king_from)
            rook = pos.clear(rule.rook_from)
            pos.put(rule.king_to, king)
            pos.put(rule.rook_to, rook)
            gate = rule.rook_from if rook_gate else rule.king_from
            pos.halfmove += 1
        else:
            code = pos.clear(frm)
            cap = pos.clear(to)
            if cap:
                ht = v.hand_type(cap)
                if ht:
                    pos.add_hand(ht * 2 + side, 1)
            pos.put(to, code)
            pos.halfmove = 0 if cap else pos.halfmove + 1
            gate = frm
        pos.put(gate, gated)
        pos.add_hand(gated, -1)
        if not v.captures_to_hand and not any(pos.hand[c] for c in range(2 + side, len(pos.hand), 2)):
            # an empty hand that captures cannot fill again: the side's gates close
            mask = 0
            for c in self.gate_cells[side]:
                if c >= 0:
                    mask |= self.gate_bit[c]
            pos.set_castle(pos.castle & ~mask)
