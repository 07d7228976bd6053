"""A live `gui` server (gui.live) and a websocket client for the gui tests."""
from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import subprocess

from playwright.sync_api import sync_playwright
from websockets.sync.client import connect

from gui.live import LiveServer
from gui.screenshots import ARGS, CHROMIUM


def ensure_chromium() -> str:
    """Debian's chromium, installed with apt when missing (CI runs as root on Debian)."""
    if not os.path.exists(CHROMIUM) and shutil.which("apt-get") and os.geteuid() == 0:
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        subprocess.run(["apt-get", "update", "-q"], check=True, env=env,
                       stdout=subprocess.DEVNULL)
        subprocess.run(["apt-get", "install", "-y", "-q", "chromium"], check=True, env=env,
                       stdout=subprocess.DEVNULL)
    assert os.path.exists(CHROMIUM), "the browser tests need Debian's chromium package"
    return CHROMIUM


@contextlib.contextmanager
def browser_and_live_server(max_tabs: int):
    """Headless chromium (through Playwright) and a live board server, closed together."""
    exe = ensure_chromium()
    # Playwright starts its driver as an asyncio subprocess; a test run earlier in this worker
    # (Dask's event loop) can leave a child watcher that needs a loop attached, so use the
    # thread-based watcher, which works from any thread without one
    asyncio.set_child_watcher(asyncio.ThreadedChildWatcher())
    with LiveServer(max_tabs=max_tabs) as server, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=exe, args=ARGS)
        try:
            yield browser, server
        finally:
            browser.close()


@contextlib.contextmanager
def served_page(viewport: dict, wait_ms: int):
    """One page of a fresh browser on a fresh server; `page.base_url` is the server's address."""
    with browser_and_live_server(max_tabs=32) as (browser, server):
        pg = browser.new_page(viewport=viewport)
        pg.set_default_timeout(wait_ms)
        pg.base_url = server.url
        yield pg


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
