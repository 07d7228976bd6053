"""python-chess's XBoard client (`chess.engine.popen_xboard`) starts cellfish and plays whole
games against it to a result."""
from __future__ import annotations

import random

import chess
import chess.engine

from tests.engine_proc import cellfish_command


def test_popen_xboard_handshake():
    engine = chess.engine.SimpleEngine.popen_xboard(cellfish_command())
    try:
        assert engine.id["name"].startswith("cellfish")
        assert "Hash" in engine.options
    finally:
        engine.quit()


def test_popen_xboard_mates_a_random_mover():
    """cellfish plays white at depth 2 against a seeded random mover until the game ends;
    every move it sends is legal in python-chess's own board."""
    rng = random.Random(49)
    board = chess.Board()
    engine = chess.engine.SimpleEngine.popen_xboard(cellfish_command())
    try:
        while not board.is_game_over(claim_draw=True) and board.ply() < 400:
            if board.turn == chess.WHITE:
                result = engine.play(board, chess.engine.Limit(depth=2))
                assert result.move in board.legal_moves
                board.push(result.move)
            else:
                board.push(rng.choice(list(board.legal_moves)))
    finally:
        engine.quit()
    assert board.is_game_over(claim_draw=True)
    assert board.result(claim_draw=True) == "1-0"


def test_popen_xboard_self_play_to_a_result():
    """Both sides are cellfish through the XBoard client; the game ends by the rules."""
    board = chess.Board()
    engine = chess.engine.SimpleEngine.popen_xboard(cellfish_command())
    try:
        while not board.is_game_over(claim_draw=True):
            result = engine.play(board, chess.engine.Limit(depth=1))
            assert result.move in board.legal_moves
            board.push(result.move)
    finally:
        engine.quit()
    assert board.result(claim_draw=True) in ("1-0", "0-1", "1/2-1/2")


def test_popen_xboard_analysis():
    engine = chess.engine.SimpleEngine.popen_xboard(cellfish_command())
    try:
        info = engine.analyse(chess.Board("7k/8/5K2/8/8/8/8/6Q1 w - - 0 1"), chess.engine.Limit(depth=3))
        assert info["score"].white().is_mate() or info["score"].white().score() > 500
        assert info["pv"][0] in chess.Board("7k/8/5K2/8/8/8/8/6Q1 w - - 0 1").legal_moves
    finally:
        engine.quit()
