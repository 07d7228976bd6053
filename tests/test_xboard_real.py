"""XBoard 4.9 itself, under a virtual X server (Xvfb): Chu Shogi loaded as XBoard's own `chu`
from a position where cellfish's best move is the Lion's double capture; XBoard, testing
legality with its own Chu Shogi rules, accepts that two-leg move (`f5f6,f6f7`) and passes it to
the second engine (cellfish again), which answers it.  One session of a few seconds: XBoard and
two engines starting, one move each."""
from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import time

import pytest

from tests.engine_proc import cellfish_command
from tests.test_xboard_chu import GAME_POS

XBOARD = shutil.which("xboard") or ("/usr/games/xboard" if os.path.exists("/usr/games/xboard") else None)
XVFB = shutil.which("Xvfb")


# the README's test command (and CI) installs them: never skipped there
@pytest.mark.skipif((XBOARD is None or XVFB is None) and os.environ.get("CI") != "true",
                    reason="no xboard or Xvfb program (Debian packages xboard, xvfb)")
def test_xboard_accepts_the_lions_double_capture(tmp_path):
    assert XBOARD and XVFB, "xboard or Xvfb is missing: the README's test command installs them"
    (tmp_path / "chu.fen").write_text(GAME_POS + "\n")
    debug = tmp_path / "xboard.debug"
    read_fd, write_fd = os.pipe()
    xvfb = subprocess.Popen([XVFB, "-displayfd", str(write_fd), "-screen", "0", "1024x768x24",
                             "-nolisten", "tcp"], pass_fds=(write_fd,),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write_fd)
    xboard = None
    try:
        with os.fdopen(read_fd) as f:
            display = ":" + f.readline().strip()
        engine = " ".join(cellfish_command())
        env = dict(os.environ, DISPLAY=display)
        xboard = subprocess.Popen(
            [XBOARD, "-variant", "chu", "-lpf", str(tmp_path / "chu.fen"),
             "-fcp", engine, "-scp", engine, "-mg", "1", "-depth", "2", "-tc", "30",
             "-testLegality", "true", "-debug", "-nameOfDebugFile", str(debug), "-size", "small",
             # XBoard reads ~/.xboardrc of the account whatever HOME says: nothing is saved
             # there, and what it may hold of the games to save is overruled
             "-saveSettingsOnExit", "false", "-saveGameFile", "", "-autoSaveGames", "false"],
            env=env, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True)
        log = ""
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            log = debug.read_text(errors="replace") if debug.exists() else ""
            if re.search(r"<second: move \S+", log) or "Forfeit" in log or "illegal" in log.lower():
                break
            time.sleep(0.2)
        first = re.search(r"<first : move (\S+)", log)
        assert first, log[-3000:]
        assert first.group(1) == "f5f6,f6f7", first.group(1)     # the Lion takes f6 and f7
        assert "Forfeit" not in log and "illegal" not in log.lower(), log[-3000:]
        # XBoard accepted it: it told the second engine, which answered with a move of its own
        assert re.search(r">second: .*f5f6,f6f7", log), log[-3000:]
        assert re.search(r"<second: move \S+", log), log[-3000:]
        assert re.search(r">second: setboard 11k/9p2/12/12/12/5g6/5p6/5N6/12/12/12/K11 w - 0 1", log)
    finally:
        if xboard is not None:
            # XBoard and the engines it started; XBoard may linger over a SIGTERM while it
            # closes its engines (seen under load), so the group is killed after a grace time
            for sig in (signal.SIGTERM, signal.SIGKILL):
                try:
                    os.killpg(xboard.pid, sig)
                except ProcessLookupError:
                    break
                try:
                    xboard.wait(timeout=5)
                    break
                except subprocess.TimeoutExpired:
                    continue
            xboard.wait(timeout=10)
        xvfb.terminate()
        xvfb.wait(timeout=10)
