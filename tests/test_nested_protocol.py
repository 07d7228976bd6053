"""Nested Chess through the protocol loop: a complete self-play game of each variant, every
bestmove checked legal by the core, and the loop's `d` and perft on our variant."""

import pytest

from selfplay import play_game
from tests.engine_proc import EngineProcess


@pytest.fixture
def engine():
    e = EngineProcess()
    yield e
    e.close()


@pytest.mark.parametrize("name", ["nested-a", "nested-b"])
def test_nested_complete_self_play_game(name):
    """A whole game at `go depth 1` (tests/selfplay.py): every bestmove one of the core's legal
    moves, the game ends by the rules, the engine then agrees it is over, and the loop's `d`
    shows the core's final position.  Observed (depth 1 is deterministic):
      nested-a 183 plies, draw by stalemate;
      nested-b 47 plies, draw by repetition.
    (Only 'a result, legal moves only' is asserted: a change to the search or the rules
    may change these games.)"""
    game = play_game(name, "uci", "go depth 1")
    assert game.result is not None
    assert game.plies >= 10


def test_nested_perft_and_diagram_through_protocol(engine):
    engine.send("uci")
    engine.expect("uciok")
    engine.send("setoption name UCI_Variant value nested-b")
    engine.send("position startpos")
    engine.send("d")
    out = engine.expect("Fen:")
    assert any(line.startswith(" 1  #   W   N   R") for line in out)
    engine.send("go perft 2")
    out = engine.expect("Nodes searched", 60)
    assert out[-1].split(":")[1].strip() == "400"
