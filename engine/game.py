"""Game state: result of a position (no moves, repetition, move clock, variant rules) and perft."""
from __future__ import annotations

from .movegen import in_check, legal_moves

WIN, DRAW, LOSS = 1, 0, -1


def game_result(pos, legal: list | None = None):
    """(score for the side to move: 1 win / 0 draw / -1 loss, reason) or None."""
    v = pos.variant
    r = v.adjudicate(pos)
    if r is not None:
        return r
    if legal is None:
        legal = legal_moves(pos)
    if not legal:
        if in_check(pos):
            return (LOSS, "checkmate")
        return ({"draw": DRAW, "loss": LOSS, "win": WIN}[v.stalemate_result], "stalemate")
    count = pos.history.count(pos.hash)
    if count > 1:
        r = v.check_ok_repetition(pos, count)
        if r is not None:
            return r
    if v.move_rule_plies and pos.halfmove >= v.move_rule_plies:
        return (DRAW, move_rule_name(v))
    if v.is_draw_by_material(pos):
        return (DRAW, "insufficient material")
    return v.result(pos, legal)


def move_rule_name(v) -> str:
    """The move rule as the variant's rules name it (``Variant.move_rule_name``), else
    FIDE's wording: "50-move rule" for 100 plies."""
    return v.move_rule_name or f"{v.move_rule_plies // 2}-move rule"


def perft(pos, depth: int) -> int:
    if depth <= 0:
        return 1
    moves = legal_moves(pos)
    if depth == 1:
        return len(moves)
    n = 0
    make, unmake = pos.make, pos.unmake
    for m in moves:
        make(m)
        n += perft(pos, depth - 1)
        unmake()
    return n


def divide(pos, depth: int) -> list[tuple[int, int]]:
    out = []
    for m in legal_moves(pos):
        pos.make(m)
        out.append((m, perft(pos, depth - 1)))
        pos.unmake()
    return out
