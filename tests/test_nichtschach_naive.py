"""Cross-check of the compiled move generation against a plain coordinate walker written here
from the piece definitions, on random crowded positions of every subvariant (promotions,
blocked odd riders, returns into the camp, captures of both colours)."""
from __future__ import annotations

import random

import pytest

import variants
from engine.movegen import legal_moves
from engine.pieces import LEAP
from engine.position import Position
from engine.notation.move_text import move_text
from engine.notation.position_text import format, parse
from board3d_helpers import NAMES


def naive_moves(v, pos) -> set[str]:
    geo = v.geometry
    side = pos.side
    b = pos.board
    if not v.meets_requirement(pos, side):
        return set()
    out = set()
    for cell, code in enumerate(b):
        if not code or code & 1 != side:
            continue
        pt = v.piece_types[code >> 1]
        l, f, r = geo.coords[cell]
        wc = (l, f, r) if side == 0 else (l, f, 5 - r)
        for atom in pt.atoms:
            for dl, df, dr in atom.vectors_at(wc):
                if side == 1:
                    dr = -dr
                k = 1
                while True:
                    t = geo.index.get((l + k * dl, f + k * df, r + k * dr))
                    if t is None:
                        break
                    p = b[t]
                    can_stop = atom.stops is None or k in atom.stops
                    if can_stop and (not p or p & 1 != side):
                        text = geo.name(cell) + geo.name(t)
                        if pt.token == "P" and geo.coords[t][2] == (5 if side == 0 else 0):
                            text += "f"
                        out.add(text)
                    if p or atom.kind == LEAP or (atom.max_dist and k >= atom.max_dist):
                        break
                    k += 1
    for code in range(2 + side, len(pos.hand), 2):
        if not pos.hand[code]:
            continue
        tok = v.piece_types[code >> 1].token
        for t in range(geo.size):
            if b[t]:
                continue
            r = geo.coords[t][2]
            if tok == "P" and not (r <= 2 if side == 0 else r >= 3):
                continue
            out.add(f"{tok}@{geo.name(t)}")
    return out


def random_position(v, rnd) -> Position:
    pos = Position(v)
    geo = v.geometry
    kinds = [pt for pt in v.piece_types[1:]]
    for c in rnd.sample(range(geo.size), rnd.randint(8, 90)):
        pt = rnd.choice(kinds)
        color = rnd.randint(0, 1)
        r = geo.coords[c][2]
        if pt.token == "P" and r == (5 if color == 0 else 0):
            continue
        pos.board[c] = pt.id * 2 + color
    for _ in range(rnd.randint(0, 4)):
        pt = rnd.choice(kinds)
        pos.hand[pt.id * 2 + rnd.randint(0, 1)] += 1
    pos.side = rnd.randint(0, 1)
    pos.reset_state()
    return pos


@pytest.mark.parametrize("name", list(NAMES))
def test_generator_matches_naive_walker(name):
    v = variants.get(name)
    rnd = random.Random(f"naive-{name}")
    decided = 0
    for _ in range(30):
        pos = random_position(v, rnd)
        again = parse(v, format(pos))
        assert format(again) == format(pos)
        got = {move_text(v, m) for m in legal_moves(pos)}
        assert len(got) == len(legal_moves(pos))          # one text per move
        assert got == naive_moves(v, pos), format(pos)
        decided += not got
    assert decided < 30                                      # most positions are live
