"""Flipped-return Nichtschach perft against docs/variants/nichtschach.md, "Figures reproduced":
start positions and hand-made positions T1-T7 (data in tests/data/nichtschach_perft.json).

Perft convention: a position whose last move has already won (the side to move lacks two
pieces along some direction, or in some Springer class) has no legal moves, so perft does not
expand it.  T1 at depth 2 (232,126) decides this: expanding the two winning replies would count
more."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

import variants
from engine.game import game_result, perft
from engine.movegen import legal_moves
from engine.moves import CELL, FROM_SHIFT, TYPE_MASK, TYPE_SHIFT, is_drop
from engine.notation.move_text import move_text
from engine.notation.position_text import format, parse

DATA = json.loads((Path(__file__).parent / "data" / "nichtschach_perft.json").read_text())
START = DATA["start"]
POSITIONS = DATA["positions"]


def start_params():
    out = []
    for name, spec in START.items():
        for d, n in enumerate(spec["perft"], 1):
            marks = [pytest.mark.slow] if d >= 3 else []
            out.append(pytest.param(name, d, n, marks=marks, id=f"{name}-d{d}"))
    return out


@pytest.mark.parametrize("name", list(START))
def test_start_fen_is_the_rules_array(name):
    """The engine's start FEN is the one listed in docs/variants/nichtschach.md, "Arrays"."""
    v = variants.get(name)
    assert v.start_fen == START[name]["fen"]
    assert format(parse(v, v.start_fen)) == v.start_fen


def test_every_variant_has_a_start_entry():
    assert len(START) == 11
    assert set(START) == {n for n in variants.names()
                          if n.endswith(("nichtschach", "nichtschach-x")) and n != "ninepiece-nichtschach"}


@pytest.mark.parametrize("name,depth,nodes", start_params())
def test_start_perft(name, depth, nodes):
    v = variants.get(name)
    pos = parse(v, v.start_fen)
    assert format(pos) == v.start_fen
    assert perft(pos, depth) == nodes


@pytest.mark.parametrize("tid", list(POSITIONS))
def test_hand_made_perft(tid):
    spec = POSITIONS[tid]
    v = variants.get(spec["variant"])
    pos = parse(v, spec["fen"])
    assert format(pos) == spec["fen"]
    for d, n in enumerate(spec["perft"], 1):
        assert perft(pos, d) == n, f"{tid} depth {d}"


def classify(pos, m):
    if is_drop(m):
        return "return"
    kind = "capture" if pos.board[m & CELL] else "move"
    return kind + ("+promo" if (m >> TYPE_SHIFT) & TYPE_MASK else "")


@pytest.mark.parametrize("tid", list(POSITIONS))
def test_hand_made_composition_and_wins(tid):
    spec = POSITIONS[tid]
    v = variants.get(spec["variant"])
    pos = parse(v, spec["fen"])
    moves = legal_moves(pos)
    assert Counter(classify(pos, m) for m in moves) == Counter(spec["composition"])
    wins = []
    for m in moves:
        pos.make(m)
        r = game_result(pos)
        if r is not None:
            assert r[0] == -1            # the side to move (the victim) has lost
            wins.append(move_text(v, m))
            assert legal_moves(pos) == []
        pos.unmake()
    assert sorted(wins) == sorted(spec["wins"])


def test_start_ply1_composition():
    """108 Stockpoint moves in every start, plus the forward 2-cell leaps where there are any."""
    for name, spec in START.items():
        v = variants.get(name)
        pos = parse(v, v.start_fen)
        p_moves = sum(1 for m in legal_moves(pos) if pos.board[(m >> FROM_SHIFT) & CELL] >> 1 == v.p_id)
        assert p_moves == 108, name
        assert len(legal_moves(pos)) == spec["perft"][0]
