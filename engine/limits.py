"""What bounds a search: the ``Limits`` of a `go` command, the ``Stop`` signal, and time
allocation from the clock parameters to soft and hard limits (over the moves ``plan_moves``
gives when `go` has no movestogo).

soft: do not start a new iteration after it; hard: abort the search.  Both leave the move
overhead (the GUI's and the pipe's latency) unused, so the engine never loses on time.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .variant import Variant


@dataclass
class Limits:
    depth: int | None = None
    nodes: int | None = None
    movetime: float | None = None     # seconds, hard
    soft_time: float | None = None    # seconds: do not start a new depth after this
    hard_time: float | None = None    # seconds: abort the search after this
    mate: int | None = None           # moves
    infinite: bool = False
    searchmoves: list[int] = field(default_factory=list)
    multipv: int = 1
    start: float | None = None        # time.monotonic() when the go arrived (default: now)


class Stop(Exception):
    """Raised inside the search when a limit is reached or `stop` arrives."""


def allocate(side: int, p: dict, overhead_ms: int, moves: int = 30) -> tuple[float | None, float | None]:
    """p holds the integer `go` parameters in milliseconds; returns seconds (or None).
    ``moves``: the moves to plan the clock for when `go` gives no movestogo (the game's
    ``Variant.clock_moves``)."""
    ov = overhead_ms / 1000.0
    if "movetime" in p:
        t = max(0.005, p["movetime"] / 1000.0 - ov)
        return t, t
    key = ("wtime", "btime")[side]
    inc = p.get(("winc", "binc")[side], 0) / 1000.0
    byo = p.get("byoyomi", 0) / 1000.0
    if key not in p and not byo:
        return None, None
    left = max(0.0, p.get(key, 0) / 1000.0)
    mtg = p.get("movestogo") or moves
    base = left / max(1, mtg) + inc * 0.8
    # never plan to use more than half of what is left on the clock (plus byoyomi)
    hard_cap = max(0.0, left * 0.5 + byo - ov)
    if byo:
        base += byo * 0.9
        hard_cap = max(hard_cap, byo - ov)
    soft = max(0.005, min(base, hard_cap) * 0.6)
    hard = max(0.01, min(base * 2.0, hard_cap))
    if left > 0 and not byo:
        hard = min(hard, max(0.01, left - ov))
    return soft, hard


def plan_moves(variant: Variant, fullmove: int) -> int:
    """The moves to plan the clock for when `go` gives no movestogo: the variant's
    ``clock_moves``, or, where it declares how long its games usually run (``clock_game``),
    the moves left of such a game at move ``fullmove``, never fewer than ``clock_moves``."""
    if variant.clock_game:
        return max(variant.clock_moves, variant.clock_game - fullmove)
    return variant.clock_moves
