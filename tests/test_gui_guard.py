"""The board's server on a shared machine (docs/gui.md, "Safe on a shared machine"): a page of
another site gets no engine (its websocket is refused at the handshake by its Origin, a
DNS-rebinding request by its Host), at most `max_tabs` engines run at a time, an idle tab's
engine is ended, and the game is kept as its current position (a message does not replay the
game from the start)."""
from __future__ import annotations

import json
import time

import httpx
import psutil
import pytest
from gui_helpers import LiveServer, recv, send
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from gui.guard import own_hosts


def engines() -> int:
    return len([p for p in psutil.Process().children(recursive=True)
                if p.is_running() and p.status() != psutil.STATUS_ZOMBIE])


@pytest.fixture(scope="module")
def server():
    with LiveServer(max_tabs=2, idle_seconds=3.0) as s:
        yield s


def test_own_hosts_are_the_loopback_names_and_the_bound_address_with_the_port():
    assert own_hosts("127.0.0.1", 8765) == {"127.0.0.1:8765", "localhost:8765", "[::1]:8765"}
    assert "192.168.1.5:80" in own_hosts("192.168.1.5", 80)
    assert own_hosts("0.0.0.0", 80, ["box.lan"]) == {"127.0.0.1:80", "localhost:80", "[::1]:80", "box.lan:80"}


def test_the_page_is_served_under_its_own_names_only(server):
    for host in (f"127.0.0.1:{server.port}", f"localhost:{server.port}"):
        r = httpx.get(server.url, headers={"Host": host})
        assert r.status_code == 200 and "<html" in r.text.lower()
    for host in (f"evil.example:{server.port}", "127.0.0.1:1", "localhost"):
        r = httpx.get(server.url + "board.js", headers={"Host": host})
        assert r.status_code == 403, host


@pytest.mark.parametrize("origin", ["http://evil.example", "http://127.0.0.1:1", "null",
                                    "https://127.0.0.1:{port}"])
def test_a_foreign_page_gets_no_engine(server, origin):
    before = engines()
    with pytest.raises(InvalidStatus) as e:
        connect(f"ws://127.0.0.1:{server.port}/ws", origin=origin.format(port=server.port),
                open_timeout=30)
    assert e.value.response.status_code == 403
    assert engines() == before


def test_a_rebound_host_name_gets_no_engine(server):
    with pytest.raises(InvalidStatus):
        connect(f"ws://127.0.0.1:{server.port}/ws", origin=f"http://evil.example:{server.port}",
                additional_headers={"Host": f"evil.example:{server.port}"}, open_timeout=30)


def test_the_page_itself_and_a_local_program_get_an_engine(server):
    with connect(f"ws://127.0.0.1:{server.port}/ws", origin=f"http://127.0.0.1:{server.port}",
                 open_timeout=30) as ws:
        assert "chess" in recv(ws, "variants")["variants"]
    with connect(f"ws://localhost:{server.port}/ws", open_timeout=30) as ws:      # no Origin
        assert "chess" in recv(ws, "variants")["variants"]


def test_a_tab_beyond_the_limit_is_told_and_gets_no_engine(server):
    url = f"ws://127.0.0.1:{server.port}/ws"
    with connect(url, open_timeout=30) as a, connect(url, open_timeout=30) as b:
        recv(a, "variants")
        recv(b, "variants")
        with connect(url, open_timeout=30) as c:
            m = json.loads(c.recv(timeout=30))
            assert m["type"] == "error" and m["text"].startswith("too many tabs: at most 2 engines")
    deadline = time.monotonic() + 30
    while True:     # a closed tab frees its place
        with connect(f"ws://127.0.0.1:{server.port}/ws", open_timeout=30) as d:
            m = json.loads(d.recv(timeout=30))
            if m["type"] == "variants":
                break
        assert time.monotonic() < deadline, m
        time.sleep(0.2)


def test_an_idle_tab_has_its_engine_ended(server):
    with connect(f"ws://127.0.0.1:{server.port}/ws", open_timeout=30) as ws:
        recv(ws, "variants")
        m = json.loads(ws.recv(timeout=30))         # nothing sent for idle_seconds
        assert m["type"] == "error" and m["text"].startswith("idle for 3 s: the engine was ended")


def test_the_game_is_kept_as_its_current_position(server, monkeypatch):
    """A long game: every move message makes one move on the kept position; a jump back
    replays once and the moves after it stay."""
    import gui.app as app
    replays = []
    real = app.Game._replay
    monkeypatch.setattr(app.Game, "_replay", lambda self, ply: replays.append(ply) or real(self, ply))
    with connect(f"ws://127.0.0.1:{server.port}/ws", open_timeout=30) as ws:
        recv(ws, "variants")
        send(ws, type="new", variant="chess")
        recv(ws, "geometry")
        st = recv(ws, "state")
        shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"] * 10
        for t in shuffle:
            send(ws, type="move", text=t)
            st = recv(ws, "state")
        assert replays == [] and len(st["moves"]) == 40
        assert st["fen"].startswith("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 40 21")
        send(ws, type="goto", ply=2)
        st = recv(ws, "state")
        assert replays == [2] and st["fen"].startswith("rnbqkb1r/pppppppp/5n2/8/8/5N2/")
        assert st["lastmove"] is not None and len(st["moves"]) == 40
