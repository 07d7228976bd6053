"""Nested Chess through the protocol loop: a short self-play game of each variant, every
bestmove checked legal by the core, and the loop's `d` and perft on our variant."""

import pytest

import variants
from engine.game import game_result
from engine.movegen import legal_moves
from protocol.move_text import move_text
from protocol.position_text import format, parse
from tests.engine_proc import EngineProcess

PLIES = 36


@pytest.fixture
def engine():
    e = EngineProcess()
    yield e
    e.close()


@pytest.mark.parametrize("name", ["nested-a", "nested-b"])
def test_nested_self_play_through_protocol(engine, name):
    v = variants.get(name)
    engine.send("uci")
    engine.expect("uciok")
    engine.send(f"setoption name UCI_Variant value {name}")
    engine.send("isready")
    engine.expect("readyok")
    pos = parse(v, v.start_fen)
    played = []
    for _ in range(PLIES):
        engine.send("position startpos" + (" moves " + " ".join(played) if played else ""))
        engine.send("go depth 2")
        best = engine.expect("bestmove", 60)[-1].split()[1]
        legal = legal_moves(pos)
        texts = {move_text(v, m): m for m in legal}
        if not legal:
            assert best == "(none)"
            break
        assert best in texts, f"illegal bestmove {best} after {' '.join(played)}"
        pos.make(texts[best])
        played.append(best)
        if game_result(pos) is not None:
            break
    assert len(played) >= 10
    # the loop's own position agrees with ours
    engine.send("position startpos moves " + " ".join(played))
    engine.send("d")
    out = engine.expect("Fen:")
    assert out[-1].split(":", 1)[1].strip() == format(pos)


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
