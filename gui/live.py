"""The gui server in a background thread on a free loopback port (tests, screenshots)."""
from __future__ import annotations

import socket
import threading
import time
from typing import Self

import uvicorn

from .app import make_app


class LiveServer:
    def __init__(self, **app_options) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        config = uvicorn.Config(make_app(**app_options), host="127.0.0.1", port=self.port,
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
