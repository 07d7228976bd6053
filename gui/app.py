"""The web app: one websocket per tab, each with its own game and its own engine process.

Every message from the page is validated; a forged move, variant or position gets an error
message and changes nothing.  The page reads no file; the server reads only the files named on
its command line (``--variants``).

On a shared machine: a request whose Host is not one of the server's own names (loopback names
and the bound host, on the bound port) is refused, and so is a websocket whose Origin is not
such a page; at most `max_tabs` engines run at once (a tab beyond that is told so and closed);
a tab idle for `idle_timeout` seconds has its engine ended and its socket closed.
"""
from __future__ import annotations

import asyncio
import json
from pathlib import Path

from starlette.applications import Starlette
from starlette.responses import FileResponse, PlainTextResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

import variants
from engine.game import game_result
from engine.notation import NotationError, format_position, move_text, parse_move
from match.pgn_read import PgnError, read_pgn
from match.records import pgn_fits, to_pgn

from .describe import geometry_description, move_description, piece_moves, result_text, state
from .engine import AsyncEngine, parse_info
from .game import MAX_LINES, Game
from .guard import OwnOriginOnly

STATIC = Path(__file__).parent / "static"
MAX_MESSAGE = 200000


ENDINGS = {"resignation", "time", "agreement"}
CLOCK = ("wtime", "btime", "winc", "binc")
DRAW_MARGIN = 30        # centipawns: the engine takes a draw when it scores the game this level


class Tab:
    def __init__(self, ws: WebSocket):
        self.ws = ws
        self.engine = AsyncEngine()
        self.game: Game | None = None
        self.search: asyncio.Task | None = None
        self.searched: tuple | None = None     # (variant, legal moves) of the position searched
        self.searched_ply = 0                   # the ply of the game searched
        # the engine's last score in this game ("cp"/"mate", n) for the side it searched for
        self.last_score: tuple[str, int] | None = None

    async def out(self, msg: dict) -> None:
        await self.ws.send_text(json.dumps(msg))

    async def error(self, text: str) -> None:
        await self.out({"type": "error", "text": text})

    async def send_state(self) -> None:
        assert self.game
        msg = state(self.game.position(), self.game.moves, self.game.ply)
        msg["variant"] = self.game.name
        msg["start"] = self.game.start_text
        msg["standard_start"] = self.game.start_text == format_position(
            self.game.v.start_position())
        msg["lastmove"] = self.game.last_move()
        msg["san"] = self.game.san_moves()
        msg["notation"] = self.game.notation_moves()
        msg["variations"] = self.game.variations()
        g = self.game
        if msg["result"] is None and g.ending and g.ply == len(g.moves):
            winner, reason = g.ending       # resigned, flagged or agreed: no more moves
            msg["result"] = {"score": None, "reason": reason, "winner": winner}
            msg["legal"] = []
        if msg["result"]:
            msg["result"]["text"] = result_text(self.game.v, msg["side"], msg["result"])
        await self.out(msg)

    async def handle(self, raw: str) -> None:
        if len(raw) > MAX_MESSAGE:
            return await self.error("message too long")
        try:
            msg = json.loads(raw)
        except ValueError:
            return await self.error("not JSON")
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            return await self.error("a message is an object with a type")
        kind = msg["type"]
        handler = getattr(self, "on_" + kind, None) if kind.isidentifier() else None
        if handler is None:
            return await self.error(f"unknown message type {kind[:40]!r}")
        if self.engine.thinking and kind not in ("stop",):
            return await self.error("the engine is thinking: stop it first")
        await handler(msg)

    async def on_new(self, msg: dict) -> None:
        name, text = msg.get("variant"), msg.get("position")
        if not isinstance(name, str) or name not in self.engine.variants:
            return await self.error(f"unknown variant {str(name)[:40]!r}")
        if text is not None and not isinstance(text, str):
            return await self.error("position text must be a string")
        await self.set_game(name, text or None, [], "bad position")

    async def set_game(self, name: str, start: str | None, moves: list[str], what: str,
                       dialect: str = "uci", lines: list[list[str]] | None = None) -> None:
        """Replace the game only when the start position, every move (protocol text in
        `dialect`) and every kept variation's moves (this page's records) are valid."""
        try:
            game = Game(name, start)
            for line in (lines or []) + [moves]:
                game.ply = 0
                for t in line:
                    game.play(t if dialect == "uci" else
                              move_text(game.v, parse_move(game.v, list(game.legal().values()),
                                                           t, dialect)))
            if len(game.moves) > len(moves):        # a variation went on past the moves
                game._keep(game.moves)
                game._truncate(len(moves))
            game.ply = len(game.moves)
        except (NotationError, ValueError) as e:
            return await self.error(f"{what}: {e}")
        self.game = game
        self.last_score = None
        await self.out({"type": "geometry", "variant": name,
                        "geometry": geometry_description(game.v)})
        await self.send_state()

    async def on_move(self, msg: dict) -> None:
        text = msg.get("text")
        if self.game is None or not isinstance(text, str):
            return await self.error("no game or no move text")
        g = self.game
        if g.ending and g.ply == len(g.moves):
            return await self.error("the game is over (take back, or play from an earlier move)")
        try:
            self.game.play(text)
        except ValueError as e:
            return await self.error(str(e))
        await self.send_state()

    async def on_export(self, msg: dict) -> None:
        if self.game is None:
            return await self.error("no game")
        rec = self.game.record(game_result(self.game.position()))
        pgn = to_pgn(rec, event="cellfish gui") if pgn_fits(self.game.name) else None
        await self.out({"type": "record", "json": json.dumps(rec, separators=(",", ":")),
                        "pgn": pgn})

    async def on_load(self, msg: dict) -> None:
        """Load a game from a JSON record line (the match runner's or this page's export)."""
        text = msg.get("json")
        if not isinstance(text, str):
            return await self.error("load needs a JSON record line")
        try:
            rec = json.loads(text)
            name, start = rec["variant"], rec.get("start")
            moves = list(rec.get("opening", [])) + list(rec["moves"])
        except (ValueError, KeyError, TypeError) as e:
            return await self.error(f"not a game record: {e}")
        lines = rec.get("lines", []) if isinstance(rec, dict) else []
        if (name not in self.engine.variants or not all(isinstance(t, str) for t in moves)
                or not isinstance(lines, list) or len(lines) > MAX_LINES
                or not all(isinstance(line, list) and all(isinstance(t, str) for t in line)
                           for line in lines)):
            return await self.error("record: unknown variant or bad moves")
        # the match runner writes moves in the variant's own dialect unless it names one
        dialect = rec.get("dialect", variants.get(name).notation.dialect)
        if dialect not in ("uci", "usi"):
            return await self.error("record: dialect is uci or usi")
        await self.set_game(name, start if isinstance(start, str) else None, moves,
                            "record refused", dialect, lines)

    async def on_pgn(self, msg: dict) -> None:
        """Load the first game of a PGN text (2D variants): its Variant tag or the `variant`
        the page names, its FEN/SetUp tags, every move matched to a legal move by the core."""
        text, name = msg.get("text"), msg.get("variant")
        if not isinstance(text, str) or not isinstance(name, str):
            return await self.error("pgn needs a text and the current variant")
        try:
            name, start, moves = read_pgn(text, name, self.engine.variants)
        except (PgnError, NotationError) as e:
            return await self.error(f"PGN refused: {e}")
        await self.set_game(name, start, moves, "PGN refused")

    async def on_line(self, msg: dict) -> None:
        """Show a kept variation: it becomes the main line, the main line a variation."""
        index, ply = msg.get("index"), msg.get("ply")
        g = self.game
        if (g is None or not isinstance(index, int) or not isinstance(ply, int)
                or not 0 <= index < len(g.lines)):
            return await self.error("no such line")
        try:
            g.switch(index, ply)
        except ValueError as e:
            return await self.error(str(e))
        await self.send_state()

    async def on_takeback(self, msg: dict) -> None:
        plies = msg.get("plies", 1)
        if self.game is None or not isinstance(plies, int):
            return await self.error("no game")
        try:
            self.game.takeback(plies)
        except ValueError as e:
            return await self.error(str(e))
        await self.send_state()

    async def on_end(self, msg: dict) -> None:
        """The page ends the game where no rule does: a resignation, a flag fallen on its
        clock, a draw agreed (`winner` 0, 1 or null)."""
        g, winner, reason = self.game, msg.get("winner"), msg.get("reason")
        if g is None or winner not in (0, 1, None) or isinstance(winner, bool) \
                or reason not in ENDINGS or (reason == "agreement") != (winner is None):
            return await self.error("bad ending")
        if g.ply != len(g.moves) or game_result(g.position()) is not None or g.ending:
            return await self.error("the game is not going on at the shown move")
        g.ending = (winner, reason)
        await self.send_state()

    async def on_offer(self, msg: dict) -> None:
        """A draw offered to the engine: accepted when its last search in this game scored the
        position level for the side it searched for (within DRAW_MARGIN centipawns, no mate
        found); declined before it has searched."""
        g = self.game
        if g is None:
            return await self.error("no game")
        score = self.last_score
        accept = score is not None and score[0] == "cp" and abs(score[1]) <= DRAW_MARGIN
        await self.out({"type": "offer", "accepted": accept,
                        "text": "the engine accepts the draw" if accept else
                        "the engine declines the draw" + ("" if score else
                                                          " (it has not searched this game)")})
        if accept:
            await self.on_end({"winner": None, "reason": "agreement"})

    async def on_legend(self, msg: dict) -> None:
        """A piece's moves on an empty board (the legend), from the core's tables."""
        token = msg.get("token")
        if self.game is None or not isinstance(token, str) or len(token) > 12:
            return await self.error("no game or no piece")
        got = piece_moves(self.game.v, token)
        if got is None:
            return await self.error(f"no moves known for {token!r}")
        await self.out({"type": "legend", **got})

    async def on_goto(self, msg: dict) -> None:
        ply = msg.get("ply")
        if self.game is None or not isinstance(ply, int) or not 0 <= ply <= len(self.game.moves):
            return await self.error("bad ply")
        self.game.ply = ply
        await self.send_state()

    async def on_go(self, msg: dict) -> None:
        if self.game is None:
            return await self.error("no game")
        depth, movetime, multipv = msg.get("depth"), msg.get("movetime"), msg.get("multipv", 1)
        if not isinstance(multipv, int) or not 1 <= multipv <= 20:
            return await self.error("bad multipv")
        clock = [msg.get(k) for k in CLOCK]
        if any(t is not None for t in clock):
            if not all(isinstance(t, int) and 0 <= t <= 10 ** 8 for t in clock):
                return await self.error("wtime, btime, winc, binc: 0..100000000 ms each")
            limit = " ".join(f"{k} {t}" for k, t in zip(CLOCK, clock))
        elif isinstance(depth, int) and 1 <= depth <= 30:
            limit = f"depth {depth}"
        elif isinstance(movetime, int) and 10 <= movetime <= 600000:
            limit = f"movetime {movetime}"
        else:
            return await self.error("give depth 1..30 or movetime 10..600000 ms")
        g = self.game
        e = self.engine
        await e.send(f"setoption name UCI_Variant value {g.name}")
        await e.send(f"setoption name MultiPV value {multipv}")
        await e.sync()
        start = f"fen {g.start_text}"
        moves = " ".join(g.moves[: g.ply])
        await e.send(f"position {start}" + (f" moves {moves}" if moves else ""))
        await e.send(f"go {limit}")
        self.searched = (g.v, list(g.legal().values()))
        self.searched_ply = g.ply
        e.thinking = True
        await self.out({"type": "thinking", "limit": limit})
        self.search = asyncio.create_task(self.read_search(bool(msg.get("play", True))))

    async def read_search(self, play: bool) -> None:
        e = self.engine
        try:
            while True:
                line = await e.readline()
                if line.startswith("info ") and (" pv " in line or " score " in line):
                    info = parse_info(line)
                    if info.get("multipv", "1") == "1" and "score" in info:
                        kind, _, n = info["score"].partition(" ")
                        if n.lstrip("-").isdigit():
                            self.last_score = (kind, int(n))
                    await self.out({"type": "info", "text": line, "info": info,
                                    "pvmove": self.pv_move(info),
                                    "pvshown": self.pv_shown(info)})
                elif line.startswith("bestmove"):
                    e.thinking = False
                    best = line.split()[1] if len(line.split()) > 1 else ""
                    await self.out({"type": "bestmove", "text": best})
                    if play and self.game and best not in ("", "(none)", "0000"):
                        try:
                            self.game.play(best)
                        except ValueError as err:
                            await self.error(f"engine move refused: {err}")
                    await self.send_state()
                    return
        except (EOFError, WebSocketDisconnect, RuntimeError):
            e.thinking = False

    def pv_move(self, info: dict) -> dict | None:
        """The cells of the PV's first move, read by the rules core in the searched position
        (None when the engine's move text is not one of its legal moves)."""
        pv = info.get("pv")
        if not pv or self.searched is None:
            return None
        v, legal = self.searched
        try:
            return move_description(v, parse_move(v, legal, pv[0]))
        except NotationError:
            return None

    def pv_shown(self, info: dict) -> list[str] | None:
        """The PV in the move list's notation, read from the searched position (SAN on 2D
        boards, shogi notation in games written in USI; None elsewhere: protocol text)."""
        pv = info.get("pv")
        if not pv or self.searched is None or self.game is None:
            return None
        try:
            return self.game.pv_shown(self.searched_ply, pv)
        except (NotationError, ValueError):
            return None

    async def on_stop(self, msg: dict) -> None:
        if self.engine.thinking:
            await self.engine.send("stop")


async def index(request):
    return FileResponse(STATIC / "index.html")


SCRIPTS = ("board.js", "pieces.js", "game.js")


async def script(request):
    """The page's scripts, by a fixed list of names (no path from the request is opened)."""
    name = request.path_params["name"] + ".js"
    if name not in SCRIPTS:
        return PlainTextResponse("not found", 404)
    return FileResponse(STATIC / name, media_type="text/javascript")


async def websocket(ws: WebSocket) -> None:
    await ws.accept()
    st = ws.app.state
    if st.engines >= st.max_tabs:
        await ws.send_text(json.dumps({
            "type": "full", "text": f"{st.max_tabs} tabs already have an engine on this "
                                    "server: close one and reload"}))
        await ws.close(1013)
        return
    st.engines += 1
    tab = Tab(ws)
    try:
        await tab.engine.start(st.variant_path)
        await tab.out({"type": "variants", "variants": tab.engine.variants})
        while True:
            try:
                raw = await asyncio.wait_for(ws.receive_text(), st.idle_timeout)
            except TimeoutError:
                if tab.engine.thinking:
                    continue
                await tab.out({"type": "idle", "text": "idle too long: the engine was ended; "
                               "reload to play on"})
                await ws.close(1000)
                break
            await tab.handle(raw)
    except WebSocketDisconnect:
        pass
    finally:
        if tab.search:
            tab.search.cancel()
        await tab.engine.close()
        st.engines -= 1


def make_app(variant_path: str | None = None, *, max_tabs: int = 8,
             idle_timeout: float = 1800, bound_host: str | None = None) -> Starlette:
    """The app; `variant_path` (the command line's --variants FILE) is the only file read
    besides the page itself, and the page cannot name another.  `max_tabs` engines at most run
    at once; a tab idle `idle_timeout` seconds is closed; `bound_host` is the --host given,
    accepted as a Host besides the loopback names."""
    app = Starlette(routes=[Route("/", index), Route("/{name}.js", script),
                            WebSocketRoute("/ws", websocket)])
    app.state.variant_path = variant_path
    app.state.max_tabs = max_tabs
    app.state.idle_timeout = idle_timeout
    app.state.bound_host = bound_host
    app.state.engines = 0
    app.add_middleware(OwnOriginOnly, state=app.state)
    return app
