"""The state every room of the searcher shares, declared once for readers and type checkers.

``Searcher.__init__`` sets these fields; ``MoveOrdering`` and ``Quiescence`` are the layers of
the ``Searcher`` (SearchState, MoveOrdering, Quiescence, Searcher, in one line) that read
them, and the methods declared here are the ones a room calls in another (``order`` lives in
ordering.py, ``_eval_store`` here, the rest in search.py).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Final

if TYPE_CHECKING:
    from .evaluate import Evaluator
    from .position import Position
    from .variant import Result, Variant

# the empty line, one list for every node that has none (a list allocated per node costs):
# a line is never changed in place, each is built anew as [move] + the line below
NO_PV: Final[list[int]] = []


class SearchState:
    CHECK_MASK: int
    ECACHE_SIZE: int                     # evaluations kept before the cache starts afresh
    variant: Variant
    ev: Evaluator
    value: list[int]                     # piece value by code
    evaluate: Callable[[Position], int]
    adjudicate: Callable[[Position], Result]
    is_tactical_hook: Callable[[Position, int], bool] | None
    acted_hook: Callable[[Position, int], int] | None
    gains_hook: Callable[[Position], list[int] | None] | None
    stalemate_hook: Callable[[Position], bool] | None
    drop_hook: Callable[[Position, int], bool] | None
    plain_adj: bool                      # the variant never adjudicates a move
    lazy: bool                           # legality tested lazily after make
    royal: bool                          # check = own royal attacked
    fast_pins: bool                      # the pin shortcut is sound
    fast_evasions: bool                  # in check, moves that cannot end it are left out
    staged_drops: bool                   # out of check, drops come after the moves that cut most
    staged_quiets: bool                  # out of check, quiet moves are generated after the captures
    quiet_checks: bool                   # a futile quiet move's check is read from the attack tables
    defence_test: bool                   # attack tables exist for the defended-capture test
    move_rule: int                       # Variant.move_rule_plies (0: none)
    qplies: int                          # Variant.quiescence_plies: quiescence's depth at most
    nodes: int
    seldepth: int
    pv_after: list[int]
    killers: list[list[int]]
    history: dict[int, int]              # by move * 2 + side: the moves hlist does not index
    hlist: list[int]                     # by ordering.hist_index: the plain moves' history
    hused: list[int]                     # the indices of hlist's nonzero entries
    hcells: int                          # the cells hlist indexes (0: none, every move in history)
    ecache: dict[object, int]            # by the hash, boxed once by the caller (see tt.TT)

    def order(self, pos: Position, moves: list[int], ttmove: int, ply: int,
              extra: list[int] | None = None) -> list[tuple[int, int]]:
        raise NotImplementedError

    def tactical(self, pos: Position, m: int) -> bool:
        raise NotImplementedError

    def in_check(self, pos: Position) -> bool:
        raise NotImplementedError

    def _check_limits(self) -> None:
        raise NotImplementedError

    def _eval_store(self, pos: Position, h: object) -> int:
        """Static evaluation through a small cache keyed by the position's hash."""
        e = self.ev.evaluate(pos)
        c = self.ecache
        if len(c) >= self.ECACHE_SIZE:
            c.clear()
        c[h] = e
        return e
