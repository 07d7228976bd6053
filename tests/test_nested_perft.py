"""Nested Chess move generation against the figures of an independent reference generator
(docs/variants/nested.md, "Figures reproduced"; data/nested_perft.json,
data/nested_lone_piece.json)."""
import json
from pathlib import Path

import pytest

import variants
from engine.game import perft
from engine.position import Position
from engine.notation.position_text import format, parse

DATA = Path(__file__).parent / "data"
PERFT = json.loads((DATA / "nested_perft.json").read_text())
LONE = json.loads((DATA / "nested_lone_piece.json").read_text())


def _start_params():
    out = []
    for name, figs in PERFT["start"].items():
        for depth, count in enumerate(figs, 1):
            marks = [pytest.mark.slow] if depth >= 4 else []
            out.append(pytest.param(name, depth, count, marks=marks, id=f"{name}-d{depth}"))
    return out


@pytest.mark.parametrize("name,depth,count", _start_params())
def test_nested_start_perft(name, depth, count):
    v = variants.get(name)
    pos = parse(v, v.start_fen)
    assert perft(pos, depth) == count
    assert format(pos) == v.start_fen          # make/unmake restored everything
    assert pos.hash == pos.compute_hash()


@pytest.mark.parametrize("case", PERFT["positions"], ids=[p["id"] for p in PERFT["positions"]])
def test_nested_handmade_perft(case):
    v = variants.get(case["variant"])
    pos = parse(v, case["fen"])
    got = [perft(pos, d) for d in range(1, len(case["perft"]) + 1)]
    assert got == case["perft"], case["rule"]
    assert format(pos) == case["fen"]
    assert pos.hash == pos.compute_hash()


def _lone_params():
    out = []
    for name in ("nested-a", "nested-b"):
        table = dict(LONE["counts"])
        table.update(LONE["forward"][name])
        for tok, counts in table.items():
            for cell, n in zip(LONE["cells"], counts):
                if n is not None:
                    out.append(pytest.param(name, tok, cell, n, id=f"{name}-{tok}-{cell}"))
    return out


@pytest.mark.parametrize("name,tok,cell,count", _lone_params())
def test_nested_lone_piece(name, tok, cell, count):
    v = variants.get(name)
    pos = Position(v)
    c = v.geometry.by_name[cell]
    pos.put(c, v.by_token[tok].id * 2)
    pos.reset_state()
    assert len(v.moves_from(pos, c)) == count
