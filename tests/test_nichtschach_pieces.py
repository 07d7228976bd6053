"""Every Flipped-return Nichtschach piece alone on the empty board, against
docs/variants/nichtschach.md, "Figures reproduced": one piece on the empty board (moves on wc3,
on ua1, summed over all 216 cells, cells reachable, which checks each binding) and Stockpoint
and Stockfwazir by file (on rank 3).
Figures in tests/data/nichtschach_empty_board.json."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import variants
from board3d_helpers import shapes
from engine.moves import CELL
from engine.position import Position

DATA = json.loads((Path(__file__).parent / "data" / "nichtschach_empty_board.json").read_text())


def lone(v, code):
    pos = Position(v)
    pos.side = code & 1
    pos.reset_state()

    def targets(cell):
        pos.put(cell, code)
        out = [m & CELL for m in shapes(pos)]
        pos.clear(cell)
        return out
    return targets


def reach(targets, start):
    seen = {start}
    todo = [start]
    while todo:
        for t in targets(todo.pop()):
            if t not in seen:
                seen.add(t)
                todo.append(t)
    return len(seen)


@pytest.mark.parametrize("row", DATA["pieces"], ids=lambda r: f"{r['set']}-{r['token']}")
def test_lone_piece(row):
    v = variants.get(row["variant"])
    pt = v.by_token[row["token"]]
    assert pt.name == row["name"]
    targets = lone(v, pt.id * 2)
    cell = v.geometry.by_name
    assert len(targets(cell["wc3"])) == row["wc3"]
    assert len(targets(cell["ua1"])) == row["ua1"]
    assert sum(len(targets(c)) for c in range(v.geometry.size)) == row["sum"]
    assert reach(targets, cell["ua1"]) == row["reach_ua1"]
    assert reach(targets, cell["wc3"]) == row["reach_wc3"]


@pytest.mark.parametrize("row", DATA["front_rank_rank3"], ids=lambda r: r["file"])
def test_front_rank_by_file(row):
    v = variants.get("elefantnichtschach")
    c = v.geometry.by_name[row["file"] + "3"]
    assert v.ring_of[c] == row["ring"]
    assert len(lone(v, v.p_id * 2)(c)) == row["P"]
    assert len(lone(v, v.f_id * 2)(c)) == row["F"]
    # Black's pieces are the mirror image: same counts on the mirrored rank 4
    c4 = v.geometry.by_name[row["file"] + "4"]
    assert len(lone(v, v.p_id * 2 + 1)(c4)) == row["P"]
    assert len(lone(v, v.f_id * 2 + 1)(c4)) == row["F"]


def test_stockpoint_never_leaves_its_ring():
    v = variants.get("elefantnichtschach")
    for color in (0, 1):
        targets = lone(v, v.p_id * 2 + color)
        for c in range(v.geometry.size):
            if v.rank_of(c, color) == 5:
                continue
            for t in targets(c):
                assert v.ring_of[t] == v.ring_of[c]
                assert v.rank_of(t, color) == v.rank_of(c, color) + 1
