"""Who the server answers: requests and websockets only from its own host names and pages.

A request whose Host is not one of the server's own names (loopback names and the bound host,
on the bound port) is refused, and so is a websocket whose Origin is not such a page (another
site's script in the user's browser, DNS rebinding).  See docs/gui.md, "On a shared machine".
"""
from __future__ import annotations

from starlette.responses import PlainTextResponse


LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")


def own_hosts(scope, bound_host: str | None) -> set[str]:
    """The Host values this server answers: its loopback names and the host it was bound to,
    each with the port the request came in on."""
    port = (scope.get("server") or (None, None))[1]
    names = set(LOOPBACK_NAMES)
    if bound_host and bound_host not in ("0.0.0.0", "::"):
        names.add(f"[{bound_host}]" if ":" in bound_host else bound_host)
    return {f"{n}:{port}" for n in names} | ({n for n in names} if port == 80 else set())


def refusal(scope, app_state) -> str | None:
    """Why a request or websocket is refused (None when it is the server's own)."""
    headers = {k.decode("latin-1").lower(): v.decode("latin-1")
               for k, v in scope.get("headers", [])}
    hosts = own_hosts(scope, app_state.bound_host)
    if headers.get("host", "").lower() not in hosts:
        return "Host is not this server"
    origin = headers.get("origin")
    if scope["type"] == "websocket" and origin is None:
        return "a websocket needs an Origin"
    if origin is not None and origin.lower() not in {"http://" + h for h in hosts}:
        return "Origin is not this server's page"
    return None


class OwnOriginOnly:
    """Refuse requests and websockets from other hosts and pages (DNS rebinding, another
    site's script opening our websocket) before any route runs."""

    def __init__(self, app, state) -> None:
        self.app = app
        self.state = state

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] in ("http", "websocket"):
            why = refusal(scope, self.state)
            if why is not None:
                if scope["type"] == "http":
                    return await PlainTextResponse(why, 403)(scope, receive, send)
                await receive()                 # websocket.connect
                return await send({"type": "websocket.close", "code": 1008, "reason": why})
        await self.app(scope, receive, send)
