"""One real `cellfish` process per browser tab, driven over UCI as any GUI drives it."""
from __future__ import annotations

import asyncio
import shutil
import sys


def engine_command() -> list[str]:
    exe = shutil.which("cellfish")
    return [exe] if exe else [sys.executable, "-m", "cellfish"]


class AsyncEngine:
    def __init__(self) -> None:
        self.proc: asyncio.subprocess.Process | None = None
        self.variants: list[str] = []
        self.thinking = False

    async def start(self, variant_path: str | None = None) -> None:
        """Start the engine and read its variant list (after loading `variant_path`, if given,
        through the engine's own VariantPath option)."""
        self.proc = await asyncio.create_subprocess_exec(
            *engine_command(), stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL)
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
        self.proc.stdin.write((line + "\n").encode())
        await self.proc.stdin.drain()

    async def readline(self, timeout: float | None = None) -> str:
        assert self.proc and self.proc.stdout
        raw = await asyncio.wait_for(self.proc.stdout.readline(), timeout)
        if not raw:
            raise EOFError("engine closed its output")
        return raw.decode(errors="replace").strip()

    async def sync(self) -> None:
        await self.send("isready")
        while await self.readline(30) != "readyok":
            pass

    async def close(self) -> None:
        p = self.proc
        if p is None or p.returncode is not None:
            return
        try:
            p.kill()
        except ProcessLookupError:
            pass
        await p.wait()
