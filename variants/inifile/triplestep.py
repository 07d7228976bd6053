"""The pawn's triple step (``tripleStepRegionWhite``/``…Black``), with Fairy-Stockfish's
meaning (docs/variant-files.md): the ``pawn`` piece standing in its side's region may move
three cells forward over two empty ones, and both cells it passed (those in
``enPassantRegion``) are en-passant cells of the reply.

The position keeps one en-passant cell and its victim (``pos.ep``, ``pos.ep_victim``), so a
triple step needs no new state: it is the core's two-step move (``DOUBLE``) whose en-passant
cell is the passed cell next to its start, and whose victim stands two cells beyond it; the
cell between them is the second en-passant cell, derived from the pair.  The core takes en
passant on ``pos.ep``; this mixin adds the captures on the second cell (``extra_moves``, plain
``EP`` moves that take ``pos.ep_victim``).  Games without triple steps never reach this code.
"""
from __future__ import annotations

from engine.walker import piece_targets
from engine.moves import ACTED_SHIFT, DOUBLE, EP, FROM_SHIFT
from engine.variant import WHITE

from .values import in_region
from .filevariant import RuleBase


class TripleSteps(RuleBase):
    """Mixed into a file variant whose pawn may triple-step."""
    triple_region: tuple[frozenset, frozenset] = (frozenset(), frozenset())

    def __init__(self) -> None:
        super().__init__()
        geo = self.geometry
        pawn = self.by_token.get(self.fsf_pawn.upper())
        self._triple_codes = (pawn.id * 2, pawn.id * 2 + 1) if pawn is not None else (-1, -1)
        # per side: start cell -> (passed cell 1, passed cell 2, destination)
        self._triple_paths: list[dict[int, tuple[int, int, int]]] = [{}, {}]
        for side in (0, 1):
            dy = 1 if side == WHITE else -1
            for c, co in enumerate(geo.coords):
                if not in_region(co, self.triple_region[side]):
                    continue
                a, b, d = (geo.index.get((co[0], co[1] + k * dy) + tuple(co[2:])) for k in (1, 2, 3))
                if a is not None and b is not None and d is not None:
                    self._triple_paths[side][c] = (a, b, d)

    def _ep_cell(self, cell: int) -> bool:
        region = self.ep_region
        return region is None or in_region(self.geometry.coords[cell], region)

    def second_ep_cell(self, pos) -> int:
        """The second en-passant cell after a triple step (-1 when there is none): the one
        between ``pos.ep`` and a victim two cells beyond it."""
        ep, victim = pos.ep, pos.ep_victim
        if ep < 0 or victim < 0:
            return -1
        geo = self.geometry
        a, z = geo.coords[ep], geo.coords[victim]
        if a[0] != z[0] or abs(a[1] - z[1]) != 2:
            return -1
        mid = geo.index.get((a[0], (a[1] + z[1]) // 2) + tuple(a[2:]))
        return mid if mid is not None and self._ep_cell(mid) and not pos.board[mid] else -1

    def extra_moves(self, pos, out) -> None:
        super().extra_moves(pos, out)
        b = pos.board
        side = pos.side
        code = self._triple_codes[side]
        paths = self._triple_paths[side]
        for s in pos.occ[side]:
            if b[s] != code or s not in paths:
                continue
            c1, c2, t = paths[s]
            if b[c1] or b[c2] or b[t]:
                continue
            # the en-passant cell: the one next to the start, else the other one (in region)
            e = c1 if self._ep_cell(c1) else c2 if self._ep_cell(c2) else -1
            out.append((s << FROM_SHIFT) | t | (DOUBLE | ((e ^ s) << ACTED_SHIFT) if e >= 0 else 0))
        mid = self.second_ep_cell(pos)
        if mid >= 0:
            tl = self.table_list
            for s in list(pos.occ[side]):
                found: list[int] = []
                piece_targets(tl[b[s]], s, b, side, mid, found.append)
                out.extend((s << FROM_SHIFT) | t for t in found if t & EP)

    def _valid_ep(self, pos) -> bool:
        """After a triple step: the passed cells empty, the victim (two cells beyond
        ``pos.ep``, or next to it when only the nearer cell is left) an enemy pawn that
        came from its triple-step region."""
        if pos.ep >= 0 and pos.ep_victim >= 0:
            geo = self.geometry
            (x, y, *rest), z = geo.coords[pos.ep], geo.coords[pos.ep_victim]
            d = z[1] - y
            if x == z[0] and d in (1, -1, 2, -2):
                step = 1 if d > 0 else -1                # from the start towards the victim
                start = z[1] - 3 * step                  # the rank the pawn came from
                cells = [geo.index.get((x, start + k * step, *rest)) for k in (0, 1, 2)]
                p = pos.board[pos.ep_victim]
                if None not in cells and cells[0] in self._triple_paths[(p & 1) if p else 0] \
                        and p and (p & 1) != pos.side and p >> 1 == self._triple_codes[0] >> 1 \
                        and not any(pos.board[c] for c in cells):
                    return True
                if abs(d) == 2:
                    return False
        return super()._valid_ep(pos)

    def read_triple_ep(self, pos, cells: list[int]) -> tuple[int, int] | None:
        """(ep cell, victim) for the en-passant cells of a position text after a triple step:
        two empty cells on a file with the enemy pawn just beyond them, or one empty cell with
        an empty cell and then the enemy pawn beyond it; None when the text means no triple
        step."""
        geo = self.geometry
        if any(pos.board[c] for c in cells):
            return None
        dy = -1 if pos.side == WHITE else 1          # the mover's forward direction
        co = [geo.coords[c] for c in cells]
        if len(cells) == 2 and (co[0][0] != co[1][0] or abs(co[0][1] - co[1][1]) != 1):
            return None
        far = max(range(len(cells)), key=lambda i: -co[i][1] * dy)      # nearest the mover's start
        a = co[far]
        near, victim = (geo.index.get((a[0], a[1] + k * dy) + tuple(a[2:])) for k in (1, 2))
        if near is None or victim is None or pos.board[near]:
            return None
        if len(cells) == 2 and near not in cells:
            return None
        p = pos.board[victim]
        if not p or (p & 1) == pos.side or p >> 1 != self._triple_codes[0] >> 1:
            return None
        return cells[far], victim
