"""Who may talk to the board's server: a check of every request's Host and Origin headers, and
the limits on engine processes (docs/gui.md, "Safe on a shared machine").

The server listens on loopback by default, but a page on any site the user visits can still
reach loopback from the browser: a script may open a websocket to ``ws://127.0.0.1:8765/ws``
(cross-site websocket requests carry the foreign page's ``Origin``), and a DNS-rebinding page
reaches it under its own host name (the ``Host`` header names that site).  So a request is
served only when its ``Host`` is one of the server's own names with its port, and a websocket
opened by a page only when its ``Origin`` is that same server; anything else gets 403 before
any engine starts.
"""
from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Callable[[], Awaitable[Any]], Callable[[Any], Awaitable[None]]], Awaitable[None]]

LOOPBACK = ("127.0.0.1", "localhost", "[::1]")
WILDCARD = ("0.0.0.0", "::", "")


def own_hosts(host: str, port: int, extra: Iterable[str] = ()) -> frozenset[str]:
    """The ``Host`` header values the server answers to: its loopback names, the address it is
    bound to (unless a wildcard) and the names given with ``--allow-host``, each with the
    port."""
    names = set(LOOPBACK) | {h for h in extra if h}
    if host not in WILDCARD:
        names.add(f"[{host}]" if ":" in host and not host.startswith("[") else host)
    return frozenset(f"{n}:{port}" for n in names)


class HostGuard:
    """ASGI middleware: 403 unless ``Host`` is one of ``hosts`` and, for a websocket that names
    its page's ``Origin``, that origin is ``http://`` + the same host."""

    def __init__(self, app: ASGIApp, hosts: frozenset[str]) -> None:
        self.app, self.hosts = app, hosts

    async def __call__(self, scope: Scope, receive, send) -> None:
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        host = headers.get("host", "")
        ok = host in self.hosts
        if ok and scope["type"] == "websocket" and "origin" in headers:
            # a browser always names the page that opens a websocket; a program on this
            # machine may name none (it could start an engine itself anyway)
            ok = headers["origin"] == f"http://{host}"
        if ok:
            return await self.app(scope, receive, send)
        if scope["type"] == "websocket":
            await receive()                         # websocket.connect
            await send({"type": "websocket.close", "code": 1008})   # refused at the handshake (403)
            return
        body = b"refused: this board answers only to its own address\n"
        await send({"type": "http.response.start", "status": 403,
                    "headers": [(b"content-type", b"text/plain"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
