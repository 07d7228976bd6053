"""Wall squares and petrification (``petrifyOnCaptureTypes``), with Fairy-Stockfish's meaning
(docs/variant-files.md): a piece of these types that captures turns into a wall on the square
it took, a square no piece may enter, pass or take, written ``*`` in the position text
(petrified).

A wall is a piece of its own here, token ``*``, that has no move; every wall has the first
player's code, so that the position text says all there is of it, and a move of either side
onto it is removed from the legal moves.  Under ``extinctionPseudoRoyal`` a capture that
would petrify the mover's pseudo-royal piece is illegal (the side would lose it).
"""
from __future__ import annotations

from engine.moves import DROP, EP, SPECIAL
from engine.pieces import PieceType

from .filevariant import RuleBase
from .registry import names
from .results import piece_set

WALL_KEYS = names("walls")
WALL_TOKEN = "*"


def wall_attrs(val: dict[str, str], letters: set[str], attrs: dict) -> None:
    """``petrifyOnCaptureTypes`` read into the class attributes."""
    attrs["petrify_types"] = piece_set("petrifyOnCaptureTypes", val.get("petrifyOnCaptureTypes", ""),
                                       letters)


def wall_bases(attrs: dict) -> tuple[type, ...]:
    """The rule part of a section whose squares can become walls (none otherwise)."""
    return (WallRules,) if attrs.get("petrify_types") else ()


class WallRules(RuleBase):
    """The wall piece (``_forms``), petrification (``after_move``) and the moves walls forbid
    (``legal_moves``)."""
    petrify_types: frozenset[str] = frozenset()

    def _forms(self, base: list[PieceType]) -> list[PieceType]:
        return super()._forms(base) + [PieceType("wall", WALL_TOKEN, (), value=0)]

    def __init__(self) -> None:
        super().__init__()
        self._wall = self.by_token[WALL_TOKEN].id * 2
        ncodes = 2 * len(self.piece_types)
        self._petrify = [False] * ncodes
        self._royal_type = [False] * ncodes
        for pt in self.piece_types[1:]:
            if pt is not None:
                for col in (0, 1):
                    self._petrify[pt.id * 2 + col] = pt.token.lower() in self.petrify_types
                    self._royal_type[pt.id * 2 + col] = pt.token.lower() in self.extinction_types

    def after_move(self, pos, move: int) -> None:
        super().after_move(pos, move)
        if move & SPECIAL or (move >> 8) & 255 == DROP:
            return
        _, cap, _, code = pos.stack[-1]
        if (cap or move & EP) and self._petrify[code]:
            pos.set_cell(move & 255, self._wall)

    def legal_moves(self, pos, pseudo):
        moves = super().legal_moves(pos, pseudo)
        if moves is None:
            from engine.movegen import royal_filter
            moves = royal_filter(pos, pseudo)
        b = pos.board
        wall = self._wall
        out = [m for m in moves if b[m & 255] != wall]
        if self.pseudo_royal:
            mine = [c for c in pos.occ[pos.side] if self._royal_type[b[c]]]
            if len(mine) <= self.extinction_count + 1:
                out = [m for m in out if not (b[m & 255] and (m >> 8) & 255 != DROP
                                              and (m >> 8) & 255 in mine and self._petrify[b[(m >> 8) & 255]])]
        return out
