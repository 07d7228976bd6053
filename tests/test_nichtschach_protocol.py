"""A complete self-play game of every Flipped-return Nichtschach subvariant through the protocol
loop (the installed `cellfish` command, UCI; tests/selfplay.py): every bestmove must be one of
our own core's legal moves, the game must end by the rules, the engine must then agree that it
is over, and its `d` must show the position text and game state our core computes."""
from __future__ import annotations

import pytest

from engine_proc import EngineProcess
from selfplay import play_game
from board3d_helpers import NAMES

# `go depth 1` plays these games in 15-55 s each (quiescence on the 6x6x6 board); a node cap
# keeps the whole family near a minute and is just as deterministic.
GO = "go nodes 300"


@pytest.fixture(scope="module")
def eng():
    e = EngineProcess()
    e.ask("uci", "uciok")
    yield e
    e.close()


@pytest.mark.parametrize("name", list(NAMES))
def test_complete_self_play_game(eng, name):
    """Observed at `go nodes 300` when this test was written (deterministic for one engine):
      elefantnichtschach 315 plies, white wins by lost directions;
      generalnichtschach 571 plies, white wins by lost directions;
      schweinnichtschach 221 plies, white wins by lost directions;
      rajnichtschach 280 plies, black wins by lost directions;
      paschanichtschach 206 plies, black wins by lost directions;
      springernichtschach 284 plies, black wins by lost classes;
      baernichtschach 245 plies, white wins by lost directions;
      hummernichtschach 260 plies, draw by repetition;
      spaniennichtschach 283 plies, white wins by lost directions;
      springernichtschach-x 188 plies, black wins by lost classes;
      baernichtschach-x 258 plies, black wins by lost directions.
    (Only 'a result, legal moves only' is asserted: a change to the search or the rules
    may change these games.)"""
    game = play_game(name, "uci", GO, engine=eng)
    assert game.result is not None
    assert game.plies >= 10


def test_d_has_hands_and_no_check_line(eng):
    """There is no check in these games, so `d` prints no `Checkers:` line (chess does)."""
    eng.send("setoption name UCI_Variant value elefantnichtschach")
    eng.ask("isready", "readyok")
    eng.send("position startpos moves wb2wb3")
    got = eng.ask("d", "Game state:")
    assert not any("error" in l for l in got)
    assert "Hand: -" in got and not any(l.startswith("Checkers") for l in got)
    eng.send("setoption name UCI_Variant value chess")
    eng.send("position startpos")
    got = eng.ask("d", "Game state:")
    assert "Checkers: no" in got
