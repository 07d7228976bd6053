"""The stdin/stdout loop: UCI by default, USI when the first command is `usi`.

The session only parses and formats.  Rules come from the variant through the engine
package; the search runs in its own thread, so `isready`, `stop` and `quit` are answered at
once.  Every output line is written whole under a lock and flushed.
"""
from __future__ import annotations

import os
import re
import sys
import queue
import threading
import time

import variants
from engine.game import HALF, game_result, result_points
from engine.movegen import in_check, legal_moves
from engine.moves import NULL_MOVE
from engine.search import MATE, MATE_BOUND, TT, Limits, Searcher
from engine.limits import allocate, plan_moves

from . import options as opts
from .errors import InputError
from .perft import PerftCommands
from engine.notation.move_text import MoveTextError, move_text, parse_move
from engine.notation.position_text import PositionTextError, format as format_position, parse as parse_position

VERSION = "0.1.0"


_TOKEN_END = re.compile(r"\(.*\S.*\)$")   # ends with a non-empty parenthesised token


class Session(PerftCommands):
    def __init__(self, out=None):
        self.out_stream = out or sys.stdout
        self.lock = threading.Lock()
        self.dialect = None
        self.options = opts.make_options(variants.names())
        self.values = {o.key: o.default for o in self.options}
        self.variant_name = None
        self.variant = None
        self.pos = None
        self.moves: list[int] = []
        self.last_position = None    # what the last `position` command said, to extend it cheaply
        self.tt = TT(self.values["hash"])
        self.thread: threading.Thread | None = None
        self.stop_event = threading.Event()
        self.release_event = threading.Event()   # ends pondering / infinite waiting
        self.searcher: Searcher | None = None
        self.pending_hit = None
        self.running = True
        self.counting = False        # a `go perft` runs in self.thread
        self.printing = False        # ... and has counted: it prints its lines

    # ---- output ---------------------------------------------------------------------------
    def send(self, line: str) -> None:
        with self.lock:
            self.out_stream.write(line + "\n")
            self.out_stream.flush()

    def error(self, what: str, token: str = "") -> None:
        """One `info string error: <what> (<token>)` line (docs/protocol.md, "Bad input").
        A message that does not already end with a non-empty parenthesised token gets `token`
        (the command's text) appended, so every error names what it refused."""
        if not _TOKEN_END.search(what):
            what = f"{what.rstrip().removesuffix('()').rstrip()} ({token or '?'})"
        self.send(f"info string error: {what}")

    # ---- variant and position ---------------------------------------------------------
    def dialect_or_default(self) -> str:
        return self.dialect or "uci"

    def set_variant(self, name: str, announce: bool = True) -> None:
        v = variants.get(name, chess960=bool(self.values.get("chess960")))
        pos = parse_position(v, v.start_fen)
        self.variant_name, self.variant, self.pos, self.moves = name, v, pos, []
        self.start_text = v.start_fen
        self.searcher = None
        self.tt.clear()
        self.values["variant"] = name
        if announce:
            self.send(self.announcement())

    def ensure_variant(self) -> None:
        if self.variant is None:
            self.set_variant(self.values["variant"] or "chess", announce=False)

    def announcement(self) -> str:
        v = self.variant
        coords = v.geometry.coords
        ext = [max(c[i] for c in coords) + 1 for i in range(v.geometry.dims)]
        if len(ext) == 3:
            dims = f"files {ext[1]} ranks {ext[2]} levels {ext[0]}"
        else:
            dims = f"files {ext[0]} ranks {ext[1]}"
        pocket = len(v.notation.hand_order()) if v.hands else 0
        return (f"info string variant {self.variant_name} {dims} pocket {pocket} "
                f"template {v.template} startpos {v.start_fen}")

    def position_text(self, pos) -> str:
        fmt = "sfen" if (self.dialect == "usi" and self.variant.template == "shogi") else None
        return format_position(pos, fmt)

    # ---- commands -----------------------------------------------------------------------
    def handle(self, line: str) -> None:
        tokens = line.strip().split()
        if not tokens:
            return
        cmd, args = tokens[0], tokens[1:]
        fn = getattr(self, "cmd_" + cmd.lower(), None) if cmd.isidentifier() else None
        if fn is None:
            self.error(f"unknown command ({cmd})")
            return
        try:
            fn(args)
        except (InputError, PositionTextError, MoveTextError) as e:
            self.error(str(e), " ".join(tokens))

    def cmd_uci(self, args, dialect="uci"):
        if self.dialect is None:
            self.dialect = dialect
            if dialect == "usi" and self.variant is None:
                self.values["variant"] = "shogi"
        self.send(f"id name cellfish {VERSION}")
        self.send("id author the cellfish developers")
        for o in self.options:
            default = self.values["variant"] if o.key == "variant" else None
            self.send(o.line(self.dialect, default))
        self.send("usiok" if self.dialect == "usi" else "uciok")

    def cmd_usi(self, args):
        self.cmd_uci(args, "usi")

    def cmd_isready(self, args):
        if self.thread is not None and self.thread.is_alive():
            self.send("readyok")     # a search or perft runs: the engine is serving
            return
        self.ensure_variant()
        if self.searcher is None or self.searcher.variant is not self.variant:
            # build the searcher (and the variant's lazy tables) now, not inside a timed go
            self.stop_search()
            self.searcher = Searcher(self.variant, self.tt)
            self.warm_up()
        self.send("readyok")

    def warm_up(self):
        """A tiny search on the current position, answered before readyok, so that every table
        the variant builds lazily on first use (attack tables for exchanges, per-state tables)
        exists before the first timed `go` -- building one inside a 20 ms search overran it."""
        if self.pos is None or not legal_moves(self.pos):
            return
        try:
            self.searcher.search(self.pos.copy(), Limits(depth=2, nodes=3000, start=time.monotonic()),
                                 threading.Event(), None)
        except Exception as e:  # the real search will report it; never block readyok
            self.error(f"warm-up search failed ({type(e).__name__}: {e})")

    def cmd_setoption(self, args):
        if not args or args[0].lower() != "name":
            raise InputError(f"setoption needs name ({' '.join(args) or 'setoption'})")
        low = [a.lower() for a in args]
        if "value" in low[1:]:
            i = low.index("value", 1)
            name, value = " ".join(args[1:i]), " ".join(args[i + 1:])
        else:
            name, value = " ".join(args[1:]), None
        opt = opts.find(self.options, name)
        if opt is None:
            raise InputError(f"unknown option ({name})")
        if opt.kind == "button":
            self.stop_search()
            if opt.key == "clearhash":
                self.tt.clear()
            return
        if value is None:
            raise InputError(f"option needs a value ({name})")
        try:
            val = opts.parse_value(opt, value)
        except ValueError as e:
            raise InputError(f"{e} ({value})") from None
        self.stop_search()
        if opt.key == "variant":
            self.set_variant(val)
            return
        if opt.key == "variantpath" and val:
            self.load_variants(val)
            return
        self.values[opt.key] = val
        if opt.key == "hash":
            self.tt.resize(val)
        if opt.key == "chess960" and self.variant is not None:
            self.set_variant(self.variant_name, announce=False)     # its Chess960 form, or back

    def load_variants(self, path: str) -> bool:
        """Load a variants file (all or nothing): its variants join UCI_Variant/USI_Variant and
        the next `uci`/`usi` lists them; on any problem one error line per problem, and the
        variants, variant and position stay as they were."""
        try:
            variants.load_file(path)
        except variants.VariantFileError as e:
            for p in e.problems:
                self.error(str(p))
            return False
        self.values["variantpath"] = path
        for o in self.options:
            if o.key == "variant":
                o.choices = tuple(variants.names())
        if self.variant_name in variants.names() and self.variant is not None \
                and type(self.variant) is not type(variants.get(self.variant_name,
                                                             bool(self.values.get("chess960")))):
            self.set_variant(self.variant_name, announce=False)   # redefined by the file
        return True

    def cmd_ucinewgame(self, args):
        self.stop_search()
        self.ensure_variant()
        self.tt.clear()
        self.searcher = None
        self.pos = parse_position(self.variant, self.variant.start_fen)
        self.moves = []

    cmd_usinewgame = cmd_ucinewgame

    def cmd_position(self, args):
        self.stop_search()
        self.ensure_variant()
        v = self.variant
        if not args:
            raise InputError("position needs startpos, fen or sfen (position)")
        kind = args[0].lower()
        if "moves" in args:
            i = args.index("moves")
            spec, mtexts = args[1:i], args[i + 1:]
        else:
            spec, mtexts = args[1:], []
        if kind == "startpos":
            if spec:
                raise InputError(f"unexpected text after startpos ({' '.join(spec)})")
            pos = parse_position(v, v.start_fen)
        elif kind in ("fen", "sfen"):
            if not spec:
                raise InputError(f"{kind} needs a position text ({args[0]})")
            pos = parse_position(v, " ".join(spec), "sfen" if kind == "sfen" else None)
        else:
            raise InputError(f"position needs startpos, fen or sfen ({args[0]})")
        dialect = self.dialect_or_default()
        played = []
        # A GUI sends the whole game again before every move; when the new list only extends the
        # one before it (same variant, same start, same dialect), replay just the new moves.
        key = (id(v), kind, tuple(spec), dialect)
        last = self.last_position
        if (last is not None and last[0] == key and last[2] is self.pos
                and last[3] == self.pos.hash and len(mtexts) >= len(last[1])
                and mtexts[:len(last[1])] == last[1]):
            pos, played = self.pos.copy(), list(self.moves)
            new_texts = mtexts[len(last[1]):]
        else:
            new_texts = mtexts
        for t in new_texts:
            m = parse_move(v, legal_moves(pos), t, dialect)
            if m == NULL_MOVE:
                raise InputError(f"null move in a move list ({t})")
            pos.make(m)
            played.append(m)
        self.pos, self.moves = pos, played
        self.last_position = (key, list(mtexts), pos, pos.hash)

    def cmd_d(self, args):
        self.ensure_variant()
        pos, v = self.pos, self.variant
        for line in v.notation.diagram(pos):
            self.send(line)
        if v.hands:
            from engine.notation.position_text import format_hand_letters
            hand = format_hand_letters(v, pos.hand)
            self.send(f"Hand: {hand or '-'}")
        self.send(f"Fen: {self.position_text(pos)}")
        self.send(f"Key: {pos.hash:016X}")
        self.send(f"Side to move: {'white' if pos.side == 0 else 'black'}"
                  + (" (sente)" if v.template == 'shogi' and pos.side == 0 else "")
                  + (" (gote)" if v.template == 'shogi' and pos.side == 1 else ""))
        if v.rules.gives_check:        # games without check (3D) have no line
            self.send(f"Checkers: {'yes' if in_check(pos) else 'no'}")
        r = game_result(pos)
        if r is None:
            self.send("Game state: in progress")
        else:
            score, reason = r
            who = ["white", "black"]
            share = result_points(pos, r)
            if share not in (0, HALF, 1):       # a fraction: the side with the larger share
                top = pos.side if share > HALF else pos.side ^ 1
                text = f"{who[top]} scores {max(share, 1 - share)}"
            else:
                text = {1: f"{who[pos.side]} wins", -1: f"{who[pos.side ^ 1]} wins",
                        0: "draw"}[score]
            self.send(f"Game state: {text} ({reason})")

    def cmd_help(self, args):
        for line in (
            "cellfish commands:",
            "  uci | usi                      start the UCI or USI dialect",
            "  isready                        answers readyok",
            "  setoption name N [value V]     set an option (UCI_Variant, Hash, MultiPV, ...)",
            "  ucinewgame | usinewgame        forget the previous game",
            "  position startpos|fen F|sfen S [moves M...]",
            "  go [depth N|nodes N|movetime T|wtime/btime/winc/binc/movestogo|byoyomi|mate N|infinite|ponder"
            "|searchmoves M...]",
            "  go perft N | perft N           count leaf nodes, per root move",
            "  stop | ponderhit               end a search / the opponent played the ponder move",
            "  d                              show the board, hands, position text and state",
            "  quit                           leave",
        ):
            self.send(line)

    def cmd_gameover(self, args):
        self.stop_search()

    def cmd_stop(self, args):
        self.stop_search()

    def cmd_ponderhit(self, args):
        s = self.searcher
        hit = self.pending_hit
        if self.thread is None or not self.thread.is_alive() or hit is None:
            return
        soft, hard = hit
        now = time.monotonic()
        if s is not None:
            s.soft_deadline = now + soft if soft is not None else None
            s.hard_deadline = now + hard if hard is not None else None
            if soft is None and hard is None:
                s.limits.infinite = False
        self.pending_hit = None
        self.release_event.set()

    def cmd_quit(self, args):
        self.stop_search()
        self.running = False

    # ---- go ---------------------------------------------------------------------------------
    def cmd_go(self, args):
        t_go = time.monotonic()        # the client's clock runs from here
        if args and args[0].lower() == "perft":
            return self.go_perft(args[1:])
        self.stop_search()
        self.ensure_variant()
        p, flags, searchmoves = self.parse_go(args)
        pos = self.pos.copy()
        v = self.variant
        limits = Limits(multipv=self.values["multipv"], start=t_go)
        if "depth" in p:
            limits.depth = max(1, p["depth"])
        if "nodes" in p:
            limits.nodes = max(1, p["nodes"])
        if "mate" in p:
            limits.mate = max(1, p["mate"])
        limits.searchmoves = searchmoves
        limits.infinite = "infinite" in flags
        pondering = "ponder" in flags
        soft, hard = allocate(pos.side, p, self.values["overhead"], plan_moves(v, pos.fullmove))
        if pondering:
            self.pending_hit = (soft, hard)
            limits.infinite = True
        else:
            limits.soft_time, limits.hard_time = soft, hard
        if self.searcher is None or self.searcher.variant is not v:
            self.searcher = Searcher(v, self.tt)
        self.stop_event = threading.Event()
        self.release_event = threading.Event()
        usi_mate = self.dialect == "usi" and "mate" in p
        waits = limits.infinite
        self.thread = threading.Thread(target=self.run_search,
                                       args=(pos, limits, waits, usi_mate), daemon=True)
        self.thread.start()

    def parse_go(self, args):
        ints = ("wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "movetime",
                "mate", "byoyomi")
        p, flags, searchmoves = {}, set(), []
        i = 0
        while i < len(args):
            a = args[i].lower()
            if a in ints:
                if i + 1 >= len(args):
                    raise InputError(f"go {a} needs a number ({args[i]})")
                if a == "mate" and args[i + 1].lower() == "infinite":
                    p[a] = 64
                    i += 2
                    continue
                try:
                    p[a] = int(args[i + 1])
                except ValueError:
                    raise InputError(f"go {a} needs a number ({args[i + 1]})") from None
                i += 2
            elif a in ("infinite", "ponder"):
                flags.add(a)
                i += 1
            elif a == "searchmoves":
                i += 1
                legal = legal_moves(self.pos)
                while i < len(args) and args[i].lower() not in ints + ("infinite", "ponder"):
                    searchmoves.append(parse_move(self.variant, legal, args[i], self.dialect_or_default()))
                    i += 1
            else:
                raise InputError(f"unknown go parameter ({args[i]})")
        if self.dialect == "usi":
            # USI names the clocks by colour: black (sente) moves first, so btime/binc belong to
            # side 0 and wtime/winc to side 1 -- the reverse of UCI, where white moves first.
            for a, b in (("btime", "wtime"), ("binc", "winc")):
                if a in p or b in p:
                    va, vb = p.pop(a, None), p.pop(b, None)
                    if va is not None:
                        p[b] = va
                    if vb is not None:
                        p[a] = vb
        if self.dialect == "usi" and "mate" in p:
            ms = p.pop("mate")
            if ms != 64:
                p["movetime"] = ms   # USI: go mate <ms>
            p["mate"] = 32
        return p, flags, searchmoves

    def run_search(self, pos, limits, waits, usi_mate):
        s = self.searcher
        d = self.dialect_or_default()
        v = self.variant
        try:
            best, ponder, score = s.search(pos, limits, self.stop_event,
                                           lambda info: self.send(self.info_line(pos, info)))
        except Exception as e:  # never die silently in the search thread
            self.error(f"search failed ({type(e).__name__}: {e})")
            legal = legal_moves(pos)
            best, ponder, score = (legal[0] if legal else None), None, None
        if waits:
            # no bestmove before stop (or ponderhit) even if the search ended early
            while not (self.stop_event.is_set() or self.release_event.is_set()):
                self.stop_event.wait(0.005)
        if usi_mate:
            if best is not None and score is not None and score >= MATE_BOUND:
                pv = self.legal_pv(pos, [best] + self.last_pv_tail(s))
                self.send("checkmate " + " ".join(move_text(v, m, d) for m in pv))
            elif self.stop_event.is_set():
                self.send("checkmate timeout")
            else:
                self.send("checkmate nomate")
            return
        if best is None:
            r = game_result(pos, [])
            if d == "usi":
                self.send("bestmove resign")
            else:
                sc = "cp 0" if (r is not None and r[0] == 0) else "mate 0"
                self.send(f"info depth 0 score {sc}")
                self.send("bestmove (none)")
            return
        line = f"bestmove {move_text(v, best, d)}"
        if ponder is not None:
            pv = self.legal_pv(pos, [best, ponder])
            if len(pv) == 2:
                line += f" ponder {move_text(v, ponder, d)}"
        self.send(line)

    def last_pv_tail(self, s):
        return getattr(s, "last_pv", [])[1:]

    def legal_pv(self, pos, pv):
        """The longest prefix of pv that is legal move by move."""
        out = []
        n = 0
        for m in pv:
            if m not in legal_moves(pos):
                break
            pos.make(m)
            out.append(m)
            n += 1
        for _ in range(n):
            pos.unmake()
        return out

    def info_line(self, pos, info):
        d = self.dialect_or_default()
        pv = self.legal_pv(pos, info["pv"])
        if self.searcher is not None:
            self.searcher.last_pv = pv
        score = info["score"]
        if abs(score) >= MATE_BOUND:
            plies = MATE - abs(score)
            if d == "usi":
                n = plies if score > 0 else -plies
            else:
                n = (plies + 1) // 2 if score > 0 else -(plies // 2)
            sc = f"mate {n}"
        else:
            sc = f"cp {score}"
        parts = [f"info depth {info['depth']} seldepth {info['seldepth']}"]
        if "multipv" in info:
            parts.append(f"multipv {info['multipv']}")
        parts.append(f"score {sc} nodes {info['nodes']} nps {info['nps']} time {info['time']} "
                     f"hashfull {info['hashfull']}")
        if pv:
            parts.append("pv " + " ".join(move_text(self.variant, m, d) for m in pv))
        return " ".join(parts)

    def stop_search(self):
        t = self.thread
        if t is not None and t.is_alive():
            self.stop_event.set()
            self.release_event.set()
            t.join()
        self.thread = None

    # ---- main loop ----------------------------------------------------------------------
    def loop(self, stream=None) -> None:
        """Read commands until `quit` or end of input.  During a `go perft` only `stop`, `quit`
        and `isready` act at once (the last two only while no command waits before them);
        every other command waits, in order, until the count has printed its total (as
        Stockfish finishes a perft before it reads on), so a pasted block of commands prints
        the whole count.  At end of input a running search is stopped, but a running
        `go perft` is counted to the end."""
        process = stream is None and sys.stdin is sys.__stdin__ and self.out_stream is sys.__stdout__
        stream = stream or sys.stdin
        lines: queue.SimpleQueue[str] = queue.SimpleQueue()

        def read() -> None:             # the reader: lines go on arriving during a count
            while True:
                got = stream.readline()
                lines.put(got)
                if not got:
                    return
        threading.Thread(target=read, name="cellfish-input", daemon=True).start()
        waiting: list[str] = []         # commands that came during a count, in order
        ended = False
        while self.running:
            # a kept `isready` whose turn has come is answered even if a kept `go perft` before
            # it is counting now; a kept `quit` waits for that count, as everything else does
            if waiting and (not self._counting() or (waiting[0].split() or [""])[0].lower() == "isready"):
                line = waiting.pop(0)
            elif ended:
                if not waiting:
                    if self.counting and self.thread is not None:
                        self.thread.join()
                    break
                self._wait_count()
                continue
            else:
                try:
                    line = lines.get(timeout=0.005) if waiting else lines.get()
                except queue.Empty:
                    continue
                if not line:
                    ended = True
                    continue
                cmd = (line.split() or [""])[0].lower()
                # `stop` ends the count; `isready` and `quit` act at once unless commands
                # that came before them are still waiting (then they keep their place)
                if (self._counting() or waiting) and cmd != "stop" \
                        and (waiting or cmd not in self.DURING_PERFT):
                    waiting.append(line)
                    continue
            try:
                self.handle(line)
            except Exception as e:  # bad input never kills the engine
                self.error(f"internal error ({type(e).__name__}: {e})", line.strip())
        self.stop_search()
        if process:
            # the engine process itself: skip the interpreter's teardown (freeing the hash
            # table and the compiled tables takes tens of ms) so that quit exits at once
            try:
                self.out_stream.flush()
                sys.stderr.flush()
            finally:
                os._exit(0)
