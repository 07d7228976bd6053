"""Notake Shogi perft against docs/variants/notake.md, "Figures reproduced" (figures kept in
tests/data/notake_perft.json):
start position to depth 3 for all six forms, the hand-made positions N1-N11 (perft 1 and 2 and
the moves each one exercises), the lone-piece empty-board table, and one checkmate per form."""
import json
from pathlib import Path

import pytest

import variants
from engine.game import game_result, perft
from engine.movegen import in_check, legal_moves
from engine.moves import SPECIAL
from engine.position import Position
from engine.notation.move_text import move_text
from engine.notation.position_text import parse

DATA = json.loads((Path(__file__).parent / "data" / "notake_perft.json").read_text())
FORMS = list(DATA["start"])


def start(form):
    v = variants.get(f"notake-{form}")
    return v, parse(v, DATA["start_sfen"], "sfen")


@pytest.mark.parametrize("depth", [1, 2, 3])
@pytest.mark.parametrize("form", FORMS)
def test_start_perft(form, depth):
    v, pos = start(form)
    assert perft(pos, depth) == DATA["start"][form][depth - 1]


@pytest.mark.parametrize("form", FORMS)
def test_start_acting_moves_at_depth_1(form):
    """30 plain shogi moves plus the form's acting moves (docs/variants/notake.md, "Figures
    reproduced": the first ply counted by hand)."""
    v, pos = start(form)
    moves = legal_moves(pos)
    acting = [m for m in moves if m & SPECIAL]
    assert len(moves) - len(acting) == 30
    assert len(acting) == DATA["start_acting_depth1"][form]


POSITIONS = [pytest.param(p, id=p["id"]) for p in DATA["positions"]]


@pytest.mark.parametrize("case", POSITIONS)
def test_handmade_perft(case):
    v = variants.get(f"notake-{case['form']}")
    pos = parse(v, case["sfen"], "sfen")
    assert [perft(pos, d) for d in (1, 2)] == case["perft"]


@pytest.mark.parametrize("case", POSITIONS)
def test_handmade_moves_named_in_the_rules(case):
    v = variants.get(f"notake-{case['form']}")
    pos = parse(v, case["sfen"], "sfen")
    texts = {move_text(v, m, "usi") for m in legal_moves(pos)}
    for t in case.get("moves", []):
        assert t in texts
    for t in case.get("absent", []):
        assert t not in texts


@pytest.mark.parametrize("form", FORMS)
def test_checkmate_is_a_loss(form):
    v = variants.get(f"notake-{form}")
    pos = parse(v, DATA["checkmates"][form], "sfen")
    assert in_check(pos) and not legal_moves(pos)
    assert game_result(pos) == (-1, "checkmate")


def lone_piece_moves(v, token, cell_name):
    pos = Position(v)
    pos.board[v.geometry.parse(cell_name, "usi")] = v.by_token[token].id * 2   # Sente
    pos.reset_state()
    return legal_moves(pos)


@pytest.mark.parametrize("form", FORMS)
def test_empty_board_table(form):
    v = variants.get(f"notake-{form}")
    table = DATA["empty_board"]
    for token, counts in table.items():
        if token.startswith("_") or token == "cells":
            continue
        got = [len(lone_piece_moves(v, token, c)) for c in table["cells"]]
        assert got == counts, token
