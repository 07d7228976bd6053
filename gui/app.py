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
from engine.game import game_result, points_text, result_points
from engine.movegen import legal_moves
from engine.notation import (
    NotationError,
    format_position,
    move_text,
    parse_move,
    parse_position,
)
from match.pgn_read import PgnError, read_pgn
from match.records import pgn_fits, san, to_pgn

from .describe import (
    geometry_description,
    move_description,
    piece_moves,
    readable,
    result_text,
    state,
)
from .engine import AsyncEngine, parse_info
from .guard import OwnOriginOnly

STATIC = Path(__file__).parent / "static"
MAX_MESSAGE = 200000


MAX_LINES = 64          # variations kept besides the main line
ENDINGS = {"resignation", "time", "agreement"}
CLOCK = ("wtime", "btime", "winc", "binc")
DRAW_MARGIN = 30        # centipawns: the engine takes a draw when it scores the game this level


class Game:
    """The game of a tab: its start, its main line (`moves`, the position after each ply),
    the shown ply, and the other lines played from earlier plies (kept, each as its whole move
    list from the start, so it stays valid whatever the main line becomes)."""

    def __init__(self, variant_name: str, start_text: str | None = None):
        self.name = variant_name
        self.v = variants.get(variant_name)
        self.start = (parse_position(self.v, start_text) if start_text
                      else self.v.start_position())
        self.start_text = format_position(self.start)
        self.moves: list[str] = []
        self.ply = 0
        # the position after each ply, kept: a message never replays the game from the start
        self.positions = [self.start]
        self._legal: dict[int, dict] = {}      # ply -> {move text: move}, filled when asked
        self.fits = pgn_fits(variant_name)      # SAN and PGN (2D boards)
        self._san: list[str] = []               # the moves as shown (SAN on 2D), kept as played
        self.lines: list[list[str]] = []        # the variations, whole move lists
        self._line_san: dict[tuple, list[str]] = {}
        # how the main line ended when no rule ended it: (winner 0/1 or None, reason)
        self.ending: tuple[int | None, str] | None = None

    def position(self, ply: int | None = None):
        return self.positions[self.ply if ply is None else ply]

    def legal(self, ply: int | None = None) -> dict:
        ply = self.ply if ply is None else ply
        if ply not in self._legal:
            self._legal[ply] = {move_text(self.v, m): m
                                for m in legal_moves(self.positions[ply])}
        return self._legal[ply]

    def _shown(self, pos, m: int, legal: list[int]) -> str:
        """A move as the move list shows it: SAN on 2D boards, else the readable notation."""
        return san(self.v, pos, m, legal) if self.fits else readable(self.v, pos, m)

    def shown_moves(self) -> list[str]:
        while len(self._san) < len(self.moves):
            k = len(self._san)
            legal = self.legal(k)
            self._san.append(self._shown(self.positions[k], legal[self.moves[k]],
                                         list(legal.values())))
        return self._san

    def san_moves(self) -> list[str] | None:
        """The moves in SAN as the match runner's PGN writes it (None where PGN does not fit,
        3D boards)."""
        return self.shown_moves() if self.fits else None

    def notation_moves(self) -> list[str] | None:
        """The moves in the readable notation of boards without SAN (3D); None elsewhere."""
        return None if self.fits else self.shown_moves()

    def last_move(self) -> dict | None:
        if self.ply == 0:
            return None
        return move_description(self.v, self.legal(self.ply - 1)[self.moves[self.ply - 1]])

    def record(self, res) -> dict:
        """The match runner's JSON record (match/records.py) of the moves up to the shown ply."""
        score, reason = res if res else (None, "unterminated")
        moves = self.moves[: self.ply]
        if score is None and self.ending and self.ply == len(self.moves):
            winner, reason = self.ending
            result = "1/2-1/2" if winner is None else ("1-0" if winner == 0 else "0-1")
        elif score is None or score == 0:
            result = "*" if score is None else "1/2-1/2"
        else:
            pos = self.position()
            share = result_points(pos, res)
            if share not in (0, 1):             # a fractional result (Glinski's stalemate)
                result = points_text(share if pos.side == 0 else 1 - share)
            else:
                result = "1-0" if (share == 1) == (pos.side == 0) else "0-1"
        n = len(moves)
        return {"game": 0, "variant": self.name, "dialect": "uci", "start": self.start_text,
                "white": "human",
                "black": "human", "result": result, "reason": reason, "opening": [],
                "moves": moves, "scores": [None] * n, "depths": [None] * n,
                "times_ms": [None] * n}

    def play(self, text: str) -> None:
        """Play `text` at the shown ply.  The main line's own next move just steps on; another
        move starts a new main line from here, the old one kept as a variation (and a kept
        variation that goes on with this move becomes the main line again)."""
        legal = self.legal()
        if text not in legal:
            raise ValueError(f"illegal move {text!r}")
        if self.ply < len(self.moves) and self.moves[self.ply] == text:
            self.ply += 1
            return
        line = self.moves[: self.ply] + [text]
        for k, other in enumerate(self.lines):
            if other[: len(line)] == line:
                return self.switch(k, len(line))
        if self.ply < len(self.moves):
            self._keep(self.moves)
        pos = self.position().copy()
        pos.make(legal[text])
        self._truncate(self.ply)
        self.moves.append(text)
        self.positions.append(pos)
        self.ply += 1

    def _truncate(self, ply: int) -> None:
        del self.moves[ply:]
        del self.positions[ply + 1:]
        del self._san[ply:]
        for k in [k for k in self._legal if k > ply]:
            del self._legal[k]
        self.ending = None

    def _keep(self, line: list[str]) -> None:
        """Keep `line` as a variation, unless a kept line or the main line already holds it."""
        if any(other[: len(line)] == line for other in self.lines):
            return
        self.lines = [other for other in self.lines if line[: len(other)] != other]
        self.lines.append(list(line))
        del self.lines[:-MAX_LINES]

    def switch(self, index: int, ply: int) -> None:
        """Make kept line `index` the main line (the main line kept as a variation) and show its
        position after `ply` moves.  Its moves are replayed from where it leaves the main line."""
        line = self.lines[index]
        if not 0 <= ply <= len(line):
            raise ValueError("bad ply")
        common = 0
        while (common < min(len(line), len(self.moves))
               and line[common] == self.moves[common]):
            common += 1
        old = list(self.moves)
        del self.lines[index]
        self._truncate(common)
        for text in line[common:]:
            self.ply = len(self.moves)
            m = self.legal()[text]          # a kept line was legal when it was played
            pos = self.position().copy()
            pos.make(m)
            self.moves.append(text)
            self.positions.append(pos)
        if old[: len(line)] != line:
            self._keep(old)
        self.ply = ply

    def takeback(self, plies: int) -> None:
        """Take back the last `plies` moves of the main line: gone, not kept."""
        if not 1 <= plies <= len(self.moves):
            raise ValueError("nothing to take back")
        self._truncate(len(self.moves) - plies)
        self.ply = len(self.moves)

    def variations(self) -> list[dict]:
        """The kept lines as the move list shows them: each where it leaves the main line
        (`at`: the number of main-line moves before it), its moves from there and how they
        are shown (`san` on 2D boards, `notation` on 3D ones)."""
        out = []
        for k, line in enumerate(self.lines):
            at = 0
            while at < min(len(line), len(self.moves)) and line[at] == self.moves[at]:
                at += 1
            shown = self.line_shown(line, at)
            out.append({"index": k, "at": at, "moves": line[at:],
                        "san": shown if self.fits else None,
                        "notation": None if self.fits else shown})
        return sorted(out, key=lambda d: d["at"])

    def line_shown(self, line: list[str], at: int) -> list[str]:
        """How a kept line's moves after the main line's first `at` are shown; worked out
        once per line from the main line's position where it leaves it (not from the start)."""
        key = tuple(line)
        if key not in self._line_san or len(self._line_san[key]) != len(line) - at:
            pos, out = self.positions[at].copy(), []
            for text in line[at:]:
                legal = {move_text(self.v, m): m for m in legal_moves(pos)}
                out.append(self._shown(pos, legal[text], list(legal.values())))
                pos.make(legal[text])
            self._line_san[key] = out
        return self._line_san[key]


class Tab:
    def __init__(self, ws: WebSocket):
        self.ws = ws
        self.engine = AsyncEngine()
        self.game: Game | None = None
        self.search: asyncio.Task | None = None
        self.searched: tuple | None = None     # (variant, legal moves) of the position searched
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
                                    "pvmove": self.pv_move(info)})
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
