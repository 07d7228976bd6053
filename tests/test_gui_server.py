"""The gui server over its websocket (no browser): geometry of every variant, validation of
forged messages, engine play, records, and one engine process per tab, none left behind."""
from __future__ import annotations

import json

import urllib.error
import urllib.request

import psutil
import pytest
from gui_helpers import LiveServer, recv, tab
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

import gui.app
import gui.game

import variants
from engine.moves import CELL, FROM_SHIFT
from engine.movegen import legal_moves
from engine.notation import format_position, parse_move, parse_position
from gui.describe import geometry_description


@pytest.fixture(scope="module")
def server():
    with LiveServer(max_tabs=24) as s:
        yield s


def engine_children():
    return [p for p in psutil.Process().children(recursive=True) if p.is_running()
            and p.status() != psutil.STATUS_ZOMBIE]


def core_fen(name, moves):
    v = variants.get(name)
    pos = v.start_position()
    for t in moves:
        pos.make(parse_move(v, legal_moves(pos), t))
    return format_position(pos)


def test_geometry_every_variant_is_drawable():
    for name in variants.names():
        d = geometry_description(variants.get(name))
        assert len(d["cells"]) == variants.get(name).geometry.size
        boxes = {(c["x"], c["y"]) for c in d["cells"]}
        assert len(boxes) == len(d["cells"]), name        # no two cells drawn on each other
    nested = geometry_description(variants.get("nested-a"))
    shapes = [c["shape"] for c in nested["cells"]]
    assert shapes.count("square") == 64 and shapes.count("vertex") == 141 - 64
    cube = geometry_description(variants.get("elefantnichtschach"))
    assert sorted({c["level"] for c in cube["cells"]}) == [0, 1, 2, 3, 4, 5]
    # the stacked view's coordinates are the geometry's own
    geo = variants.get("elefantnichtschach").geometry
    assert [tuple(c["coord"]) for c in cube["cells"]] == list(geo.coords)
    assert cube["solid"] == {"levels": 6, "files": 6, "ranks": 6}
    assert geometry_description(variants.get("chess"))["solid"] is None
    shogi = geometry_description(variants.get("shogi"))
    assert shogi["sides"] == ["Sente", "Gote"] and not shogi["checkered"]
    # coordinates on 2D boards: chess's a..h and 1..8, shogi's 9..1 and i..a
    chess = geometry_description(variants.get("chess"))
    assert [c["file_label"] for c in chess["cells"] if "file_label" in c] == list("abcdefgh")
    assert [c["rank_label"] for c in chess["cells"] if "rank_label" in c] == list("12345678")
    assert [c["file_label"] for c in shogi["cells"] if "file_label" in c] == list("987654321")
    assert [c["rank_label"] for c in shogi["cells"] if "rank_label" in c] == list("ihgfedcba")
    assert geometry_description(variants.get("chess"))["sides"] == ["White", "Black"]


def test_forged_messages_change_nothing_and_engine_plays(server):
    with tab(server) as ws:
        names = recv(ws, "variants")["variants"]
        assert set(names) == set(variants.builtin_names())
        ws.send(json.dumps({"type": "new", "variant": "chess"}))
        recv(ws, "geometry")
        start = recv(ws, "state")
        for forged in ["nonsense", json.dumps([1]), json.dumps({"type": "move", "text": "e2e5"}),
                       json.dumps({"type": "new", "variant": "../etc/passwd"}),
                       json.dumps({"type": "new", "variant": "chess", "position": "8/8 w"}),
                       json.dumps({"type": "goto", "ply": 7}),
                       json.dumps({"type": "go", "depth": 99}),
                       json.dumps({"type": "load", "json": "{\"variant\": \"chess\"}"}),
                       json.dumps({"type": "__init__"}),
                       json.dumps({"type": "pgn", "text": 5, "variant": "chess"}),
                       json.dumps({"type": "pgn", "text": "1. e4 e4", "variant": "chess"}),
                       json.dumps({"type": "pgn", "text": "1. e4", "variant": "../x"}),
                       json.dumps({"type": "pgn", "text": "1. e4", "variant": "nested-a",
                                   "extra": [1]}),
                       json.dumps({"type": "pgn", "text": "*", "variant": "elefantnichtschach"}),
                       json.dumps({"type": "load", "json": json.dumps(
                           {"variant": "chess", "moves": ["e2e4"], "dialect": "x"})}),
                       json.dumps({"type": "move", "text": "e2e4" * 60000})]:
            ws.send(forged)
            recv(ws, "error")
        ws.send(json.dumps({"type": "export"}))
        assert json.loads(recv(ws, "record")["json"])["start"] == start["fen"]
        ws.send(json.dumps({"type": "move", "text": "e2e4"}))
        st = recv(ws, "state")
        assert st["fen"] == core_fen("chess", ["e2e4"])
        after_e4 = parse_position(variants.get("chess"), st["fen"])
        ws.send(json.dumps({"type": "go", "depth": 2}))
        info = recv(ws, "info")
        assert "pv" in info["info"]
        pv_first = parse_move(variants.get("chess"), legal_moves(after_e4), info["info"]["pv"][0])
        assert info["pvmove"]["from"] == pv_first >> FROM_SHIFT & CELL
        assert info["pvmove"]["to"] == pv_first & CELL
        best = recv(ws, "bestmove")["text"]
        st = recv(ws, "state")
        assert st["moves"] == ["e2e4", best]
        assert st["fen"] == core_fen("chess", ["e2e4", best])
        ws.send(json.dumps({"type": "export"}))
        rec = recv(ws, "record")
        assert "1. e4" in rec["pgn"]
        ws.send(json.dumps({"type": "load", "json": rec["json"]}))
        recv(ws, "geometry")
        assert recv(ws, "state")["fen"] == st["fen"]


def test_twenty_tabs_each_with_an_engine_none_left_behind(server):
    before = {p.pid for p in engine_children()}
    if True:
        tabs = [tab(server).__enter__() for _ in range(20)]
        for ws in tabs:
            recv(ws, "variants")
        assert len([p for p in engine_children() if p.pid not in before]) >= 20
        for k, ws in enumerate(tabs):
            ws.send(json.dumps({"type": "new", "variant": ["chess", "shogi", "nested-a",
                                                                "notake-tow"][k % 4]}))
            recv(ws, "state")
            ws.send(json.dumps({"type": "go", "depth": 1}))
        for ws in tabs:
            recv(ws, "bestmove")
            assert len(recv(ws, "state")["moves"]) == 1
        for ws in tabs:
            ws.close()
    left = [p for p in engine_children() if p.pid not in before]
    _gone, alive = psutil.wait_procs(left, timeout=30)
    assert not alive


def test_multipv_analysis_and_stop(server):
    with tab(server) as ws:
        recv(ws, "variants")
        ws.send(json.dumps({"type": "new", "variant": "nested-a"}))
        recv(ws, "state")
        ws.send(json.dumps({"type": "go", "movetime": 600000, "multipv": 2, "play": False}))
        lines = set()
        while "2" not in lines:
            lines.add(recv(ws, "info")["info"].get("multipv", "1"))
        ws.send(json.dumps({"type": "move", "text": "e2e4"}))   # refused while thinking
        recv(ws, "error")
        ws.send(json.dumps({"type": "stop"}))
        recv(ws, "bestmove")
        assert recv(ws, "state")["moves"] == []                  # analysis plays nothing


def test_shogi_records_round_trip_in_both_dialects(server):
    """The page's export says its move dialect; a match runner's shogi record (USI moves, no
    dialect key) loads too; the exported PGN loads back to the same game."""
    moves = ["g3g4", "c7c6", "h2g2"]
    with tab(server) as ws:
        recv(ws, "variants")
        ws.send(json.dumps({"type": "new", "variant": "shogi"}))
        recv(ws, "state")
        for t in moves:
            ws.send(json.dumps({"type": "move", "text": t}))
            st = recv(ws, "state")
        assert st["fen"] == core_fen("shogi", moves)
        ws.send(json.dumps({"type": "export"}))
        rec = recv(ws, "record")
        assert json.loads(rec["json"])["dialect"] == "uci"
        for msg in [{"type": "load", "json": rec["json"]},
                    {"type": "pgn", "text": rec["pgn"], "variant": "chess"},
                    {"type": "load", "json": json.dumps(
                        {"variant": "shogi", "start": st["fen"].replace(st["fen"], core_fen(
                            "shogi", [])), "opening": [], "moves": ["3g3f", "7c7d", "2h3h"]})}]:
            ws.send(json.dumps({"type": "new", "variant": "chess"}))
            recv(ws, "state")
            ws.send(json.dumps(msg))
            assert recv(ws, "geometry")["variant"] == "shogi"
            got = recv(ws, "state")
            assert got["fen"] == st["fen"] and got["moves"] == moves


def get(server, path="/", **headers):
    req = urllib.request.Request(f"http://127.0.0.1:{server.port}{path}", headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


def test_only_own_host_and_origin_are_served(server):
    own = f"127.0.0.1:{server.port}"
    assert get(server) == 200
    assert get(server, "/board.js", Host=f"localhost:{server.port}") == 200
    assert get(server, Origin=f"http://{own}") == 200
    # DNS rebinding: a foreign name resolved to loopback; another port; another site's page
    assert get(server, Host=f"evil.example:{server.port}") == 403
    assert get(server, Host="127.0.0.1:1") == 403
    assert get(server, "/board.js", Origin="http://evil.example") == 403
    url = f"ws://{own}/ws"
    for origin in ["http://evil.example", f"https://{own}", f"http://{own}.evil.example", None]:
        with pytest.raises(InvalidStatus):
            connect(url, origin=origin, open_timeout=30).close()
    with connect(url, origin=f"http://localhost:{server.port}", open_timeout=30) as ws:
        recv(ws, "variants")


def test_engines_capped_and_a_tab_beyond_told_so():
    with LiveServer(max_tabs=2) as server:
        first, second = tab(server), tab(server)
        for ws in (first, second):
            recv(ws, "variants")
        with tab(server) as third:
            full = recv(third, "full")
            assert "2 tabs" in full["text"]
            with pytest.raises(ConnectionClosed):
                third.recv(timeout=30)
        first.close()
        # the closed tab's slot comes free once its engine is ended
        for _ in range(200):
            with tab(server) as again:
                if json.loads(again.recv(timeout=30))["type"] == "variants":
                    break
        else:
            raise AssertionError("no slot came free")
        second.close()


def test_idle_tab_engine_ended():
    before = {p.pid for p in engine_children()}
    with LiveServer(idle_timeout=1) as server, tab(server) as ws:
        recv(ws, "variants")
        mine = [p for p in engine_children() if p.pid not in before]
        assert mine
        assert "idle" in recv(ws, "idle")["text"]
        with pytest.raises(ConnectionClosed):
            ws.recv(timeout=30)
        _gone, alive = psutil.wait_procs(mine, timeout=30)
        assert not alive


def test_game_kept_as_positions_not_replayed(monkeypatch):
    game = gui.game.Game("chess")
    line = ["g1f3", "g8f6", "f3g1", "f6g8"] * 10
    for t in line:
        game.play(t)
    calls = []
    real = gui.game.legal_moves
    monkeypatch.setattr(gui.game, "legal_moves", lambda pos: calls.append(1) or real(pos))
    game.play("e2e4")
    assert len(calls) <= 1                      # only the shown position's moves
    assert format_position(game.position()) == core_fen("chess", line + ["e2e4"])
    game.ply = 2                                # an earlier ply, then another move: a new line
    game.play("e2e4")
    assert game.moves == line[:2] + ["e2e4"] and len(game.positions) == 4
    assert format_position(game.position()) == core_fen("chess", line[:2] + ["e2e4"])


def test_san_move_list_and_result_banner(server):
    with tab(server) as ws:
        recv(ws, "variants")
        ws.send(json.dumps({"type": "new", "variant": "chess"}))
        recv(ws, "state")
        for t in ["f2f3", "e7e5", "g2g4", "d8h4"]:
            ws.send(json.dumps({"type": "move", "text": t}))
            st = recv(ws, "state")
        assert st["san"] == ["f3", "e5", "g4", "Qh4#"]
        assert st["result"]["text"] == "Black wins: checkmate" and st["result"]["winner"] == 1
        ws.send(json.dumps({"type": "goto", "ply": 1}))
        recv(ws, "state")
        ws.send(json.dumps({"type": "move", "text": "e7e6"}))
        st = recv(ws, "state")
        assert st["san"] == ["f3", "e6"] and st["result"] is None
        ws.send(json.dumps({"type": "new", "variant": "elefantnichtschach"}))
        assert recv(ws, "state")["san"] is None             # 3D: protocol text only
