"""Late-move reductions: how many plies a late quiet move is searched shallower, by the
node's depth and the move's place in the order (``REDUCTION[depth][count]``, both capped at
63).  The searcher takes one ply less for killers and in PV nodes, and none for a move that
gives check."""
from __future__ import annotations

from math import log

REDUCTION = [[int(0.75 + log(d) * log(c) / 2.25) if d and c else 0 for c in range(64)] for d in range(64)]
