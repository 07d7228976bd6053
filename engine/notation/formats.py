"""How a game writes its positions: the text format object of a variant.

Every variant has one ``TextFormat`` (``Variant.notation``), made from the class named by
``Variant.notation_class``.  It holds what only the text needs — which codec, the fields after
the board, where the hand goes, the order cells and held pieces are written in, castling and
en-passant text, the board picture of ``d`` — so that the rules classes hold rules only.  A
game with its own layout or picture subclasses it (3D levels, the Nested board).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..geometry import file_letters
from .errors import PositionTextError

if TYPE_CHECKING:
    from ..position import Position
    from ..variant import Variant

# a place of a layout row where the board has no cell (a hole): written ``*`` in the text
HOLE = -1


class TextFormat:
    kind: str = "fen"           # codec: "fen" (FEN-like) or "sfen" (USI)
    dialect: str = "uci"        # the dialect whose move text the game's records use
    fields: tuple[str, ...] = ("side", "castling", "ep", "halfmove", "fullmove")
    hand_in_board: bool = True  # FEN hand in brackets right after the board
    empty_hand_text: str = ""   # what an empty bracketed hand shows ("" or "-")

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self._layout: list[list[list[int]]] | None = None

    # ---- cell and hand order ---------------------------------------------------------------
    @property
    def layout(self) -> list[list[list[int]]]:
        """Groups (3D levels) of rows of cells, top row first, each row in writing order."""
        if self._layout is None:
            self._layout = self.build_layout()
        return self._layout

    def build_layout(self) -> list[list[list[int]]]:
        """Default: one 2D grid, ranks high to low, files left to right; a coordinate of the
        board's bounding rectangle that is no cell (a hole) is ``HOLE``."""
        geo = self.variant.geometry
        xs = [c[0] for c in geo.coords]
        ys = [c[1] for c in geo.coords]
        idx = geo.index
        return [[[idx.get((x, y), HOLE) for x in range(min(xs), max(xs) + 1)]
                 for y in range(max(ys), min(ys) - 1, -1)]]

    def hand_order(self) -> list[int]:
        """Type ids in the order held pieces are written (its length is the GUI's pocket)."""
        return [pt.id for pt in self.variant.piece_types if pt is not None]

    def sfen_hand_order(self) -> list[int]:
        return self.hand_order()

    # ---- move text ----------------------------------------------------------------------------
    def promotion_text(self, tid: int) -> str:
        """The suffix of a move whose piece becomes type ``tid``: ``+`` for a '+' token, else
        the lowercase letter (``Q~`` gives ``q``)."""
        tok = self.variant.piece_type(tid).token
        return "+" if tok.startswith("+") else tok.rstrip("~").lower()

    def acted_text(self, to: int, acted: int, dialect: str) -> str:
        """What a move of the variant's own that acts on a second cell adds to its text
        (default: a comma and that cell; walls: the landing cell too, ``d1a1,a1b1``)."""
        return "," + self.variant.geometry.name(acted, dialect)

    def field_names(self, rest: list[str]) -> tuple[str, ...]:
        """The fields after the board that a position text's remaining words give (default:
        ``fields``)."""
        return self.fields

    # ---- a game's own fields ------------------------------------------------------------------
    def init_fields(self, pos: Position) -> None:
        """Set what a game's own fields hold when the text leaves them out (called on the
        fresh position before the text is read; default: nothing)."""

    def parse_field(self, pos: Position, name: str, text: str) -> None:
        """Read a field of the game's own (a name of ``fields`` the codec does not know)."""
        raise PositionTextError(f"unknown position field {name}")

    def format_field(self, pos: Position, name: str) -> str:
        """Write a field of the game's own (a name of ``fields`` the codec does not know)."""
        raise ValueError(f"unknown position field {name}")

    # ---- castling and en passant -----------------------------------------------------------
    def parse_castling(self, text: str, board: list[int]) -> int:
        """Rights bits for a castling field; a right whose king or rook is not home is dropped."""
        v = self.variant
        if text == "-" or not v.castling:
            return 0
        rights = 0
        for ch in text:
            rules = [r for r in v.castling if r.char == ch]
            if not rules:
                raise PositionTextError(f"bad castling field ({text})")
            for r in rules:
                king, rook = board[r.king_from], board[r.rook_from]
                if king and rook and king & 1 == r.color and rook & 1 == r.color \
                        and self.castles(king, rook):
                    rights |= r.bit
        return rights

    def castles(self, king: int, rook: int) -> bool:
        """May these pieces (codes of the rule's colour, on its king and rook cells) hold a
        castling right?  Default: the king piece is royal."""
        return bool(self.variant.piece_type(king >> 1).royal)

    def format_castling(self, rights: int) -> str:
        s = "".join(r.char for r in self.variant.castling if rights & r.bit)
        return s or "-"

    def ep_text(self, pos: Position) -> str:
        """The en-passant field of a position (default: the cell, or ``-``)."""
        return self.variant.geometry.name(pos.ep) if pos.ep >= 0 else "-"

    def halfmove_text(self, pos: Position) -> str:
        """The half-move clock field of a position (default: the clock)."""
        return str(pos.halfmove)

    def parse_ep(self, pos: Position, field: str) -> tuple[int, int]:
        """(ep cell, victim cell) of an en-passant field other than ``-`` (the board and the
        side to move are read already)."""
        c = self.variant.geometry.parse(field)
        if c is None:
            raise PositionTextError(f"bad en-passant cell ({field})")
        return self.ep_from_text(c, pos.side)

    def ep_from_text(self, cell: int, side: int) -> tuple[int, int]:
        """(ep cell, victim cell) for an en-passant field naming `cell` (default: none)."""
        return -1, -1

    # ---- the board picture ----------------------------------------------------------------
    def diagram(self, pos: Position) -> list[str]:
        """Lines of a board picture for `d` (default: a 2D grid, ranks high to low)."""
        from .position_text import code_token
        v = self.variant
        geo = v.geometry
        lines = []
        rows = self.layout[0]
        width = max(len(r) for r in rows)
        # labels from the names of real cells: a row's rank, a column's file
        cols = [next((geo.name(r[k])[0] for r in rows if k < len(r) and r[k] != HOLE), "?")
                for k in range(width)]
        for row in rows:
            real = [c for c in row if c != HOLE]
            label = geo.name(real[0])[1:] if real else ""
            cells = ["*" if c == HOLE else code_token(v, pos.board[c]) if pos.board[c] else "."
                     for c in row]
            lines.append(f"{label:>3} " + " ".join(f"{t:>2}" for t in cells))
        lines.append("    " + " ".join(f"{c:>2}" for c in cols))
        return lines



class LevelledText(TextFormat):
    """Boards stacked in levels (``Geometry.level_axis``): one group of rows per level,
    separated by ``|`` in the position text, and the `d` picture with the levels side by side.
    Of the other two coordinates the first is the file, the second the rank."""

    def _axes(self) -> tuple[int, int, int]:
        geo = self.variant.geometry
        la = geo.level_axis
        if la is None:
            raise ValueError("a levelled text needs a geometry with a level axis")
        fa, ra = (i for i in range(geo.dims) if i != la)
        return la, fa, ra

    def build_layout(self) -> list[list[list[int]]]:
        """Groups = levels in order, rows = ranks high to low, cells = files left to right; a
        coordinate of the bounding box that is no cell (a hole) is ``HOLE``."""
        geo = self.variant.geometry
        la, fa, ra = self._axes()
        lo = [min(c[a] for c in geo.coords) for a in range(3)]
        hi = [max(c[a] for c in geo.coords) for a in range(3)]
        idx = geo.index

        def cell(lv: int, f: int, r: int) -> int:
            key = [0, 0, 0]
            key[la], key[fa], key[ra] = lv, f, r
            return idx.get(tuple(key), HOLE)
        return [[[cell(lv, f, r) for f in range(lo[fa], hi[fa] + 1)]
                 for r in range(hi[ra], lo[ra] - 1, -1)]
                for lv in range(lo[la], hi[la] + 1)]

    def diagram(self, pos: Position) -> list[str]:
        """The levels side by side, ranks high to low, each titled by its level's name."""
        import os.path

        from .position_text import code_token
        v = self.variant
        geo = v.geometry
        _, _, ra = self._axes()
        toks = [code_token(v, p) if p else "." for p in pos.board] + ["*"]   # toks[HOLE]
        w = max(len(t) for t in toks)
        gap = "   "
        groups = self.layout
        nfiles = max(len(row) for g in groups for row in g)
        ranks = [next((geo.coords[c][ra] for g in groups for c in g[k] if c != HOLE), 0)
                 for k in range(len(groups[0]))]
        rw = max(len(str(r + 1)) for r in ranks)
        width = rw + 1 + (w + 1) * nfiles - 1
        titles = [os.path.commonprefix([geo.names[c] for row in g for c in row if c != HOLE])
                  for g in groups]
        lines = [gap.join(f"{' ' * (rw + 1)}{t}".ljust(width) for t in titles).rstrip()]
        for k in range(len(groups[0])):
            parts = []
            for g in groups:
                row = g[k]
                label = str(ranks[k] + 1) if row else ""
                parts.append(f"{label:>{rw}} " + " ".join(f"{toks[c]:>{w}}" for c in row))
            lines.append(gap.join(parts))
        files = " ".join(f"{file_letters(f):>{w}}" for f in range(nfiles))
        lines.append(gap.join(f"{' ' * (rw + 1)}{files}" for _ in groups))
        return lines
