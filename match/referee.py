"""Play one game between two engine processes; every move is checked by our rules core.

``play_game(spec)`` is the unit of work sent to a worker (local process or Dask worker).  It
plays one game and returns its record as a plain dict.  It never raises for an engine's
misbehaviour: an illegal or unparsable move, a time loss, a crash or a stall ends the game
with a loss for that engine and a reason.

Engines: with ``spec.reuse`` (local runs) a worker keeps an engine that finished a game
cleanly for its next game of the same run (``ucinewgame`` + ``isready`` between games, as
cutechess does), so the engine's start-up is not paid again on its clock; an engine that
was at fault is killed and a fresh one is started next time.  Without it (Dask) every game
starts and closes its own processes.  ``close_cached`` ends whatever a worker still holds.
"""
from __future__ import annotations

import os
import re
import socket
import threading
import time
from fractions import Fraction

import variants
from engine.game import HALF, game_result, points_text, result_points
from engine.movegen import legal_moves
from engine.notation.move_text import MoveTextError, move_text, parse_move
from engine.notation.position_text import format as format_position, parse as parse_position

from protocol.xboard import to_xboard
from protocol.xboard_board import parse_xboard_move

from .config import GameSpec, TimeControl
from .engine import EngineFault, EngineProcess

# run id -> Event: set when a run stops early (SPRT, Ctrl-C); games running in threads of this
# process end at their next poll.  (Local process workers are killed instead.)
ABORTS: dict[str, threading.Event] = {}
POLL_S = 0.25

# (thread, run id, engine spec, dialect) -> an idle engine process that finished a game cleanly
_CACHE: dict[tuple, EngineProcess] = {}
_CACHE_LOCK = threading.Lock()


def close_cached(run_id: str | None = None) -> None:
    """Close the idle engines kept for reuse (of one run, or all)."""
    with _CACHE_LOCK:
        keys = [k for k in _CACHE if run_id is None or k[1] == run_id]
        engines = [_CACHE.pop(k) for k in keys]
    for e in engines:
        e.close(polite=True)

RESULT_TEXT = {0: "1-0", 1: "0-1"}   # winner colour -> result text
DRAW_TEXT = "1/2-1/2"


def result_shares(text: str | None) -> tuple[Fraction, Fraction] | None:
    """(White's, Black's) share of the point of a result text (``1-0``, ``1/2-1/2``,
    ``3/4-1/4``), or None for an unfinished game (``*``) or any other text."""
    m = re.fullmatch(r"(\d+(?:/\d+)?)-(\d+(?:/\d+)?)", text or "")
    if m is None:
        return None
    try:
        a, b = Fraction(m.group(1)), Fraction(m.group(2))
    except ZeroDivisionError:
        return None
    return (a, b) if a + b == 1 and 0 <= a <= 1 else None


class GameOver(Exception):
    def __init__(self, result: str, reason: str, faulty: int | None = None):
        super().__init__(reason)
        self.result, self.reason, self.faulty = result, reason, faulty


def loss_for(colour: int, reason: str) -> GameOver:
    return GameOver(RESULT_TEXT[colour ^ 1], reason, faulty=colour)


def result_from_core(side: int, score: int, reason: str,
                     points: Fraction | None = None) -> GameOver:
    """The game's end as the core scores it for the side to move: ``score`` (1, 0, -1), or
    ``points``, its share of the point, where that is a fraction (Glinski's stalemate:
    ``3/4-1/4``, ``game.result_points``)."""
    if points is not None and points not in (0, HALF, 1):
        return GameOver(points_text(points if side == 0 else 1 - points), reason)
    if score == 0:
        return GameOver(DRAW_TEXT, reason)
    winner = side if score > 0 else side ^ 1
    return GameOver(RESULT_TEXT[winner], reason)


def position_command(v, dialect: str, start_is_variant_start: bool, start_pos, moves_text) -> str:
    if start_is_variant_start:
        head = "position startpos"
    elif dialect == "usi":
        head = "position sfen " + format_position(start_pos, "sfen")
    else:
        head = "position fen " + format_position(start_pos)
    if moves_text:
        return head + " moves " + " ".join(moves_text)
    return head


def go_command(dialect: str, side: int, tcs: tuple[TimeControl, TimeControl], clocks: list) -> str:
    tc = tcs[side]
    parts = ["go"]
    if tc.has_clock:
        own = max(0, int(clocks[side]))
        other = clocks[side ^ 1]
        other = own if other is None else max(0, int(other))
        t = [own, other] if side == 0 else [other, own]       # first player's, second player's
        inc = [tcs[0].inc_ms if tcs[0].has_clock else tc.inc_ms,
               tcs[1].inc_ms if tcs[1].has_clock else tc.inc_ms]
        if dialect == "usi":   # USI: b = first player (sente), w = second (gote)
            parts += [f"btime {t[0]}", f"wtime {t[1]}"]
            if tc.byoyomi_ms:
                parts.append(f"byoyomi {tc.byoyomi_ms}")
            elif inc[0] or inc[1]:
                parts += [f"binc {inc[0]}", f"winc {inc[1]}"]
        else:
            parts += [f"wtime {t[0]}", f"btime {t[1]}"]
            if inc[0] or inc[1]:
                parts += [f"winc {inc[0]}", f"binc {inc[1]}"]
            if tc.byoyomi_ms:
                parts.append(f"byoyomi {tc.byoyomi_ms}")
    elif tc.movetime_ms is not None:
        parts.append(f"movetime {tc.movetime_ms}")
    if tc.depth is not None:
        parts.append(f"depth {tc.depth}")
    if tc.nodes is not None:
        parts.append(f"nodes {tc.nodes}")
    if len(parts) == 1:
        parts.append("depth 1")   # no limit at all would never end
    return " ".join(parts)


def parse_thinking(line: str):
    """(score, depth) from a CECP thinking line `PLY SCORE TIME NODES PV...`: centipawns, or
    '#N' / '#-N' for XBoard's mate scores (100000 + N moves); (None, None) for other lines."""
    toks = line.split()
    try:
        depth, n = int(toks[0]), int(toks[1])
        int(toks[2]), int(toks[3])
    except (ValueError, IndexError):
        return None, None
    if abs(n) >= 100000:
        return (f"#{abs(n) - 100000}" if n > 0 else f"#-{abs(n) - 100000}"), depth
    return n, depth


def parse_score(line: str):
    """(score, depth) from an info line: cp as int, mate as '#N' / '#-N'; None if absent."""
    toks = line.split()
    score = depth = None
    i = 1
    while i < len(toks):
        t = toks[i]
        if t == "multipv" and i + 1 < len(toks) and toks[i + 1] != "1":
            return None, None
        if t == "depth" and i + 1 < len(toks):
            try:
                depth = int(toks[i + 1])
            except ValueError:
                pass
        elif t == "score" and i + 2 < len(toks):
            try:
                n = int(toks[i + 2])
            except ValueError:
                n = None
            if n is not None:
                score = n if toks[i + 1] == "cp" else (f"#{n}" if toks[i + 1] == "mate" else None)
        elif t in ("pv", "string"):
            break
        i += 1
    return score, depth


def play_game(spec: GameSpec) -> dict:
    t_start = time.time()
    if spec.variant_files and spec.variant not in variants.names():
        for path in spec.variant_files:     # a spawned worker: the runner's files, once
            variants.load_file(path)
    v = variants.get(spec.variant)
    rec_dialect = v.notation.dialect
    start_pos = parse_position(v, spec.start or v.start_fen)
    start_is_variant_start = spec.start is None or format_position(start_pos) == \
        format_position(parse_position(v, v.start_fen))
    pos = start_pos.copy()
    played: list[int] = []
    for t in spec.opening:
        m = parse_move(v, legal_moves(pos), t, rec_dialect)
        pos.make(m)
        played.append(m)
    specs = (spec.white, spec.black)
    tcs = (spec.tc_white, spec.tc_black)
    dialects = tuple(s.dialect(rec_dialect) for s in specs)
    record = {
        "game": spec.index,
        "variant": spec.variant,
        "white": spec.white.name,
        "black": spec.black.name,
        "engines": [spec.white.name, spec.black.name],
        "pair": list(spec.pair),
        "tc": [tcs[0].describe(), tcs[1].describe()],
        "tc_pgn": [tcs[0].pgn_tag(), tcs[1].pgn_tag()],
        "start": format_position(start_pos),
        "opening": list(spec.opening),
        "opening_index": spec.opening_index,
        "dialect": rec_dialect,
        "worker": {"host": socket.gethostname(), "pid": os.getpid()},   # who played it
        "moves": [],
        "times_ms": [],
        "scores": [],
        "depths": [],
    }
    clocks = [tc.base_ms if tc.has_clock else None for tc in tcs]
    keys = [(threading.get_ident(), spec.run_id, s, d) for s, d in zip(specs, dialects)]
    engines: list[EngineProcess] = []
    fresh = []
    for key, s, d in zip(keys, specs, dialects):
        e = None
        if spec.reuse:
            with _CACHE_LOCK:
                e = _CACHE.pop(key, None)
            if e is not None and not e.alive():
                e.close(polite=False)
                e = None
        fresh.append(e is None)
        engines.append(e if e is not None else EngineProcess(s, d, write_s=spec.stall_s))
    record["fresh"] = fresh
    faulty: int | None = None
    clean = False
    try:
        try:
            for colour, e in enumerate(engines):    # new ones start loading at once
                if fresh[colour]:
                    try:
                        e.start()
                    except EngineFault as f:
                        raise fault_over(colour, specs[colour].name, f, "at start") from None
            for colour, e in enumerate(engines):
                try:
                    if fresh[colour]:
                        e.handshake(spec.variant, "shogi" if e.dialect == "usi" else "chess",
                                    spec.handshake_s, spec.stall_s)
                    e.new_game(spec.stall_s)
                except EngineFault as f:
                    raise fault_over(colour, specs[colour].name, f, "at start") from None
            plies = 0
            abort = ABORTS.get(spec.run_id)
            while True:
                if abort is not None and abort.is_set():
                    raise GameOver("*", "aborted (the run stopped)")
                r = game_result(pos)
                if r is not None:
                    raise result_from_core(pos.side, r[0], r[1], result_points(pos, r))
                if spec.max_plies is not None and plies >= spec.max_plies:
                    raise GameOver(DRAW_TEXT, f"move limit ({spec.max_plies} plies)")
                side = pos.side
                m, text, elapsed, score, depth = engine_move(
                    v, spec, engines[side], side, pos, played, start_pos,
                    start_is_variant_start, tcs, clocks, abort)
                pos.make(m)
                played.append(m)
                plies += 1
                record["moves"].append(move_text(v, m, rec_dialect))
                record["times_ms"].append(elapsed)
                record["scores"].append(score)
                record["depths"].append(depth)
        except GameOver as g:
            record["result"], record["reason"] = g.result, g.reason
            faulty = g.faulty
            if g.faulty is not None:
                record["faulty"] = specs[g.faulty].name
            clean = g.result != "*"
    finally:
        for colour, e in enumerate(engines):
            if clean and e.dialect == "usi" and colour != faulty and e.alive():
                res = record.get("result")
                share = result_shares(res)[colour] if result_shares(res) else HALF
                word = "draw" if share == HALF else ("win" if share > HALF else "lose")
                try:
                    e.send(f"gameover {word}")     # USI tells the engines how the game ended
                except EngineFault:
                    pass
            if clean and spec.reuse and colour != faulty and e.alive():
                with _CACHE_LOCK:
                    _CACHE[keys[colour]] = e
            else:
                e.close(polite=(colour != faulty))
    record["plies"] = len(record["moves"])
    record["clocks_ms"] = clocks
    record["duration_s"] = round(time.time() - t_start, 3)
    return record


def fault_over(colour: int, name: str, f: EngineFault, when: str = "") -> GameOver:
    where = f" {when}" if when else ""
    if f.kind == "crash":
        return loss_for(colour, f"{name} crashed{where} ({f.text})")
    if f.kind == "stall":
        return loss_for(colour, f"{name} stalled{where} ({f.text})")
    return loss_for(colour, f"{name} broke the protocol{where} ({f.text})")


def engine_move(v, spec: GameSpec, e: EngineProcess, side: int, pos, played, start_pos,
                start_is_variant_start, tcs, clocks, abort=None):
    """Ask the engine on move for its move; returns (move, its text, ms, score, depth) or
    raises GameOver for any fault."""
    name = e.spec.name
    tc = tcs[side]
    d = e.dialect
    legal = legal_moves(pos)
    try:
        if d == "xboard":
            e.xb_request(None if start_is_variant_start else format_position(start_pos),
                         [to_xboard(v, move_text(v, m, "uci")) for m in played], side, tcs, clocks)
        else:
            e.send(position_command(v, d, start_is_variant_start, start_pos,
                                    [move_text(v, m, d) for m in played]))
            e.send(go_command(d, side, tcs, clocks))
        final = ("move", "resign") if d == "xboard" else ("bestmove",)
        t0 = time.monotonic()
        if tc.has_clock:
            allowed = (clocks[side] + tc.byoyomi_ms + spec.time_margin_ms) / 1000.0
        elif tc.movetime_ms is not None:
            allowed = (tc.movetime_ms + spec.time_margin_ms) / 1000.0
        else:
            allowed = None
        deadline = t0 + (allowed if allowed is not None else spec.stall_s)
        score = depth = None

        def out_of_time() -> GameOver:
            if allowed is not None:
                if tc.has_clock:
                    clocks[side] -= int(allowed * 1000)
                return loss_for(side, f"{name} loses on time (no move within "
                                      f"{int(allowed * 1000)} ms)")
            return loss_for(side, f"{name} stalled (no bestmove within {spec.stall_s:g} s)")

        while True:
            r = e.readline(min(deadline, time.monotonic() + POLL_S) if abort is not None else deadline)
            if r is None:
                if abort is not None and abort.is_set():
                    raise GameOver("*", "aborted (the run stopped)")
                if time.monotonic() < deadline:
                    continue
                raise out_of_time()
            t, line = r
            word = line.split(maxsplit=1)[:1]
            if t > deadline and word != [final[0]]:
                raise out_of_time()    # a flood of other lines does not hold the deadline off
            if line.startswith("info") and " score " in line:
                s, dp = parse_score(line)
                if s is not None:
                    score, depth = s, dp
            elif d == "xboard" and line[:1].isdigit():
                s, dp = parse_thinking(line)
                if s is not None:
                    score, depth = s, dp
            elif word and word[0] in final:
                break
            elif d == "xboard" and (line.startswith("Illegal move") or line.startswith("Error")):
                raise EngineFault("protocol", line)
    except EngineFault as f:
        raise fault_over(side, name, f) from None
    elapsed = int(round((t - t0) * 1000))
    toks = line.split()
    text = toks[1] if len(toks) > 1 else ""
    if text == "resign" or toks[:1] == ["resign"]:
        raise loss_for(side, f"{name} resigns")
    if text in ("", "(none)", "0000", "none", "win"):
        raise loss_for(side, f"{name} plays no move ({text or 'empty bestmove'}) "
                             f"with {len(legal)} legal moves")
    if tc.has_clock:
        # As cutechess does it: without byoyomi the time left may go below zero by at most
        # the margin and the debt is carried over (the margin is not a gift on every move);
        # with byoyomi the main time is spent first, then the period, which resets each move.
        before = clocks[side]
        left = before - elapsed
        if tc.byoyomi_ms:
            lost = left < -(tc.byoyomi_ms + spec.time_margin_ms)
        else:
            lost = left < -spec.time_margin_ms
        if lost:
            clocks[side] = left
            raise loss_for(side, f"{name} loses on time ({elapsed} ms used, {before} ms left"
                                 + (f" + {tc.byoyomi_ms} ms byoyomi" if tc.byoyomi_ms else "") + ")")
        if tc.byoyomi_ms and left < 0:
            left = 0
        clocks[side] = left + tc.inc_ms
    elif tc.movetime_ms is not None and elapsed > tc.movetime_ms + spec.time_margin_ms:
        raise loss_for(side, f"{name} loses on time ({elapsed} ms for a {tc.movetime_ms} ms move)")
    try:
        m = parse_xboard_move(pos, legal, text) if d == "xboard" else parse_move(v, legal, text, d)
    except MoveTextError:
        raise loss_for(side, f"{name} plays an illegal move ({text})") from None
    if m not in legal:   # the null move 0000 is caught above; anything else came from legal
        raise loss_for(side, f"{name} plays an illegal move ({text})")
    return m, text, elapsed, score, depth
