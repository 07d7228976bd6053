"""The pawn and castling keys of a variants file, with Fairy-Stockfish's meaning and defaults:
``enPassantRegion``, ``enPassantTypes…``, ``castlingKingPiece``, ``castlingRookPieces`` and
the rook files ``castlingRookKingsideFile``/``…QueensideFile`` (docs/variant-files.md).

:class:`FileRules` is the base of every file variant: a ``FileVariant`` whose pawns leave an
en-passant cell only inside the region, whose en-passant capturers are the listed types (a
custom piece with ``e`` in its Betza, as Fairy-Stockfish reads it), and whose castling king
and rooks are the listed piece types, royal or not.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, cast

from engine.movegen import attacked
from engine.pieces import CAPTURE, LAME, LEAP, MOVE, RIDE, Atom, PieceType, ride
from engine.variant import BLACK, WHITE
from variants.chess import ChessText

from .filevariant import FileVariant
from .registry import names
from .section import Section
from .values import FILES, KeyError_, as_file, as_region, in_region
from .results import piece_set

KEYS = names("move")


def move_attrs(val: Section, pieces: tuple[tuple[str, str, str], ...], letters: set[str],
               pawn_letters: frozenset[str], files: int, ranks: int) -> dict[str, Any]:
    """The class attributes of the pawn and castling keys."""
    a: dict[str, Any] = {}
    a["ep_region"] = as_region("enPassantRegion", val["enPassantRegion"], files, ranks) \
        if "enPassantRegion" in val else None
    # a custom piece with e in its Betza captures en passant, unless a key lists the types
    e_pieces = {letter for key, letter, betza in pieces
                if key.startswith("customPiece") and "e" in betza}
    default = frozenset(val["pawnTypes"]) if "pawnTypes" in val else pawn_letters | e_pieces
    both = piece_set("enPassantTypes", val["enPassantTypes"], letters) \
        if "enPassantTypes" in val else default
    a["ep_types"] = tuple(piece_set(k, val[k], letters) if k in val else both
                          for k in ("enPassantTypesWhite", "enPassantTypesBlack"))
    king = next((letter for key, letter, _ in pieces if key == "king"), "")
    rook = next((letter for key, letter, _ in pieces if key == "rook"), "")
    a["castle_king"] = "".join(piece_set("castlingKingPiece", val["castlingKingPiece"], letters, one=True)) \
        if "castlingKingPiece" in val else king
    if a["castle_king"] == "*":
        raise KeyError_("castlingKingPiece", "one piece letter", "*")
    a["castle_rooks"] = piece_set("castlingRookPieces", val["castlingRookPieces"], letters) \
        if "castlingRookPieces" in val else frozenset(rook)
    a["rook_files"] = (
        val.file("castlingRookKingsideFile", files)
        if "castlingRookKingsideFile" in val else files - 1,
        val.file("castlingRookQueensideFile", files)
        if "castlingRookQueensideFile" in val else 0)
    return a


def castle_file(key: str, v: str, files: int) -> int | None:
    """A castling destination file: as Fairy-Stockfish reads it, any file of its largest
    board (a..l, 1..12); one beyond this board leaves that side without castling (None), as
    the default g does on a board of six files."""
    try:
        return as_file(key, v, files)
    except KeyError_:
        if as_file(key, v, len(FILES)) >= files:
            return None
        raise


class CastlingText(ChessText):
    """Castling rights of a file variant: the castling king piece and one of the castling
    rook pieces must stand on the rule's cells (neither need be royal)."""

    def castles(self, king: int, rook: int) -> bool:
        v = cast(FileVariant, self.variant)
        kt, rt = v.piece_types[king >> 1], v.piece_types[rook >> 1]
        return kt is not None and kt.token.lower() == v.castle_king \
            and rt is not None and rt.token.lower() in v.castle_rooks


class FileRules(FileVariant):
    """A file variant with the pawn and castling keys applied."""
    notation_class = CastlingText
    ep_region: frozenset | None = None       # None: everywhere
    ep_types: tuple[frozenset[str], frozenset[str]] = (frozenset("p"), frozenset("p"))
    castle_king = "k"
    castle_rooks: frozenset[str] = frozenset("r")
    rook_files: tuple[int, int] = (7, 0)

    def _piece(self, name: str, letter: str, betza: str) -> PieceType:
        pt = super()._piece(name, letter, betza)
        atoms: list[Atom] = []
        for a in pt.atoms:
            atoms.extend(self._pawn_rules(a, letter, name == "pawn"))
        return replace(pt, atoms=tuple(atoms))

    def _pawn_rules(self, a: Atom, letter: str, is_pawn: bool) -> list[Atom]:
        """One atom with the en-passant keys applied: an en-passant capture only for the
        colours whose ``enPassantTypes`` hold the piece; a pawn's two-step (the ``pawn``'s
        double step, a custom pawn's initial two-cell move) leaves an en-passant cell only
        when the cell passed lies in ``enPassantRegion``."""
        types = self.ep_types
        if a.flag == "ep" or (not is_pawn and a.mode == CAPTURE and a.kind == LEAP
                              and not callable(a.vectors) and letter in types[0] | types[1]):
            cols = [c for c in (WHITE, BLACK) if letter in types[c]]
            plain = replace(a, flag=None)
            rest = [c for c in (WHITE, BLACK) if c not in cols]
            return ([_for_colours(replace(a, flag="ep"), cols)] if cols else []) + \
                ([_for_colours(plain, rest)] if rest else [])
        double = a.flag == "double" or (
            not is_pawn and letter in self.pawn_letters and a.origin is not None
            and a.mode == MOVE and not callable(a.vectors) and _two_step(a))
        vectors = a.vectors
        if not double or callable(vectors):
            return [a]
        units = vectors if a.kind == RIDE else tuple((v[0] // 2, v[1] // 2) for v in vectors)
        out: list[Atom] = []
        for u in units:
            d = ride((u,), MOVE, max_dist=2, stops=frozenset({2}), flag="double", origin=a.origin)
            if self.ep_region is None:
                out.append(d)
            else:
                out.append(replace(d, origin=_passing(self.ep_region, u, a.origin, True)))
                out.append(replace(d, flag=None, origin=_passing(self.ep_region, u, a.origin, False)))
        return out

    def second_ep_cell(self, pos) -> int:
        """A second en-passant cell (a pawn's triple step: triplestep.py); -1: none."""
        return -1

    def read_triple_ep(self, pos, cells: list[int]) -> tuple[int, int] | None:
        """(ep cell, victim) of position-text en-passant cells after a triple step; None."""
        return None

    def make_castling(self):
        if not self.castle_on or not self.castle_king:
            return ()
        kf, ks, qs = self.castle_files
        rk, rq = self.rook_files
        royal = self.castle_king == self.royal_letter
        rules = []
        written: dict[tuple[int, int], int] = {}
        for color, rank, chars in ((WHITE, self.castle_rank, "KQ"),
                                   (BLACK, self.ranks - 1 - self.castle_rank, "kq")):
            def name(f: int, r: int = rank) -> str:
                return self.geometry.name(self.geometry.index[(f, r) + self.home_level])
            bit = 1 if color == WHITE else 4
            for rf, kt, step, b, ch in ((rk, ks, -1, bit, chars[0]), (rq, qs, 1, bit * 2, chars[1])):
                if kt is None:
                    # the destination is off the board: the right stays in the position
                    # text (and is lost as usual) but never castles: the king's own cell
                    # must be empty
                    rule = self.castling_rule(color, name(kf), name(rf), name(rf), name(rf), b, ch)
                    rule.empty, rule.safe = (rule.king_from,), ()
                    rules.append(rule)
                    continue
                rule = self.castling_rule(color, name(kf), name(kt), name(rf), name(kt + step), b, ch)
                if not royal:
                    # a castling piece that is not royal may castle out of, through and
                    # into attack, as in Fairy-Stockfish
                    rule.safe = ()
                rules.append(rule)
                # Fairy-Stockfish writes a castling move as the king taking its rook when
                # the king stays, or when a plain king step leads to the same cell
                if kt == kf or (abs(kt - kf) == 1 and kt != rf):
                    written[(rule.king_from, rule.king_to)] = rule.rook_from
        self.castle_written = written
        return tuple(rules)

    def validate_position(self, pos) -> None:
        """Refuse what the rules cannot play: at most one royal piece a side (Horde's White
        has none), the side not to move not in check.  Pawns may stand on any rank (Horde's
        stand on the first)."""
        from engine.notation.position_text import PositionTextError
        if self.royal_letter:
            kings: list[list[int]] = [[], []]
            for c, p in enumerate(pos.board):
                if p and self.piece_types[p >> 1].royal:
                    kings[p & 1].append(c)
            for col, who in ((WHITE, "white"), (BLACK, "black")):
                if len(kings[col]) > 1:
                    raise PositionTextError(f"each side has at most one king ({who} kings: {len(kings[col])})")
            k = kings[pos.side ^ 1][0] if kings[pos.side ^ 1] else -1
            if k >= 0 and attacked(pos, k, pos.side):
                raise PositionTextError(f"the side not to move is in check ({self.geometry.name(k)})")
        if pos.ep >= 0 and not self._valid_ep(pos):
            pos.ep, pos.ep_victim = -1, -1

    def _valid_ep(self, pos) -> bool:
        """The cell a pawn of the side that just moved passed on a double step from its
        double-step region (``doubleStepRegion…``, which need not be the second rank): that
        cell and the one it came from empty, the pawn just beyond."""
        mover = pos.side ^ 1
        region = self.double_region[mover]
        if not region:
            return super()._valid_ep(pos)
        geo = self.geometry
        x, y, *level = geo.coords[pos.ep]
        dy = 1 if mover == WHITE else -1
        origin = geo.index.get((x, y - dy, *level))
        victim = geo.index.get((x, y + dy, *level))
        if origin is None or victim is None or victim != pos.ep_victim \
                or not in_region(geo.coords[origin], region):
            return False
        v = pos.board[victim]
        return (not pos.board[pos.ep] and not pos.board[origin] and v != 0
                and v & 1 == mover and self.piece_types[v >> 1].pawn)


def _passing(region: frozenset, u: tuple[int, ...], first, inside: bool):
    """An origin predicate: ``first`` holds and the cell one step ``u`` ahead (turned half
    round for Black) is inside (or outside) the en-passant region."""
    def origin(c, col) -> bool:
        step = u if col == WHITE else (-u[0], -u[1])
        return (first is None or first(c, col)) and (((c[0] + step[0], c[1] + step[1]) in region) == inside)
    return origin


def _two_step(a: Atom) -> bool:
    """A move of exactly two cells along a line: a lame D or A (nD, nA) or a rider limited
    to two (W2, F2 ...) -- a pawn's initial double step."""
    vs = a.vectors
    if a.kind == LAME and not callable(vs):
        return all(max(abs(v[0]), abs(v[1])) == 2 and v[0] in (0, 2, -2) and v[1] in (0, 2, -2) for v in vs)
    return False


def _for_colours(a: Atom, cols: list[int]) -> Atom:
    """The atom restricted to pieces of the given colours."""
    first = a.origin
    allowed = frozenset(cols)
    return replace(a, origin=lambda c, col: col in allowed and (first is None or first(c, col)))
