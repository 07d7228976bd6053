"""FIDE chess, written as data on the generic core (and a base for chess-like 2D games)."""
from __future__ import annotations

from engine.geometry import grid2d
from engine.movegen import attacked
from engine.notation.formats import TextFormat
from engine.pieces import CAPTURE, DIAG, KING, KNIGHT, MOVE, ORTH, PieceType, leap, ride
from engine.variant import BLACK, WHITE, CastlingRule, Variant

from .chess_tables import CHESS_SQUARE_TABLES, CHESS_STRUCTURE


def pawn_atoms(double_rank_white: int, double_rank_black: int):
    """Pawn: step forward, optional double step from its own rank, diagonal capture with e.p."""
    return (
        leap(((0, 1),), MOVE),
        ride(((0, 1),), MOVE, max_dist=2, stops=frozenset({2}), flag="double",
             origin=lambda c, col: c[1] == (double_rank_white if col == WHITE else double_rank_black)),
        leap(((1, 1), (-1, 1)), CAPTURE, flag="ep"),
    )


def king():
    return PieceType("King", "K", (leap(KING),), royal=True)


def queen(token="Q", name="Queen"):
    return PieceType(name, token, (ride(ORTH + DIAG),))


def rook():
    return PieceType("Rook", "R", (ride(ORTH),))


def bishop():
    return PieceType("Bishop", "B", (ride(DIAG),))


def knight():
    return PieceType("Knight", "N", (leap(KNIGHT),))


class ChessText(TextFormat):
    """FEN with en passant (the victim stands beyond the target cell)."""

    def ep_from_text(self, cell, side):
        geo = self.variant.geometry
        x, y, *level = geo.coords[cell]    # a levelled board: the victim is on the same level
        dy = -1 if side == WHITE else 1    # the pawn that just moved stands beyond the target
        victim = geo.index.get((x, y + dy, *level))
        return cell, (victim if victim is not None else -1)


class ChessFenText(ChessText):
    """FIDE chess FEN: castling rights also as Shredder-FEN / X-FEN rook files."""

    def parse_castling(self, text, board):
        """Also Shredder-FEN / X-FEN file letters (``HAha``), as python-chess and Stockfish
        accept them: a rook's file letter stands for the right of that rook."""
        shredder = {"H": "K", "A": "Q", "h": "k", "a": "q"}
        text = "".join(shredder.get(ch, ch) for ch in text)
        return super().parse_castling(text, board)


class ChessLike(Variant):
    """2D FEN games with castling, en passant and pawn promotion on the last rank."""
    files = 8
    ranks = 8
    pawn_token = "P"
    promotion_tokens: tuple[str, ...] = ("Q", "R", "B", "N")
    notation_class: type[TextFormat] = ChessText

    def __init__(self):
        self.geometry = self.make_geometry()
        super().__init__()
        self.castling = self.make_castling()

    def make_geometry(self):
        """The board (a levelled file variant stacks several of these boards)."""
        return grid2d(self.files, self.ranks)

    def make_castling(self):
        return ()

    def castling_rule(self, color, kf, kt, rf, rt, bit, char):
        """Standard conditions: cells between king/rook and both destinations empty (except
        the two pieces themselves); king's path from start to destination not attacked."""
        geo = self.geometry
        _, y, *level = geo.coords[geo.by_name[kf]]     # a levelled board: the king's level
        xs = [geo.coords[geo.by_name[c]][0] for c in (kf, kt, rf, rt)]

        def cell(x):
            return geo.index[(x, y, *level)]

        lo, hi = min(xs), max(xs)
        empty = [cell(x) for x in range(lo, hi + 1) if x not in (xs[0], xs[2])]
        k0, k1 = xs[0], xs[1]
        step = 1 if k1 >= k0 else -1
        safe = [cell(x) for x in range(k0, k1 + step, step)]
        return CastlingRule(color, geo.by_name[kf], geo.by_name[kt], geo.by_name[rf],
                            geo.by_name[rt], bit, empty, safe, char)

    def promotion_options(self, code, frm, to):
        pt = self.piece_types[code >> 1]
        if not pt.pawn:
            return ()
        y = self.geometry.coords[to][1]
        last = self.ranks - 1 if code & 1 == WHITE else 0
        if y == last:
            return tuple(self.by_token[t].id for t in self.promotion_tokens)
        return ()

    def drop_allowed(self, code, cell):
        pt = self.piece_types[code >> 1]
        if pt.pawn:
            y = self.geometry.coords[cell][1]
            return 0 < y < self.ranks - 1
        return True

    # ---- positions ---------------------------------------------------------------------
    def validate_position(self, pos):
        """Refuse what cannot arise in a game (python-chess's Board.status() flags each of these;
        Stockfish's behaviour on them is undefined):
        a side without exactly one king, a pawn on the first or last rank, the side NOT to move
        in check (python-chess STATUS_OPPOSITE_CHECK).  Each refusal names its token.

        Tolerated and cleaned silently, as python-chess's Board(fen) accepts such texts and
        Stockfish ignores the part that cannot apply (GUIs do send them: a board editor keeps
        ``KQkq`` after a rook was removed, many writers give the en-passant cell after every
        double step):
        * castling rights whose king and rook do not stand on their cells are dropped by
          ``Variant.parse_castling`` (python-chess ``clean_castling_rights``);
        * an en-passant cell is kept only where python-chess's ``_valid_ep_square`` would keep
          it -- on the third rank seen from the side that just moved, the cell itself and the
          one the pawn came from empty, an enemy pawn just beyond it -- and dropped otherwise.
          A structurally valid cell is kept even when no pawn can take there, because that is
          the text this engine writes after any double step (``fen(en_passant="fen")``), so
          ``d`` output always reads back unchanged.  Dropping (rather than keeping) a bad cell
          matters: an en-passant capture removes the piece on the victim cell."""
        from engine.notation.position_text import PositionTextError
        geo = self.geometry
        pts = self.piece_types
        board = pos.board
        last = self.ranks - 1
        kings: list[list[int]] = [[], []]
        for c, p in enumerate(board):
            if not p:
                continue
            pt = pts[p >> 1]
            if pt.royal:
                kings[p & 1].append(c)
            elif pt.pawn and geo.coords[c][1] in (0, last):
                raise PositionTextError(f"pawn on rank 1 or {last + 1} ({geo.name(c)})")
        for color, who in ((WHITE, "white"), (BLACK, "black")):
            if len(kings[color]) != 1:
                raise PositionTextError(f"each side needs exactly one king "
                                        f"({who} kings: {len(kings[color])})")
        other = pos.side ^ 1
        k = kings[other][0]
        if attacked(pos, k, pos.side):
            who = "white" if other == WHITE else "black"
            raise PositionTextError(f"the side not to move is in check ({who} king on {geo.name(k)})")
        if pos.ep >= 0 and not self._valid_ep(pos):
            pos.ep, pos.ep_victim = -1, -1     # reset_state() recomputes the hash afterwards

    def _valid_ep(self, pos) -> bool:
        geo = self.geometry
        side = pos.side
        x, y, *level = geo.coords[pos.ep]        # a levelled board: the same level
        # white to move: black just double-stepped from rank `last` - 1 to `last` - 3
        ep_rank, dy = (self.ranks - 3, 1) if side == WHITE else (2, -1)
        if y != ep_rank:
            return False
        origin = geo.index.get((x, y + dy, *level))
        victim = geo.index.get((x, y - dy, *level))
        if origin is None or victim is None or victim != pos.ep_victim:
            return False
        v = pos.board[victim]
        return (not pos.board[pos.ep] and not pos.board[origin] and v != 0
                and v & 1 != side and self.piece_types[v >> 1].pawn)

    def is_draw_by_material(self, pos):
        if self.hands:
            return False
        minors = []
        for c, p in enumerate(pos.board):
            if not p:
                continue
            tok = self.piece_types[p >> 1].token
            if tok == "K":
                continue
            if tok in ("B", "N"):
                minors.append((tok, sum(self.geometry.coords[c]) & 1))
            else:
                return False
        if len(minors) <= 1:
            return True
        return all(t == "B" for t, _ in minors) and len({col for _, col in minors}) == 1


class Chess(ChessLike):
    name = "chess"
    notation_class = ChessFenText
    start_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    square_tables = CHESS_SQUARE_TABLES
    structure = CHESS_STRUCTURE

    def __init__(self):
        self.piece_types = [None, PieceType("Pawn", "P", pawn_atoms(1, 6), pawn=True),
                            knight(), bishop(), rook(), queen(), king()]
        super().__init__()

    def make_castling(self):
        return (
            self.castling_rule(WHITE, "e1", "g1", "h1", "f1", 1, "K"),
            self.castling_rule(WHITE, "e1", "c1", "a1", "d1", 2, "Q"),
            self.castling_rule(BLACK, "e8", "g8", "h8", "f8", 4, "k"),
            self.castling_rule(BLACK, "e8", "c8", "a8", "d8", 8, "q"),
        )


VARIANTS = {"chess": Chess}
