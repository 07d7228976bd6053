"""A file section that copies chess evaluates every position as built-in chess does.

File variants orient the second player's moves by turning the board half a turn (both axes
reversed), built-in chess by mirroring the ranks; the evaluation finds the rank axis either
way (``Evaluator._forward_axis``), so the royal home tables and passed pawns exist for both."""
from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import variants  # noqa: E402
from engine.evaluate import Evaluator  # noqa: E402
from engine.notation.position_text import format as format_position, parse  # noqa: E402
from tests.file_helpers import load  # noqa: E402
from tests.walk_helpers import random_position  # noqa: E402


def test_a_copy_of_chess_evaluates_as_chess():
    chess = variants.get("chess")
    copy = load("[fchess:chess]\n")["fchess"]()
    ev_chess, ev_copy = Evaluator(chess), Evaluator(copy)
    rng = random.Random(7)
    for _ in range(20):
        pos = random_position(chess, rng, 0, 90)
        text = format_position(pos)
        assert ev_copy.evaluate(parse(copy, text)) == ev_chess.evaluate(pos), text


def test_knavish_has_royal_home_tables_and_passed_pawns():
    """The Knavish games are file variants: their king is kept home in the middlegame."""
    v = variants.get("knavish8")
    ev = Evaluator(v)
    start = ev.evaluate(parse(v, "dndccdnd/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/DNDCCDND w KQkq - 0 1"))
    walked = ev.evaluate(parse(v, "dndccdnd/rnbqkbnr/pppppppp/8/8/4K3/8/PPPPPPPP/RNBQ1BNR/DNDCCDND w kq - 0 1"))
    assert start - walked >= 40
