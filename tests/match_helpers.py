"""Shared helpers of the match-runner tests (tests/test_match_*.py): engine specs for
cellfish and the fake engines, and a replay of a game record through the rules core."""
from __future__ import annotations

import sys
from pathlib import Path

import variants
from engine.movegen import legal_moves
from engine.notation.move_text import parse_move
from engine.notation.position_text import parse as parse_position
from match import (
    EngineSpec,
    TimeControl,
    cellfish_command,
)

ROOT = Path(__file__).resolve().parent.parent
FAKE = str(ROOT / "tests" / "fakes" / "fake_engine.py")
CELLFISH = cellfish_command()


def cellfish(name: str, **tc) -> EngineSpec:
    return EngineSpec(name, CELLFISH, cwd=str(ROOT), tc=TimeControl(**tc) if tc else None)


def fake(mode: str, after: int = 1, **tc) -> EngineSpec:
    return EngineSpec(f"fake-{mode}", (sys.executable, FAKE, mode, str(after)),
                      tc=TimeControl(**tc) if tc else None)


def replay(rec: dict):
    """Check every move of a record against the rules core; return the final position."""
    v = variants.get(rec["variant"])
    pos = parse_position(v, rec["start"])
    for t in rec["opening"] + rec["moves"]:
        pos.make(parse_move(v, legal_moves(pos), t, rec["dialect"]))
    return pos
