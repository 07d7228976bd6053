"""Game state: result of a position (no moves, repetition, move clock, variant rules) and perft."""
from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Final

from .movegen import in_check, legal_moves
from .reasons import SharedReason

if TYPE_CHECKING:
    from threading import Event

    from .position import Position
    from .variant import Result, Variant

WIN: Final = 1
DRAW: Final = 0
LOSS: Final = -1
VALUES: Final = {"win": WIN, "draw": DRAW, "loss": LOSS}
STALEMATE: Final = "stalemate"      # the reason of a stalemate the core scores
HALF: Final = Fraction(1, 2)


def game_result(pos: Position, legal: list[int] | None = None) -> Result:
    """(score for the side to move: 1 win / 0 draw / -1 loss, reason) or None.  Where a side
    has draw odds (``Variant.draw_odds``: armageddon's Black) a draw is that side's win; where
    the variant judges drawn ends (``Variant.judge_draw``: janggi's material count) its answer."""
    r = _result(pos, legal)
    v = pos.variant
    if r is not None and r[0] == DRAW:
        if v.draw_odds >= 0:
            return (WIN if pos.side == v.draw_odds else LOSS, r[1])
        if v.draws_judged:
            return v.judge_draw(pos, r)
    return r


def _result(pos: Position, legal: list[int] | None) -> Result:
    v = pos.variant
    r = v.adjudicate(pos)
    if r is not None:
        return r
    if legal is None:
        legal = legal_moves(pos)
    if not legal:
        if in_check(pos):
            return (VALUES[v.checkmate_result], "checkmate")
        if v.stalemate_points is not None and v.stalemate_points != HALF:
            return v.stalemate_outcome(pos) or (VALUES[v.stalemate_result],
                                                SharedReason(STALEMATE, 1 - v.stalemate_points))
        return v.stalemate_outcome(pos) or (VALUES[v.stalemate_result], STALEMATE)
    count = pos.history.count(pos.hash)
    if count > 1:
        r = v.check_ok_repetition(pos, count)
        if r is not None:
            return r
    if v.move_rule_plies and pos.halfmove >= v.move_rule_plies and (
            not v.rules.extends_move_rule
            or pos.halfmove - v.move_rule_extension(pos) >= v.move_rule_plies):
        return (DRAW, move_rule_name(v))
    if v.is_draw_by_material(pos):
        return (DRAW, "insufficient material")
    return v.result(pos, legal)


def result_points(pos: Position, r: tuple[int, str]) -> Fraction:
    """The share of the point the side to move scores by the result ``r`` of ``pos``: 1, 1/2
    or 0 by its score, or the share its reason carries (``SharedReason``: a stalemate of a
    variant whose stalemating side scores a fraction, ``Variant.stalemate_points``)."""
    share = getattr(r[1], "share", None)
    if share is not None:
        return Fraction(share)
    return {WIN: Fraction(1), DRAW: HALF, LOSS: Fraction(0)}[r[0]]


def points_text(white: Fraction) -> str:
    """A result as records write it from White's share: ``1-0``, ``0-1``, ``1/2-1/2``, or
    both shares of a fractional one (``3/4-1/4``)."""
    return f"{white}-{1 - white}"


def move_rule_name(v: Variant) -> str:
    """The move rule as the variant's rules name it (``Variant.move_rule_name``), else
    FIDE's wording: "50-move rule" for 100 plies."""
    return v.move_rule_name or f"{(v.move_rule_plies or 0) // 2}-move rule"


class PerftStopped(Exception):
    """A perft count ended by its stop flag.  ``rows`` holds the (move, count) pairs of the
    root moves counted to the end, ``root_moves`` how many root moves there were."""

    def __init__(self, rows: list[tuple[int, int]], root_moves: int) -> None:
        super().__init__(f"stopped after {len(rows)} of {root_moves} root moves")
        self.rows, self.root_moves = rows, root_moves


class _Stopped(Exception):
    pass


def perft(pos: Position, depth: int, stop: Event | None = None) -> int:
    """Leaf count at `depth`.  `stop` (anything with ``is_set()``, e.g. a threading.Event) is
    looked at once per interior node (depth >= 2), so a set flag ends the count within one
    move generation; the count then raises and leaves `pos` part-way (pass a copy)."""
    if depth <= 0:
        return 1
    moves = legal_moves(pos)
    if depth == 1:
        return len(moves)
    if stop is not None and stop.is_set():
        raise _Stopped
    n = 0
    make, unmake = pos.make, pos.unmake
    for m in moves:
        make(m)
        n += perft(pos, depth - 1, stop)
        unmake()
    return n


def divide(pos: Position, depth: int, stop: Event | None = None) -> list[tuple[int, int]]:
    """(root move, leaf count below it) for each legal move.  When `stop` is set during the
    count, raises PerftStopped holding the root moves finished so far."""
    moves = legal_moves(pos)
    out: list[tuple[int, int]] = []
    for m in moves:
        if stop is not None and stop.is_set():
            raise PerftStopped(out, len(moves))
        pos.make(m)
        try:
            n = perft(pos, depth - 1, stop)
        except _Stopped:
            raise PerftStopped(out, len(moves)) from None
        pos.unmake()
        out.append((m, n))
    return out
