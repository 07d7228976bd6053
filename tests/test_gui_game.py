"""The gui server's game beyond single moves, over its websocket and on its Game: variations
kept and switched, takeback, endings the page decides (resignation, time, an agreed draw), the
engine's answer to a draw offer, clock limits passed to the engine, check cells, the choices
of a shared move described as what they leave on the board, and the legend's piece moves."""
from __future__ import annotations

import json

import pytest
from gui_helpers import LiveServer, recv, send, tab

import gui.app
import gui.game
import variants
from engine.moves import CELL, FROM_SHIFT, TYPE_MASK, TYPE_SHIFT, is_drop
from engine.movegen import legal_moves
from engine.notation import code_token, format_position, move_text, parse_move, parse_position
from gui.describe import geometry_description, piece_moves, state


@pytest.fixture(scope="module")
def server():
    with LiveServer(max_tabs=8) as s:
        yield s


def core_fen(name, moves, start=None):
    v = variants.get(name)
    pos = parse_position(v, start) if start else v.start_position()
    for t in moves:
        pos.make(parse_move(v, legal_moves(pos), t))
    return format_position(pos)


def test_a_move_from_an_earlier_ply_keeps_the_old_line():
    g = gui.game.Game("chess")
    for t in ["e2e4", "e7e5", "g1f3", "b8c6"]:
        g.play(t)
    g.ply = 1
    g.play("e7e5")                      # the main line's own move: stepped on, nothing cut
    assert g.moves == ["e2e4", "e7e5", "g1f3", "b8c6"] and g.ply == 2 and g.lines == []
    g.play("f1c4")                      # another move: a new main line, the old one kept
    assert g.moves == ["e2e4", "e7e5", "f1c4"] and g.ply == 3
    assert g.variations() == [{"index": 0, "at": 2, "moves": ["g1f3", "b8c6"],
                               "san": ["Nf3", "Nc6"], "notation": None}]
    assert format_position(g.position()) == core_fen("chess", ["e2e4", "e7e5", "f1c4"])
    g.switch(0, 4)                      # back to the kept line, at its end
    assert g.moves == ["e2e4", "e7e5", "g1f3", "b8c6"] and g.ply == 4
    assert format_position(g.position()) == core_fen("chess", g.moves)
    assert g.variations() == [{"index": 0, "at": 2, "moves": ["f1c4"], "san": ["Bc4"],
                               "notation": None}]
    g.ply = 2
    g.play("f1c4")                      # a move that a kept line goes on with: that line
    assert g.moves == ["e2e4", "e7e5", "f1c4"] and len(g.lines) == 1
    g.ply = 0
    g.play("d2d4")
    assert [(v["at"], v["moves"][-1]) for v in g.variations()] == [(0, "b8c6"), (0, "f1c4")]
    with pytest.raises(ValueError):
        g.switch(0, 99)
    assert g.moves == ["d2d4"]          # a refused switch changed nothing


def test_takeback_drops_the_moves():
    g = gui.game.Game("chess")
    for t in ["e2e4", "e7e5", "g1f3"]:
        g.play(t)
    g.takeback(2)
    assert g.moves == ["e2e4"] and g.ply == 1 and g.lines == []
    assert format_position(g.position()) == core_fen("chess", ["e2e4"])
    with pytest.raises(ValueError):
        g.takeback(2)
    assert g.moves == ["e2e4"]


def test_state_names_check_and_describes_choices():
    v = variants.get("chess")
    st = state(parse_position(v, "4k3/8/8/8/8/8/8/4R2K b - - 0 1"), [], 0)
    assert st["check"] == [v.geometry.names.index("e8")]
    assert state(v.start_position(), [], 0)["check"] == []
    st = state(parse_position(v, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1"), [], 0)
    a8 = v.geometry.names.index("a8")
    promos = {d["text"]: d["after"] for d in st["legal"] if "after" in d}
    assert promos == {f"a7a8{p}": [{"cell": a8, "token": p.upper()}] for p in "qrbn"}
    # Notake: an acting move and the plain move to the same cell are told apart by what the
    # acting one changes elsewhere
    vn = variants.get("notake-withdraw")
    pos = vn.start_position()
    for t in ["b3b4", "b7b6"]:
        pos.make(parse_move(vn, legal_moves(pos), t))
    st = state(pos, [], 0)
    shared = [d for d in st["legal"] if "after" in d]
    assert shared and all(len(d["after"]) > 1 for d in shared if d["acted"] is not None)
    assert all(len(d["after"]) == 1 for d in shared if d["acted"] is None)


def test_legend_moves_from_the_core_tables():
    v = variants.get("chess")
    n = piece_moves(v, "N")
    assert v.geometry.names[n["from"]] == "d4"
    assert sorted(v.geometry.names[c] for c in n["moves"]) == sorted(
        ["b3", "b5", "c2", "c6", "e2", "e6", "f3", "f5"])
    p = piece_moves(v, "P")
    assert [v.geometry.names[c] for c in p["moves"]] == ["d5"]
    assert sorted(v.geometry.names[c] for c in p["captures"]) == ["c5", "e5"]   # only captures
    r = piece_moves(v, "R")
    assert len(r["moves"]) == 14 and len(r["captures"]) == 4
    assert piece_moves(v, "Z") is None
    cube = variants.get("elefantnichtschach")
    assert len(piece_moves(cube, "R")["moves"]) == 15        # 5 + 5 + 5 on a 6x6x6 board


def test_edge_coordinates_on_lattice_and_3d_boards():
    nested = geometry_description(variants.get("nested-a"))
    texts = [lb["text"] for lb in nested["edge_labels"]]
    assert texts == list("abcdefghijklmnopq") + [str(r) for r in range(1, 18)]
    cube = geometry_description(variants.get("elefantnichtschach"))
    texts = [lb["text"] for lb in cube["edge_labels"]]
    assert texts == (list("abcdef") + list("123456")) * 6
    assert geometry_description(variants.get("chess"))["edge_labels"] == []


def new(ws, name, position=None):
    send(ws, type="new", variant=name, **({"position": position} if position else {}))
    recv(ws, "geometry")
    return recv(ws, "state")


def test_variations_over_the_socket_and_kept_in_a_record(server):
    with tab(server) as ws:
        recv(ws, "variants")
        new(ws, "chess")
        for t in ["e2e4", "e7e5", "g1f3"]:
            send(ws, type="move", text=t)
            recv(ws, "state")
        send(ws, type="goto", ply=1)
        recv(ws, "state")
        send(ws, type="move", text="c7c5")
        st = recv(ws, "state")
        assert st["moves"] == ["e2e4", "c7c5"] and st["san"] == ["e4", "c5"]
        assert st["variations"] == [{"index": 0, "at": 1, "moves": ["e7e5", "g1f3"],
                                     "san": ["e5", "Nf3"], "notation": None}]
        for bad in [{"type": "line", "index": 1, "ply": 1}, {"type": "line", "index": 0},
                    {"type": "line", "index": 0, "ply": 9}, {"type": "takeback", "plies": 5},
                    {"type": "takeback", "plies": "1"}]:
            send(ws, **bad)
            recv(ws, "error")
        send(ws, type="line", index=0, ply=2)
        st = recv(ws, "state")
        assert st["moves"] == ["e2e4", "e7e5", "g1f3"] and st["ply"] == 2
        assert st["fen"] == core_fen("chess", ["e2e4", "e7e5"])
        assert st["variations"][0]["moves"] == ["c7c5"]
        # the page keeps lines in its record; a record with a bad line is refused whole
        rec = {"variant": "chess", "dialect": "uci", "moves": ["d2d4"],
               "lines": [["e2e4", "e7e5"], ["e2e4", "c7c5", "g1f3"]]}
        send(ws, type="load", json=json.dumps(rec))
        recv(ws, "geometry")
        st = recv(ws, "state")
        assert st["moves"] == ["d2d4"] and st["ply"] == 1
        assert [(v["at"], v["moves"]) for v in st["variations"]] == [
            (0, ["e2e4", "e7e5"]), (0, ["e2e4", "c7c5", "g1f3"])]
        rec["lines"].append(["e2e4", "e2e4"])
        send(ws, type="load", json=json.dumps(rec))
        assert "record refused" in recv(ws, "error")["text"]
        rec = {"variant": "chess", "dialect": "uci", "moves": ["e2e4"], "lines": [
            ["e2e4", "e7e5", "g1f3"]]}         # the main line a prefix of a kept one
        send(ws, type="load", json=json.dumps(rec))
        recv(ws, "geometry")
        st = recv(ws, "state")
        assert st["moves"] == ["e2e4"] and st["variations"][0]["moves"] == ["e7e5", "g1f3"]


def test_endings_takeback_and_banner(server):
    with tab(server) as ws:
        recv(ws, "variants")
        new(ws, "shogi")
        send(ws, type="move", text="g3g4")
        recv(ws, "state")
        for bad in [{"type": "end", "winner": 2, "reason": "resignation"},
                    {"type": "end", "winner": 0, "reason": "boredom"},
                    {"type": "end", "winner": 0, "reason": "agreement"},
                    {"type": "end", "winner": None, "reason": "time"},
                    {"type": "end", "winner": True, "reason": "time"}]:
            send(ws, **bad)
            recv(ws, "error")
        send(ws, type="end", winner=0, reason="resignation")
        st = recv(ws, "state")
        assert st["result"]["text"] == "Sente wins: Gote resigns" and st["legal"] == []
        send(ws, type="move", text="c7c6")          # no move after the end
        recv(ws, "error")
        send(ws, type="export")
        assert json.loads(recv(ws, "record")["json"])["result"] == "1-0"
        send(ws, type="takeback", plies=1)          # a takeback also takes the ending back
        st = recv(ws, "state")
        assert st["moves"] == [] and st["result"] is None and st["legal"]
        send(ws, type="move", text="g3g4")
        recv(ws, "state")
        send(ws, type="end", winner=0, reason="time")
        assert recv(ws, "state")["result"]["text"] == "Sente wins: Gote's time is up"
        send(ws, type="end", winner=1, reason="time")        # ended already
        recv(ws, "error")
        send(ws, type="goto", ply=0)                # from an earlier move: play goes on
        recv(ws, "state")
        send(ws, type="move", text="c3c4")
        st = recv(ws, "state")
        assert st["result"] is None and st["moves"] == ["c3c4"]
        assert st["variations"][0]["moves"] == ["g3g4"]
        new(ws, "chess", "6k1/5ppp/8/8/8/8/8/K3R3 w - - 0 1")
        send(ws, type="move", text="e1e8")
        assert recv(ws, "state")["result"]["text"] == "White wins: checkmate"
        send(ws, type="end", winner=1, reason="resignation")  # a rule ended it already
        recv(ws, "error")


def test_draw_offer_follows_the_engines_score(server):
    with tab(server) as ws:
        recv(ws, "variants")
        new(ws, "chess", "6k1/8/8/8/8/8/8/KQ5R b - - 0 1")
        send(ws, type="offer")
        offer = recv(ws, "offer")
        assert not offer["accepted"] and "not searched" in offer["text"]
        send(ws, type="go", depth=3, play=False)       # black, far behind: a low score
        score = None
        while True:
            m = json.loads(ws.recv(timeout=30))
            if m["type"] == "info" and "score" in m["info"]:
                score = m["info"]["score"]
            if m["type"] == "bestmove":
                break
        recv(ws, "state")
        kind, n = score.split()
        assert not (kind == "cp" and abs(int(n)) <= gui.app.DRAW_MARGIN)
        send(ws, type="offer")
        assert not recv(ws, "offer")["accepted"]
        new(ws, "chess", "4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1")   # level
        send(ws, type="go", depth=2, play=False)
        recv(ws, "bestmove")
        recv(ws, "state")
        send(ws, type="offer")
        assert recv(ws, "offer")["accepted"]
        st = recv(ws, "state")
        assert st["result"]["text"] == "Draw: agreed" and st["result"]["winner"] is None


def test_clock_limits_go_to_the_engine(server):
    with tab(server) as ws:
        recv(ws, "variants")
        new(ws, "chess")
        send(ws, type="go", wtime=3000, btime=2000, winc=100)     # not all four: refused
        recv(ws, "error")
        send(ws, type="go", wtime=-1, btime=2000, winc=0, binc=0)
        recv(ws, "error")
        send(ws, type="go", wtime=3000, btime=2000, winc=100, binc=100)
        assert recv(ws, "thinking")["limit"] == "wtime 3000 btime 2000 winc 100 binc 100"
        best = recv(ws, "bestmove")["text"]
        st = recv(ws, "state")
        assert st["moves"] == [best] and st["fen"] == core_fen("chess", [best])


def test_legend_message(server):
    with tab(server) as ws:
        recv(ws, "variants")
        new(ws, "shogi")
        send(ws, type="legend", token="N")
        m = recv(ws, "legend")
        names = variants.get("shogi").geometry.names
        assert m["name"] == "Knight" and sorted(names[c] for c in m["moves"]) == ["d7", "f7"]
        for bad in ["Z", 5, "N" * 20]:
            send(ws, type="legend", token=bad)
            recv(ws, "error")


def test_readable_notation_on_3d_boards():
    """3D boards have no SAN: the move list reads piece, cells and capture mark, each move
    checked against the core's board before it."""
    from gui.describe import readable
    g = gui.game.Game("elefantnichtschach")
    v = g.v
    pos = v.start_position()
    for k in range(24):
        legal = legal_moves(pos)
        caps = [m for m in legal if pos.board[m & CELL] and not is_drop(m)]
        m = (caps or legal)[k * 5 % len(caps or legal)]
        g.play(move_text(v, m))
        pos.make(m)
    assert g.san_moves() is None and len(g.notation_moves()) == 24
    pos = v.start_position()
    names = v.geometry.names
    for text, shown in zip(g.moves, g.notation_moves()):
        m = parse_move(v, legal_moves(pos), text)
        frm, to = (m >> FROM_SHIFT) & CELL, m & CELL
        if is_drop(m):
            assert shown == f"{v.piece_types[(m >> TYPE_SHIFT) & TYPE_MASK].token}@{names[to]}"
        else:
            letter = shown.split(" ")[0]
            assert letter == code_token(v, pos.board[frm]).upper()
            capture = bool(pos.board[to])
            mark = "×" if capture else "-"
            assert shown.split(" ")[1].startswith(names[frm] + mark + names[to])
        pos.make(m)
    assert any("×" in s for s in g.notation_moves())
    assert readable(v, v.start_position(), parse_move(
        v, legal_moves(v.start_position()), "ub2ub3")) == "P ub2-ub3"


def test_a_variation_is_shown_without_replaying_the_game(monkeypatch):
    g = gui.game.Game("chess")
    line = ["g1f3", "g8f6", "f3g1", "f6g8"] * 10
    for t in line:
        g.play(t)
    g.ply = 38
    calls = []
    real = gui.game.legal_moves
    monkeypatch.setattr(gui.game, "legal_moves", lambda pos: calls.append(1) or real(pos))
    g.play("e2e4")
    shown = g.variations()
    assert shown[0]["at"] == 38 and shown[0]["san"] == ["Ng1", "Ng8"]
    assert len(calls) <= 4          # the kept line's two moves (and the shown position's)
