"""A live `gui` server (gui.live) and a websocket client for the gui tests."""
from __future__ import annotations

import json

from websockets.sync.client import connect

from gui.live import LiveServer


def tab(server: LiveServer):
    return connect(f"ws://127.0.0.1:{server.port}/ws", open_timeout=30,
                   origin=f"http://127.0.0.1:{server.port}")


def recv(ws, kind: str) -> dict:
    """The next message of `kind` (30 s deadline); an unexpected error message fails."""
    while True:
        m = json.loads(ws.recv(timeout=30))
        if m["type"] == kind:
            return m
        assert m["type"] != "error", m


def send(ws, **msg) -> None:
    ws.send(json.dumps(msg))
