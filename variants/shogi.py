"""Shogi (the baseline for hands, drops and shogi-style promotion), and the shogi board and
piece set that Notake Shogi reuses.

Cells: x = 0..8 is UCI file a..i (USI file 9..1), y = 0..8 is UCI rank 1..9 (USI rank i..a).
Sente is the first player (colour 0) and moves toward +y.
"""
from __future__ import annotations

from engine.geometry import Geometry
from engine.movegen import in_check, legal_moves
from engine.moves import ptype_of, to_of
from engine.notation.formats import TextFormat
from engine.pieces import DIAG, KING, ORTH, PieceType, leap, ride
from engine.variant import WHITE, Variant

GOLD = ((0, 1), (1, 1), (-1, 1), (1, 0), (-1, 0), (0, -1))
SILVER = ((0, 1), (1, 1), (-1, 1), (1, -1), (-1, -1))


def shogi_geometry() -> Geometry:
    coords = [(x, y) for y in range(9) for x in range(9)]
    uci = [f"{chr(97 + x)}{y + 1}" for x, y in coords]
    usi = [f"{9 - x}{chr(97 + 8 - y)}" for x, y in coords]
    return Geometry(coords, uci, {"usi": usi})


# Centipawns.  The mobility-derived values (engine/evaluate.py) suit games where a captured
# piece is gone; in shogi every piece comes back as a drop, which lifts the short-range pieces
# most: from mobility alone a Lance or Knight would be worth a Pawn and a Gold less than a
# third of a Rook.  These follow the proportions shogi programs commonly use, with the
# promoted minor pieces a little under a Gold (they return to the hand unpromoted), and were
# measured by self-play against the mobility values (bench/results/climb.md).
VALUES = {"P": 100, "L": 270, "N": 300, "S": 430, "G": 500, "B": 650, "R": 750,
          "+P": 480, "+L": 480, "+N": 480, "+S": 480, "+B": 900, "+R": 1050}


def shogi_pieces() -> list:
    gold = (leap(GOLD),)
    pieces = [
        None,
        PieceType("Pawn", "P", (leap(((0, 1),)),), pawn=True, extra={"promotes": "+P"}),
        PieceType("Lance", "L", (ride(((0, 1),)),), extra={"promotes": "+L"}),
        PieceType("Knight", "N", (leap(((1, 2), (-1, 2))),), extra={"promotes": "+N"}),
        PieceType("Silver", "S", (leap(SILVER),), extra={"promotes": "+S"}),
        PieceType("Gold", "G", gold),
        PieceType("Bishop", "B", (ride(DIAG),), extra={"promotes": "+B"}),
        PieceType("Rook", "R", (ride(ORTH),), extra={"promotes": "+R"}),
        PieceType("King", "K", (leap(KING),), royal=True),
        PieceType("Tokin", "+P", gold, promoted=True, demotes_to="P"),
        PieceType("PromotedLance", "+L", gold, promoted=True, demotes_to="L"),
        PieceType("PromotedKnight", "+N", gold, promoted=True, demotes_to="N"),
        PieceType("PromotedSilver", "+S", gold, promoted=True, demotes_to="S"),
        PieceType("Horse", "+B", (ride(DIAG), leap(ORTH)), promoted=True, demotes_to="B"),
        PieceType("Dragon", "+R", (ride(ORTH), leap(DIAG)), promoted=True, demotes_to="R"),
    ]
    for pt in pieces[1:]:
        assert pt is not None
        pt.value = VALUES.get(pt.token)
    return pieces


class ShogiText(TextFormat):
    """SFEN over USI; FEN-like text (hand in brackets, no castling or ep) over UCI; held
    pieces in the order R B G S N L P."""
    dialect = "usi"
    fields = ("side", "halfmove", "fullmove")
    empty_hand_text = "-"

    def hand_order(self):
        v = self.variant
        return [v.by_token[t].id for t in "RBGSNLP"]

    def sfen_hand_order(self):
        return self.hand_order()


class ShogiBoard(Variant):
    """9x9 board, shogi pieces, promotion zone of three ranks, shogi move text."""
    template = "shogi"
    notation_class = ShogiText
    move_rule_plies = None
    start_fen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[-] w 0 1"
    start_sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"

    def __init__(self):
        self.geometry = shogi_geometry()
        self.piece_types = shogi_pieces()
        super().__init__()

    def rank_of(self, cell: int, color: int) -> int:
        """0 = own back rank .. 8 = far rank, in the colour's own frame."""
        y = self.geometry.coords[cell][1]
        return y if color == WHITE else 8 - y

    def in_zone(self, cell: int, color: int) -> bool:
        return self.rank_of(cell, color) >= 6

    def must_promote(self, token: str, cell: int, color: int) -> bool:
        r = self.rank_of(cell, color)
        return (token in ("P", "L") and r == 8) or (token == "N" and r >= 7)

    def promotion_options(self, code, frm, to):
        pt = self.piece_types[code >> 1]
        prom = pt.extra.get("promotes")
        color = code & 1
        if not prom or not (self.in_zone(frm, color) or self.in_zone(to, color)):
            return ()
        pid = self.by_token[prom].id
        return (pid,) if self.must_promote(pt.token, to, color) else (0, pid)



class Shogi(ShogiBoard):
    name = "shogi"
    hands = True
    has_drop_rule = True
    stalemate_result = "loss"      # no legal move loses, in check or not
    repetition_count = 4

    def drop_allowed(self, code, cell):
        return not self.must_promote(self.piece_types[code >> 1].token, cell, code & 1)

    def drop_legal(self, pos, m):
        pt = self.piece_types[ptype_of(m)]
        if not pt.pawn:
            return True
        side = pos.side
        to = to_of(m)
        x, y = self.geometry.coords[to]
        code = pt.id * 2 + side
        b = pos.board
        index = self.geometry.index
        for yy in range(9):                  # two unpromoted pawns on one file
            if b[index[(x, yy)]] == code:
                return False
        ahead = index.get((x, y + (1 if side == WHITE else -1)))
        if ahead is None or pos.king[side ^ 1] != ahead:
            return True
        pos.make(m)                                   # pawn-drop mate is illegal
        mate = not legal_moves(pos)
        pos.unmake()
        return not mate

    def check_ok_repetition(self, pos, count):
        if count < self.repetition_count:
            return None
        hist = pos.history
        last = len(hist) - 1
        prev = max((j for j in range(last) if hist[j] == hist[last]), default=-1)
        n = last - prev
        if prev < 0 or n > len(pos.stack):
            return (0, "repetition")
        checks, undone = [], []
        for _ in range(n):
            checks.append(in_check(pos))
            undone.append(pos.stack[-1].move)
            pos.unmake()
        for m in reversed(undone):
            pos.make(m)
        # checks[k]: the side to move k plies before now was in check
        if all(checks[0::2]):
            return (1, "perpetual check")     # the opponent checked on every move
        if all(checks[1::2]):
            return (-1, "perpetual check")
        return (0, "repetition")

    def validate_position(self, pos):
        from engine.notation.position_text import PositionTextError
        kings = [sum(1 for p in pos.board if p and self.piece_types[p >> 1].royal and p & 1 == c)
                 for c in (0, 1)]
        for color, who in ((0, "sente"), (1, "gote")):
            if kings[color] != 1:
                raise PositionTextError(f"each side needs exactly one king ({who} kings: {kings[color]})")


VARIANTS = {"shogi": Shogi}
