"""Interruptible counts and searches, by event (no timing asserts; speed is `cellfish bench
latency`): while `go perft` counts, `isready` is answered; `stop` ends it with the root moves
finished so far, their total and `info string perft incomplete: stopped after K of M root
moves`; `quit` ends the process.  The same for searches in a 3D and a Nested game.  In UCI and
USI, on a 2D board (chess, shogi), on the 6x6x6 board (Elefant) and on Nested's squares and
vertices."""
from __future__ import annotations

import re
import subprocess

import pytest
from engine_proc import EngineProcess, cellfish_command

DEADLINE = 30.0
INCOMPLETE = re.compile(r"info string perft incomplete: stopped after (\d+) of (\d+) root moves$")

# (dialect, variant, a perft depth far beyond what a pure-Python count finishes in minutes)
CASES = [
    ("uci", "chess", 7),
    ("usi", "shogi", 6),
    ("uci", "elefantnichtschach", 5),
    ("uci", "nested-a", 6),
    ("usi", "notake-tow", 6),
]


def start(dialect: str, variant: str) -> EngineProcess:
    eng = EngineProcess()
    eng.ask(dialect, lambda l: l in ("uciok", "usiok"), DEADLINE)
    name = "USI_Variant" if dialect == "usi" else "UCI_Variant"
    eng.send(f"setoption name {name} value {variant}")
    eng.send("position startpos")
    eng.ask("isready", lambda l: l == "readyok", DEADLINE)
    return eng


def root_moves(eng: EngineProcess) -> int:
    lines = eng.ask("go perft 1", "info string perft 1", DEADLINE)
    return int(next(l for l in lines if l.startswith("Nodes searched:")).split(":")[1])


@pytest.mark.parametrize("dialect,variant,depth", CASES)
def test_stop_ends_perft_with_what_it_counted(dialect, variant, depth):
    eng = start(dialect, variant)
    try:
        m = root_moves(eng)
        eng.send(f"go perft {depth}")
        # answered while the count runs: nothing of the count is printed before readyok
        before = eng.ask("isready", lambda l: l == "readyok", DEADLINE)
        assert not any(l.startswith("Nodes searched") for l in before), before
        lines = eng.ask("stop", lambda l: INCOMPLETE.match(l) is not None, DEADLINE)
        k, total_root = map(int, INCOMPLETE.match(lines[-1]).groups())
        assert total_root == m and 0 <= k < m
        blank = lines.index("")
        rows = lines[blank - k:blank]
        counts = [int(r.rsplit(": ", 1)[1]) for r in rows]
        assert all(c > 0 for c in counts), rows
        assert lines[blank + 1] == f"Nodes searched: {sum(counts)}"
        # still serving, and a full count afterwards is complete and unmarked
        assert eng.ask("isready", lambda l: l == "readyok", DEADLINE)[-1] == "readyok"
        after = eng.ask("go perft 1", "info string perft", DEADLINE)
        assert after[-1].startswith("info string perft 1 time")
        assert f"Nodes searched: {m}" in after
        assert eng.close() == 0
    finally:
        if eng.proc.poll() is None:
            eng.proc.kill()


@pytest.mark.parametrize("dialect,variant,depth", CASES[:4])
def test_quit_ends_a_running_perft(dialect, variant, depth):
    eng = start(dialect, variant)
    try:
        eng.send(f"go perft {depth}")
        eng.ask("isready", lambda l: l == "readyok", DEADLINE)
        eng.send("quit")
        assert eng.proc.wait(timeout=DEADLINE) == 0
    finally:
        if eng.proc.poll() is None:
            eng.proc.kill()


def test_a_piped_script_ending_in_perft_gets_the_whole_count():
    """End of input does not stop a count (it does stop a search): `echo 'go perft 3' |
    cellfish` prints the whole divide, unmarked."""
    r = subprocess.run(cellfish_command(), input="position startpos\ngo perft 3\n", check=False,
                       capture_output=True, text=True, timeout=120)
    assert "Nodes searched: 8902" in r.stdout.splitlines()
    assert "incomplete" not in r.stdout
