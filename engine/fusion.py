"""The per-node work of a game of fusing pieces and victory groups (the ``ninepiece`` plugin,
variants/plugins/ninepiece.py: docs/variants/ninepiece.md), compiled with the engine.

The plugin decides the rules and gives them here as tables by piece code: which two codes
fuse into which compound (``fuse``), into which two a compound splits (``split``), which
codes are simple linepieces, the victory groups each code carries (``gmask``: bit 0, 1, 2).
This module runs what the searcher asks of them at every node, with the plugin's results,
in its order:

* ``extra_moves``: FUSION | SPECIAL, a simple piece's ordinary line move onto a friendly
  partner (the first occupied cell of each ray and bent ray), FISSION | SPECIAL, one
  component (its type id in the move's type field) to each empty cell its own move reaches;
* ``legal_moves``: none once the side to move has lost a group, and a compound's two
  components reaching a cell by two paths give one move;
* ``is_tactical``: captures and promotions, fusion and fission being quiet;
* ``adjudicate`` and ``terms`` (the evaluation terms of the group risk) from the per-army
  facts of an ``ArmyMemo`` (engine/armies.py) whose ``compute`` is the plugin's.
"""
from __future__ import annotations

from typing import Final

from .armies import ArmyMemo
from .movedata import of as move_data
from .moves import CELL, FISSION, FROM_SHIFT, FUSION, SPECIAL, TYPE_MASK, TYPE_SHIFT
from .position import Position
from .walker import targets_into

ALL_GROUPS: Final = 7

# facts of an army, as the plugin computes them: (risk penalty, fewest carriers of a group,
# the groups held as bits of ALL_GROUPS, capture gains by code or None)
GroupFacts = tuple[int, int, int, "list[int] | None"]


class FusionRules:
    """``fuse[mover][target]``: the compound code (0: none); ``split[code]``: ((component,
    the other), ...) of a compound; ``simple[code]``: a simple linepiece; ``gmask[code]``:
    its groups; ``first_compound``: the lowest compound code; ``pawn_id``: the Stockbroker's
    type id; ``rank[color][cell]``: 0 on the colour's back rank .. its far rank;
    ``lost_names[i]``: the result's text when group ``i`` is gone; ``armies``: the memo of
    the plugin's group facts."""

    def __init__(self, fuse: list[list[int]], split: list[tuple[tuple[int, int], ...]],
                 simple: list[bool], gmask: list[int], first_compound: int, pawn_id: int,
                 rank: list[list[int]], lost_names: list[str], armies: ArmyMemo) -> None:
        self.fuse = fuse
        self.split = split
        self.simple = simple
        self.gmask = gmask
        self.first_compound = first_compound
        self.pawn_id = pawn_id
        self.rank = rank
        self.lost_names = lost_names
        self.armies = armies

    def extra_moves(self, pos: Position, out: list[int]) -> None:
        b = pos.board
        side = pos.side
        tl = move_data(pos).tl
        fuse = self.fuse
        split = self.split
        simple = self.simple
        ffl = SPECIAL | FUSION
        xfl = SPECIAL | FISSION
        for s in pos.occ[side]:
            code = b[s]
            base = s << FROM_SHIFT
            if simple[code]:
                row = fuse[code]
                T = tl[code]
                # fusion: the first occupied cell of each line, if a friendly partner
                for ray in T.rides[s]:
                    for t in ray:
                        p = b[t]
                        if p:
                            if row[p]:
                                out.append(base | t | ffl)
                            break
                for c1, stop1, rays in T.bent[s]:
                    p = b[c1]
                    if p:
                        if stop1 and row[p]:
                            out.append(base | c1 | ffl)
                        continue
                    for ray in rays:
                        for t in ray:
                            p = b[t]
                            if p:
                                if row[p]:
                                    out.append(base | t | ffl)
                                break
            else:
                parts = split[code]
                if not parts:
                    continue
                # fission: each component to each empty cell its own move reaches (the
                # core's walker of a piece's tables; its captures are dropped)
                for comp, _ in parts:
                    mb = base | ((comp >> 1) << TYPE_SHIFT) | xfl
                    tg: list[int] = []
                    targets_into(tl[comp], s, b, side, -1, tg, 0)
                    for t in tg:
                        if not b[t]:
                            out.append(mb | t)

    def legal_moves(self, pos: Position, pseudo: list[int]) -> list[int]:
        b = pos.board
        gm = self.gmask
        m = 0
        fc = self.first_compound
        compound = False
        for s in pos.occ[pos.side]:
            c = b[s]
            m |= gm[c]
            if c >= fc:
                compound = True
        if m != ALL_GROUPS:
            return []
        return list(dict.fromkeys(pseudo)) if compound else pseudo

    def is_tactical(self, pos: Position, m: int) -> bool:
        if m & SPECIAL:
            return False
        if (m >> TYPE_SHIFT) & TYPE_MASK:
            return True
        p = pos.board[m & CELL]
        return p != 0 and (p & 1) != pos.side

    def facts(self, pos: Position, side: int) -> GroupFacts:
        f: GroupFacts = self.armies.army(pos, side).facts
        return f

    def adjudicate(self, pos: Position) -> tuple[int, str] | None:
        side = pos.side
        mine = self.facts(pos, 0)[2]
        theirs = self.facts(pos, 1)[2]
        if side:
            mine, theirs = theirs, mine
        if mine != ALL_GROUPS:
            return (-1, self.lost_names[_first_missing(mine)])
        if theirs != ALL_GROUPS:
            return (1, self.lost_names[_first_missing(theirs)])
        return None

    def capture_gains(self, pos: Position) -> list[int] | None:
        return self.facts(pos, pos.side ^ 1)[3]

    def terms(self, pos: Position) -> int:
        """Centipawns for the side to move: the group risk of both sides, and 25 per rank
        beyond the third of each Stockbroker of a side with a group down to two carriers
        or fewer (a promotion restores it)."""
        side = pos.side
        us, ulow, _, _ = self.facts(pos, side)
        them, tlow, _, _ = self.facts(pos, side ^ 1)
        score = them - us
        if ulow <= 2 or tlow <= 2:
            b = pos.board
            pid = self.pawn_id
            for color in (side, side ^ 1):
                low = ulow if color == side else tlow
                if low > 2:
                    continue
                sign = 1 if color == side else -1
                rk = self.rank[color]
                for s in pos.occ[color]:
                    if b[s] >> 1 == pid:
                        r = rk[s]
                        if r >= 3:
                            score += sign * 25 * (r - 2)
        return score


def _first_missing(mask: int) -> int:
    for i in range(3):
        if not mask >> i & 1:
            return i
    return 0
