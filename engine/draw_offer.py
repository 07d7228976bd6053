"""Whether the engine accepts a draw offered by its opponent (CECP's `draw`).

The engine's own search judges the game, as an XBoard engine does, and the rule is:

* **dead-drawn**: the search's principal variation, best play for both sides as the engine sees
  it, reaches a position the rules call drawn (repetition, stalemate, the move rule,
  insufficient material) -- accepted at any move;
* **level after enough moves**: the score is within ``MARGIN`` centipawns of 0 and the game has
  run at least ``MIN_PLIES`` plies (counted from the position's move number) -- accepted.

Anything else is declined (the engine plays on).  The protocol only asks and answers.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Final, Sequence

from .game import DRAW, game_result
from .movegen import legal_moves

if TYPE_CHECKING:
    from .position import Position

MARGIN: Final = 15        # centipawns either side of 0
MIN_PLIES: Final = 60     # 30 moves each
DEPTH: Final = 6          # the short search made when no search is running
NODES: Final = 40000


def game_plies(pos: Position) -> int:
    """Plies since the game's first move, by the position's move number and side to move."""
    return 2 * (pos.fullmove - 1) + pos.side


def line_ends_drawn(pos: Position, pv: Sequence[int]) -> bool:
    """Whether playing ``pv`` from ``pos`` (a copy is made) reaches a drawn result.  A move
    that is not legal where it is played ends the line unjudged (False)."""
    p = pos.copy()
    for m in pv:
        if m not in legal_moves(p):
            return False
        p.make(m)
        r = game_result(p)
        if r is not None:
            return r[0] == DRAW
    return False


def accepts_draw(pos: Position, score: int | None, pv: Sequence[int] = ()) -> bool:
    """The rule above, for a search ``score`` in centipawns from the engine's side (None: the
    engine has no score, and declines) and its principal variation ``pv`` from ``pos``."""
    if score is None or game_result(pos) is not None:
        return False
    if line_ends_drawn(pos, pv):
        return True
    return abs(score) <= MARGIN and game_plies(pos) >= MIN_PLIES
