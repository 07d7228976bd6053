"""A `go perft` finishes before the commands that came after it are carried out (docs/protocol.md,
"Counting"): the README's example session pasted as one block prints the whole count and then
searches; `position`, `d`, `setoption`, `ucinewgame` and another count sent during a count wait
for it and keep their order; `stop`, `isready` and `quit` still act at once."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

from engine_proc import EngineProcess, cellfish_command

README = (Path(__file__).resolve().parent.parent / "README.md").read_text()
DEADLINE = 60


def _example_block() -> str:
    setup = README.split("## Set up on a fresh machine")[1].split("\n## ")[0]
    return re.findall(r"```text\n(.*?)```", setup, re.S)[0]


def test_the_readme_example_pasted_as_one_block_prints_the_whole_count():
    block = _example_block()
    assert "go perft 3" in block and "go movetime" in block
    r = subprocess.run(cellfish_command(), input=block, capture_output=True, text=True,
                       timeout=DEADLINE, check=False)
    out = r.stdout.splitlines()
    assert r.returncode == 0 and r.stderr == ""
    assert "Nodes searched: 8902" in out
    assert not any("incomplete" in line for line in out)
    assert len([line for line in out if re.fullmatch(r"[a-h][1-8][a-h][1-8]: \d+", line)]) == 20
    # then `d` shows the start position, and the search answers with one bestmove
    assert out.index("Nodes searched: 8902") < out.index(
        "Fen: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    assert len([line for line in out if line.startswith("bestmove ")]) == 1


def test_commands_sent_during_a_count_wait_for_it_in_order():
    block = "\n".join([
        "uci", "position startpos", "go perft 4",
        "position startpos moves e2e4", "d",
        "setoption name UCI_Variant value knavish", "ucinewgame", "position startpos",
        "go perft 1", "quit"]) + "\n"
    r = subprocess.run(cellfish_command(), input=block, capture_output=True, text=True,
                       timeout=DEADLINE, check=False)
    out = r.stdout.splitlines()
    totals = [line for line in out if line.startswith("Nodes searched: ")]
    assert totals[0] == "Nodes searched: 197281"          # chess, depth 4, whole
    assert not any("incomplete" in line for line in out)
    fen = out.index("Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
    assert out.index(totals[0]) < fen
    # the second count is Knavish's, after the variant and position that came before it
    assert len(totals) == 2 and out.index(totals[1]) > fen and totals[1] != "Nodes searched: 20"
    assert "info string error" not in r.stdout


def test_stop_isready_and_quit_still_act_at_once_during_a_count():
    eng = EngineProcess()
    try:
        eng.ask("uci", lambda line: line == "uciok", DEADLINE)
        eng.send("position startpos")
        eng.send("go perft 6")                  # minutes in Python: only stop ends it here
        before = eng.ask("isready", lambda line: line == "readyok", DEADLINE)
        assert not any(line.startswith("Nodes searched") for line in before)
        eng.send("position startpos moves e2e4")   # kept for after the count
        lines = eng.ask("stop", lambda line: "perft incomplete" in line, DEADLINE)
        assert lines[-1].startswith("info string perft incomplete: stopped after ")
        # the kept position was set once the stopped count ended
        d = eng.ask("d", lambda line: line.startswith("Fen: "), DEADLINE)
        assert d[-1] == "Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
        eng.send("go perft 6")
        eng.ask("isready", lambda line: line == "readyok", DEADLINE)
        assert eng.close() == 0                 # quit ends the engine during the count
    finally:
        if eng.proc.poll() is None:
            eng.proc.kill()


def test_isready_behind_a_waiting_command_keeps_its_place():
    """`isready` is a point where the client waits for what it sent before: behind a kept
    command it is answered after that command, so after the count."""
    eng = EngineProcess()
    try:
        eng.ask("uci", lambda line: line == "uciok", DEADLINE)
        eng.send("position startpos")
        eng.send("go perft 4")
        eng.send("position startpos moves d2d4")
        lines = eng.ask("isready", lambda line: line == "readyok", DEADLINE)
        assert "Nodes searched: 197281" in lines
        d = eng.ask("d", lambda line: line.startswith("Fen: "), DEADLINE)
        assert d[-1] == "Fen: rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 1"
    finally:
        eng.close()
        if eng.proc.poll() is None:
            eng.proc.kill()


def test_a_kept_isready_is_answered_while_a_kept_count_runs():
    """`go perft 1`, `go perft 7` and `isready` sent together: the second count waits for the
    first, and `isready`, whose turn comes once the second count has started, is answered
    while it runs; `stop` then ends that second count."""
    eng = EngineProcess()
    try:
        eng.ask("uci", lambda line: line == "uciok", DEADLINE)
        eng.send("position startpos\ngo perft 1\ngo perft 7")
        lines = eng.ask("isready", lambda line: line == "readyok", DEADLINE)
        assert "Nodes searched: 20" in lines
        lines = eng.ask("stop", lambda line: "perft incomplete" in line, DEADLINE)
        assert lines[-1].endswith(" of 20 root moves")
    finally:
        eng.close()
        if eng.proc.poll() is None:
            eng.proc.kill()
