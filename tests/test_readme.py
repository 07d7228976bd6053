"""The README says what the engine does: its set-up commands are the ones CI runs, its list of
variants and starting arrays are the engine's, its transcript shows the engine's answers, and
its one-line match command runs."""
from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import variants  # noqa: E402
from tests.engine_proc import EngineProcess, cellfish_command  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def code_blocks(lang):
    return re.findall(rf"```{lang}\n(.*?)```", README, re.S)


def test_exactly_two_setup_commands_and_ci_runs_the_second():
    setup = README.split("## Set up on a fresh machine")[1].split("\n## ")[0]
    commands = re.findall(r"```sh\n(.*?)```", setup, re.S)
    assert len(commands) == 2
    install, test = (c.strip() for c in commands)
    assert install.endswith(".venv/bin/cellfish") and "pip install -e ." in install
    # the whole suite, then its fixed subset against the compiled engine the install built
    assert "python -m pytest && " in test and "'.[test]'" in test
    assert test.endswith("CELLFISH_TEST_NATIVE=1 .venv/bin/python -m pytest -m native")
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert test in ci


def test_the_transcript_shows_the_engines_answers():
    """Every line of the README's sample answer that does not depend on timing (info and
    bestmove lines do) nor stands for left-out lines ('...') is a line the engine prints.
    The commands are typed as a person types them: each once the one before has answered
    (`go perft` runs like a search, so a `quit` sent at once would stop the count)."""
    setup = README.split("## Set up on a fresh machine")[1].split("\n## ")[0]
    typed, answer = re.findall(r"```text\n(.*?)```", setup, re.S)[:2]
    commands = [c for c in typed.splitlines() if c.strip() and not c.startswith("go movetime")]
    eng = EngineProcess()
    try:
        for c in commands:
            if c.startswith(("go perft", "perft")):
                eng.ask(c, "info string perft", 30)
            elif c in ("uci", "usi"):
                eng.ask(c, lambda l: l in ("uciok", "usiok"), 30)
            elif c != "quit":
                eng.send(c)
                eng.ask("isready", lambda l: l == "readyok", 30)
        assert eng.close() == 0
    finally:
        if eng.proc.poll() is None:
            eng.proc.kill()
    printed = set(eng.log)
    fixed = [l for l in answer.splitlines()
             if "..." not in l and not l.startswith(("info", "bestmove"))]
    assert len(fixed) > 20
    assert [l for l in fixed if l not in printed] == []
    assert "".join(eng.err) == ""


def test_every_variant_is_in_the_table():
    table = README.split("## Variants")[1].split("### ")[0]
    named = set(re.findall(r"`([a-z0-9-]+)`", table))
    assert set(variants.builtin_names()) <= named
    assert named - set(variants.builtin_names()) <= {"UCI_Variant", "USI_Variant"}


def test_starting_arrays_are_the_engines():
    block = README.split("### Starting arrays")[1]
    arrays = code_blocks("text")
    text = [b for b in arrays if b in block][0]
    listed = {}
    for line in text.strip().splitlines():
        name, fen = line.split(None, 1)
        listed[name] = fen.strip()
    assert listed == {n: variants.get(n).start_fen for n in variants.builtin_names()}


def test_the_match_line_runs(tmp_path):
    [line] = [l for b in code_blocks("sh") for l in b.splitlines()
              if l.startswith(".venv/bin/cellfish match")]
    exe = cellfish_command()[0]
    argv = [a.replace(".venv/bin/cellfish", exe) for a in shlex.split(line)]
    r = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=300,
                       stdin=subprocess.DEVNULL)
    assert r.returncode == 0, r.stderr
    assert "depth3 vs depth1" in r.stdout
    [records] = list(tmp_path.glob("match-*.jsonl"))
    games = [json.loads(l) for l in records.read_text().splitlines()]
    assert len(games) == 4
    assert all(g["variant"] == "knavish" and g["result"] in ("1-0", "0-1", "1/2-1/2") for g in games)
    pgn = (tmp_path / "games.pgn").read_text()
    assert pgn.count('[Variant "knavish"]') == 4
