"""Checks by quiet moves and drops read without making them: the searcher's futility pruning
asks ``quiet_checks`` once per node whether each quiet move it would prune gives check
(``Searcher.negamax``, where check is an attack on the royal read from the attack tables)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .movegen import _attack_tables

if TYPE_CHECKING:
    from .position import Position


def quiet_checks(pos: Position) -> tuple[dict[int, set[int]], set[int]]:
    """What tells, without making it, whether a quiet move (or a drop) by the side to move
    checks the enemy royal: the empty cells from which a piece would attack it -> the codes
    that would (the attack tables walked out from the royal: its leaps, and each ray up to its
    first piece), and those first pieces' cells.  A drop checks exactly when its code is
    listed for its cell (it adds a piece and opens no line); a quiet move from a cell that is
    not such a first piece checks exactly when its code is listed for its destination (it
    opens no line onto the royal, and no ray to its destination runs through its origin).
    Without hoppers only: a screen opens and closes lines of its own.  Both empty when the
    enemy has no royal on the board."""
    side = pos.side
    k = pos.king[side ^ 1]
    direct: dict[int, set[int]] = {}
    first: set[int] = set()
    if k < 0:
        return direct, first
    atk = _attack_tables(pos)[side]
    b = pos.board
    # a cell's set is copied from the tables when first met and added to after (setdefault
    # made an empty set at every call)
    for s, codes in atk[0][k]:
        if not b[s]:
            d = direct.get(s)
            if d is None:
                direct[s] = set(codes)
            else:
                d.update(codes)
    for ray, sets in atk[1][k]:
        i = 0
        for c in ray:
            if b[c]:
                first.add(c)
                break
            codes = sets[i]
            if codes:
                d = direct.get(c)
                if d is None:
                    direct[c] = set(codes)
                else:
                    d.update(codes)
            i += 1
    return direct, first
