"""Search hints (a cellfish extension of the variants-file format): keys that change how
cellfish plays a game, not its rules.  Fairy-Stockfish ignores keys it does not know, so a
file using them still loads there.

    clockMoves = 50      the moves to plan the clock for when `go` gives no movestogo (30 when
                         not given): a game that usually runs longer spreads its time more
                         evenly instead of spending most of it on the opening
    clockGame = 90       the moves a game usually runs (0, the default: not declared): the
                         clock is then planned over the moves left of such a game, never
                         fewer than clockMoves, so the opening takes less of the base and
                         the middlegame more

See docs/variant-files.md ("Search hints").
"""
from __future__ import annotations

from typing import Any

from .registry import names
from .section import Section

HINT_KEYS = names("hint")


def hint_attrs(sec: Section, attrs: dict[str, Any]) -> None:
    """Read the hint keys into the class attributes."""
    if "clockMoves" in sec:
        attrs["clock_moves"] = sec.number("clockMoves")
    if "clockGame" in sec:
        attrs["clock_game"] = sec.number("clockGame")
