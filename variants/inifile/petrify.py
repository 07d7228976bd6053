"""Wall squares: petrification (``petrifyOnCaptureTypes``) and the duck (``wallingRule =
duck``), with Fairy-Stockfish's meaning (docs/variant-files.md).  A wall is a square no piece
may enter, pass or take, written ``*`` in the position text.

* ``petrifyOnCaptureTypes``: a piece of these types that captures turns into a wall on the
  square it took (petrified).
* ``wallingRule = duck``: every move also moves the one wall, the duck, to an empty square
  other than the one it stood on (any empty square at the first move); the move text adds
  ``,<destination><duck square>`` (``e2e4,e4e5``), the duck's square rides in the move's wall
  field (``engine/moves.py``).

A wall is a piece of its own here, token ``*``, that has no move; every wall has the first
player's code, so that the position text says all there is of it, and a move of either side
onto it is removed from the legal moves.  Under ``extinctionPseudoRoyal`` a capture that
would petrify the mover's pseudo-royal piece is illegal (the side would lose it).
"""
from __future__ import annotations

from engine.moves import CASTLE, CELL, EP, FROM_SHIFT, IN_PLACE, SPECIAL, WALL_SHIFT, is_drop
from engine.pieces import PieceType

from .filevariant import RuleBase
from .registry import names
from .results import piece_set
from .values import KeyError_

PETRIFY_KEYS = names("petrify")
WALL_TOKEN = "*"


def petrify_attrs(val: dict[str, str], letters: set[str], attrs: dict) -> None:
    """``petrifyOnCaptureTypes`` and ``wallingRule`` read into the class attributes."""
    attrs["petrify_types"] = piece_set("petrifyOnCaptureTypes", val.get("petrifyOnCaptureTypes", ""),
                                       letters)
    rule = val.get("wallingRule", "none").strip()
    if rule not in ("none", "duck"):
        raise KeyError_("wallingRule", "only none and duck are played", rule)
    attrs["duck"] = rule == "duck"


def petrify_bases(attrs: dict) -> tuple[type, ...]:
    """The rule part of a section whose squares can become walls (none otherwise)."""
    return (PetrifyRules,) if attrs.get("petrify_types") or attrs.get("duck") else ()


class PetrifyRules(RuleBase):
    """The wall piece (``_forms``), petrification (``after_move``) and the moves walls forbid
    (``legal_moves``)."""
    petrify_types: frozenset[str] = frozenset()
    duck = False

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
        # a pseudo-royal piece of a petrifying type may not capture, so it attacks nothing
        # (pseudoroyal.py reads this)
        self._barred = frozenset(c for c in range(ncodes) if self._petrify[c] and self._royal_type[c]) \
            if self.pseudo_royal else frozenset()

    def after_move(self, pos, move: int) -> None:
        super().after_move(pos, move)
        duck = (move >> WALL_SHIFT) & CELL if self.duck else 0
        if duck:
            b = pos.board
            wall = self._wall
            for c in [c for c in pos.occ[wall & 1] if b[c] == wall]:
                pos.clear(c)
            pos.put(duck ^ (move & CELL), wall)        # (the wall field is XOR the to cell)
        if move & SPECIAL or is_drop(move):
            return
        u = pos.stack[-1]
        cap, code = u.cap, u.code
        if (cap or move & EP) and self._petrify[code]:
            pos.set_cell(move & CELL, self._wall)

    def legal_moves(self, pos, pseudo):
        moves = super().legal_moves(pos, pseudo)
        if moves is None:
            from engine.movegen import royal_filter
            moves = royal_filter(pos, pseudo)
        b = pos.board
        wall = self._wall
        out = [m for m in moves if b[m & CELL] != wall]
        if self.duck:
            out = self._with_duck(pos, out)
        if self.pseudo_royal:
            mine = [c for c in pos.occ[pos.side] if self._royal_type[b[c]]]
            if len(mine) <= self.extinction_count + 1:
                out = [m for m in out if not (b[m & CELL] and not is_drop(m)
                                              and (m >> FROM_SHIFT) & CELL in mine
                                              and self._petrify[b[(m >> FROM_SHIFT) & CELL]])]
        return out

    def _with_duck(self, pos, moves: list[int]) -> list[int]:
        """Each move once per square the duck may go to after it: an empty square (after the
        move) other than the duck's own."""
        b = pos.board
        wall = self._wall
        empty = {c for c in range(len(b)) if not b[c]}
        out: list[int] = []
        for m in moves:
            frm, to = (m >> FROM_SHIFT) & CELL, m & CELL
            free = set(empty)
            if frm != to or m & IN_PLACE:         # not a drop (moves.is_drop)
                free.add(frm)
            free.discard(to)
            if m & CASTLE:
                rule = pos._cbymove[(frm, to)]
                free.add(rule.rook_from)
                free.add(frm)
                free.discard(rule.rook_to)
                free.discard(to)
            elif m & EP and pos.ep_victim >= 0:
                free.add(pos.ep_victim)
            free = {c for c in free if b[c] != wall}
            out.extend(m | ((c ^ to) << WALL_SHIFT) for c in sorted(free))     # (never to)
        return out
