"""The counting and makpong keys of Fairy-Stockfish's makruk family (docs/variant-files.md):

* ``countingRule`` (``makruk``, ``cambodian`` or ``asean``; ``none`` by default): the honour
  counts of makruk, Cambodian and ASEAN chess (Cambodian: makruk's limits one move shorter,
  and the board's honour counted whenever the counted side has three pieces or fewer,
  pawns or not).  Once no pawn is left a count starts: a limit in plies that
  depends on the pieces the stronger side has (the board's honour, 64 moves, while the
  weaker side has more than its royal in makruk), and a count of plies played, started at
  twice the number of pieces on the board when a lone royal is counted; the count goes on
  each ply and starts again when the lone royal's side loses a piece or a pawn promotes.
  When the count passes the limit the game is drawn.  While a count runs, the position
  text writes the limit in the en-passant field and the count in the half-move field, as
  Fairy-Stockfish does, and reads them back.
* ``makpongRule``: a royal piece in check may only move to take the one piece that checks it.

The count is worked out from the game itself (the moves made since the position was read and
the limit that text gave, kept in the position's ``extra``): a count only starts once the
pawns are gone, and they never come back, so every position with a pawn is answered at once.
"""
from __future__ import annotations

from typing import Any

from engine.movegen import attacked, in_check, royal_filter
from engine.moves import CELL, EP, FROM_SHIFT, SPECIAL, TYPE_MASK, TYPE_SHIFT, is_drop
from engine.notation.errors import PositionTextError
from engine.notation.formats import TextFormat
from engine.variant import BLACK, WHITE

from .filevariant import RuleBase
from .values import KeyError_, as_bool

RULES = ("none", "makruk", "cambodian", "asean")
# the piece keys whose counts set a limit
KINDS = ("pawn", "rook", "silver", "knight", "fers")


def counting_attrs(val: dict[str, str], pieces: tuple[tuple[str, str, str], ...],
                   attrs: dict[str, Any]) -> tuple[type, ...]:
    """Set the class attributes of ``countingRule`` and ``makpongRule``; the rule parts they need."""
    rule = val.get("countingRule", "none")
    if rule not in RULES:
        raise KeyError_("countingRule", "not " + ", ".join(RULES), rule)
    attrs["counting_rule"] = "" if rule == "none" else rule
    kinds = {name: letter for name, letter, _ in pieces if name in KINDS}
    attrs["counting_kinds"] = kinds
    makpong = as_bool("makpongRule", val.get("makpongRule", "false"))
    return ((Makpong,) if makpong else ()) + ((Counting,) if rule != "none" else ())


class Makpong(RuleBase):
    """makpongRule: in check, the royal piece moves only to take the one checker."""

    def legal_moves(self, pos, pseudo):
        r = super().legal_moves(pos, pseudo)
        moves = r if r is not None else royal_filter(pos, pseudo)
        side = pos.side
        k = pos.king[side]
        if k < 0 or not in_check(pos):
            return moves
        b = pos.board
        out = []
        for m in moves:
            frm, to = (m >> FROM_SHIFT) & CELL, m & CELL
            if frm != k:                    # (a drop never lands on the king)
                out.append(m)
                continue
            code = b[to]
            if not code or code & 1 == side:
                continue                    # the royal steps away: not allowed
            pos.clear(to)                   # the piece taken was the only checker?
            alone = not attacked(pos, k, side ^ 1)
            pos.put(to, code)
            if alone:
                out.append(m)
        return out


class CountingText(TextFormat):
    """The count's limit in the en-passant field and its plies in the half-move field."""

    def ep_text(self, pos):
        limit, _ = self.variant.count_state(pos)
        return str(limit) if limit else super().ep_text(pos)

    def halfmove_text(self, pos):
        limit, ply = self.variant.count_state(pos)
        return str(ply) if limit else super().halfmove_text(pos)

    def parse_ep(self, pos, field):
        if field.isdigit():
            if int(field) <= 0:
                raise PositionTextError(f"bad counting limit ({field})")
            pos.extra = int(field)
            return -1, -1
        return super().parse_ep(pos, field)


class Counting(RuleBase):
    """countingRule: the honour counts of makruk and ASEAN chess."""
    notation_class = CountingText
    counting_rule = "makruk"
    counting_kinds: dict[str, str] = {}

    def result(self, pos, legal):
        r = super().result(pos, legal)
        if r is not None:
            return r
        limit, ply = self.count_state(pos)
        if limit and ply > limit:
            return (0, "counting rule")
        return None

    def _count_codes(self) -> dict[int, str]:
        """Piece code -> the kind it counts as (KINDS), for the codes that count."""
        c = self.__dict__.get("_count_codes_cache")
        if c is None:
            by_letter = {letter: kind for kind, letter in self.counting_kinds.items()}
            c = {}
            for pt in self.piece_types:
                if pt is not None and pt.token.lower() in by_letter:
                    for color in (WHITE, BLACK):
                        c[pt.id * 2 + color] = by_letter[pt.token.lower()]
            self.__dict__["_count_codes_cache"] = c
        return c

    def _limit(self, counts: dict[tuple[int, str], int], total: list[int], side: int) -> int:
        """Fairy-Stockfish's counting limit in moves when ``side`` is counted (0: no count)."""
        pawns = counts.get((WHITE, "pawn"), 0) + counts.get((BLACK, "pawn"), 0)
        opp = side ^ 1

        def n(kind: str) -> int:
            return counts.get((opp, kind), 0)
        if self.counting_rule == "cambodian":
            # the board's honour while the counted side has three pieces or fewer, pawns or
            # not; the pieces' honour one move shorter than makruk's
            if total[side] > 3 or total[opp] == 1:
                return 0
            if total[side] > 1:
                return 63
            if pawns:
                return 0
            return self._pieces_honour(n) - 1
        if self.counting_rule == "makruk":
            if pawns or total[opp] == 1:
                return 0
            if total[side] > 1:
                return 64                   # the board's honour
            return self._pieces_honour(n)
        if pawns or total[side] > 1:        # asean
            return 0
        if n("rook"):
            return 16
        if n("silver"):
            return 44
        if n("knight"):
            return 64
        return 0

    @staticmethod
    def _pieces_honour(n) -> int:
        """Makruk's limit in moves against a lone royal, by the other side's pieces."""
        if n("rook") > 1:
            return 8
        if n("rook") == 1:
            return 16
        if n("silver") > 1:
            return 22
        if n("knight") > 1:
            return 32
        if n("silver") == 1:
            return 44
        return 64

    def count_state(self, pos) -> tuple[int, int]:
        """(limit, plies counted) of the running count, in plies; (0, 0) when none runs."""
        given = pos.extra if isinstance(pos.extra, int) else 0
        kinds = self._count_codes()
        b = pos.board
        total = [len(pos.occ[WHITE]), len(pos.occ[BLACK])]
        counts: dict[tuple[int, str], int] = {}
        for cell in pos.occ[WHITE] | pos.occ[BLACK]:
            kind = kinds.get(b[cell])
            if kind is not None:
                key = (b[cell] & 1, kind)
                counts[key] = counts.get(key, 0) + 1
        if self.counting_rule == "cambodian":
            if not given and min(total) > 3:
                return 0, 0                 # a side's pieces only ever fall: no count yet
        elif not given and (counts.get((WHITE, "pawn"), 0) or counts.get((BLACK, "pawn"), 0)):
            return 0, 0                     # no count starts while a pawn is left
        # walk back to the position the text gave: the pieces taken and promoted since
        steps = []
        for u in reversed(pos.stack):
            m, cap, extra, code = u.move, u.cap, u.extra, u.code
            if is_drop(m) or m & SPECIAL:
                steps.append((code & 1, 0, 0, 0))
                continue
            taken = extra if m & EP else cap
            promo = (m >> TYPE_SHIFT) & TYPE_MASK
            newcode = promo * 2 + (code & 1) if promo else code
            steps.append((code & 1, taken, code, newcode))
            self._add(counts, total, kinds, newcode, -1)
            self._add(counts, total, kinds, code, +1)
            if taken:
                self._add(counts, total, kinds, taken, +1)
        limit = given
        ply = (pos.stack[0].halfmove if pos.stack else pos.halfmove) if given else 0
        asean = self.counting_rule == "asean"
        for mover, taken, code, newcode in reversed(steps):
            if limit:
                ply += 1
            if code:
                self._add(counts, total, kinds, code, -1)
                self._add(counts, total, kinds, newcode, +1)
            if taken:
                self._add(counts, total, kinds, taken, -1)
            stm = mover ^ 1
            if not asean and taken and kinds.get(taken) == "pawn" and total[mover] == 1:
                n = self._limit(counts, total, mover)
                if n:                       # the lone royal took the last pawn
                    limit, ply = 2 * n, 2 * (total[WHITE] + total[BLACK]) - 1
            if not limit or ((taken or code != newcode) and total[stm] == 1):
                n = self._limit(counts, total, stm)
                if n:
                    limit = 2 * n
                    ply = 0 if asean or total[stm] > 1 else 2 * (total[WHITE] + total[BLACK])
        return limit, ply

    @staticmethod
    def _add(counts: dict[tuple[int, str], int], total: list[int], kinds: dict[int, str],
             code: int, d: int) -> None:
        total[code & 1] += d
        kind = kinds.get(code)
        if kind is not None:
            key = (code & 1, kind)
            counts[key] = counts.get(key, 0) + d
