"""Lattice boards (a cellfish extension of the variants-file format): squares and vertices on a
doubled grid, cell classes, pieces bound to a class, and regions on such a board.

    lattice = squares vertices   the board of maxFile x maxRank squares drawn with the corner
                                 points of its squares: a grid of (2 maxFile + 1) x
                                 (2 maxRank + 1) points, squares where both coordinates are
                                 odd, vertices where both are even (mixed parity is no cell);
                                 ``vertices`` alone keeps the points only, ``squares`` alone
                                 the squares only
    holes = a1 q1 a17 q17        cells left out (the holes machinery of holes.py)
    blackFrame = antidiagonal    Black's frame: rank, file rank, or antidiagonal
    customPiece1 = b:[2,0]*      pieces in the lattice notation (lattice_pieces.py)

A cell is named by a letter for its x (``a``..) and the number y + 1: on the 8 x 8 lattice
FIDE e4 is ``j8``.  The position text lists every row of the grid that has cells, top row
first, each with its own cells only (holes skipped), then side, halfmove clock and move
number; `d` draws each point in its own column.  The full list of keys: docs/variant-files.md,
"Lattice boards"; Nested Chess (variants/files/nested.ini, docs/variants/nested.md) is the
shipped game on it.
"""
from __future__ import annotations

import re

from engine.geometry import Geometry
from engine.notation.formats import TextFormat
from engine.pieces import PieceType
from engine.variant import BLACK, MAX_CELLS, WHITE, Variant

from .holes import hole_bases
from .lattice_pieces import LatticePieceError, parse_lattice_piece
from .section import Section
from .values import KeyError_, as_int
from engine.moves import CELL, FROM_SHIFT

CLASSES = ("squares", "vertices")
CLASS_OF = {"squares": "square", "vertices": "vertex"}
FRAMES = ("rank", "file rank", "antidiagonal")
_PIECE_KEY = re.compile(r"customPiece([1-9]|1\d|2[0-5])|king")


def cell_class(x: int, y: int) -> str | None:
    """``square`` (both coordinates odd), ``vertex`` (both even) or None (mixed parity)."""
    if x & 1 != y & 1:
        return None
    return "square" if x & 1 else "vertex"


def lattice_geometry(files: int, ranks: int, classes: tuple[str, ...]) -> Geometry:
    """The points of the doubled grid of ``files`` x ``ranks`` squares whose class is one of
    ``classes`` (``squares``, ``vertices``), numbered row by row from the bottom."""
    keep = {CLASS_OF[c] for c in classes}
    coords = [(x, y) for y in range(2 * ranks + 1) for x in range(2 * files + 1)
              if cell_class(x, y) in keep]
    return Geometry(coords, [f"{chr(97 + x)}{y + 1}" for x, y in coords])


class LatticeText(TextFormat):
    """Position text of a lattice: the rows of the grid that have cells, top row first, each
    listing its own cells left to right (a hole is skipped, not written); then side,
    halfmove clock and move number (a lattice has no castling and no en passant)."""
    fields = ("side", "halfmove", "fullmove")

    def build_layout(self):
        geo = self.variant.geometry
        w, h = self.variant.grid_size
        rows = [[geo.index[(x, y)] for x in range(w) if (x, y) in geo.index]
                for y in range(h - 1, -1, -1)]
        return [[r for r in rows if r]]

    def diagram(self, pos):
        """Rows of the doubled grid, each point at column 4 + 2x, so squares sit between the
        vertices as on the board: 'o' an empty vertex, '.' an empty square, '#' a hole."""
        from engine.notation.position_text import code_token
        v = self.variant
        geo = v.geometry
        w, h = v.grid_size
        keep = {CLASS_OF[c] for c in v.classes}
        lines = []
        for y in range(h - 1, -1, -1):
            row = [" "] * w
            for x in range(w):
                kind = cell_class(x, y)
                if kind not in keep:
                    continue
                c = geo.index.get((x, y))
                if c is None:
                    row[x] = "#"
                elif pos.board[c]:
                    row[x] = code_token(v, pos.board[c])
                else:
                    row[x] = "o" if kind == "vertex" else "."
            if any(t != " " for t in row):
                lines.append(f"{y + 1:>2}  " + " ".join(row).rstrip())
        lines.append("    " + " ".join(chr(97 + x) for x in range(w)))
        return lines


class LatticeVariant(Variant):
    """A variant on a lattice board, built from a variants-file section; the class attributes
    are set per section by ``read_lattice``."""
    files = 8
    ranks = 8
    classes: tuple[str, ...] = CLASSES
    pieces: tuple[tuple[str, str, str], ...] = ()     # (key, letter, definition) in file order
    royal_letter = "k"
    pawn_letters: frozenset[str] = frozenset()
    # per colour: pawn letter -> the letters it may become, in the order offered
    promo_choices: tuple[dict[str, str], dict[str, str]] = ({}, {})
    promo_off_edge: frozenset[str] = frozenset()
    promo_region: tuple[tuple[frozenset, frozenset], ...] = ((frozenset(), frozenset()),) * 2
    promo_mandatory = True
    edge_ban = False
    one_foot: frozenset[str] = frozenset()
    bound: dict[str, str] = {}                        # letter -> "square" or "vertex"
    values: dict[str, int] = {}
    black_frame = "file rank"
    notation_class = LatticeText

    def __init__(self) -> None:
        self.geometry = self.make_geometry()
        self.piece_types = [None] + [
            PieceType(key, letter.upper(), parse_lattice_piece(text),
                      royal=letter == self.royal_letter, pawn=letter in self.pawn_letters,
                      value=self.values.get(letter))
            for key, letter, text in self.pieces]
        super().__init__()
        coords = self.geometry.coords
        xs, ys = [c[0] for c in coords], [c[1] for c in coords]
        lo_x, hi_x, lo_y, hi_y = min(xs), max(xs), min(ys), max(ys)
        self._edge_lines = (lo_x, hi_x, lo_y, hi_y)
        self._edge_cells = frozenset(i for i, (x, y) in enumerate(coords)
                                     if x in (lo_x, hi_x) or y in (lo_y, hi_y))
        self._letter = {pt.id: pt.token.lower() for pt in self.piece_types if pt is not None}
        self._zone: tuple[frozenset[int], frozenset[int]] | None = None

    @property
    def grid_size(self) -> tuple[int, int]:
        """(width, height) of the doubled grid in points."""
        return 2 * self.files + 1, 2 * self.ranks + 1

    def make_geometry(self) -> Geometry:
        return lattice_geometry(self.files, self.ranks, self.classes)

    # ---- frames ----------------------------------------------------------------------------
    def orient(self, v):
        if self.black_frame == "rank":
            return (v[0], -v[1])
        if self.black_frame == "antidiagonal":     # the reflection (x, y) -> (L - y, L - x)
            return (-v[1], -v[0])
        return (-v[0], -v[1])

    def white_coord(self, coord, color):
        if color == WHITE:
            return coord
        w, h = self.grid_size
        x, y = coord
        if self.black_frame == "rank":
            return (x, h - 1 - y)
        if self.black_frame == "antidiagonal":
            return (w - 1 - y, h - 1 - x)
        return (w - 1 - x, h - 1 - y)

    # ---- compile-time filter: edge lines and binding -----------------------------------
    def allow_move(self, code, frm, to):
        coords = self.geometry.coords
        a, b = coords[frm], coords[to]
        if self.edge_ban and self._same_edge(a, b):
            return False
        letter = self._letter[code >> 1]
        if letter in self.one_foot and self._one_foot(a, b):
            return False
        cls = self.bound.get(letter)
        return cls is None or cell_class(*b) == cls

    def _same_edge(self, a, b) -> bool:
        """Both ends on one edge line of the board."""
        lo_x, hi_x, lo_y, hi_y = self._edge_lines
        return (a[0] == b[0] and a[0] in (lo_x, hi_x)) or (a[1] == b[1] and a[1] in (lo_y, hi_y))

    def _one_foot(self, a, b) -> bool:
        """A move between an edge line and the line next to it, either way."""
        lo_x, hi_x, lo_y, hi_y = self._edge_lines
        for i, lo, hi in ((0, lo_x, hi_x), (1, lo_y, hi_y)):
            for edge, adj in ((lo, lo + 1), (hi, hi - 1)):
                if (a[i] == edge and b[i] == adj) or (a[i] == adj and b[i] == edge):
                    return True
        return False

    # ---- promotion ------------------------------------------------------------------------
    @property
    def zone(self) -> tuple[frozenset[int], frozenset[int]]:
        """zone[colour]: the cells of that colour's promotion region (the ``campWhite`` and
        ``campBlack`` tokens read from the start position, once)."""
        if self._zone is None:
            geo = self.geometry
            board = None
            out = []
            for color in (WHITE, BLACK):
                coords, camps = self.promo_region[color]
                z = {geo.index[c] for c in coords if c in geo.index}
                if camps:
                    if board is None:
                        board = self.start_position().board
                    z |= {c for c, p in enumerate(board) if p and (p & 1) in camps}
                out.append(frozenset(z))
            self._zone = (out[0], out[1])
        return self._zone

    def promotion_options(self, code, frm, to):
        choices = self.promo_choices[code & 1].get(self._letter[code >> 1])
        if not choices or to not in self.zone[code & 1]:
            return ()
        kind = cell_class(*self.geometry.coords[to])
        opts = tuple(self.by_token[ch.upper()].id for ch in choices
                     if not (ch in self.promo_off_edge and to in self._edge_cells)
                     and self.bound.get(ch, kind) == kind)
        return opts if self.promo_mandatory else (0,) + opts

    # ---- positions ------------------------------------------------------------------------
    def validate_position(self, pos):
        """A piece bound to a cell class stands on a cell of its class; at most one royal
        piece a side."""
        from engine.notation.position_text import PositionTextError
        geo = self.geometry
        kings = [0, 0]
        for c, p in enumerate(pos.board):
            if not p:
                continue
            letter = self._letter[p >> 1]
            cls = self.bound.get(letter)
            if cls is not None and cell_class(*geo.coords[c]) != cls:
                raise PositionTextError(f"a piece bound to the {cls} cells stands on another "
                                        f"({geo.name(c)})")
            if self.piece_types[p >> 1].royal:
                kings[p & 1] += 1
        for color, who in ((WHITE, "white"), (BLACK, "black")):
            if kings[color] > 1:
                raise PositionTextError(f"each side has at most one king ({who} kings: "
                                        f"{kings[color]})")

    # ---- helpers for tests and tools ------------------------------------------------------
    def moves_from(self, pos, cell):
        """Pseudo-legal moves of the piece on ``cell`` (rules beyond the tables ignored)."""
        from engine.movegen import pseudo_moves
        return [m for m in pseudo_moves(pos) if (m >> FROM_SHIFT) & CELL == cell]


# ---- reading a section ---------------------------------------------------------------------
def _letters(key: str, text: str, letters: set[str]) -> str:
    out = text.strip().lower().replace(" ", "")
    if out == "-":
        return ""
    for ch in out:
        if ch not in letters:
            raise KeyError_(key, "no piece has this letter", ch)
    return out


def _pairs(key: str, text: str, letters: set[str]) -> list[tuple[str, str]]:
    """``x:abc y:de`` as [(x, abc), (y, de)] (letters checked)."""
    out = []
    for tok in text.split():
        head, sep, tail = tok.partition(":")
        if not sep or len(head) != 1 or not tail:
            raise KeyError_(key, "not letter:value", tok)
        out.append((_letters(key, head, letters), tail))
    return out


def _lattice_region(key: str, text: str, files: int, ranks: int,
            classes: tuple[str, ...]) -> tuple[frozenset, frozenset]:
    """A region of a lattice: cells (``j8``), whole rows (``*17``) or columns (``q*``) of the
    grid, and ``campWhite``/``campBlack``: the cells that side's pieces occupy in
    ``startFen``.  Returns (coordinates, the colours of the camps named)."""
    w, h = 2 * files + 1, 2 * ranks + 1
    keep = {CLASS_OF[c] for c in classes}
    out: set[tuple[int, int]] = set()
    camps: set[int] = set()
    for tok in text.split():
        if tok == "-":
            continue
        if tok in ("campWhite", "campBlack"):
            camps.add(WHITE if tok == "campWhite" else BLACK)
            continue
        m = re.fullmatch(r"([a-z*])(\d+|\*)", tok)
        if m is None or (m.group(1) == "*" and m.group(2) == "*"):
            raise KeyError_(key, "not a lattice cell list (cells, *N, x*, campWhite, campBlack)",
                            tok)
        xs = range(w) if m.group(1) == "*" else [ord(m.group(1)) - 97]
        ys = range(h) if m.group(2) == "*" else [int(m.group(2)) - 1]
        if any(not 0 <= x < w for x in xs) or any(not 0 <= y < h for y in ys):
            raise KeyError_(key, "off the board", tok)
        cells = {(x, y) for x in xs for y in ys if cell_class(x, y) in keep}
        if not cells:
            raise KeyError_(key, "not a cell of the lattice", tok)
        out |= cells
    return frozenset(out), frozenset(camps)


def is_lattice_piece_key(key: str) -> bool:
    """A piece key of a lattice section: customPiece1..25 or king."""
    return _PIECE_KEY.fullmatch(key) is not None


def read_lattice(sec: Section, attrs: dict) -> dict[str, tuple[type, ...]]:
    """Read a lattice section (``lattice`` given) into ``attrs`` (the class attributes) and
    return its rule parts (compose.py), but the plugins, which the builder adds; raises
    KeyError_ for a bad key."""
    val = sec
    for k in ("castling", "doubleStep"):
        if sec.given(k) and sec.flag(k):
            raise KeyError_(k, "not supported on a lattice board (only false)", val[k])
    classes = tuple(val["lattice"].replace(",", " ").split())
    if not classes or any(c not in CLASSES for c in classes) or len(set(classes)) != len(classes):
        bad = next((c for c in classes if c not in CLASSES), val["lattice"])
        raise KeyError_("lattice", "not squares, vertices or both", bad)
    files = sec.file("maxFile", 12) + 1
    ranks = sec.number("maxRank")
    size = len(lattice_geometry(files, ranks, classes).coords)
    if size > MAX_CELLS:
        raise KeyError_("lattice", f"{size} cells, more than the {MAX_CELLS} a move can name",
                        val["lattice"])
    attrs.update({"files": files, "ranks": ranks, "classes": classes,
                  "start_fen": val.get("startFen", "")})
    if not attrs["start_fen"]:
        raise KeyError_("startFen", "a lattice section needs its startFen", sec.name)
    pieces, letters = [], set()
    for k, v in val.items():
        if not _PIECE_KEY.fullmatch(k) or v == "-":
            continue
        letter, sep, text = v.partition(":")
        if len(letter) != 1 or not letter.isalpha() or not sep or not text.strip():
            raise KeyError_(k, "a lattice piece needs letter:definition", v)
        letter = letter.lower()
        if letter in letters:
            raise KeyError_(k, "letter used twice", letter)
        try:
            parse_lattice_piece(text)
        except LatticePieceError as e:
            raise KeyError_(k, e.what, e.token) from None
        letters.add(letter)
        pieces.append((k, letter, text))
    attrs["pieces"] = tuple(pieces)
    attrs["royal_letter"] = next((letter for k, letter, _ in pieces if k == "king"), "")
    attrs["royal_check"] = bool(attrs["royal_letter"])
    attrs["pawn_letters"] = frozenset(_letters("pawnTypes", val.get("pawnTypes", "-"), letters))
    both = _letters("promotionPieceTypes", val.get("promotionPieceTypes", "-"), letters)
    per = {p: _letters("pawnPromotionTypes", t, letters)
           for p, t in _pairs("pawnPromotionTypes", val.get("pawnPromotionTypes", ""), letters)}
    attrs["promo_choices"] = tuple(
        {p: per.get(p, side) for p in attrs["pawn_letters"] if per.get(p, side)}
        for side in (_letters(k, val[k], letters) if k in val else both
                     for k in ("promotionPieceTypesWhite", "promotionPieceTypesBlack")))
    attrs["promo_off_edge"] = frozenset(_letters("promotionNotOnEdge",
                                                 val.get("promotionNotOnEdge", "-"), letters))
    attrs["promo_region"] = tuple(_lattice_region(k, val.get(k, "-"), files, ranks, classes)
                                  for k in ("promotionRegionWhite", "promotionRegionBlack"))
    attrs["promo_mandatory"] = sec.flag("mandatoryPawnPromotion")
    attrs["edge_ban"] = sec.flag("edgeBan", "false")
    attrs["one_foot"] = frozenset(_letters("oneFootTypes", val.get("oneFootTypes", "-"), letters))
    bound: dict[str, str] = {}
    for key, cls in (("squarePieces", "square"), ("vertexPieces", "vertex")):
        for ch in _letters(key, val.get(key, "-"), letters):
            if ch in bound:
                raise KeyError_(key, "a piece bound to both classes", ch)
            if cls not in {CLASS_OF[c] for c in classes}:
                raise KeyError_(key, "the lattice has no cells of this class", ch)
            bound[ch] = cls
    attrs["bound"] = bound
    values = {}
    for ch, num in _pairs("pieceValues", val.get("pieceValues", ""), letters):
        values[ch] = as_int("pieceValues", num, 0, 100000)
    attrs["values"] = values
    frame = " ".join(val.get("blackFrame", "file rank").replace(",", " ").split())
    if frame not in FRAMES:
        raise KeyError_("blackFrame", "not rank, file rank or antidiagonal", val["blackFrame"])
    if frame == "antidiagonal" and files != ranks:
        raise KeyError_("blackFrame", "antidiagonal needs a square board", frame)
    attrs["black_frame"] = frame
    attrs["checkmate_result"] = sec.outcome("checkmateValue")
    holes: frozenset = frozenset()
    if "holes" in val:
        holes, camps = _lattice_region("holes", val["holes"], files, ranks, classes)
        if camps:
            raise KeyError_("holes", "a camp is no hole", val["holes"])
        if len(holes) >= size:
            raise KeyError_("holes", "every cell is a hole", val["holes"])
    return {"holes": hole_bases(holes), "board": (LatticeVariant,)}
