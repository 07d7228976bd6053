"""A live `gui` server (uvicorn in a thread, a free loopback port) and a websocket client."""
from __future__ import annotations

import json
import socket
import threading
import time
from typing import Self

import uvicorn
from websockets.sync.client import connect

from gui.app import make_app


class LiveServer:
    def __init__(self) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        config = uvicorn.Config(make_app(), host="127.0.0.1", port=self.port,
                                log_level="warning", ws="auto")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> Self:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            assert time.monotonic() < deadline, "gui server did not start"
            time.sleep(0.05)
        return self

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        self.thread.join(30)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def tab(self):
        return connect(f"ws://127.0.0.1:{self.port}/ws", open_timeout=30)


def recv(ws, kind: str) -> dict:
    """The next message of `kind` (30 s deadline); an unexpected error message fails."""
    while True:
        m = json.loads(ws.recv(timeout=30))
        if m["type"] == kind:
            return m
        assert m["type"] != "error", m


def send(ws, **msg) -> None:
    ws.send(json.dumps(msg))
