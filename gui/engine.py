"""One real `cellfish` process per browser tab, driven over UCI as any GUI drives it.

The process is a plain ``subprocess.Popen`` read by a thread that hands lines to the event
loop: asyncio's own subprocess support needs a child watcher, which a server running in a
non-main thread (the tests, the screenshots) may not have."""
from __future__ import annotations

import asyncio
import shutil
import subprocess
import sys
import threading


def engine_command() -> list[str]:
    exe = shutil.which("cellfish")
    return [exe] if exe else [sys.executable, "-m", "cellfish"]


def spawn() -> subprocess.Popen:
    return subprocess.Popen(engine_command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, bufsize=1, errors="replace")


class AsyncEngine:
    def __init__(self) -> None:
        self.proc: subprocess.Popen | None = None
        self.lines: asyncio.Queue = asyncio.Queue()
        self.variants: list[str] = []
        self.thinking = False

    async def start(self, variant_path: str | None = None) -> None:
        """Start the engine and read its variant list (after loading `variant_path`, if given,
        through the engine's own VariantPath option)."""
        loop = asyncio.get_running_loop()
        self.proc = spawn()
        out = self.proc.stdout
        assert out is not None

        def pump() -> None:
            for line in out:
                loop.call_soon_threadsafe(self.lines.put_nowait, line.strip())
            loop.call_soon_threadsafe(self.lines.put_nowait, None)

        threading.Thread(target=pump, daemon=True).start()
        await self.send("uci")
        await self._read_uci()
        if variant_path:
            await self.send(f"setoption name VariantPath value {variant_path}")
            await self.send("uci")
            await self._read_uci()

    async def _read_uci(self) -> None:
        while True:
            line = await self.readline(30)
            if line.startswith("option name UCI_Variant"):
                words = line.split()
                self.variants = [words[i + 1] for i, w in enumerate(words) if w == "var"]
            if line == "uciok":
                return

    async def send(self, line: str) -> None:
        assert self.proc and self.proc.stdin
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, ValueError):
            raise EOFError("engine closed its input") from None

    async def readline(self, timeout: float | None = None) -> str:
        line = await asyncio.wait_for(self.lines.get(), timeout)
        if line is None:
            self.lines.put_nowait(None)
            raise EOFError("engine closed its output")
        return line

    async def sync(self) -> None:
        await self.send("isready")
        while await self.readline(30) != "readyok":
            pass

    async def close(self) -> None:
        p = self.proc
        if p is None or p.poll() is not None:
            return
        p.kill()
        await asyncio.to_thread(p.wait)


def parse_info(line: str) -> dict:
    words = line.split()
    out: dict = {}
    i = 1
    while i < len(words):
        w = words[i]
        if w == "pv":
            out["pv"] = words[i + 1:]
            break
        if w == "score" and i + 2 < len(words):
            out["score"] = f"{words[i + 1]} {words[i + 2]}"
            i += 3
            continue
        if w in ("depth", "seldepth", "nodes", "nps", "time", "multipv") and i + 1 < len(words):
            out[w] = words[i + 1]
            i += 2
            continue
        i += 1
    return out
