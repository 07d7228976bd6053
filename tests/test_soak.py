"""`cellfish bench soak`: its fault classes read the referee's reasons, the games are spread
over the variants, and a tiny soak (two variants, two games each, a few plies) runs through the
match runner with no fault, no engine over its memory bound and nothing left over."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bench.soak import fault_of, reason_class, split_games

ROOT = Path(__file__).resolve().parent.parent


def test_fault_classes_follow_the_referees_reasons():
    assert fault_of({"result": "0-1", "reason": "cellfish-a plays an illegal move (e2e5)"}) == "illegal move"
    assert fault_of({"result": "1-0", "reason": "cellfish-b crashed (exit code -9)"}) == "crash"
    assert fault_of({"result": "1-0", "reason": "x stalled (no bestmove within 60 s)"}) == "stall"
    assert fault_of({"result": "0-1", "reason": "x loses on time (1200 ms used, 900 ms left)"}) == "time loss"
    assert fault_of({"result": "0-1", "reason": "x broke the protocol (bad line)"}) == "protocol"
    assert fault_of({"result": "*", "reason": "runner error (game 3: EOFError)"}) == "runner error"
    assert fault_of({"result": "*", "reason": "something else"}) == "no result"
    assert fault_of({"result": "1/2-1/2", "reason": "repetition"}) is None
    assert fault_of({"result": "1-0", "reason": "checkmate"}) is None
    assert reason_class("move limit (300 plies)") == "move limit"


def test_games_are_spread_over_the_variants():
    assert split_games(7, ["a", "b", "c"]) == {"a": 3, "b": 2, "c": 2}
    assert sum(split_games(1000, [str(i) for i in range(29)]).values()) == 1000


def test_a_tiny_soak_runs_clean(tmp_path):
    records = tmp_path / "soak.jsonl"
    r = subprocess.run([sys.executable, "-m", "cellfish", "bench", "soak", "--games", "4",
                        "--variants", "chess,nested-b", "--nodes", "100", "--max-plies", "12",
                        "--random-plies", "2", "--concurrency", "2", "--records", str(records)],
                       cwd=ROOT, capture_output=True, text=True, timeout=600, check=False,
                       stdin=subprocess.DEVNULL)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "faults: none" in r.stdout
    assert "engine processes left over at the end: 0" in r.stdout
    assert "over the bound: 0" in r.stdout
    assert len(records.read_text().splitlines()) == 4
