"""Hexagonal boards (a cellfish extension of the variants-file format): a hexagon of hexagons,
pieces in the hex notation (hex_pieces.py), pawns that step up their file, double-step from
their start cells, take en passant and promote on a file's last cell.

    hex = 6                      the hexagon with 6 cells a side (91 cells: Glinski's board),
                                 files a.. without j, ranks from 1 at each file's foot
    king = k:K                   pieces as letter:definition (king, customPiece1..25)
    pawnTypes = p                the pawns: they double-step, take en passant and promote
    doubleStepRegionWhite = ...  where a pawn may step two cells up its file (cells, *N,
                                 x*; default: the cells the side's pawns stand on at start)
    promotionRegionWhite = top   where a pawn promotes (default: top, the last cell of every
                                 file, for White; foot, every file's first cell, for Black)
    stalematePoints = 3/4        the stalemating side's share of the point (the side
                                 stalemated scores the rest)

The position text lists the ranks from the highest (one cell, f11, on Glinski's board) down
to rank 1, each rank's cells by file, as hex players write it:
``b/qbk/n1b1n/r5r/ppppppppp/11/5P5/4P1P4/3P1B1P3/2P2B2P2/1PRNQBKNRP1 w - - 0 1``.  Moves are
written from-cell to-cell (``f5f6``, ``f10f11q``).  The full list of keys:
docs/variant-files.md, "Hexagonal boards"; Glinski's and McCooey's games
(variants/files/hex.ini, docs/variants/glinski.md, docs/variants/mccooey.md) are shipped on it.
"""
from __future__ import annotations

import dataclasses
import re
from fractions import Fraction

from engine.geometry import Geometry, hex_height, hexagon
from engine.notation.formats import TextFormat
from engine.pieces import CAPTURE, LEAP, MOVE, PieceType, ride
from engine.variant import BLACK, MAX_CELLS, WHITE, Variant

from .hex_pieces import HexPieceError, parse_hex_piece
from .lattice import _letters, _pairs, is_lattice_piece_key
from .returns import piece_names
from .section import Section
from .values import KeyError_, as_int

Coord = tuple[int, ...]


class HexText(TextFormat):
    """Position text of a hexagon: ranks from the highest down, each rank's cells by file."""

    def build_layout(self):
        geo = self.variant.geometry
        rows: dict[int, list[int]] = {}
        for c, name in enumerate(geo.names):
            rows.setdefault(int(name[1:]), []).append(c)
        return [[sorted(rows[r], key=lambda c: geo.coords[c][0])
                 for r in sorted(rows, reverse=True)]]

    def ep_from_text(self, cell: int, side: int) -> tuple[int, int]:
        """The pawn that passed ``cell`` stands one cell beyond it in its mover's direction."""
        geo = self.variant.geometry
        victim = geo.step(cell, (0, -1) if side == WHITE else (0, 1))   # the mover's forward
        return (cell, victim) if victim is not None else (-1, -1)

    def diagram(self, pos):
        """The hexagon as drawn: one line per half-cell height, each file in its column."""
        from engine.notation.position_text import code_token
        v = self.variant
        geo = v.geometry
        mid = v.side - 1
        top = max(v.height(c) for c in range(geo.size))
        width = 2 * v.side - 1
        lines = []
        for h in range(top, -1, -1):
            row = [" "] * width
            label = ""
            for c in range(geo.size):
                if v.height(c) == h:
                    x = geo.coords[c][0]
                    row[x] = code_token(v, pos.board[c]) if pos.board[c] else "."
                    if x == mid:
                        label = geo.name(c)[1:]
            lines.append(f"{label:>3}  " + "  ".join(f"{t:>1}" for t in row).rstrip())
        lines.append("     " + "  ".join(geo.name(c)[0] for c in range(width)))
        return lines


class HexVariant(Variant):
    """A variant on a hexagonal board, built from a variants-file section; the class
    attributes are set per section by ``read_hex``."""
    side = 6
    pieces: tuple[tuple[str, str, str], ...] = ()     # (key, letter, definition) in file order
    names: dict[str, str] = {}                         # pieceNames: letter -> name (else the key)
    royal_letter = "k"
    pawn_letters: frozenset[str] = frozenset()
    promo_choices: tuple[str, str] = ("", "")          # per colour: the letters offered
    promo_cells: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset())
    double_cells: tuple[frozenset[str] | None, frozenset[str] | None] = (None, None)
    double_step = True
    promo_mandatory = True
    values: dict[str, int] = {}
    notation_class = HexText

    def __init__(self) -> None:
        self.geometry = self.make_geometry()
        self._double: tuple[frozenset[Coord], ...] | None = None
        self.piece_types = [None] + [
            PieceType(self.names.get(letter, key), letter.upper(), self._atoms(letter, text),
                      royal=letter == self.royal_letter, pawn=letter in self.pawn_letters,
                      value=self.values.get(letter))
            for key, letter, text in self.pieces]
        super().__init__()
        self._letter = {pt.id: pt.token.lower() for pt in self.piece_types if pt is not None}
        geo = self.geometry
        self._zone = tuple(frozenset(geo.by_name[n] for n in cells) for cells in self.promo_cells)

    def make_geometry(self) -> Geometry:
        return hexagon(self.side)

    # ---- frames: Black is White mirrored front to back --------------------------------------
    def orient(self, v):
        return (v[0], -v[0] - v[1])

    def height(self, cell: int) -> int:
        """The cell's height above the board's lowest cell, in half cells."""
        x, y = self.geometry.coords[cell]
        return hex_height((x, y)) - (self.side - 1)

    # ---- pieces -------------------------------------------------------------------------------
    def double_from(self, color: int) -> frozenset[Coord]:
        """The coordinates a pawn of that colour double-steps from (read once, when the tables
        are compiled: the default reads the start position's pawns)."""
        if self._double is None:
            geo = self.geometry
            out = []
            for c in (WHITE, BLACK):
                names = self.double_cells[c]
                if names is None:           # the cells of the side's pawns at the start
                    board = self.start_position().board
                    cells = [i for i, p in enumerate(board) if p and p & 1 == c
                             and self._letter[p >> 1] in self.pawn_letters]
                else:
                    cells = [geo.by_name[n] for n in names]
                out.append(frozenset(geo.coords[i] for i in cells))
            self._double = tuple(out)
        return self._double[color]

    def _atoms(self, letter: str, text: str):
        """The piece's atoms; a pawn's capture leaps also take en passant and it gains the
        double step straight up its file from the side's double-step cells."""
        atoms = parse_hex_piece(text)
        if letter not in self.pawn_letters or not self.double_step:
            return atoms
        out = [dataclasses.replace(a, flag="ep") if a.kind == LEAP and a.mode == CAPTURE else a
               for a in atoms]
        def origin(coord, color):
            return tuple(coord) in self.double_from(color)
        out.append(ride(((0, 1),), MOVE, max_dist=2, stops=frozenset({2}), flag="double",
                        origin=origin))
        return tuple(out)

    # ---- promotion ------------------------------------------------------------------------------
    def promotion_options(self, code, frm, to):
        letter = self._letter[code >> 1]
        if letter not in self.pawn_letters or to not in self._zone[code & 1]:
            return ()
        opts = tuple(self.by_token[ch.upper()].id for ch in self.promo_choices[code & 1])
        return opts if self.promo_mandatory else (0,) + opts

    # ---- positions ------------------------------------------------------------------------------
    def validate_position(self, pos):
        """At most one royal piece a side."""
        from engine.notation.position_text import PositionTextError
        kings = [0, 0]
        for p in pos.board:
            if p and self.piece_types[p >> 1].royal:
                kings[p & 1] += 1
        for color, who in ((WHITE, "white"), (BLACK, "black")):
            if kings[color] > 1:
                raise PositionTextError(f"each side has at most one king ({who} kings: "
                                        f"{kings[color]})")


# ---- reading a section ---------------------------------------------------------------------
def hex_region(key: str, text: str, geo: Geometry) -> frozenset[str]:
    """Cells of a hexagon named by a region key: cells (``f5``), whole ranks (``*7``), whole
    files (``f*``), ``top`` (every file's last cell) and ``foot`` (every file's first)."""
    out: set[str] = set()
    files: dict[str, list[int]] = {}
    for c, n in enumerate(geo.names):
        files.setdefault(n[0], []).append(c)
    for tok in text.split():
        if tok == "-":
            continue
        if tok in ("top", "foot"):
            out |= {geo.names[cs[-1] if tok == "top" else cs[0]] for cs in files.values()}
            continue
        m = re.fullmatch(r"([a-z*])(\d+|\*)", tok)
        if m is None or tok == "**":
            raise KeyError_(key, "not a hex cell list (cells, *N, x*, top, foot)", tok)
        hit = {n for n in geo.names
               if m.group(1) in ("*", n[0]) and m.group(2) in ("*", n[1:])}
        if not hit:
            raise KeyError_(key, "not a cell of the hexagon", tok)
        out |= hit
    return frozenset(out)


def read_points(key: str, text: str) -> Fraction:
    """A share of the point: ``3/4``, ``1``, ``0.75`` (0 to 1)."""
    try:
        p = Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        raise KeyError_(key, "not a share of the point (3/4, 1/2, 0.75)", text) from None
    if not 0 <= p <= 1:
        raise KeyError_(key, "a share of the point is 0 to 1", text)
    return p


def read_hex(sec: Section, attrs: dict) -> dict[str, tuple[type, ...]]:
    """Read a hex section (``hex`` given) into ``attrs`` and return its rule parts (compose.py)
    but the plugins; raises KeyError_ for a bad key."""
    val = sec
    if sec.given("castling") and sec.flag("castling"):
        raise KeyError_("castling", "not supported on a hexagonal board (only false)",
                        val["castling"])
    side = as_int("hex", val["hex"], 2, 13)
    geo = hexagon(side)
    if geo.size > MAX_CELLS:
        raise KeyError_("hex", f"{geo.size} cells, more than the {MAX_CELLS} a move can name",
                        val["hex"])
    attrs.update({"side": side, "start_fen": val.get("startFen", "")})
    if not attrs["start_fen"]:
        raise KeyError_("startFen", "a hex section needs its startFen", sec.name)
    pieces, letters = [], set()
    for k, v in val.items():
        if not is_lattice_piece_key(k) or v == "-":
            continue
        letter, sep, text = v.partition(":")
        if len(letter) != 1 or not letter.isalpha() or not sep or not text.strip():
            raise KeyError_(k, "a hex piece needs letter:definition", v)
        letter = letter.lower()
        if letter in letters:
            raise KeyError_(k, "letter used twice", letter)
        try:
            parse_hex_piece(text)
        except HexPieceError as e:
            raise KeyError_(k, e.what, e.token) from None
        letters.add(letter)
        pieces.append((k, letter, text))
    attrs["pieces"] = tuple(pieces)
    if "pieceNames" in val:
        attrs["names"] = piece_names(val["pieceNames"], letters)
    attrs["royal_letter"] = next((letter for k, letter, _ in pieces if k == "king"), "")
    attrs["royal_check"] = bool(attrs["royal_letter"])
    attrs["pawn_letters"] = frozenset(_letters("pawnTypes", val.get("pawnTypes", "-"), letters))
    both = _letters("promotionPieceTypes", val.get("promotionPieceTypes", "-"), letters)
    attrs["promo_choices"] = tuple(_letters(k, val[k], letters) if k in val else both
                                   for k in ("promotionPieceTypesWhite",
                                             "promotionPieceTypesBlack"))
    attrs["promo_cells"] = tuple(hex_region(k, val.get(k, d), geo) for k, d in
                                 (("promotionRegionWhite", "top"),
                                  ("promotionRegionBlack", "foot")))
    attrs["promo_mandatory"] = sec.flag("mandatoryPawnPromotion")
    attrs["double_step"] = sec.flag("doubleStep")
    attrs["double_cells"] = tuple(hex_region(k, val[k], geo) if k in val else None
                                  for k in ("doubleStepRegionWhite", "doubleStepRegionBlack"))
    values = {}
    for ch, num in _pairs("pieceValues", val.get("pieceValues", ""), letters):
        values[ch] = as_int("pieceValues", num, 0, 100000)
    attrs["values"] = values
    attrs["checkmate_result"] = sec.outcome("checkmateValue")
    if "stalematePoints" in val:
        p = read_points("stalematePoints", val["stalematePoints"])
        attrs["stalemate_points"] = p
        # the side stalemated scores 1 - p: its score in the engine's terms
        attrs["stalemate_result"] = "loss" if p > Fraction(1, 2) else \
            "win" if p < Fraction(1, 2) else "draw"
    return {"board": (HexVariant,)}


def is_hex_piece_key(key: str) -> bool:
    """A piece key of a hex section: customPiece1..25 or king."""
    return is_lattice_piece_key(key)
