"""Knavish Chess written by hand on today's core: the reference that ``cellfish bench module``
times the shipped file (variants/files/knavish.ini) against.

It is the module the game was until f0fc727 (``git show f0fc727^:variants/knavish.py``), ported
to the core as it is now: the Pawn's double step is the core's (``DOUBLE``, as in chess) instead
of a move of its own, and every piece is written with the Betza text and in the order the file
gives it, so that both generate their moves in the same order and a search visits the very same
nodes (the bench checks it).  What stays hand-written is what a rules author would write: one
class per game, the promotion choices in one method, castling on the second rank from a table
of cells.  Dead positions and the position checks, which a search never asks about, are left
out.  The five games of the 10-file board and ``knavish8`` are here; the 8-file promotion and
return games differ from them only as the 10-file ones do.
"""
from __future__ import annotations

from engine.betza import parse_betza, rotate
from engine.pieces import CAPTURE, MOVE, PieceType, leap, ride
from engine.variant import BLACK, WHITE
from variants.chess import ChessLike, ChessText


def piece(name, token, betza, **kw):
    return PieceType(name, token, parse_betza(betza), **kw)


def pawn(rank_white, rank_black):
    """Step, diagonal capture with en passant, double step from its own third rank."""
    return PieceType("Pawn", "P", (
        leap(((0, 1),), MOVE), leap(((1, 1), (-1, 1)), CAPTURE, flag="ep"),
        ride(((0, 1),), MOVE, max_dist=2, stops=frozenset({2}), flag="double",
             origin=lambda c, col: c[1] == (rank_white if col == WHITE else rank_black))), pawn=True)


class KnavishText(ChessText):
    """Chess FEN; held pieces in the order of ``Knavish.hand_tokens``."""

    def hand_order(self):
        v = self.variant
        return [v.by_token[t].id for t in v.hand_tokens]


class Knavish(ChessLike):
    name = "knavish"
    files = 10
    ranks = 10
    start_fen = "1dn1cc1nd1/rdnbqkbndr/pppppppppp/10/10/10/10/PPPPPPPPPP/RDNBQKBNDR/1DN1CC1ND1 w KQkq - 0 1"
    kneaders = False            # Kneader / Contrakneader in the piece set
    optional_promotion = False  # R/B -> Q and N/D -> C on moves ending on the far rank
    returns = False             # captures to hand, drops
    # castling on rank 2: (king from, king to, rook from, rook to) for O-O and O-O-O (White)
    castle_cells = (("f", "h", "j", "g"), ("f", "c", "a", "d"))
    double_rank = 2             # 0-based rank a Pawn double-steps from (White; Black mirrored)
    hand_tokens = ("C", "D", "N", "Q", "R", "B", "P")
    notation_class = KnavishText

    def __init__(self):
        b = piece("Bishop", "B", "B", extra={"promotes": "+B"})
        r = piece("Rook", "R", "R", extra={"promotes": "+R"})
        pts = [None, pawn(self.double_rank, self.ranks - 1 - self.double_rank), b, r,
               piece("Queen", "Q", "Q"), piece("King", "K", "K", royal=True),
               piece("Knave", "N", "vNsD", extra={"promotes": "+N"}),
               piece("Debtor", "D", "sNvD", extra={"promotes": "+D"}),
               piece("Carpenter", "C", "ND")]
        if self.kneaders:
            pts += [piece("Kneader", "E", "mvNmsDcsNcvD"), piece("Contrakneader", "T", "msNmvDcvNcsD")]
        if self.optional_promotion:
            pts += [piece("PromotedRook", "+R", "Q", promoted=True, demotes_to="R"),
                    piece("PromotedBishop", "+B", "Q", promoted=True, demotes_to="B"),
                    piece("PromotedKnave", "+N", "ND", promoted=True, demotes_to="N"),
                    piece("PromotedDebtor", "+D", "ND", promoted=True, demotes_to="D")]
        if self.returns:
            pts += [piece("PawnCarpenter", "C~", "ND", promoted=True, demotes_to="P"),
                    piece("PawnQueen", "Q~", "Q", promoted=True, demotes_to="P")]
        self.piece_types = pts
        super().__init__()
        bt = self.by_token
        self._pawn_promos = tuple(bt[t].id for t in (("Q~", "C~") if self.returns else ("Q", "C")))
        self._far = (self.ranks - 1, 0)

    def orient(self, v):
        return rotate(v)        # Black's pieces turned half round, as the file's are

    def make_castling(self):
        out = []
        for color, rank, chars, bits in ((WHITE, 2, "KQ", (1, 2)), (BLACK, self.ranks - 1, "kq", (4, 8))):
            for (kf, kt, rf, rt), ch, bit in zip(self.castle_cells, chars, bits):
                out.append(self.castling_rule(color, f"{kf}{rank}", f"{kt}{rank}", f"{rf}{rank}",
                                              f"{rt}{rank}", bit, ch))
        return tuple(out)

    def promotion_options(self, code, frm, to):
        color = code & 1
        if self.geometry.coords[to][1] != self._far[color]:
            return ()
        pt = self.piece_types[code >> 1]
        if pt.pawn:
            return self._pawn_promos
        target = pt.extra.get("promotes")
        if self.optional_promotion and target and not pt.promoted:
            return (0, self.by_token[target].id)
        return ()


class Knavish8(Knavish):
    name = "knavish8"
    files = 8
    start_fen = "dndccdnd/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/DNDCCDND w KQkq - 0 1"
    castle_cells = (("e", "g", "h", "f"), ("e", "c", "a", "d"))


class KnavishKneader(Knavish):
    name = "knavish-kneader"
    kneaders = True
    start_fen = "1te1cc1et1/rtebqkbetr/pppppppppp/10/10/10/10/PPPPPPPPPP/RTEBQKBETR/1TE1CC1ET1 w KQkq - 0 1"


class KnavishPromotion(Knavish):
    name = "knavish-promotion"
    optional_promotion = True


class KnavishReturns(KnavishPromotion):
    name = "knavish-returns"
    returns = True
    hands = True
    pawn_drop_resets_clock = True


VARIANTS = {cls.name: cls for cls in (Knavish, Knavish8, KnavishKneader, KnavishPromotion, KnavishReturns)}
