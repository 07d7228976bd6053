"""The keys of Fairy-Stockfish's xiangqi and makruk families (docs/variant-files.md):

* ``mobilityRegionWhite<Piece>`` / ``mobilityRegionBlack<Piece>`` (``<Piece>`` a piece key
  with its first letter capitalised: ``King``, ``Fers``, ``Elephant``, ``CustomPiece1``…):
  the cells that piece of that colour may move to (a palace, its own half of the board).
  Fairy-Stockfish masks the piece's moves and attacks with it; so does
  :meth:`MobilityRules.allow_move`, when the tables are compiled.  A piece is dropped only
  inside its region too (:meth:`MobilityRules.drop_allowed`).
* ``flyingGeneral``: the two royal pieces may not face each other on a file with nothing
  between them; a move that leaves them so is illegal (:meth:`FlyingGeneral.legal_moves`).
* ``soldierPromotionRank``: the ``soldier`` steps sideways only from this rank on (relative,
  1-based; 1: everywhere), forward everywhere.
* ``shatarMateRule`` (shatar): a checkmate given by knights alone wins for the side mated;
  any other checkmate wins only when the unbroken series of checks that led to it held a
  check by a knight, a rook or a bers (``shak``), else it is a draw (:class:`ShatarMate`).
"""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from engine.movegen import in_check, moves_before_result, royal_filter
from engine.moves import CELL, FROM_SHIFT, is_drop
from engine.pieces import PieceType
from engine.variant import BLACK, WHITE
from variants.fsf_pieces import PIECES, soldier_atoms

from .counting import counting_attrs
from .filevariant import RuleBase
from .seasia import seasia_attrs
from .values import KeyError_, as_bool, as_int, as_region, in_region

_MOBILITY = re.compile(r"mobilityRegion(White|Black)(\w+)")


def piece_key_of(capitalised: str) -> str | None:
    """The piece key a mobility key names (``Fers`` -> ``fers``, ``CustomPiece3`` ->
    ``customPiece3``), or None."""
    if not capitalised:
        return None
    name = capitalised[0].lower() + capitalised[1:]
    if name in PIECES or re.fullmatch(r"customPiece([1-9]|1\d|2[0-5])", name):
        return name
    return None


def is_mobility_key(key: str) -> bool:
    """A ``mobilityRegionWhite<Piece>``/``…Black<Piece>`` key of a piece Fairy-Stockfish knows."""
    m = _MOBILITY.fullmatch(key)
    return m is not None and piece_key_of(m.group(2)) is not None


def asia_attrs(val: dict[str, str], pieces: tuple[tuple[str, str, str], ...], attrs: dict[str, Any],
               files: int, ranks: int) -> tuple[type, ...]:
    """Set the class attributes of these keys, of the counting keys (counting.py) and of the
    south-east Asian games' keys (seasia.py); the rule parts they need."""
    letter_of = {name: letter for name, letter, _ in pieces}
    mobility: dict[tuple[int, str], frozenset] = {}
    for k, v in val.items():
        m = _MOBILITY.fullmatch(k)
        if m is None:
            continue
        name = piece_key_of(m.group(2))
        if name is None or name not in letter_of:
            continue                    # a piece the section does not have: nothing to restrict
        color = WHITE if m.group(1) == "White" else BLACK
        mobility[(color, letter_of[name])] = as_region(k, v, files, ranks)
    attrs["mobility"] = mobility
    attrs["flying_general"] = fg = as_bool("flyingGeneral", val.get("flyingGeneral", "false"))
    rank = as_int("soldierPromotionRank", val.get("soldierPromotionRank", "1"), 1, ranks)
    if rank > 1 and "soldier" not in letter_of:
        raise KeyError_("soldierPromotionRank", "needs the soldier piece", str(rank))
    attrs["soldier_rank"] = rank
    shatar = as_bool("shatarMateRule", val.get("shatarMateRule", "false"))
    # Fairy-Stockfish's shak pieces by their keys: the knight, the rook and the bers
    attrs["shak_letters"] = frozenset(letter_of[k] for k in ("knight", "rook", "bers") if k in letter_of)
    attrs["knight_letters"] = frozenset(letter_of[k] for k in ("knight",) if k in letter_of)
    seasia = seasia_attrs(val, pieces, attrs)      # first: its text joins the count's
    return seasia + counting_attrs(val, pieces, attrs) + ((FlyingGeneral,) if fg else ()) \
        + ((MobilityRules,) if mobility or rank > 1 else ()) + ((ShatarMate,) if shatar else ())


class MobilityRules(RuleBase):
    """Mobility regions and the soldier's rank: what the move tables are compiled from."""
    mobility: dict[tuple[int, str], frozenset] = {}
    soldier_rank = 1

    def _piece(self, name: str, letter: str, betza: str) -> PieceType:
        pt = super()._piece(name, letter, betza)
        if name == "soldier" and self.soldier_rank > 1:
            pt = replace(pt, atoms=soldier_atoms(self.soldier_rank, self.ranks))
        return pt

    def allow_move(self, code: int, frm: int, to: int) -> bool:
        if self.mobility:
            pt = self.piece_types[code >> 1]
            region = self.mobility.get((code & 1, pt.token.lower())) if pt is not None else None
            if region is not None and not in_region(self.geometry.coords[to], region):
                return False
        return super().allow_move(code, frm, to)

    def drop_allowed(self, code: int, cell: int) -> bool:
        # a piece is dropped only where it may stand (Fairy-Stockfish masks a piece's drop
        # region with its mobility region too: supply chess's advisors in the palace)
        if self.mobility:
            pt = self.piece_types[code >> 1]
            region = self.mobility.get((code & 1, pt.token.lower())) if pt is not None else None
            if region is not None and not in_region(self.geometry.coords[cell], region):
                return False
        return super().drop_allowed(code, cell)


class FlyingGeneral(RuleBase):
    """flyingGeneral: the royal pieces may not face each other on an open file."""
    flying_general = True

    def legal_moves(self, pos, pseudo):
        r = super().legal_moves(pos, pseudo)
        moves = r if r is not None else royal_filter(pos, pseudo)
        king = pos.king
        if king[WHITE] < 0 or king[BLACK] < 0:
            return moves
        coords = self.geometry.coords
        files = {coords[king[WHITE]][0], coords[king[BLACK]][0]}
        out = []
        for m in moves:
            frm = (m >> FROM_SHIFT) & CELL
            # only a move from a royal's file (the royal itself, or a piece between them) or
            # onto it by the royal can leave the two facing
            if is_drop(m) or coords[frm][0] not in files:
                out.append(m)
                continue
            pos.make(m)
            facing = self.generals_face(pos)
            pos.unmake()
            if not facing:
                out.append(m)
        return out

    def generals_face(self, pos) -> bool:
        """Do the two royal pieces stand on one file with no piece between them?"""
        w, b = pos.king[WHITE], pos.king[BLACK]
        if w < 0 or b < 0:
            return False
        geo = self.geometry
        cw, cb = geo.coords[w], geo.coords[b]
        if cw[0] != cb[0]:
            return False
        lo, hi = sorted((cw[1], cb[1]))
        board, index = pos.board, geo.index
        return all(not board[index[(cw[0], r)]] for r in range(lo + 1, hi))


class ShatarMate(RuleBase):
    """shatarMateRule: a mate by knights alone is lost by the mating side; any other mate is
    a draw unless a knight, rook or bers gave a check in the series of checks ending in it."""
    shak_letters: frozenset[str] = frozenset()
    knight_letters: frozenset[str] = frozenset()

    def adjudicate(self, pos):
        r = super().adjudicate(pos)
        if r is not None or not in_check(pos) or moves_before_result(pos):
            return r
        letters = self._checker_letters(pos)
        if letters and letters <= self.knight_letters:
            return (1, "checkmate by a knight")
        undone: list[int] = []
        shak = bool(letters & self.shak_letters)
        while not shak and len(pos.stack) >= 2:
            for _ in range(2):
                undone.append(pos.stack[-1].move)
                pos.unmake()
            if not in_check(pos):
                break
            shak = bool(self._checker_letters(pos) & self.shak_letters)
        for m in reversed(undone):
            pos.make(m)
        return None if shak else (0, "checkmate without a shak")

    def _checker_letters(self, pos) -> frozenset[str]:
        """The letters of the pieces that check the side to move's royal piece."""
        side = pos.side
        k = pos.king[side]
        atk = self.attacks[side ^ 1]
        b = pos.board
        cells = [s for s, codes in atk[0][k] if b[s] in codes]
        for ray, sets in atk[1][k]:
            for i, c in enumerate(ray):
                if b[c]:
                    if b[c] in sets[i]:
                        cells.append(c)
                    break
        pts = self.piece_types
        return frozenset(pts[b[c] >> 1].token.lower() for c in cells)
