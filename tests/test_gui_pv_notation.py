"""The engine's lines (PV) in the move list's notation: SAN on 2D boards, the western shogi
notation in games written in USI, read from the searched position; protocol text on 3D boards."""
from __future__ import annotations

import json

import chess
import pytest
from gui_helpers import LiveServer, recv, send, tab

import variants
from engine.movegen import legal_moves
from engine.notation import parse_move
from gui.shogi_notation import shogi_move


@pytest.fixture(scope="module")
def server():
    with LiveServer() as s:
        yield s


def search(server, name: str, moves: list[str], depth: int = 3) -> dict:
    """The last info with a PV of an analysis to `depth` after `moves`."""
    with tab(server) as ws:
        recv(ws, "variants")
        send(ws, type="new", variant=name)
        recv(ws, "state")
        for t in moves:
            send(ws, type="move", text=t)
            recv(ws, "state")
        send(ws, type="go", depth=depth, play=False)
        last = None
        while True:
            m = json.loads(ws.recv(timeout=60))
            assert m["type"] != "error", m
            if m["type"] == "info" and m["info"].get("pv"):
                last = m
            if m["type"] == "bestmove":
                recv(ws, "state")
                return last


def test_chess_pv_in_san_from_the_searched_position(server):
    info = search(server, "chess", ["e2e4", "e7e5"])
    board = chess.Board()
    board.push_uci("e2e4")
    board.push_uci("e7e5")
    want = []
    for t in info["info"]["pv"]:           # python-chess's SAN of the same line
        mv = chess.Move.from_uci(t)
        want.append(board.san(mv))
        board.push(mv)
    assert info["pvshown"] == want and len(want) >= 2


def test_shogi_pv_in_shogi_notation(server):
    info = search(server, "shogi", ["c3c4"])
    v = variants.get("shogi")
    pos = v.start_position()
    pos.make(parse_move(v, legal_moves(pos), "c3c4"))
    want = []
    for t in info["info"]["pv"]:
        legal = legal_moves(pos)
        m = parse_move(v, legal, t)
        want.append(shogi_move(v, pos, m, legal))
        pos.make(m)
    assert info["pvshown"] == want and want[0][0] in "PLNSGBRK+"


def test_3d_pv_stays_protocol_text(server):
    assert search(server, "raumschach8", [], depth=1)["pvshown"] is None
