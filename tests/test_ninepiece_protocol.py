"""Ninepiece Nichtschach through the protocol loop (the installed `cellfish` command as a subprocess):
variant switch, perft, compounds in `position`/`d`, and a complete self-play game whose
every bestmove is checked legal by the rules core."""
import json
from pathlib import Path

import pytest

import variants
from engine.movegen import legal_moves
from engine_proc import EngineProcess
from engine.notation.move_text import parse_move
from engine.notation.position_text import format, parse
from selfplay import play_game

NAME = "ninepiece-nichtschach"
FIG = json.loads((Path(__file__).parent / "data" / "ninepiece_figures.json").read_text())


@pytest.fixture
def eng():
    e = EngineProcess()
    e.ask("uci", "uciok")
    e.send(f"setoption name UCI_Variant value {NAME}")
    lines = e.ask("isready", "readyok")
    e.announce = next(l for l in lines if l.startswith("info string variant"))
    yield e
    e.close()


def fen_of(eng):
    lines = eng.ask("d", "Game state:")
    return next(l[5:] for l in lines if l.startswith("Fen: ")), lines


def test_variant_announcement(eng):
    v = variants.get(NAME)
    assert f"info string variant {NAME} " in eng.announce
    assert "levels 6" in eng.announce
    assert eng.announce.endswith("startpos " + v.start_fen)


def test_perft_through_protocol(eng):
    eng.send("position startpos")
    lines = eng.ask("go perft 2", "Nodes searched")
    assert lines[-1] == "Nodes searched: 25600"
    assert len([l for l in lines if ": " in l and not l.startswith("Nodes")]) == 160


def test_fusion_fission_text_through_position(eng):
    v = variants.get(NAME)
    t5 = FIG["T5"]["fen"]
    eng.send(f"position fen {t5} moves xa1xb2/b zc6yb5 wa1wc1")
    fen, lines = fen_of(eng)
    pos = parse(v, t5)
    for text in ("xa1xb2/b", "zc6yb5", "wa1wc1"):
        m = parse_move(v, legal_moves(pos), text)
        pos.make(m)
    assert fen == format(pos)
    assert "(RG)" in fen and fen.split("|")[3].endswith("/1B4/R1A3")
    assert any(l.startswith("Compounds:") and "wc1 RG Reaper" in l for l in lines)


def test_complete_self_play_game(eng):
    """A whole game at `go depth 1` (tests/selfplay.py): every bestmove one of the core's legal
    moves, the game ends by the rules, the engine then agrees it is over, and `d` shows the
    core's final position.  Observed (depth 1 is deterministic):
      ninepiece-nichtschach 212 plies, black wins by gryphon-celebrant-farrier group eliminated.
    (Only 'a result, legal moves only' is asserted: a change to the search or the rules
    may change these games.)"""
    game = play_game(NAME, "uci", "go depth 1", engine=eng)
    assert game.result is not None
    assert game.plies >= 20
    assert eng.err == []
