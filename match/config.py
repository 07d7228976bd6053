"""What a match is made of: engines, a time control, the match settings and one game's spec.

Everything here is plain data (dataclasses of str/int/float/tuples) so that a game's spec can
be pickled to a worker process or shipped to a Dask worker unchanged.
"""
from __future__ import annotations

import os
import re
import shlex
import shutil
import sys
from dataclasses import dataclass, field, replace


class ConfigError(ValueError):
    """A bad engine spec, time control or match setting (reported to the user, no traceback)."""


# ---- time control -------------------------------------------------------------------------
@dataclass(frozen=True)
class TimeControl:
    """One of: a clock (base + increment, or base + byoyomi), a fixed time per move, or no
    time at all (depth / nodes only).  Depth and nodes may be combined with any of them.
    All times in milliseconds."""
    base_ms: int | None = None        # clock: main time
    inc_ms: int = 0                   # clock: increment after each move
    byoyomi_ms: int = 0               # clock: byoyomi period (resets every move)
    movetime_ms: int | None = None    # fixed time per move
    depth: int | None = None
    nodes: int | None = None

    @property
    def has_clock(self) -> bool:
        return self.base_ms is not None

    def describe(self) -> str:
        parts = []
        if self.base_ms is not None:
            s = f"{self.base_ms / 1000:g}"
            if self.inc_ms:
                s += f"+{self.inc_ms / 1000:g}"
            if self.byoyomi_ms:
                s += f"+b{self.byoyomi_ms / 1000:g}"
            parts.append(s)
        if self.movetime_ms is not None:
            parts.append(f"st={self.movetime_ms}ms")
        if self.depth is not None:
            parts.append(f"depth={self.depth}")
        if self.nodes is not None:
            parts.append(f"nodes={self.nodes}")
        return " ".join(parts) or "none"

    def pgn_tag(self) -> str:
        """The PGN TimeControl tag (PGN standard, 9.6.1): ``-`` without a clock (depth or
        nodes only), ``BASE`` or ``BASE+INC`` in seconds for a clock (sudden death), ``1/S``
        for a fixed S seconds per move (one move per period); ``?`` (unknown) for byoyomi,
        which the standard has no form for (the JSON record's ``tc`` keeps it)."""
        if self.base_ms is not None:
            if self.byoyomi_ms:
                return "?"
            s = f"{self.base_ms / 1000:g}"
            if self.inc_ms:
                s += f"+{self.inc_ms / 1000:g}"
            return s
        if self.movetime_ms is not None:
            return f"1/{self.movetime_ms / 1000:g}"
        return "-"


def parse_tc(text: str) -> TimeControl:
    """Clock text: ``60`` (seconds), ``60+0.6`` (increment), ``60+b5`` or ``60b5`` (byoyomi),
    ``2:30+1`` (minutes:seconds).  Returns a TimeControl with only the clock set."""
    t = text.strip().lower()
    m = re.fullmatch(r"(?:(\d+):)?(\d+(?:\.\d+)?)(?:\+(?!b)(\d+(?:\.\d+)?))?(?:\+?b(\d+(?:\.\d+)?))?", t)
    if not m:
        raise ConfigError(f"bad time control ({text}); use BASE[+INC] or BASE+bBYOYOMI in seconds")
    minutes, secs, inc, byo = m.groups()
    base = (int(minutes) * 60 if minutes else 0) + float(secs)
    return TimeControl(base_ms=int(round(base * 1000)), inc_ms=int(round(float(inc or 0) * 1000)),
                       byoyomi_ms=int(round(float(byo or 0) * 1000)))


def merge_tc(base: TimeControl, **over) -> TimeControl:
    """base with the given fields replaced (None values are ignored)."""
    return replace(base, **{k: v for k, v in over.items() if v is not None})


# ---- engines ------------------------------------------------------------------------------
@dataclass(frozen=True)
class EngineSpec:
    name: str
    cmd: tuple[str, ...]
    proto: str = "auto"                          # uci, usi, xboard or auto (the variant's dialect)
    options: tuple[tuple[str, str], ...] = ()    # setoption name/value pairs, in order
    cwd: str | None = None
    env: tuple[tuple[str, str], ...] = ()        # extra environment variables
    tc: TimeControl | None = None                # overrides the match's time control

    def dialect(self, variant_dialect: str) -> str:
        return variant_dialect if self.proto == "auto" else self.proto


def resolve_command(words: list[str]) -> tuple[str, ...]:
    """Find the program on PATH or next to the running Python (venv scripts such as
    ``sunfish-uci`` or ``cellfish`` live there even when the venv is not activated)."""
    if not words:
        raise ConfigError("engine needs a command (cmd=...)")
    prog = words[0]
    if os.sep not in prog:
        here = os.path.dirname(sys.executable)
        found = shutil.which(prog, path=here) or shutil.which(prog)
        if found:
            prog = found
    return (prog, *words[1:])


ENGINE_KEYS = ("cmd", "name", "proto", "dir", "tc", "st", "depth", "nodes", "option.", "env.")


def parse_engine(tokens: list[str], index: int = 0) -> EngineSpec:
    """cutechess-like ``key=value`` tokens: cmd=..., name=..., proto=uci|usi|xboard|auto, dir=...,
    option.<Name>=<value>, env.<VAR>=<value>, and per-engine tc=..., st=<sec>, depth=, nodes=."""
    cmd = None
    name = None
    proto = "auto"
    cwd = None
    options: list[tuple[str, str]] = []
    env: list[tuple[str, str]] = []
    tc = TimeControl()
    tc_set = False
    for tok in tokens:
        if "=" not in tok:
            raise ConfigError(f"engine setting needs key=value ({tok})")
        key, value = tok.split("=", 1)
        k = key.lower()
        try:
            if k == "cmd":
                cmd = shlex.split(value)
            elif k == "name":
                name = value
            elif k == "proto":
                if value.lower() not in ("uci", "usi", "xboard", "auto"):
                    raise ConfigError(f"proto must be uci, usi, xboard or auto ({value})")
                proto = value.lower()
            elif k == "dir":
                cwd = value
            elif k.startswith("option."):
                options.append((key[7:], value))
            elif k.startswith("env."):
                env.append((key[4:], value))
            elif k == "tc":
                c = parse_tc(value)
                tc = replace(tc, base_ms=c.base_ms, inc_ms=c.inc_ms, byoyomi_ms=c.byoyomi_ms)
                tc_set = True
            elif k == "st":
                tc = replace(tc, movetime_ms=int(round(float(value) * 1000)))
                tc_set = True
            elif k == "depth":
                tc = replace(tc, depth=int(value))
                tc_set = True
            elif k == "nodes":
                tc = replace(tc, nodes=int(value))
                tc_set = True
            else:
                raise ConfigError(f"unknown engine setting ({key}); known: {', '.join(ENGINE_KEYS)}")
        except ValueError as e:
            if isinstance(e, ConfigError):
                raise
            raise ConfigError(f"bad value for {key} ({value})") from None
    if not cmd:
        raise ConfigError(f"engine {index + 1} needs cmd=...")
    if name is None:
        name = os.path.basename(cmd[0])
    return EngineSpec(name=name, cmd=resolve_command(cmd), proto=proto, options=tuple(options),
                      cwd=cwd, env=tuple(env), tc=tc if tc_set else None)


def cellfish_command() -> tuple[str, ...]:
    """The command that runs this checkout's engine with the running interpreter."""
    return (sys.executable, "-m", "cellfish")


# ---- a match --------------------------------------------------------------------------------
@dataclass
class MatchConfig:
    variant: str
    engines: list[EngineSpec]
    tc: TimeControl = field(default_factory=TimeControl)   # none: every engine brings its own
    games: int = 2                         # games per pairing (colours alternate)
    tournament: str = "round-robin"        # or "gauntlet" (the first engine against each other)
    openings: str | None = None            # file of start positions (one per line)
    random_plies: int = 0                  # else: this many random plies from the start
    seed: int = 1
    max_plies: int | None = 400            # draw by move limit (engines' moves, opening excluded)
    concurrency: int = 1
    time_margin_ms: int = 200              # grace past the clock before a time loss
    stall_s: float = 60.0                  # no bestmove (untimed) / readyok within this: stall
    handshake_s: float = 15.0              # uciok/usiok within this
    sprt: tuple[float, float, float, float] | None = None   # elo0 elo1 alpha beta
    reuse_engines: bool | None = None      # None: on for local workers, off for an executor given
    records: str | None = None             # JSON-lines file (one game per line)
    pgn: str | None = None                 # PGN file (2D variants)
    event: str = "cellfish match"
    variant_files: tuple[str, ...] = ()    # variants files (docs/variant-files.md): loaded by
                                           # the runner and its workers, VariantPath to engines


@dataclass(frozen=True)
class GameSpec:
    """Everything a worker needs to play one game."""
    index: int
    pair: tuple[int, int]                  # engine indices, (first player, second player)
    variant: str
    white: EngineSpec                      # first player (White / Sente)
    black: EngineSpec
    tc_white: TimeControl
    tc_black: TimeControl
    start: str | None                      # position text; None = the variant's start
    opening: tuple[str, ...] = ()          # moves before the engines play (record dialect)
    max_plies: int | None = 400
    time_margin_ms: int = 200
    stall_s: float = 60.0
    handshake_s: float = 15.0
    opening_index: int = 0
    run_id: str = ""                       # lets a run stop its games in this process
    variant_files: tuple[str, ...] = ()    # loaded by the worker before the game
    reuse: bool = False                    # keep clean engines for this worker's next game
