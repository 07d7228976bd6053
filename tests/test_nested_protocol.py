"""Nested Chess through the protocol loop: a short self-play game of each variant, every
bestmove checked legal by the core, and the loop's `d` and perft on our variant."""
import subprocess
import sys
from pathlib import Path

import pytest

import variants
from engine.game import game_result
from engine.movegen import legal_moves
from protocol.move_text import move_text
from protocol.position_text import format, parse

ROOT = Path(__file__).resolve().parent.parent
PLIES = 36


class Engine:
    def __init__(self):
        self.p = subprocess.Popen([sys.executable, "-m", "protocol.cli"], cwd=ROOT, text=True,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=1)

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, prefix):
        lines = []
        while True:
            line = self.p.stdout.readline()
            assert line, "engine closed its output"
            lines.append(line.rstrip("\n"))
            if line.startswith(prefix):
                return lines

    def close(self):
        try:
            self.send("quit")
            self.p.wait(timeout=10)
        finally:
            if self.p.poll() is None:
                self.p.kill()


@pytest.fixture
def engine():
    e = Engine()
    yield e
    e.close()


@pytest.mark.parametrize("name", ["nested-a", "nested-b"])
def test_nested_self_play_through_protocol(engine, name):
    v = variants.get(name)
    engine.send("uci")
    engine.until("uciok")
    engine.send(f"setoption name UCI_Variant value {name}")
    engine.send("isready")
    engine.until("readyok")
    pos = parse(v, v.start_fen)
    played = []
    for _ in range(PLIES):
        engine.send("position startpos" + (" moves " + " ".join(played) if played else ""))
        engine.send("go depth 2")
        best = engine.until("bestmove")[-1].split()[1]
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
    out = engine.until("Fen:")
    assert out[-1].split(":", 1)[1].strip() == format(pos)


def test_nested_perft_and_diagram_through_protocol(engine):
    engine.send("uci")
    engine.until("uciok")
    engine.send("setoption name UCI_Variant value nested-b")
    engine.send("position startpos")
    engine.send("d")
    out = engine.until("Fen:")
    assert any(line.startswith(" 1  #   W   N   R") for line in out)
    engine.send("go perft 2")
    out = engine.until("Nodes searched")
    assert out[-1].split(":")[1].strip() == "400"
