"""Chu Shogi: the 12x12 game with the Lion, the Horned Falcon and the Soaring Eagle, whose
double moves are two-leg moves (engine/pieces.py ``legs``, written with Betza's ``a`` legs).
The rules are docs/variants/chushogi.md; this module is its data and its hooks:

* ``promotion_options`` lists a promotion for every move that starts or ends in the zone, and
  ``legal_moves`` keeps those the rules allow (entering the zone; inside it only a capture; a
  Pawn or Lance onto the last rank), then the royal rule (``royal_legal``: the King and the
  Crown Prince are royal, a lone one may not be left attacked) and the Lion-trading rules
  (``lion_trading_ok``); ``in_check`` (a lone royal piece attacked) and ``adjudicate`` (no
  royal piece left loses) end the game; repetition is shogi's (perpetual check loses);
* the rest (no drops, no hand, no move left loses) is shogi's as the core plays it.

Why a module and not a variants-file section: the game has 21 pieces and 8 further promoted
forms, 29 movement types, and promoted forms that move as pieces which promote themselves
(a Gold promotes to a Rook's moves, a Rook to a Dragon King's): the variants-file format gives
one letter to each movement type (26 at most) and refuses a promotion onto a piece that
promotes (``promotedPieceType``).

Cells: x = 0..11 is UCI file a..l (USI file 12..1), y = 0..11 is UCI rank 1..12 (USI rank
l..a).  Sente (Black in shogi's words, colour 0 here) moves toward +y.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from engine.betza import parse_betza
from engine.geometry import Geometry
from engine.movegen import attacked, royal_filter
from engine.moves import from_of, legs_victim, ptype_of, to_of
from engine.pieces import PieceType
from engine.variant import WHITE, Variant
from variants.shogi import Shogi, ShogiText

if TYPE_CHECKING:
    from engine.position import Position

SIZE = 12
ZONE = 4                    # the far four ranks

# token, name, Betza (the first player's frame: f is toward the far side)
LION = "KNADcKaKmKabK"
FALCON = "BsRbRfWfDcfWavWmfWabW"
EAGLE = "RbBfFfAcfFavFmfFabF"
BASE = (
    ("K", "King", "K"), ("G", "Gold", "WfF"), ("S", "Silver", "FfW"), ("C", "Copper", "vWfF"),
    ("F", "Ferocious Leopard", "FvW"), ("T", "Blind Tiger", "FsWbW"),
    ("E", "Drunk Elephant", "FsWfW"), ("O", "Kirin", "FD"), ("X", "Phoenix", "WA"),
    ("L", "Lance", "fR"), ("A", "Reverse Chariot", "vR"), ("M", "Side Mover", "sRvW"),
    ("V", "Vertical Mover", "vRsW"), ("R", "Rook", "R"), ("B", "Bishop", "B"),
    ("D", "Dragon King", "RF"), ("H", "Dragon Horse", "BW"), ("Q", "Queen", "Q"),
    ("N", "Lion", LION), ("P", "Pawn", "fW"), ("I", "Go-Between", "vW"),
)
# unpromoted token -> (promoted name, its Betza)
PROMOTED = {
    "P": ("Tokin", "WfF"), "G": ("Promoted Gold", "R"), "S": ("Promoted Silver", "vRsW"),
    "C": ("Promoted Copper", "sRvW"), "F": ("Promoted Leopard", "B"),
    "T": ("Flying Stag", "KvR"), "E": ("Crown Prince", "K"), "O": ("Promoted Kirin", LION),
    "X": ("Promoted Phoenix", "Q"), "L": ("White Horse", "vRfB"), "A": ("Whale", "vRbB"),
    "M": ("Free Boar", "sRB"), "V": ("Flying Ox", "vRB"), "R": ("Promoted Rook", "RF"),
    "B": ("Promoted Bishop", "BW"), "D": ("Soaring Eagle", EAGLE),
    "H": ("Horned Falcon", FALCON), "I": ("Promoted Go-Between", "FsWfW"),
}
# the pieces that move as a Lion, for the Lion-trading rules
LION_TOKENS = frozenset(("N", "+O"))
# the royal pieces: the King and the Crown Prince (a promoted Drunk Elephant), a second king
ROYAL_TOKENS = frozenset(("K", "+E"))
# what a Lion may take in passing without the right to take a protected Lion (rule 1)
LOW_PIECES = frozenset(("P", "I"))

START_SFEN = ("lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/"
              "PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1")


def chu_geometry() -> Geometry:
    coords = [(x, y) for y in range(SIZE) for x in range(SIZE)]
    uci = [f"{chr(97 + x)}{y + 1}" for x, y in coords]
    usi = [f"{SIZE - x}{chr(97 + SIZE - 1 - y)}" for x, y in coords]
    return Geometry(coords, uci, {"usi": usi})


def chu_pieces() -> list:
    pieces: list = [None]
    for tok, name, betza in BASE:
        extra = {"promotes": "+" + tok} if tok in PROMOTED else {}
        pieces.append(PieceType(name, tok, parse_betza(betza), royal=tok == "K",
                                pawn=tok == "P", extra=extra))
    for tok, (name, betza) in PROMOTED.items():
        pieces.append(PieceType(name, "+" + tok, parse_betza(betza), promoted=True))
    return pieces


class ChuText(ShogiText):
    """SFEN over USI (``position sfen``), the FEN-like text over UCI; no hands."""

    def hand_order(self):
        return []

    def sfen_hand_order(self):
        return []


class ChuShogi(Variant):
    name = "chushogi"
    template = "shogi"
    notation_class = ChuText
    move_rule_plies = None
    hands = False
    stalemate_result = "loss"       # no legal move loses, in check or not
    repetition_count = 4
    check_hook = True               # in_check below: a lone royal piece attacked
    start_fen = START_SFEN.replace(" b - 1", " w 0 1")
    start_sfen = START_SFEN

    def __init__(self):
        self.geometry = chu_geometry()
        self.piece_types = chu_pieces()
        super().__init__()
        self._lion_codes = frozenset(pt.id * 2 + c for pt in self.piece_types[1:]
                                     if pt.token in LION_TOKENS for c in (0, 1))
        self._royal_ids = frozenset(pt.id for pt in self.piece_types[1:]
                                    if pt.token in ROYAL_TOKENS)
        self._prince_id = self.by_token["+E"].id

    # ---- promotion ---------------------------------------------------------------------
    def rank_of(self, cell: int, color: int) -> int:
        """0 = own back rank .. 11 = far rank, in the colour's own frame."""
        y = self.geometry.coords[cell][1]
        return y if color == WHITE else SIZE - 1 - y

    def in_zone(self, cell: int, color: int) -> bool:
        return self.rank_of(cell, color) >= SIZE - ZONE

    def promotion_options(self, code, frm, to):
        """Every move that starts or ends in the zone may promote here; ``legal_moves`` keeps
        the promotions the rules allow (a capture decides some, which tables cannot know)."""
        pt = self.piece_types[code >> 1]
        prom = pt.extra.get("promotes")
        color = code & 1
        if not prom or not (self.in_zone(frm, color) or self.in_zone(to, color)):
            return ()
        return (0, self.by_token[prom].id)

    def promotion_allowed(self, pos: Position, m: int) -> bool:
        """A promoting move is allowed when it enters the zone from outside, when it captures
        and starts in the zone, or when a Pawn or Lance steps onto the last rank."""
        side = pos.side
        frm, to = from_of(m), to_of(m)
        if not self.in_zone(frm, side):
            return True                  # it ends in the zone (promotion_options)
        if pos.board[to]:
            return True                  # a capture within or out of the zone
        tok = self._token(pos.board[frm])
        return tok in ("P", "L") and self.rank_of(to, side) == SIZE - 1

    def _token(self, code: int) -> str:
        pt = self.piece_types[code >> 1]
        assert pt is not None
        return pt.token

    # ---- legality ----------------------------------------------------------------------
    def legal_moves(self, pos, pseudo):
        keep = [m for m in pseudo if not ptype_of(m) or self.promotion_allowed(pos, m)]
        return [m for m in self.royal_legal(pos, keep) if self.lion_trading_ok(pos, m)]

    # ---- the royal pieces --------------------------------------------------------------
    def royals(self, pos: Position, side: int) -> list[int]:
        """The cells of ``side``'s King and Crown Princes."""
        b, ids = pos.board, self._royal_ids
        return [c for c in pos.occ[side] if b[c] >> 1 in ids]

    def royal_legal(self, pos: Position, moves: list[int]) -> list[int]:
        """A side with one royal piece (King or Crown Prince) may not leave it attacked; with
        two or more none of them is guarded (the other plays on when one is taken); a move
        that promotes a Drunk Elephant makes a second royal piece."""
        side = pos.side
        royals = self.royals(pos, side)
        if len(royals) != 1:
            return moves
        prince = self._prince_id
        if pos.king[side] >= 0:
            # the lone royal is the King, the core's royal piece: its filter, but a move
            # making a Crown Prince leaves the side two royals and is not held to it
            ok = set(royal_filter(pos, [m for m in moves if ptype_of(m) != prince]))
            return [m for m in moves if m in ok or ptype_of(m) == prince]
        out = []
        r = royals[0]
        for m in moves:
            if ptype_of(m) == prince:
                out.append(m)
                continue
            cell = to_of(m) if from_of(m) == r else r
            pos.make(m)
            safe = not attacked(pos, cell, pos.side)
            pos.unmake()
            if safe:
                out.append(m)
        return out

    def in_check(self, pos: Position, side: int) -> bool:
        """Check is the lone royal piece attacked (with two, neither is in check)."""
        royals = self.royals(pos, side)
        return len(royals) == 1 and attacked(pos, royals[0], side ^ 1)

    def adjudicate(self, pos: Position):
        """A side left without King and Crown Prince (a double capture took the last two)
        has lost."""
        if not self.royals(pos, pos.side):
            return (-1, "extinction")
        return None

    # the fourth occurrence: perpetual check loses for the checking side, any other
    # repetition is a draw (docs/variants/chushogi.md, "Repetition"), as in shogi
    check_ok_repetition = Shogi.check_ok_repetition

    def lion_trading_ok(self, pos: Position, m: int) -> bool:
        """The Lion-trading rules (docs/variants/chushogi.md):

        1. a Lion may not take a Lion two cells away that is protected (attacked by the
           other side once the move is made), unless the same move also took a piece other
           than a Pawn or Go-Between in passing;
        2. right after a Lion was taken by a piece that is not a Lion, a piece that is not a
           Lion may not take a Lion (a Lion still may)."""
        b = pos.board
        lions = self._lion_codes
        frm, to = from_of(m), to_of(m)
        victim = legs_victim(m)
        takes = [c for c in (to if to != frm else -1, victim) if c >= 0 and b[c] in lions
                 and (b[c] & 1) != pos.side]
        if not takes:
            return True
        mover = b[frm]
        if mover not in lions:
            return not self._lion_taken_by_other_last(pos)
        geo = self.geometry
        fx, fy = geo.coords[frm]
        for c in takes:
            cx, cy = geo.coords[c]
            if max(abs(cx - fx), abs(cy - fy)) < 2:
                continue
            bridge = victim >= 0 and self._token(b[victim]) not in LOW_PIECES
            if bridge:
                continue
            pos.make(m)
            protected = attacked(pos, to, pos.side)
            pos.unmake()
            if protected:
                return False
        return True

    def _lion_taken_by_other_last(self, pos: Position) -> bool:
        """Did the last move take a Lion with a piece that is not a Lion?"""
        if not pos.stack:
            return False
        u = pos.stack[-1]
        m, cap, extra, code = u.move, u.cap, u.extra, u.code
        lions = self._lion_codes
        if code in lions:
            return False
        return cap in lions or (legs_victim(m) >= 0 and extra in lions)

    def validate_position(self, pos):
        from engine.notation.position_text import PositionTextError
        for color, who in ((0, "sente"), (1, "gote")):
            n = sum(1 for p in pos.board if p and self.piece_types[p >> 1].royal and p & 1 == color)
            if n > 1:
                raise PositionTextError(f"each side has at most one king ({who} kings: {n})")
            if not n and not any(p and p >> 1 == self._prince_id and p & 1 == color
                                 for p in pos.board):
                raise PositionTextError(f"each side needs a king or a crown prince ({who}: none)")


VARIANTS = {"chushogi": ChuShogi}
