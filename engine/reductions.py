"""Late-move reductions: how many plies a late quiet move is searched shallower, by the
node's depth and the move's place in the order (``REDUCTION[depth][count]``, both capped at
63).  The searcher takes one ply less for killers and in PV nodes, and none for a move that
gives check.

Late-move pruning: in a non-PV node out of check at depth d < len(LMP_COUNT), the quiet moves
after the first ``LMP_COUNT[d]`` moves (killers excepted) are pruned unless they give check,
as futile ones are."""
from __future__ import annotations

from math import log
from typing import Final

REDUCTION: Final = [[int(0.75 + log(d) * log(c) / 2.25) if d and c else 0 for c in range(64)] for d in range(64)]

LMP_COUNT: Final = [0, 4, 7, 12]       # 3 + d * d, as in Stockfish without its 'improving' halving
