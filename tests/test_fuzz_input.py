"""Random command lines (protocol words, variant names, moves and junk) never crash the engine,
never write to stderr, and never stop it answering `isready` (docs/protocol.md, "Bad input"
and "Output")."""
from __future__ import annotations

import random

import pytest

from engine_proc import EngineProcess

WORDS = ["uci", "usi", "isready", "position", "startpos", "fen", "sfen", "moves", "go", "perft",
         "depth", "nodes", "movetime", "wtime", "btime", "winc", "binc", "byoyomi", "infinite",
         "ponder", "stop", "ponderhit", "setoption", "name", "value", "UCI_Variant", "Hash",
         "MultiPV", "Move Overhead", "Clear Hash", "d", "help", "ucinewgame", "usinewgame",
         "gameover", "searchmoves", "mate", "e2e4", "e7e5", "P@e4", "7g7f", "wc2wc3", "xa1xb2/b",
         "7i6h,5g", "0000", "-1", "999999999", "abc", "[", "]", "|", "/", "8/8/8", "chess",
         "shogi", "knavish-returns", "nested-a", "notake-rifle", "elefantnichtschach",
         "ninepiece-nichtschach"]


# well-formed commands mixed in, so the junk lands between real state changes and searches
VALID = ["setoption name UCI_Variant value chess", "setoption name UCI_Variant value shogi",
         "setoption name UCI_Variant value knavish-returns", "setoption name UCI_Variant value nested-a",
         "setoption name UCI_Variant value notake-rifle",
         "setoption name UCI_Variant value elefantnichtschach", "position startpos",
         "position startpos moves e2e4", "go depth 1", "go nodes 200", "go perft 1", "d",
         "go infinite", "ucinewgame", "setoption name MultiPV value 2"]


@pytest.mark.parametrize("seed", [1, 2])
def test_random_lines_never_break_the_engine(seed):
    rng = random.Random(seed)
    eng = EngineProcess()
    try:
        for i in range(300):
            if rng.random() < 0.4:
                line = rng.choice(VALID)
            else:
                words = [rng.choice(WORDS) for _ in range(rng.randint(0, 8))]
                if "go" in words and "infinite" not in words:
                    words += ["depth", "1"]         # keep every search short
                line = " ".join(words)
            eng.send(line)
            if i % 25 == 24:
                eng.send("stop")
                eng.ask("isready", "readyok", timeout=30)
        eng.send("stop")
        assert eng.close() == 0
        answers = [l for l in eng.log if l.startswith(("bestmove", "Nodes searched", "Fen:"))]
        assert len(answers) > 20         # the engine really searched and answered in between
    finally:
        if eng.proc.poll() is None:
            eng.proc.kill()
    assert eng.err == []
