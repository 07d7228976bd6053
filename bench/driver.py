"""A scripted engine process for transcripts, latency benchmarks and the checklist tests:
lines are read by a thread and stamped with the time they arrived."""
from __future__ import annotations

import queue
import subprocess
import threading
import time

from .common import ROOT, engine_command, engine_env


class EngineProcess:
    def __init__(self, cmd: list[str] | None = None):
        self.t_start = time.monotonic()
        self.proc = subprocess.Popen(cmd or engine_command(), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     bufsize=1, cwd=str(ROOT), env=engine_env())
        self.q: queue.Queue = queue.Queue()
        self.stderr: list[str] = []
        self.transcript: list[tuple[float, str, str]] = []   # (time, "<" or ">", line)
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_err, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.q.put((time.monotonic(), line.rstrip("\n")))
        self.q.put((time.monotonic(), None))

    def _read_err(self):
        for line in self.proc.stderr:
            self.stderr.append(line)

    def send(self, line: str) -> float:
        t = time.monotonic()
        self.transcript.append((t, ">", line))
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        return t

    def get(self, timeout: float):
        """Next line (time, text) or (time, None) at end of output; raises TimeoutError."""
        try:
            t, line = self.q.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError(f"no output within {timeout} s") from None
        if line is None:
            self.q.put((t, None))       # stay at end of output
        else:
            self.transcript.append((t, "<", line))
        return t, line

    def until(self, pred, timeout: float) -> list[tuple[float, str]]:
        """Lines up to and including the first one for which pred(line) is true."""
        end = time.monotonic() + timeout
        out = []
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"condition not met within {timeout} s; got {[l for _, l in out][-5:]}")
            t, line = self.get(left)
            if line is None:
                raise EOFError(f"engine ended; got {[l for _, l in out][-5:]}")
            out.append((t, line))
            if pred(line):
                return out

    def until_prefix(self, prefix: str, timeout: float):
        return self.until(lambda l: l.startswith(prefix), timeout)

    def lines_during(self, seconds: float) -> list[str]:
        end = time.monotonic() + seconds
        out = []
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return out
            try:
                t, line = self.get(left)
            except TimeoutError:
                return out
            if line is None:
                return out
            out.append(line)

    def handshake(self, cmd: str = "uci", timeout: float = 30.0):
        self.send(cmd)
        return self.until(lambda l: l in ("uciok", "usiok"), timeout)

    def ready(self, timeout: float = 30.0):
        self.send("isready")
        return self.until(lambda l: l == "readyok", timeout)

    def wait_exit(self, timeout: float) -> int | None:
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            return None

    def close(self):
        if self.proc.poll() is None:
            try:
                self.send("quit")
            except (BrokenPipeError, OSError, ValueError):
                pass
            if self.wait_exit(5) is None:
                self.proc.kill()
                self.proc.wait()
        for f in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                f.close()
            except Exception:
                pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
