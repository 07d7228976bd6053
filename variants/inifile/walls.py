"""Walls (Fairy-Stockfish's ``staticGating``, ``staticGatingRegion``, ``pastGating`` and
``arrowGating`` keys): every move also puts a wall on an empty cell, which nothing may enter
again.  Isolation, Snailtrail and the Game of the Amazons.

Where the wall goes: ``staticGating`` anywhere in ``staticGatingRegion`` (every cell when not
given) that is empty once the piece has moved; ``pastGating`` on the cell the piece left;
``arrowGating`` on a cell the piece could move to from where it landed (an amazon's arrow).
A move is written as Fairy-Stockfish writes it: the piece's move, a comma, then from where it
landed to the wall (``d1a1,a1b1``); a wall is ``*`` in the position text.  A wall is a piece
without moves (the first player's code, as the text reads it), so it blocks both sides; these
games have no captures.
"""
from __future__ import annotations

from typing import Any

from engine.movegen import royal_filter
from engine.moves import ACTED, CELL, FROM_SHIFT, IN_PLACE, SPECIAL, WALL_SHIFT
from engine.pieces import PieceType
from engine.walker import piece_targets

from .moverules import CastlingText
from .filevariant import RuleBase
from .values import KeyError_, as_bool, as_region

WALL = "*"


def wall_attrs(val: dict[str, str], attrs: dict[str, Any], files: int, ranks: int) -> bool:
    """Read the walling keys; True when moves put walls."""
    rules = [k for k in ("staticGating", "pastGating", "arrowGating")
             if as_bool(k, val.get(k, "false"))]
    if len(rules) > 1:
        raise KeyError_(rules[1], "one walling rule at most", val[rules[1]])
    if "staticGatingRegion" in val and rules != ["staticGating"]:
        raise KeyError_("staticGatingRegion", "needs staticGating", val["staticGatingRegion"])
    attrs["wall_rule"] = rules[0] if rules else ""
    attrs["wall_region"] = as_region("staticGatingRegion", val["staticGatingRegion"], files, ranks) \
        if "staticGatingRegion" in val else None
    return bool(rules)


class WallText(CastlingText):
    """The wall cell after the landing cell: ``d1a1,a1b1`` (the move's wall field, written by
    ``move_text`` as the duck's)."""


class WallRules(RuleBase):
    """Every move puts a wall (a mixin of the file variant's class, before its drop rules)."""
    notation_class = WallText
    wall_rule = ""
    wall_region: frozenset | None = None
    _wall_code = 0
    _wall_cells: list[int]

    def _forms(self, base: list[PieceType]) -> list[PieceType]:
        return super()._forms(base) + [PieceType("wall", WALL, (), value=0)]

    def __init__(self) -> None:
        super().__init__()
        v: Any = self
        self._wall_code = v.by_token[WALL].id * 2
        geo = v.geometry
        region = self.wall_region
        self._wall_cells = [c for c in range(geo.size)
                            if region is None or geo.coords[c][:2] in region]

    def legal_moves(self, pos, pseudo=None) -> list[int]:
        """Each plain move once for every cell its wall may go to."""
        v: Any = self
        moves = super().legal_moves(pos, pseudo)
        if moves is None:
            moves = royal_filter(pos, pseudo)
        b = pos.board
        out = []
        rule = self.wall_rule
        for m in moves:
            frm, to = (m >> FROM_SHIFT) & CELL, m & CELL
            if m & SPECIAL or (frm == to and not m & IN_PLACE):     # a drop (moves.is_drop)
                continue
            base = (m & ~ACTED) | SPECIAL
            if rule == "pastGating":
                walls = [frm]
            elif rule == "staticGating":
                walls = [c for c in self._wall_cells if (not b[c] or c == frm) and c != to]
            else:                       # the arrow: where the piece could go from `to`
                code = b[frm]
                b[frm], b[to] = 0, code
                targets: list[int] = []
                piece_targets(v.table_list[code], to, b, code & 1, -1, targets.append)
                walls = sorted({t & CELL for t in targets if not b[t & CELL]})
                b[frm], b[to] = code, 0
            for w in walls:
                out.append(base | ((w ^ to) << WALL_SHIFT))     # (a wall never lands on to)
        return out

    def make_special(self, pos, m: int) -> None:
        frm, to = (m >> FROM_SHIFT) & CELL, m & CELL
        pos.put(to, pos.clear(frm))
        pos.put(((m >> WALL_SHIFT) & CELL) ^ to, self._wall_code)
        pos.halfmove += 1
