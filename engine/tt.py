"""The transposition table and the mate-distance scores it stores.

Scores are centipawns for the side to move; a mate is ``MATE - plies``.  Mate scores are
stored relative to the node (``to_tt``) and read back relative to the root (``from_tt``).
"""
from __future__ import annotations

from typing import Final

MATE: Final = 1_000_000
MATE_BOUND: Final = MATE - 10_000
INF: Final = MATE + 1
EXACT: Final = 0
LOWER: Final = 1
UPPER: Final = 2
MAX_PLY: Final = 120               # deepest ply the searcher keeps killers for

TTEntry = tuple[int, int, int, int]    # depth, bound, score, move


class TT:
    """Transposition table: a dict bounded by an entry count derived from megabytes.
    An entry is (depth, bound, score, move); insertion order is age.

    The key is typed ``object``: a position's hash is a 62-bit int, which the compiled
    searcher keeps unboxed and would box anew for every dict call; the searcher boxes it
    once per node (``hk: object = h``) and passes that one object to every probe and store."""
    ENTRY_BYTES = 280    # measured ~263 at full load: dict slot, int key, 4-tuple, boxed ints

    def __init__(self, mb: int = 16) -> None:
        self.resize(mb)

    def resize(self, mb: int) -> None:
        self.capacity = max(1024, int(mb * 1024 * 1024 / self.ENTRY_BYTES))
        self.table: dict[object, TTEntry] = {}

    def clear(self) -> None:
        self.table.clear()

    def get(self, key: object) -> TTEntry | None:
        return self.table.get(key)

    def put(self, key: object, entry: TTEntry) -> None:
        t = self.table
        # a stored position is taken out and re-inserted below: it becomes young again
        if t.pop(key, None) is None and len(t) >= self.capacity:
            # drop the oldest quarter (insertion order = age)
            for k in list(t)[: self.capacity // 4]:
                del t[k]
        t[key] = entry

    def hashfull(self) -> int:
        return min(1000, len(self.table) * 1000 // self.capacity)


def result_score(r: tuple[int, str], ply: int) -> int:
    """The search score of a game result (score for the side to move, reason) at `ply`.  A
    result worth a fraction of the point (its reason carries the side to move's ``share``:
    ``game.SharedReason``) scores in proportion, short of any mate: a 3/4 is half way from
    a draw to ``MATE_BOUND``, so a mate is still preferred to it, and it to any material."""
    score, reason = r
    share = getattr(reason, "share", None)
    if share is not None:
        return int((2 * share - 1) * (MATE_BOUND - 1))
    if score > 0:
        return MATE - ply
    if score < 0:
        return -(MATE - ply)
    return 0


def to_tt(s: int, ply: int) -> int:
    """A score as stored: mates counted from this node, not from the root."""
    if s >= MATE_BOUND:
        return s + ply
    if s <= -MATE_BOUND:
        return s - ply
    return s


def from_tt(s: int, ply: int) -> int:
    """A stored score read back at `ply` from the root."""
    if s >= MATE_BOUND:
        return s - ply
    if s <= -MATE_BOUND:
        return s + ply
    return s
