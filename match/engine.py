"""One engine process spoken to over UCI or USI, with bounded waits and a clean ending.

A reader thread turns the engine's stdout into a queue of (arrival time, line); every wait
has a deadline, so a silent engine can never hang the referee.  ``close`` always leaves no
process behind: ``quit``, a short wait, then a kill of the whole process tree and a reap.
"""
from __future__ import annotations

import os
import queue
import select
import signal
import subprocess
import threading
import time

import psutil

from protocol.xboard_board import XBOARD_NAMES

from .config import EngineSpec


class EngineFault(Exception):
    """The engine crashed, stalled or broke the protocol; ``kind`` is crash/stall/protocol."""

    def __init__(self, kind: str, text: str):
        super().__init__(text)
        self.kind = kind
        self.text = text


# Engines started by this process and not closed yet (see kill_all).
LIVE: set[EngineProcess] = set()
_starting = False          # an engine process may exist before it is in LIVE
_deferred = None           # a stop signal that came meanwhile


def on_stop_signal(handler):
    """A signal handler for a pool worker's stop that waits, if an engine is being started
    in this thread at that moment, until that engine is in LIVE (so kill_all sees it)."""
    def run(signum, frame):
        global _deferred
        if _starting:
            _deferred = lambda: handler(signum, frame)    # noqa: E731
        else:
            handler(signum, frame)
    return run


class EngineProcess:
    def __init__(self, spec: EngineSpec, dialect: str, write_s: float = 10.0):
        self.spec = spec
        self.dialect = dialect
        self.write_s = write_s            # a line not taken by the engine within this: stall
        self.lines: queue.Queue = queue.Queue()
        self.proc: subprocess.Popen | None = None
        self.options_seen: dict[str, str] = {}    # lowercase name -> name as advertised
        self.reader: threading.Thread | None = None
        self.eof = False

    # ---- process life -----------------------------------------------------------------------
    def start(self) -> None:
        global _starting, _deferred
        env = None
        if self.spec.env:
            env = dict(os.environ)
            env.update(dict(self.spec.env))
        _starting = True
        try:
            try:
                self.proc = subprocess.Popen(
                    list(self.spec.cmd), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL, cwd=self.spec.cwd, env=env, text=True, bufsize=1,
                    errors="replace")
            except OSError as e:
                raise EngineFault("crash", f"cannot start {' '.join(self.spec.cmd)}: {e}") from None
            LIVE.add(self)
        finally:
            _starting = False
            if _deferred is not None:
                stop, _deferred = _deferred, None
                stop()
        os.set_blocking(self.proc.stdin.fileno(), False)    # writes have a deadline (_write)
        self.reader = threading.Thread(target=self._read, args=(self.proc.stdout,), daemon=True)
        self.reader.start()

    def _read(self, stream) -> None:
        put = self.lines.put
        try:
            for line in stream:
                put((time.monotonic(), line.rstrip("\r\n")))
        except (OSError, ValueError):
            pass
        put((time.monotonic(), None))

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def exit_text(self) -> str:
        if self.proc is None:
            return "never started"
        try:
            rc = self.proc.wait(0.5)
        except subprocess.TimeoutExpired:
            return "output closed"
        return f"exit code {rc}" if rc >= 0 else f"killed by signal {-rc}"

    def send(self, line: str) -> None:
        """Write one line; an engine that does not take it within `write_s` (it stopped
        reading and the pipe is full) is stalled, so the referee never blocks on a write."""
        if self.proc is None or self.proc.stdin is None:
            raise EngineFault("crash", "engine not running")
        try:
            done = self._write((line + "\n").encode("utf-8"), self.write_s)
        except (BrokenPipeError, OSError, ValueError):
            raise EngineFault("crash", self.exit_text()) from None
        if not done:
            raise EngineFault("stall", f"does not read its input (a line not taken within "
                                       f"{self.write_s:g} s)")

    def _write(self, data: bytes, seconds: float) -> bool:
        """All of `data` to the engine's (non-blocking) stdin before the deadline?"""
        fd = self.proc.stdin.fileno()
        deadline = time.monotonic() + seconds
        view = memoryview(data)
        while view:
            try:
                n = os.write(fd, view)
                view = view[n:]
                continue
            except BlockingIOError:
                pass
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            select.select([], [fd], [], min(left, 0.5))
        return True

    def readline(self, deadline: float) -> tuple[float, str] | None:
        """Next (time, line) before the monotonic deadline; None on timeout;
        EngineFault('crash') at end of output."""
        if self.eof:
            raise EngineFault("crash", self.exit_text())
        timeout = deadline - time.monotonic()
        try:
            t, line = self.lines.get(timeout=max(0.0, timeout)) if timeout > 0 else self.lines.get_nowait()
        except queue.Empty:
            return None
        if line is None:
            self.eof = True
            raise EngineFault("crash", self.exit_text())
        return t, line

    def wait_for(self, word: str, seconds: float, what: str) -> list[str]:
        """Lines up to the first whose first token is `word`; stall fault after `seconds`."""
        deadline = time.monotonic() + seconds
        got = []
        while True:
            r = self.readline(deadline)
            if r is None:
                raise EngineFault("stall", f"no {word} within {seconds:g} s {what}")
            t, line = r
            got.append(line)
            if line.split(maxsplit=1)[:1] == [word]:
                return got
            if t > deadline:    # an engine that floods its output is stalled all the same
                raise EngineFault("stall", f"no {word} within {seconds:g} s {what}")

    # ---- protocol ---------------------------------------------------------------------------
    def handshake(self, variant: str, variant_default: str, seconds: float, stall: float) -> None:
        d = self.dialect
        if d == "xboard":
            self.xb_handshake(variant, seconds, stall)
            return
        self.send(d)
        for line in self.wait_for(d + "ok", seconds, f"after {d}"):
            if line.startswith("option name "):
                rest = line[len("option name "):]
                name = rest.split(" type ")[0].strip()
                self.options_seen[name.lower()] = name
        # the engine's own options first, as cutechess-cli does: an engine whose variants come
        # from a file (VariantPath) knows the variant only once that option is set
        for name, value in self.spec.options:
            self.send(f"setoption name {name} value {value}")
        key = "usi_variant" if d == "usi" else "uci_variant"
        if variant != variant_default or key in self.options_seen:
            if key in self.options_seen:
                self.send(f"setoption name {self.options_seen[key]} value {variant}")
            elif variant != variant_default:
                raise EngineFault("protocol", f"engine has no {key.upper()} option for {variant}")
        self.ready(stall)

    def ready(self, stall: float) -> None:
        if self.dialect == "xboard":
            self.xb_ping += 1
            self.send(f"ping {self.xb_ping}")
            self.wait_for("pong", stall, "after ping")
            return
        self.send("isready")
        self.wait_for("readyok", stall, "after isready")

    def new_game(self, stall: float) -> None:
        if self.dialect == "xboard":
            self.send("new")
            if self.xb_variant != "normal":
                self.send(f"variant {self.xb_variant}")
            self.send("force")
            self.send("post")
            self.xb_sent = []
            self.ready(stall)
            return
        self.send("usinewgame" if self.dialect == "usi" else "ucinewgame")
        self.ready(stall)

    # ---- CECP (XBoard) engines -------------------------------------------------------------
    xb_ping = 0
    xb_variant = "normal"
    xb_sent: list[str] = []

    def xb_handshake(self, variant: str, seconds: float, stall: float) -> None:
        """`xboard`, `protover 2` and the features up to `done=1` (a `done=0` first extends
        the wait to the handshake time); then the engine's options and its variant."""
        self.send("xboard")
        self.send("protover 2")
        deadline = time.monotonic() + seconds
        while True:
            r = self.readline(deadline)
            if r is None:
                raise EngineFault("stall", f"no feature done=1 within {seconds:g} s after protover")
            line = r[1]
            if line.startswith("feature ") and "done=1" in line.split():
                break
            if line.startswith("feature "):
                for word in line.split()[1:]:
                    if word.startswith('option="'):
                        name = word[len('option="'):]
                        self.options_seen[name.lower()] = name
        for name, value in self.spec.options:
            self.send(f"option {name}={value}")
        self.xb_variant = XBOARD_NAMES.get(variant, variant)   # the name XBoard knows it by
        self.ready(stall)

    def xb_request(self, start_fen: str | None, moves_text: list[str], side: int, tcs, clocks) -> None:
        """Bring the engine (in force mode) to the game's position, give it its clocks and
        `go`: only the moves it has not seen are sent when the game only grew."""
        seen = self.xb_sent
        if seen and len(moves_text) >= len(seen) and all(
                a in ("?", b) for a, b in zip(seen, moves_text)):
            new = moves_text[len(self.xb_sent):]
        else:
            if self.xb_sent or start_fen is not None:
                self.send("new")
                if self.xb_variant != "normal":
                    self.send(f"variant {self.xb_variant}")
                self.send("force")
                self.send("post")
                if start_fen is not None:
                    self.send(f"setboard {start_fen}")
            new = moves_text
        self.send("force")
        for t in new:
            self.send(f"usermove {t}")
        self.xb_sent = list(moves_text)
        tc = tcs[side]
        if tc.has_clock:
            base = tc.base_ms // 1000
            self.send(f"level 0 {base // 60}:{base % 60:02d} {tc.inc_ms / 1000:g}")
            own = max(0, int(clocks[side]))
            other = clocks[side ^ 1]
            other = own if other is None else max(0, int(other))
            self.send(f"time {own // 10}")
            self.send(f"otim {other // 10}")
        elif tc.movetime_ms is not None:
            self.send(f"st {max(1, round(tc.movetime_ms / 1000))}")
        depth = tc.depth
        if depth is None and not tc.has_clock and tc.movetime_ms is None:
            depth = 1         # no limit at all would never end
        if depth is not None:
            self.send(f"sd {depth}")
        self.send("go")
        self.xb_sent.append("?")    # the engine's own move: recorded when the referee sends it

    def close(self, polite: bool = True) -> None:
        """quit (if polite), then make sure the process and its children are gone and reaped."""
        p = self.proc
        if p is None:
            return
        if polite and p.poll() is None:
            try:
                sent = self._write(b"quit\n", 0.5)
            except (OSError, ValueError):
                sent = False
            if sent:
                try:
                    p.wait(2.0)
                except subprocess.TimeoutExpired:
                    pass
        kill_tree(p)
        for s in (p.stdin, p.stdout):
            try:
                if s:
                    s.close()
            except OSError:
                pass
        if self.reader is not None:
            self.reader.join(2.0)
        self.proc = None
        LIVE.discard(self)


def kill_descendants(pid: int) -> list:
    """Kill every descendant of process pid (not pid itself); return them for reaping."""
    try:
        kids = psutil.Process(pid).children(recursive=True)
    except psutil.Error:
        return []
    for k in kids:
        try:
            k.kill()
        except psutil.Error:
            pass
    return kids


def kill_all() -> None:
    """Kill every engine this process holds (running a game or kept for reuse), with its
    children, and reap it: what a pool worker does when the runner stops it (SIGTERM), so no
    engine is orphaned or left a zombie.  Safe in a signal handler: no locks, no Popen waits."""
    for e in list(LIVE):
        p = e.proc
        if p is None or p.returncode is not None:
            continue
        kids = kill_descendants(p.pid)
        try:
            os.kill(p.pid, signal.SIGKILL)
            os.waitpid(p.pid, 0)
        except (ChildProcessError, ProcessLookupError):
            pass
        psutil.wait_procs(kids, timeout=1.0)


def kill_tree(p: subprocess.Popen) -> None:
    """Kill a process and every descendant, then reap the direct child."""
    kids = kill_descendants(p.pid)
    if p.poll() is None:
        try:
            p.kill()
        except OSError:
            pass
    try:
        p.wait(5.0)
    except subprocess.TimeoutExpired:
        pass
    psutil.wait_procs(kids, timeout=2.0)
