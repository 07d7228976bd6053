"""Self-play of every Flipped-return Nichtschach subvariant through the protocol loop
(the installed `cellfish` command, UCI, `go depth 1`): every bestmove must be legal by our own core,
and the engine's `d` must show the position text our core computes."""
from __future__ import annotations


import pytest

import variants
from engine.game import game_result
from engine.movegen import legal_moves
from engine_proc import EngineProcess
from protocol.move_text import move_text, parse_move
from protocol.position_text import format, parse
from variants.nichtschach import NAMES

PLIES = 24


@pytest.fixture(scope="module")
def eng():
    e = EngineProcess()
    e.ask("uci", "uciok")
    yield e
    e.close()


@pytest.mark.parametrize("name", list(NAMES))
def test_self_play_depth1(eng, name):
    v = variants.get(name)
    eng.send(f"setoption name UCI_Variant value {name}")
    eng.ask("isready", "readyok")
    pos = parse(v, v.start_fen)
    played: list[str] = []
    for ply in range(PLIES):
        legal = legal_moves(pos)
        eng.send("position startpos" + (" moves " + " ".join(played) if played else ""))
        best = eng.ask("go depth 1", "bestmove", timeout=60)[-1].split()[1]
        if not legal or game_result(pos) is not None:
            assert best == "(none)" or best in {move_text(v, m) for m in legal}
            break
        m = parse_move(v, legal, best)           # raises if the engine's move is not legal here
        assert move_text(v, m) == best
        pos.make(m)
        played.append(best)
    eng.send("position startpos moves " + " ".join(played))
    lines = eng.ask("d", "Fen:")
    assert lines[-1] == f"Fen: {format(pos)}"
    assert len(played) >= 10
