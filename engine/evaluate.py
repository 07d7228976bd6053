"""Generic evaluation derived from the variant's data.

Piece values come from mobility on an empty board (the classic method for unknown pieces):
the average number of moves a lone piece has over all cells, mapped to centipawns.  A
per-cell table adds centralisation (the piece's own mobility on that cell relative to its
average).  Pieces in hand are valued at a share of their board value.  Variants may add
terms through ``Variant.eval_terms(pos)``.
"""
from __future__ import annotations


def _targets(tab, s):
    n = len(tab.leaps[s]) + len(tab.mleaps[s]) + len(tab.cleaps[s])
    for group in (tab.rides[s], tab.mrides[s], tab.crides[s]):
        for r in group:
            n += len(r)
    for r, st, mode, flag in tab.special[s]:
        n += sum(st)
    for c1, stop1, rays in tab.bent[s]:
        n += stop1 + sum(len(r) for r in rays)
    return n


class Evaluator:
    HAND_SHARE = 0.9     # a piece in hand is worth this share of its board value

    def __init__(self, variant):
        self.variant = v = variant
        n = v.geometry.size
        ncodes = 2 * len(v.piece_types)
        self.value = [0] * ncodes
        self.pst = [[0] * n for _ in range(ncodes)]
        tables = v.tables
        for code, tab in tables.items():
            pt = v.piece_types[code >> 1]
            mob = [_targets(tab, s) for s in range(n)]
            avg = sum(mob) / max(1, sum(1 for m in mob if m)) if any(mob) else 0.0
            if pt.value is not None:
                val = pt.value
            elif pt.royal:
                val = 0
            else:
                # about 30 cp per average move, with a floor for pawn-like pieces
                val = int(max(80, 30 * avg + (60 if avg > 4 else 0)))
            self.value[code] = val
            centre = 0.0 if pt.royal else 4.0
            for s in range(n):
                self.pst[code][s] = val + int(centre * (mob[s] - avg)) if mob[s] or pt.royal else val - 10
        self.hand_value = [int(self.value[c] * self.HAND_SHARE) for c in range(ncodes)]
        self.terms = getattr(v, "eval_terms", None)

    def evaluate(self, pos) -> int:
        """Centipawns from the side to move's point of view."""
        pst = self.pst
        b = pos.board
        s0 = 0
        for c in pos.occ[0]:
            s0 += pst[b[c]][c]
        s1 = 0
        for c in pos.occ[1]:
            s1 += pst[b[c]][c]
        score = s0 - s1
        if self.variant.hands:
            hv = self.hand_value
            for code, k in enumerate(pos.hand):
                if k:
                    score += (hv[code] * k) if not code & 1 else -(hv[code] * k)
        if pos.side:
            score = -score
        if self.terms is not None:
            score += self.terms(pos)
        return score
