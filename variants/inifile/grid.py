"""Square, levelled and solid boards: what the builder (build.py) reads from a section on them.

``read_grid`` reads the board, its pieces, pawns, promotion, castling and the rule keys of
every module that reads keys on these boards (results.py, moverules.py, drops.py,
rulings.py, pieceset.py, returns.py, holes.py, solid.py, levels.py), and returns the rule
parts of the section's class.  Lattice boards have their own reader (lattice.py); the keys
both read (the move-count and repetition rules, hints, plugins) the builder reads.
"""
from __future__ import annotations

import re
from dataclasses import replace

from engine.betza import BetzaError, parse_betza
from engine.geometry import grid2d
from engine.structure import Structure
from variants.chess_tables import CHESS_SQUARE_TABLES, CHESS_STRUCTURE
from variants.fsf_pieces import PIECES

from . import drops                     # drops, hands and the promotion of pieces
from .asia import asia_attrs
from .chasing import chasing_attrs
from .chess960 import Chess960Rules, chess960_attrs
from .gating import GatingRules, gating_attrs
from .blast import blast_attrs, blast_bases
from .castlerules import castle_attrs, castle_bases
from .checks import checks_attrs, checks_bases, checks_text
from .materialcount import material_attrs
from .passes import pass_attrs, pass_bases
from .stalemate import stalemate_attrs, stalemate_bases
from .petrify import petrify_attrs, petrify_bases
from .janggi import janggi_attrs
from .holes import check_castling, hole_bases, hole_coords
from .levels import level_bases
from .moverules import FileRules, castle_file, move_attrs
from .pieceset import pieceset_attrs
from .placement import PlacementRules, placement_attrs
from .twoboards import two_board_attrs
from .pseudoroyal import PseudoRoyalRules
from .results import ResultRules, result_attrs
from .reversi import ReversiRules, reversi_attrs
from .ataxx import AtaxxRules, free_drop_attrs, free_drop_text
from .returns import return_attrs, return_bases, text_bases
from .rulings import ruling_attrs, ruling_bases
from .section import Section
from .solid import axis_order, check_piece, engine_regions, is_solid, solid_bases
from .walls import WallRules, wall_attrs
from .template import template_bases
from .triplestep import TripleSteps
from .values import MAX_FILES, KeyError_, as_region

__all__ = ["read_grid"]

def _home_file(fen: str, ranks: int, rank: int, letter: str) -> int | None:
    """The file of White's `letter` piece on `rank` of a start position text (Fairy-Stockfish
    castles the king from where the start position has it)."""
    rows = fen.split()[0].split("[")[0].split("|")[0].split("/")   # a levelled board: its first level
    if not letter or len(rows) != ranks:
        return None
    f = 0
    for n, ch in re.findall(r"(\d+)|(.)", rows[ranks - 1 - rank]):
        if n:
            f += int(n)
        elif ch == letter:
            return f
        elif ch.isalpha() or ch == "*":     # a piece, or a hole
            f += 1
    return None


def read_grid(sec: Section, attrs: dict) -> dict[str, tuple[type, ...]]:
    """Read a square, levelled or solid section into ``attrs`` (the class attributes) and
    return its rule parts (compose.py), but the plugins, which the builder adds; raises
    KeyError_ on the first bad key."""
    val = sec
    get = sec.text
    ranks = sec.number("maxRank")
    files = sec.file("maxFile", MAX_FILES) + 1
    level_cls = level_bases(val, files, ranks, KeyError_)
    levels = level_cls[0].level_names if level_cls else ""
    solid = is_solid(val, KeyError_)
    pieces: list[tuple[str, str, str]] = []
    letters: set[str] = set()
    for k, v in val.items():
        if k in PIECES or k.startswith("customPiece"):
            if v == "-":
                continue
            letter, _, betza = v.partition(":")
            if len(letter) != 1 or not letter.isalpha():
                raise KeyError_(k, "a piece needs one letter", v)
            letter = letter.lower()
            if letter in letters:
                raise KeyError_(k, "letter used twice", letter)
            letters.add(letter)
            if k in PIECES and not betza:
                betza = PIECES[k][1]
            elif k not in ("king",) and k in PIECES and betza:
                raise KeyError_(k, "only custom pieces and the king take a Betza", v)
            if k.startswith("customPiece") and not betza:
                raise KeyError_(k, "a custom piece needs letter:Betza", v)
            if solid:
                betza = check_piece(k, letter, v.partition(":")[2], KeyError_)
                pieces.append((k, letter, betza))
                continue
            try:
                parse_betza(betza, initial=lambda c, col: False) if k != "pawn" else None
            except BetzaError as e:
                raise KeyError_(k, str(e), betza) from None
            pieces.append(("pawn" if k == "pawn" else k, letter, betza))
    attrs.update({"files": files, "ranks": ranks, "pieces": tuple(pieces),
                  "start_fen": get("startFen")})
    # pawnTypes (and the en-passant, move-count and promotion types after it) default to the
    # pawn piece, whatever its letter, as Fairy-Stockfish's defaults name piece types
    pawn_letters = frozenset(val["pawnTypes"]) if "pawnTypes" in val \
        else frozenset(letter for n, letter, _ in pieces if n == "pawn")
    attrs["pawn_letters"] = pawn_letters
    # by default the queen, rook, bishop and knight pieces, whatever their letters
    both = val.get("promotionPieceTypes", "".join(
        letter for n, letter, _ in pieces if n in ("queen", "rook", "bishop", "knight")))
    white = frozenset(val.get("promotionPieceTypesWhite", both)) - {"-"}
    black = frozenset(val.get("promotionPieceTypesBlack", both)) - {"-"}
    for letter in white | black:
        if letter not in letters:
            raise KeyError_("promotionPieceTypes", "no piece has this letter", letter)
    attrs["promo_letters"] = (white, black)
    attrs["promo_region"] = tuple(
        as_region(k, sec.text(k), files, ranks, clip=k not in val, levels=levels)
        for k in ("promotionRegionWhite", "promotionRegionBlack"))
    attrs["promo_mandatory"] = sec.flag("mandatoryPawnPromotion")
    if sec.flag("doubleStep"):
        attrs["double_region"] = tuple(
            as_region(k, sec.text(k), files, ranks, clip=k not in val, levels=levels)
            for k in ("doubleStepRegionWhite", "doubleStepRegionBlack"))
    attrs["triple_region"] = tuple(as_region(k, val.get(k, ""), files, ranks, levels=levels)
                                   for k in ("tripleStepRegionWhite", "tripleStepRegionBlack"))
    attrs["castle_on"] = sec.flag("castling")
    royal = val.get("king", "k").partition(":")[0].lower() if val.get("king", "k") != "-" else ""
    attrs.update(move_attrs(val, tuple(pieces), letters, pawn_letters, files, ranks))
    if attrs["castle_on"]:
        rank = sec.rank("castlingRank", ranks)
        king_file = sec.file("castlingKingFile", files) \
            if sec.given("castlingKingFile") else _home_file(get("startFen"), ranks, rank,
                                                             attrs["castle_king"].upper())
        attrs["castle_files"] = (king_file if king_file is not None else 4,
                                 castle_file("castlingKingsideFile", sec.text("castlingKingsideFile"), files),
                                 castle_file("castlingQueensideFile", sec.text("castlingQueensideFile"),
                                             files))
        attrs["castle_rank"] = rank
    attrs["royal_letter"] = royal
    attrs["royal_check"] = bool(attrs["royal_letter"])
    result, hooks = result_attrs(val, letters, pawn_letters, royal, files, ranks)
    attrs.update(result)
    # the chess family's rule keys (after the result keys, which some of them refine)
    checks_attrs(val, attrs)                # checks.py
    blast_attrs(val, letters, attrs)        # blast.py
    stalemate_attrs(val, attrs)             # stalemate.py
    castle_attrs(val, attrs)                # castlerules.py
    petrify_attrs(val, letters, attrs)      # petrify.py
    material_attrs(val, attrs)              # materialcount.py
    pass_attrs(val, attrs)                  # passes.py
    two_board_attrs(val, letters, attrs)    # twoboards.py (and mustDropType)
    grid2d(files, ranks)                    # fails early on an impossible board
    drops.apply(val, pieces, attrs, files, ranks)
    gating = gating_attrs(val, attrs)             # gating.py (after the drop keys: a hand)
    ruling_attrs(val, pieces, attrs, KeyError_)  # cellfish's own rulings (after the drop keys)
    pieceset_attrs(val, pieces, attrs, KeyError_)  # promotedOnlyTypes (after the drop keys)
    attrs.update(return_attrs(val, letters, files, ranks, levels))   # returns.py
    holes = hole_coords(val, files, ranks, levels, as_region, KeyError_)
    check_castling(attrs, holes, ranks, levels, KeyError_)
    solid_cls = solid_bases(val, tuple(pieces), royal, KeyError_)
    drop_filters = drops.mixins(attrs)
    asia = asia_attrs(val, tuple(pieces), attrs, files, ranks)
    janggi = janggi_attrs(val, tuple(pieces), attrs, files, ranks)
    chasing = chasing_attrs(val, tuple(pieces), attrs)
    if solid_cls:                           # regions in the engine's coordinate order
        holes = engine_regions(attrs, holes, axis_order(val, KeyError_), len(levels))
    parts: dict[str, tuple[type, ...]] = {  # compose.py: the order they run in
        "template": template_bases(val), "passes": pass_bases(attrs),
        "pseudoroyal": (PseudoRoyalRules,) if attrs["pseudo_royal"] else (),
        "triple": (TripleSteps,) if any(attrs["triple_region"]) else (), "asia": asia,
        "janggi": janggi, "chasing": chasing,
        "blast": blast_bases(attrs), "petrify": petrify_bases(attrs),
        "stalemate": stalemate_bases(attrs), "castle": castle_bases(attrs),
        "checks": checks_bases(attrs),
        "holes": hole_bases(holes), "solid": solid_cls,
        "levels": level_cls, "drop_filters": drop_filters, "rulings": ruling_bases(attrs),
        "returns": return_bases(attrs), "gating": (GatingRules,) if gating else (),
        "walls": (WallRules,) if wall_attrs(val, attrs, files, ranks) else (),
        "placement": (PlacementRules,) if placement_attrs(val, attrs) else (),
        "reversi": ((ReversiRules,) if reversi_attrs(val, attrs, files, ranks) else ())
        + ((AtaxxRules,) if free_drop_attrs(val, attrs) or attrs["ataxx_flip"] else ()),
        "drops": (drops.DropRules,), "results": (ResultRules,) if hooks else (),
        "chess960": (Chess960Rules,) if chess960_attrs(val, attrs) else (), "board": (FileRules,)}
    plain = not (holes or levels or solid or attrs["hands"])
    attrs["square_tables"] = tables = _chess_square_tables(tuple(pieces), royal, files, ranks, plain)
    attrs["structure"] = _chess_structure(tables)
    return parts


def grid_notation(bases: tuple[type, ...], attrs: dict) -> type:
    """The position text class of a square, levelled or solid section's class bases."""
    return free_drop_text(attrs, checks_text(attrs, text_bases(attrs, drops.text_class(bases))))


FIDE_PIECES = ("pawn", "knight", "bishop", "rook", "queen", "king")


def _chess_square_tables(pieces: tuple[tuple[str, str, str], ...], royal: str, files: int,
                         ranks: int, plain: bool) -> dict | None:
    """Chess's square tables (``variants/chess_tables.py``) for the FIDE pieces, under their
    own letters and moves, of a plain 8x8 board (no hands, holes or levels): a section that
    copies chess evaluates as chess does.  Other pieces keep the generic tables."""
    if not plain or files != 8 or ranks != 8:
        return None
    tables = {}
    for key, letter, betza in pieces:
        if key in FIDE_PIECES and (letter, betza) == PIECES[key] \
                and (key != "king" or letter == royal):
            tables[letter.upper()] = CHESS_SQUARE_TABLES[letter.upper()]
    return tables or None


def _chess_structure(tables: dict | None) -> Structure | None:
    """Chess's structure terms (doubled and isolated pawns, the bishop pair, rooks on open
    files) where the section has chess's square tables for its pawn: only the terms of the
    FIDE pieces it keeps."""
    if not tables or "P" not in tables:
        return None
    st = CHESS_STRUCTURE
    return replace(st, pair={k: v for k, v in st.pair.items() if k in tables},
                   open_file={k: v for k, v in st.open_file.items() if k in tables})
