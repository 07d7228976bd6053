"""What a piece in hand is worth against the same piece on the board (``Variant.hand_share``).

In shogi a piece in hand is worth a little more than on the board: it can be dropped anywhere.
In the Flipped-return Nichtschach games it is worth less: only board pieces hold the
directions the win rule counts, and an evaluation that prized the hand kept the search from
ever returning a piece while the board emptied."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import variants  # noqa: E402
from engine.evaluate import Evaluator  # noqa: E402
from engine.notation.position_text import parse  # noqa: E402


def _hand_and_board(name: str, letter: str, cell: str):
    """The start position plus one more White piece: in hand, and on ``cell``."""
    v = variants.get(name)
    ev = Evaluator(v)
    in_hand = parse(v, v.start_fen)
    code = v.by_token[letter].id * 2
    in_hand.add_hand(in_hand.variant.hand_source(code), 1)
    on_board = parse(v, v.start_fen)
    c = v.geometry.parse(cell, "usi" if v.template == "shogi" else "uci")
    assert not on_board.board[c]
    on_board.put(c, code)
    return ev.evaluate(in_hand), ev.evaluate(on_board), v


@pytest.mark.parametrize("name, letter, cell", [
    ("elefantnichtschach", "Q", "xc3"), ("elefantnichtschach", "E", "xc3"),
    ("springernichtschach", "R", "xc3")])
def test_a_piece_in_hand_is_worth_less_than_on_the_board_in_the_coverage_games(name, letter, cell):
    hand, board, v = _hand_and_board(name, letter, cell)
    assert v.hand_share < 1
    assert board > hand


def test_a_shogi_piece_in_hand_is_worth_more_than_on_the_board():
    hand, board, v = _hand_and_board("shogi", "G", "5e")
    assert v.hand_share > 1
    assert hand > board
