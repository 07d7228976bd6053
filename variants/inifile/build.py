"""From the keys of one section (inheritance already resolved) to a Variant class.

Every key has Fairy-Stockfish's meaning and default (its variants.ini header documents
them).  A key this loader does not implement is refused by name, never ignored: a silently
ignored rule would play another game.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from engine.betza import BetzaError, parse_betza
from engine.geometry import grid2d
from engine.structure import Structure
from engine.variant import Variant
from variants.chess_tables import CHESS_SQUARE_TABLES, CHESS_STRUCTURE
from variants.fsf_pieces import PIECES

from . import compose
from . import drops                     # drops, hands and the promotion of pieces
from .hints import hint_attrs
from .holes import check_castling, hole_bases, hole_coords
from .keys import DEFAULTS, UNSUPPORTED
from .lattice import LATTICE_KEYS, build_lattice
from .levels import level_bases
from .moverules import FileRules, castle_file, move_attrs
from .pieceset import pieceset_attrs
from .plugins import plugin_bases, plugin_keys
from .pseudoroyal import PseudoRoyalRules
from .registry import GRID, is_piece_key, on_board
from .results import ResultRules, result_attrs
from .returns import return_attrs, return_bases, text_bases
from .rulings import ruling_attrs, ruling_bases
from .solid import axis_order, check_piece, engine_regions, is_solid, solid_bases
from .template import template_bases
from .triplestep import TripleSteps
from .values import KeyError_, KeyErrors, as_bool, as_file, as_int, as_region, as_value

__all__ = ["build_class"]

ON_GRID = on_board(GRID)        # the keys a square, levelled or solid section may hold, but pieces and plugins


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


def build_class(name: str, keys: dict[str, tuple[str, int]]) -> tuple[type[Variant], dict[str, int]]:
    """The Variant class of a section; raises KeyError_ on the first bad key.  Also returns
    the line of every key, for errors found later (startFen)."""
    if "lattice" in keys:                   # squares and vertices (lattice.py)
        return build_lattice(name, keys)
    lines = {k: ln for k, (_, ln) in keys.items()}
    val = {k: v for k, (v, _) in keys.items()}
    lattice_only = [KeyError_(k, "needs lattice (a board of squares and vertices)", k)
                    for k in val if k in LATTICE_KEYS]
    if lattice_only:
        raise KeyErrors(lattice_only)
    pkeys = plugin_keys()                   # plugins bring their own keys
    refused = [KeyError_(k, "not supported", k) if k in UNSUPPORTED else KeyError_(k, "unknown key", k)
               for k in val
               if k not in ON_GRID and k not in pkeys and not is_piece_key(k)]
    if refused:
        raise KeyErrors(refused)
    get: Callable[[str], str] = lambda k: val.get(k, DEFAULTS.get(k, ""))  # noqa: E731
    ranks = as_int("maxRank", get("maxRank"), 1, 10)
    files = as_file("maxFile", get("maxFile"), 12) + 1
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
    attrs: dict = {"name": name, "files": files, "ranks": ranks, "pieces": tuple(pieces),
                   "start_fen": get("startFen")}
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
        as_region(k, val.get(k, DEFAULTS[k]), files, ranks, clip=k not in val, levels=levels)
        for k in ("promotionRegionWhite", "promotionRegionBlack"))
    attrs["promo_mandatory"] = as_bool("mandatoryPawnPromotion", get("mandatoryPawnPromotion"))
    if as_bool("doubleStep", get("doubleStep")):
        attrs["double_region"] = tuple(
            as_region(k, val.get(k, DEFAULTS[k]), files, ranks, clip=k not in val, levels=levels)
            for k in ("doubleStepRegionWhite", "doubleStepRegionBlack"))
    attrs["triple_region"] = tuple(as_region(k, val.get(k, ""), files, ranks, levels=levels)
                                   for k in ("tripleStepRegionWhite", "tripleStepRegionBlack"))
    attrs["castle_on"] = as_bool("castling", get("castling"))
    royal = val.get("king", "k").partition(":")[0].lower() if val.get("king", "k") != "-" else ""
    attrs.update(move_attrs(val, tuple(pieces), letters, pawn_letters, files, ranks))
    if attrs["castle_on"]:
        rank = as_int("castlingRank", get("castlingRank"), 1, ranks) - 1
        king_file = as_file("castlingKingFile", val["castlingKingFile"], files) \
            if "castlingKingFile" in val else _home_file(get("startFen"), ranks, rank,
                                                         attrs["castle_king"].upper())
        attrs["castle_files"] = (king_file if king_file is not None else 4,
                                 castle_file("castlingKingsideFile", get("castlingKingsideFile"), files),
                                 castle_file("castlingQueensideFile", get("castlingQueensideFile"), files))
        attrs["castle_rank"] = rank
    attrs["stalemate_result"] = {"draw": "draw", "loss": "loss", "win": "win"}[
        as_value("stalemateValue", get("stalemateValue"))]
    n = as_int("nMoveRule", get("nMoveRule"), 0, 1000)
    attrs["move_rule_plies"] = 2 * n if n else None
    attrs["repetition_count"] = as_int("nFoldRule", get("nFoldRule"), 2, 100)
    attrs["royal_letter"] = royal
    attrs["royal_check"] = bool(attrs["royal_letter"])
    result, hooks = result_attrs(val, letters, pawn_letters, royal, files, ranks)
    attrs.update(result)
    grid2d(files, ranks)                    # fails early on an impossible board
    drops.apply(val, pieces, attrs, files, ranks)
    ruling_attrs(val, pieces, attrs, KeyError_)  # cellfish's own rulings (after the drop keys)
    hint_attrs(val, attrs)                        # cellfish's search hints
    pieceset_attrs(val, pieces, attrs, KeyError_)  # promotedOnlyTypes (after the drop keys)
    attrs.update(return_attrs(val, letters, files, ranks, levels))   # returns.py
    holes = hole_coords(val, files, ranks, levels, as_region, KeyError_)
    check_castling(attrs, holes, ranks, levels, KeyError_)
    solid_cls = solid_bases(val, tuple(pieces), royal, KeyError_)
    drop_filters = drops.mixins(attrs)
    if solid_cls:                           # regions in the engine's coordinate order
        holes = engine_regions(attrs, holes, axis_order(val, KeyError_), len(levels))
    parts: dict[str, tuple[type, ...]] = {  # compose.py: the order they run in
        "template": template_bases(val),
        "pseudoroyal": (PseudoRoyalRules,) if attrs["pseudo_royal"] else (),
        "triple": (TripleSteps,) if any(attrs["triple_region"]) else (),
        "plugins": plugin_bases(val, KeyError_), "holes": hole_bases(holes), "solid": solid_cls,
        "levels": level_cls, "drop_filters": drop_filters, "rulings": ruling_bases(attrs),
        "returns": return_bases(attrs), "drops": (drops.DropRules,),
        "results": (ResultRules,) if hooks else (), "board": (FileRules,)}
    bases = compose.bases(parts)
    attrs["notation_class"] = text_bases(attrs, drops.text_class(bases))
    plain = not (holes or levels or solid or attrs["hands"])
    attrs["square_tables"] = tables = _chess_square_tables(tuple(pieces), royal, files, ranks, plain)
    attrs["structure"] = _chess_structure(tables)
    return type(f"File_{name}", bases, attrs), lines


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
