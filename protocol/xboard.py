"""CECP (the XBoard/WinBoard protocol, version 2), chosen when the first command is `xboard`.

`CecpSession` is the UCI/USI `Session` until it reads `xboard` as its first command; from
then on every line is a CECP command.  Like the UCI loop it only parses and formats: legal
moves, results and move text come from the engine package.  The search runs in its own
thread (the one `Session` uses), so `?`, `quit`, `ping`, `time`/`otim` and the analysis
commands are answered while it thinks.  Bad input gets CECP's own error lines
(`Illegal move: ...`, `Error (...): ...`) and leaves the game as it was.
"""
from __future__ import annotations

import threading
import time

import variants
from engine.game import HALF, game_result, points_text, result_points
from engine.movegen import legal_moves
from engine.moves import NULL_MOVE
from engine.search import MATE, MATE_BOUND, Limits, Searcher
from engine.draw_offer import DEPTH as DRAW_DEPTH, NODES as DRAW_NODES, accepts_draw
from engine.limits import allocate, plan_moves
from engine.notation.move_text import MoveTextError, move_text
from engine.notation.position_text import PositionTextError, format as format_position, parse as parse_position

from . import options as opts
from .session import VERSION, InputError, Session
from .xboard_board import (FROM_XBOARD, XBOARD_NAMES, drawable, fen_from_xboard, parse_xboard_move,
                           piece_lines, refusal, setup_line, to_xboard, xboard_variants)

# the CECP commands the engine accepts and ignores (nothing to do for them)
IGNORED = {"accepted", "rejected", "random", "computer", "name", "rating", "ics", "cores",
           "egtpath", "nps", "bk", "otherboard", "pause", "resume", "lift", "put", "hover",
           "comment"}


class CecpSession(Session):
    def __init__(self, out=None):
        super().__init__(out)
        self.force = False
        self.engine_side: int | None = 1     # the side the engine plays; None in force mode
        self.post = False
        self.ponder = False
        self.analyzing = False
        self.mps = 0                 # level: moves per session (0: the whole game)
        self.base_ms = 0
        self.inc_ms = 0
        self.st_ms = 0               # st: fixed time per move
        self.sd = 0                  # sd: depth limit
        self.my_cs: int | None = None
        self.opp_cs: int | None = None
        self.excluded: set[int] = set()
        self.cancel = threading.Event()   # a stopped search that must not play its move
        self.last_info: dict | None = None
        self.last_info_root = None   # the position the running search searches (a copy)
        self.game_over = False
        self.state_lock = threading.RLock()   # who runs the search; the move the search plays
        self._pondering = False

    # ---- the dialect -----------------------------------------------------------------------
    def dialect_or_default(self) -> str:
        return "uci" if self.dialect == "xboard" else super().dialect_or_default()

    def handle(self, line: str) -> None:
        tokens = line.strip().split()
        if not tokens:
            return
        if self.dialect is None and tokens[0] == "xboard":
            self.dialect = "xboard"
            self.ensure_variant()
            self.send("")                # CECP: an empty line acknowledges `xboard`
            return
        if self.dialect != "xboard":
            super().handle(line)
            return
        cmd, args = tokens[0], tokens[1:]
        rest = line.strip()[len(cmd):].strip()
        fn = getattr(self, "xb_" + cmd.lower(), None) if cmd.isidentifier() else None
        if cmd == "?":
            fn = self.xb_movenow
        elif cmd == ".":
            fn = self.xb_stat
        if fn is None and cmd.lower() in IGNORED:
            return
        if fn is None:
            # a bare move (an XBoard that ignored usermove=1) is still a move
            self.ensure_variant()
            try:
                self.parse(legal_moves(self.pos), cmd)
            except MoveTextError:
                self.send(f"Error (unknown command): {cmd}")
                return
            fn, args, rest = self.xb_usermove, [cmd], cmd
        try:
            fn(args, rest)
        except (InputError, PositionTextError, MoveTextError, ValueError) as e:
            self.send(f"Error ({e}): {line.strip()}")

    # ---- move text --------------------------------------------------------------------------
    def text(self, m: int) -> str:
        return to_xboard(self.variant, move_text(self.variant, m, "uci"))

    def parse(self, legal: list[int], text: str) -> int:
        return parse_xboard_move(self.pos, legal, text)

    # ---- handshake and options -------------------------------------------------------------
    def xb_protover(self, args, rest):
        # listing the variants builds each of them (seconds for the shipped files): done=0
        # first tells the GUI to wait for done=1 rather than time out after its two seconds
        self.send("feature done=0")
        feats = [f'myname="cellfish {VERSION}"', "setboard=1", "usermove=1", "ping=1", "sigint=0",
                 "sigterm=0", "san=0", "colors=0", "time=1", "draw=1", "reuse=1", "analyze=1",
                 "memory=1", "smp=0", "exclude=1", "debug=1", "name=0", "ics=0",
                 f'variants="{",".join(xboard_variants())}"']
        self.send("feature " + " ".join(feats))
        for o in self.options:
            if o.key in ("variant", "ponder", "chess960"):
                continue        # `variant` (fischerandom) and `hard`/`easy` say these in CECP
            self.send(f'feature option="{self.option_text(o)}"')
        self.send("feature done=1")

    def option_text(self, o) -> str:
        if o.kind == "spin":
            return f"{o.uci} -spin {self.values[o.key]} {o.lo} {o.hi}"
        if o.kind == "check":
            return f"{o.uci} -check {1 if self.values[o.key] else 0}"
        if o.kind == "button":
            return f"{o.uci} -button"
        if o.key == "variantpath":
            return f"{o.uci} -file {self.values[o.key] or ''}"
        if o.kind == "combo":
            return f"{o.uci} -combo " + " /// ".join(o.choices)
        return f"{o.uci} -string {self.values[o.key] or ''}"

    def xb_option(self, args, rest):
        name, eq, value = rest.partition("=")
        o = opts.find(self.options, name.strip())
        if o is None:
            raise InputError("unknown option")
        words = ["name", *name.split()]
        if eq and o.kind != "button":
            value = value.strip()
            if o.kind == "check":
                value = "true" if value.lower() in ("1", "true") else "false"
            words += ["value", *(value.split() or [""])]
        self.cmd_setoption(words)

    def load_variants(self, path: str) -> bool:
        """A variants file loaded from XBoard (`option VariantPath=...`) changes the games the
        engine plays: a new `feature variants="..."` tells XBoard at once, as Fairy-Stockfish
        does, so its New Variant menu lists the file's games without restarting the engine."""
        ok = super().load_variants(path)
        if ok and self.dialect == "xboard":
            self.send(f'feature variants="{",".join(xboard_variants())}"')
        return ok

    def error(self, what: str, token: str = "") -> None:
        if self.dialect != "xboard":
            super().error(what, token)
            return
        self.send(f"Error ({what}): {token or '?'}")

    def xb_memory(self, args, rest):
        mb = int(args[0]) if args else 0
        self.cmd_setoption(["name", "Hash", "value", str(max(1, mb))])

    def xb_hard(self, args, rest):
        self.ponder = True

    def xb_easy(self, args, rest):
        self.ponder = False
        if self.pondering():
            self.abort()

    def xb_post(self, args, rest):
        self.post = True

    def xb_nopost(self, args, rest):
        self.post = False

    def xb_ping(self, args, rest):
        self.send(f"pong {args[0] if args else ''}".rstrip())

    def xb_xboard(self, args, rest):
        pass

    def xb_quit(self, args, rest):
        self.abort()
        self.running = False

    def xb_help(self, args, rest):
        self.send("# cellfish speaks CECP: protover, new, variant, force, go, usermove, setboard, "
                  "level, st, sd, time, otim, ping, hard, easy, post, nopost, analyze, exit, ., "
                  "undo, remove, ?, result, draw, hint, memory, option, exclude, include, quit")

    # ---- game set-up ---------------------------------------------------------------------
    def xb_new(self, args, rest):
        self.abort()
        self.set_variant("chess", announce=False)
        self.reset_game()

    def reset_game(self):
        self.force = False
        self.engine_side = 1
        self.game_over = False
        self.excluded = set()
        self.sd = 0
        self.st_ms = 0
        self.last_position = None

    def xb_variant(self, args, rest):
        if not args:
            raise InputError("variant needs a name")
        name = FROM_XBOARD.get(args[0], args[0])
        if name not in variants.names():
            self.send(f"Error (unknown variant): {args[0]}")
            return
        if not drawable(variants.get(name)):
            self.send(f"Error (unknown variant): {args[0]} ({refusal(variants.get(name))})")
            return
        self.abort()
        self.set_variant(name, announce=False)
        self.game_over = False
        if name not in XBOARD_NAMES:
            self.send(setup_line(self.variant))
            for line in piece_lines(self.variant):
                self.send(line)

    def xb_setboard(self, args, rest):
        self.abort()
        self.ensure_variant()
        try:
            pos = parse_position(self.variant, fen_from_xboard(self.variant, rest))
        except PositionTextError as e:
            self.send(f"tellusererror Illegal position: {e}")
            return
        self.pos, self.moves = pos, []
        self.game_over = False
        self.excluded = set()
        self.restart_analysis()

    def xb_force(self, args, rest):
        self.abort()
        self.force = True
        self.engine_side = None

    def xb_go(self, args, rest):
        self.abort()
        self.force = False
        self.ensure_variant()
        self.engine_side = self.pos.side
        self.think()

    def xb_playother(self, args, rest):
        self.abort()
        self.force = False
        self.ensure_variant()
        self.engine_side = self.pos.side ^ 1
        self.start_ponder()

    def xb_white(self, args, rest):        # protocol version 1
        self.abort()
        self.engine_side = 1
        self.force = False

    def xb_black(self, args, rest):
        self.abort()
        self.engine_side = 0
        self.force = False

    # ---- clocks ------------------------------------------------------------------------------
    def xb_level(self, args, rest):
        if len(args) != 3:
            raise InputError("bad argument")
        mps, base, inc = args
        if ":" in base:
            m, s = base.split(":")
            base_s = int(m) * 60 + int(s)
        else:
            base_s = float(base) * 60
        self.mps, self.base_ms, self.inc_ms = int(mps), int(base_s * 1000), int(float(inc) * 1000)
        self.st_ms = 0

    def xb_st(self, args, rest):
        self.st_ms = int(float(args[0]) * 1000)

    def xb_sd(self, args, rest):
        self.sd = max(0, int(args[0]))

    def xb_time(self, args, rest):
        self.my_cs = int(args[0])

    def xb_otim(self, args, rest):
        self.opp_cs = int(args[0])

    # ---- moves -----------------------------------------------------------------------------
    def xb_usermove(self, args, rest):
        if not args:
            raise InputError("usermove needs a move")
        self.ensure_variant()
        was_analyzing = self.analyzing
        pondering = self.pondering()
        legal = legal_moves(self.pos)
        try:
            m = self.parse(legal, args[0])
        except MoveTextError:
            m = None
        if m is None or m == NULL_MOVE or self.game_over and not self.force and not was_analyzing:
            self.send(f"Illegal move: {args[0]}")
            return
        if pondering or was_analyzing:
            self.abort()
        self.pos.make(m)
        self.moves.append(m)
        self.excluded = set()
        if was_analyzing:
            self.restart_analysis()
            return
        if self.report_result():
            return
        if not self.force and self.engine_side == self.pos.side:
            self.think()

    def xb_undo(self, args, rest):
        self.take_back(1)

    def xb_remove(self, args, rest):
        self.take_back(2)

    def take_back(self, n):
        self.abort()
        self.ensure_variant()
        if len(self.moves) < n:
            raise InputError("no move to take back")
        for _ in range(n):
            self.pos.unmake()
            self.moves.pop()
        self.game_over = False
        self.excluded = set()
        self.restart_analysis()

    def xb_exclude(self, args, rest):
        self.ensure_variant()
        legal = legal_moves(self.pos)
        if args and args[0] == "all":
            self.excluded = set(legal)
        else:
            self.excluded.add(self.parse(legal, args[0] if args else ""))
        self.restart_analysis()

    def xb_include(self, args, rest):
        self.ensure_variant()
        if args and args[0] == "all":
            self.excluded = set()
        else:
            self.excluded.discard(self.parse(legal_moves(self.pos), args[0] if args else ""))
        self.restart_analysis()

    def xb_movenow(self, args, rest):
        t = self.thread
        if t is not None and t.is_alive() and not self.analyzing and not self.pondering():
            self.stop_event.set()      # the search plays the best move it has

    def xb_result(self, args, rest):
        self.abort()
        self.game_over = True

    def xb_draw(self, args, rest):
        """The opponent offers a draw: `offer draw` accepts it (docs/protocol.md, "Draw
        offers"), silence declines it."""
        self.ensure_variant()
        if self.game_over or game_result(self.pos) is not None:
            return
        pos, score, pv = self.draw_judgement()
        if accepts_draw(pos, score, pv):
            self.send("offer draw")

    def draw_judgement(self) -> tuple:
        """(root position, score from the engine's side, principal variation) of the engine's
        own view of the game: the search running now (thinking or pondering) when it has a
        line, else a short search of the position; score None when there is none."""
        t = self.thread
        if t is not None and t.is_alive():
            info, root = self.last_info, self.last_info_root
            if info is None or root is None:
                return self.pos, None, []
            me = self.engine_side if self.engine_side is not None else root.side
            return root, info["score"] if root.side == me else -info["score"], info["pv"]
        seen: list[dict] = []
        if legal_moves(self.pos):
            self.searcher_for_variant().search(
                self.pos.copy(), Limits(depth=DRAW_DEPTH, nodes=DRAW_NODES, start=time.monotonic()),
                threading.Event(), seen.append)
        if not seen:
            return self.pos, None, []
        me = self.engine_side if self.engine_side is not None else self.pos.side
        score = seen[-1]["score"]
        return self.pos, score if self.pos.side == me else -score, seen[-1]["pv"]

    def xb_hint(self, args, rest):
        self.ensure_variant()
        if self.thread is not None and self.thread.is_alive():
            return
        legal = self.legal_root()
        if not legal:
            return
        searcher = self.searcher_for_variant()
        best, _, _ = searcher.search(self.pos.copy(), Limits(depth=3, nodes=5000, start=time.monotonic(),
                                                              searchmoves=legal),
                                     threading.Event(), None)
        if best is not None:
            self.send(f"Hint: {self.text(best)}")

    # ---- analysis ------------------------------------------------------------------------
    def xb_analyze(self, args, rest):
        self.abort()
        self.ensure_variant()
        self.analyzing = True
        self.start_search(analysis=True)

    def xb_exit(self, args, rest):
        self.abort()
        self.analyzing = False

    def xb_stat(self, args, rest):
        i = self.last_info
        if self.analyzing and i is not None:
            self.send(f"stat01: {i['time'] // 10} {i['nodes']} {i['depth']} 0 0")

    def restart_analysis(self):
        if self.analyzing:
            self.abort()
            self.start_search(analysis=True)

    # ---- the search --------------------------------------------------------------------------
    def searcher_for_variant(self) -> Searcher:
        if self.searcher is None or self.searcher.variant is not self.variant:
            self.searcher = Searcher(self.variant, self.tt)
        return self.searcher

    def legal_root(self) -> list[int]:
        legal = legal_moves(self.pos)
        return [m for m in legal if m not in self.excluded] if self.excluded else legal

    def pondering(self) -> bool:
        return getattr(self, "_pondering", False) and self.thread is not None and self.thread.is_alive()

    def abort(self):
        """Stop a running search without playing its move.  A search that has just moved may
        have started pondering in its place: stop that one too."""
        while True:
            with self.state_lock:
                t = self.thread
                if t is None or t is threading.current_thread() or not t.is_alive():
                    if t is not threading.current_thread():
                        self.thread = None
                        self._pondering = False
                    return
                self.cancel.set()
                self.stop_event.set()
            t.join()

    def think(self):
        if self.report_result():
            return
        self.start_search()

    def start_ponder(self):
        if self.ponder and not self.game_over and legal_moves(self.pos):
            self.start_search(ponder=True)

    def start_search(self, analysis=False, ponder=False):
        self.abort()
        t_go = time.monotonic()
        pos = self.pos.copy()
        limits = Limits(multipv=1, start=t_go)
        legal = self.legal_root()
        if self.excluded:
            limits.searchmoves = legal
        if analysis or ponder:
            limits.infinite = True
        else:
            if self.sd:
                limits.depth = self.sd
            p: dict = {}
            if self.st_ms:
                p["movetime"] = self.st_ms
            elif self.my_cs is not None or self.base_ms:
                me, other = ("wtime", "btime") if pos.side == 0 else ("btime", "wtime")
                p[me] = self.my_cs * 10 if self.my_cs is not None else self.base_ms
                p[other] = self.opp_cs * 10 if self.opp_cs is not None else p[me]
                p["winc"] = p["binc"] = self.inc_ms
                if self.mps:
                    played = (pos.fullmove - 1) % self.mps
                    p["movestogo"] = self.mps - played
            v = self.variant
            limits.soft_time, limits.hard_time = allocate(pos.side, p, self.values["overhead"],
                                                          plan_moves(v, pos.fullmove))
        searcher = self.searcher_for_variant()
        with self.state_lock:
            # the root as it is now: the search thread's own copy changes while it searches
            self.last_info, self.last_info_root = None, pos.copy()
            self.stop_event = threading.Event()
            self.cancel = threading.Event()
            self._pondering = ponder
            self.thread = threading.Thread(target=self.run_cecp, daemon=True,
                                           args=(searcher, pos, limits, legal, analysis or ponder,
                                                 analysis))
            self.thread.start()

    def run_cecp(self, searcher, pos, limits, legal, waits, analysis):
        stop, cancel = self.stop_event, self.cancel
        show = analysis or self.post
        try:
            best, _, _ = searcher.search(pos, limits, stop, lambda info: self.thinking(pos, info, show))
        except Exception as e:  # never die silently in the search thread
            self.send(f"# search failed ({type(e).__name__}: {e})")
            best = legal[0] if legal else None
        if waits:
            stop.wait()
            return
        with self.state_lock:
            if cancel.is_set():
                return
            if best is None:
                self.report_result()
                return
            text = self.text(best)
            self.pos.make(best)
            self.moves.append(best)
            self.excluded = set()
            self.send(f"move {text}")
            if not self.report_result():
                self.start_ponder()

    def thinking(self, pos, info, show):
        self.last_info = info
        if not show:
            return
        pv = self.legal_pv(pos, info["pv"])
        score = info["score"]
        if abs(score) >= MATE_BOUND:
            moves = (MATE - abs(score) + 1) // 2
            score = 100000 + moves if score > 0 else -100000 - moves
        texts = " ".join(self.text(m) for m in pv)
        self.send(f"{info['depth']} {score} {info['time'] // 10} {info['nodes']} {texts}".rstrip())

    def report_result(self, announce=True) -> bool:
        """When the game has ended, the result line CECP expects (`1-0 {...}`) and True."""
        r = game_result(self.pos)
        if r is None:
            return False
        score, reason = r
        mover = self.pos.side
        if score == 0:
            text = "1/2-1/2"
        else:
            winner = mover if score > 0 else mover ^ 1
            text = "1-0" if winner == 0 else "0-1"
        share = result_points(self.pos, r)
        if share not in (0, HALF, 1):       # CECP's result is the side ahead's; the reason
            reason = f"{reason}, {points_text(share if mover == 0 else 1 - share)}"  # says how much
        self.game_over = True
        if announce:
            self.send(f"{text} {{{reason}}}")
        return True

    # ---- never the UCI answers inside CECP -------------------------------------------------
    def position_text(self, pos) -> str:
        if self.dialect != "xboard":
            return super().position_text(pos)
        return format_position(pos, None)
