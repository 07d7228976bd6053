"""Drive the installed `cellfish` command as a subprocess: send lines, expect lines."""
from __future__ import annotations

import queue
import subprocess
import sys
import threading
import time
from pathlib import Path


def cellfish_command() -> list[str]:
    exe = Path(sys.executable).parent / "cellfish"
    if not exe.exists():
        raise RuntimeError("the cellfish command is not installed next to the test interpreter; "
                           "install the project (pip install -e .[test])")
    return [str(exe)]


class EngineProcess:
    def __init__(self, cmd: list[str] | None = None):
        self.proc = subprocess.Popen(cmd or cellfish_command(), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, bufsize=1)
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.log: list[str] = []
        self.err: list[str] = []
        threading.Thread(target=self._pump, args=(self.proc.stdout, self.lines), daemon=True).start()
        threading.Thread(target=self._pump_err, daemon=True).start()

    @staticmethod
    def _pump(stream, q):
        for line in stream:
            q.put(line.rstrip("\n"))
        q.put(None)

    def _pump_err(self):
        for line in self.proc.stderr:
            self.err.append(line)

    def send(self, line: str) -> None:
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read(self, timeout: float = 30.0) -> str | None:
        line = self.lines.get(timeout=timeout)
        if line is not None:
            self.log.append(line)
        return line

    def expect(self, pred, timeout: float = 30.0) -> list[str]:
        """Read lines until one satisfies pred (a str prefix or a function); return them all."""
        if isinstance(pred, str):
            prefix = pred
            pred = lambda s: s.startswith(prefix)  # noqa: E731
        got = []
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise AssertionError(f"timed out; got {got!r}")
            line = self.read(left)
            if line is None:
                raise AssertionError(f"engine exited; got {got!r}")
            got.append(line)
            if pred(line):
                return got

    def ask(self, line: str, until, timeout: float = 30.0) -> list[str]:
        self.send(line)
        return self.expect(until, timeout)

    def close(self) -> int:
        try:
            self.send("quit")
        except (BrokenPipeError, OSError):
            pass
        try:
            return self.proc.wait(timeout=30)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
