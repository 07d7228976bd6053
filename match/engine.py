"""One engine process spoken to over UCI or USI, with bounded waits and a clean ending.

A reader thread turns the engine's stdout into a queue of (arrival time, line); every wait
has a deadline, so a silent engine can never hang the referee.  ``close`` always leaves no
process behind: ``quit``, a short wait, then a kill of the whole process tree and a reap.
"""
from __future__ import annotations

import os
import queue
import subprocess
import threading
import time

import psutil

from .config import EngineSpec


class EngineFault(Exception):
    """The engine crashed, stalled or broke the protocol; ``kind`` is crash/stall/protocol."""

    def __init__(self, kind: str, text: str):
        super().__init__(text)
        self.kind = kind
        self.text = text


class EngineProcess:
    def __init__(self, spec: EngineSpec, dialect: str):
        self.spec = spec
        self.dialect = dialect
        self.lines: queue.Queue = queue.Queue()
        self.proc: subprocess.Popen | None = None
        self.options_seen: dict[str, str] = {}    # lowercase name -> name as advertised
        self.reader: threading.Thread | None = None
        self.eof = False

    # ---- process life -----------------------------------------------------------------------
    def start(self) -> None:
        env = None
        if self.spec.env:
            env = dict(os.environ)
            env.update(dict(self.spec.env))
        try:
            self.proc = subprocess.Popen(
                list(self.spec.cmd), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL, cwd=self.spec.cwd, env=env, text=True, bufsize=1,
                errors="replace")
        except OSError as e:
            raise EngineFault("crash", f"cannot start {' '.join(self.spec.cmd)}: {e}") from None
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
        if self.proc is None or self.proc.stdin is None:
            raise EngineFault("crash", "engine not running")
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise EngineFault("crash", self.exit_text()) from None

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
        self.send(d)
        for line in self.wait_for(d + "ok", seconds, f"after {d}"):
            if line.startswith("option name "):
                rest = line[len("option name "):]
                name = rest.split(" type ")[0].strip()
                self.options_seen[name.lower()] = name
        key = "usi_variant" if d == "usi" else "uci_variant"
        if variant != variant_default or key in self.options_seen:
            if key in self.options_seen:
                self.send(f"setoption name {self.options_seen[key]} value {variant}")
            elif variant != variant_default:
                raise EngineFault("protocol", f"engine has no {key.upper()} option for {variant}")
        for name, value in self.spec.options:
            self.send(f"setoption name {name} value {value}")
        self.ready(stall)

    def ready(self, stall: float) -> None:
        self.send("isready")
        self.wait_for("readyok", stall, "after isready")

    def new_game(self, stall: float) -> None:
        self.send("usinewgame" if self.dialect == "usi" else "ucinewgame")
        self.ready(stall)

    def close(self, polite: bool = True) -> None:
        """quit (if polite), then make sure the process and its children are gone and reaped."""
        p = self.proc
        if p is None:
            return
        if polite and p.poll() is None:
            try:
                p.stdin.write("quit\n")
                p.stdin.flush()
            except (OSError, ValueError):
                pass
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


def kill_tree(p: subprocess.Popen) -> None:
    """Kill a process and every descendant, then reap the direct child."""
    try:
        kids = psutil.Process(p.pid).children(recursive=True)
    except psutil.Error:
        kids = []
    for k in kids:
        try:
            k.kill()
        except psutil.Error:
            pass
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
