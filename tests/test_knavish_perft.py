"""Knavish Chess perft: every figure of docs/variants/knavish.md "Figures reproduced"
(Fairy-Stockfish / pyffish 0.0.90 figures for variants/files/knavish.ini), kept in
tests/data/knavish_perft.json."""
import json
from pathlib import Path

import pytest

import variants
from engine.game import perft
from engine.moves import TYPE_MASK, TYPE_SHIFT, is_drop
from engine.movegen import legal_moves
from engine.notation.move_text import move_text
from engine.notation.position_text import parse

DATA = json.loads((Path(__file__).parent / "data" / "knavish_perft.json").read_text())


def _start_params():
    out = []
    for name, figs in DATA["start"].items():
        for depth, count in enumerate(figs, 1):
            marks = [pytest.mark.slow] if depth >= 4 else []
            out.append(pytest.param(name, depth, count, marks=marks, id=f"{name}-d{depth}"))
    return out


@pytest.mark.parametrize("name,depth,count", _start_params())
def test_start_perft(name, depth, count):
    v = variants.get(name)
    assert perft(parse(v, v.start_fen), depth) == count


def _pos_params():
    out = []
    for e in DATA["positions"]:
        for depth, count in enumerate(e["perft"], 1):
            out.append(pytest.param(e["variant"], e["fen"], depth, count, id=f"{e['id']}-d{depth}"))
    return out


@pytest.mark.parametrize("name,fen,depth,count", _pos_params())
def test_position_perft(name, fen, depth, count):
    v = variants.get(name)
    assert perft(parse(v, fen), depth) == count


@pytest.mark.parametrize("e", DATA["positions"], ids=[e["id"] for e in DATA["positions"]])
def test_position_notable_moves(e):
    v = variants.get(e["variant"])
    pos = parse(v, e["fen"])
    legal = legal_moves(pos)
    texts = {move_text(v, m) for m in legal}
    assert set(e.get("moves", ())) <= texts
    assert not set(e.get("absent", ())) & texts
    for letter, n in e.get("drop_counts", {}).items():
        tid = v.by_token[letter].id
        assert sum(1 for m in legal if is_drop(m) and (m >> TYPE_SHIFT) & TYPE_MASK == tid) == n
