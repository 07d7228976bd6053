"""Chess960 castling (Fairy-Stockfish's ``chess960`` key): the king and its rooks may start
on any files of the castling rank, the king between them.

Castling puts the king and the rook where they go in chess (the king on the
``castlingKingsideFile`` or ``castlingQueensideFile``, the rook beside it on the inner side),
wherever they stood: every cell the two pass over or land on must be empty but for the two
themselves, and the king's path, its own cell and its destination included, must not be
attacked.  The move is written as the king taking its own rook (``e1h1``), as UCI GUIs send it
when ``UCI_Chess960`` is on, and the rights in the position text as the rooks' files
(Shredder-FEN: ``HAha``); ``KQkq`` (X-FEN) is read as the outermost castling rook on that side
of the king.

The rights are a bit per colour and king file and a bit per colour and rook file (above the
eighth bit: ``engine/zobrist.py`` keys them per bit), one rule per king file and rook file, so
a move from or to the king's cell ends both its castlings and one from or to a rook's cell
that rook's alone.
"""
from __future__ import annotations

from typing import Any

from engine.notation.position_text import PositionTextError
from engine.variant import BLACK, WHITE

from .moverules import CastlingText
from .filevariant import RuleBase
from .values import as_bool

FIRST_BIT = 8           # the rights' bits below stay the plain rules' (engine/zobrist.py)


def chess960_attrs(val: dict[str, str], attrs: dict[str, Any]) -> bool:
    """Read ``chess960``; True when the section plays Chess960 castling."""
    on = as_bool("chess960", val.get("chess960", "false"))
    attrs["chess960"] = on
    return on


class Chess960Text(CastlingText):
    """Castling rights as Shredder-FEN rook files; ``KQkq`` read as the outermost rooks."""

    def parse_castling(self, text: str, board: list[int]) -> int:
        v: Any = self.variant
        if text == "-" or not v.castling:
            return 0
        chosen: dict[tuple[int, bool], Any] = {}
        for ch in text:
            low = ch.lower()
            if low not in "kq" and not ("a" <= low < chr(ord("a") + v.files)):
                raise PositionTextError(f"bad castling field ({text})")
            color = WHITE if ch.isupper() else BLACK
            cells = self._rank_cells(color)
            kings = [f for f, c in enumerate(cells) if c >= 0 and board[c] and board[c] & 1 == color
                     and v.piece_types[board[c] >> 1].token.lower() == v.castle_king]
            if not kings:
                continue
            kf = kings[0]
            rooks = [f for f, c in enumerate(cells) if f != kf and c >= 0 and board[c]
                     and board[c] & 1 == color and self.castles(board[cells[kf]], board[c])]
            if low == "k":
                rf = max((f for f in rooks if f > kf), default=-1)
            elif low == "q":
                rf = min((f for f in rooks if f < kf), default=-1)
            else:
                rf = ord(low) - ord("a")
                rf = rf if rf in rooks else -1
            if rf >= 0:
                chosen[(color, rf > kf)] = v.rule960[(color, kf, rf)]
        rights = 0
        for rule in chosen.values():
            rights |= rule.bit
        return rights

    def _rank_cells(self, color: int) -> list[int]:
        """The cells of a colour's castling rank by file (-1: none)."""
        v: Any = self.variant
        rank = v.castle_rank if color == WHITE else v.ranks - 1 - v.castle_rank
        return [v.geometry.index.get((f, rank) + v.home_level, -1) for f in range(v.files)]

    def format_castling(self, rights: int) -> str:
        s = "".join(r.char for r in self.variant.castling if rights & r.bit == r.bit)
        return s or "-"


class Chess960Rules(RuleBase):
    """The castling rules of every king file and rook file (a mixin of ``FileRules``)."""
    notation_class = Chess960Text
    rule960: dict[tuple[int, int, int], Any]

    def make_castling(self) -> tuple:
        v: Any = self
        if not v.castle_on or not v.castle_king:
            return ()
        _, ks, qs = v.castle_files
        royal = v.castle_king == v.royal_letter
        files = v.files
        rules = []
        self.rule960 = {}
        for color, rank in ((WHITE, v.castle_rank), (BLACK, v.ranks - 1 - v.castle_rank)):
            def name(f: int, r: int = rank) -> str:
                return v.geometry.name(v.geometry.index[(f, r) + v.home_level])
            base = FIRST_BIT + color * 2 * files
            for kf in range(files):
                for rf in list(range(kf + 1, files)) + list(range(kf - 1, -1, -1)):
                    kt = ks if rf > kf else qs
                    rt = kt - 1 if rf > kf else kt + 1
                    letter = chr(ord("a") + rf)
                    rule = v.castling_rule(color, name(kf), name(kt), name(rf), name(rt), 0,
                                           letter.upper() if color == WHITE else letter)
                    rule.king_bit = 1 << (base + kf)
                    rule.rook_bit = 1 << (base + files + rf)
                    rule.bit = rule.king_bit | rule.rook_bit
                    rule.move_to = v.geometry.by_name[name(rf)]
                    if not royal:
                        rule.safe = ()
                    rules.append(rule)
                    self.rule960[(color, kf, rf)] = rule
        return tuple(rules)
