import ctypes
import os
import sys
import uuid
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

# The suite tests the engine's files as they read, never a compiled build of them
# (engine/_native.py: made by the install, or by `cellfish native --build`); the
# tests of the compiled engine (test_native.py) switch it on for the engines they start.
# CELLFISH_TEST_NATIVE=1 runs the suite against the build instead (the tests marked
# `interpreted`, which patch the engine's functions, are then left out: compiled code calls
# its functions directly).
NATIVE_SUITE = os.environ.get("CELLFISH_TEST_NATIVE") == "1"
os.environ["CELLFISH_NATIVE"] = "1" if NATIVE_SUITE else "0"

# Every process this pytest process starts (and their descendants) inherits this tag, so the
# match tests can find an engine wherever it went: an engine orphaned by an exiting pool
# worker is re-parented away from us and is no longer among our descendants.  One tag per
# pytest process (xdist workers each set their own).
PROC_TAG = "CELLFISH_TEST_PROCS"
os.environ[PROC_TAG] = f"{os.getpid()}-{uuid.uuid4().hex[:12]}"

PR_SET_CHILD_SUBREAPER = 36
_subreaper = None


def become_subreaper() -> bool:
    """Make this process a child subreaper (Linux): an orphaned descendant (an engine left by
    a pool worker that died) is re-parented to us instead of PID 1, so it stays visible among
    our children, and a dead one stays a zombie until someone reaps it: a check can see it."""
    global _subreaper
    if _subreaper is None:
        _subreaper = False
        if sys.platform.startswith("linux"):
            try:
                libc = ctypes.CDLL(None, use_errno=True)
                _subreaper = libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
            except (OSError, AttributeError):
                pass
    return _subreaper


ENGINE_MARKERS = ("fake_engine.py", "sunfish", "cellfish")


def _tagged(p) -> bool:
    try:
        return p.environ().get(PROC_TAG) == os.environ[PROC_TAG]
    except Exception:       # gone, a zombie (no environ), or another user's process
        return False


class StrayProcesses:
    """Engines and zombies that appeared since this object was made: every descendant of
    this process (orphans included, thanks to the subreaper) that is an engine or a zombie,
    and every live process anywhere that carries our tag and runs an engine."""

    def __init__(self):
        import psutil
        self.psutil = psutil
        self.me = psutil.Process()
        self.subreaper = become_subreaper()
        self.before = self._pids()

    def _pids(self) -> set[int]:
        pids = {p.pid for p in self.me.children(recursive=True)}
        for p in self.psutil.process_iter():
            if p.pid not in pids and _tagged(p):
                pids.add(p.pid)
        return pids

    def __call__(self) -> list:
        psutil = self.psutil
        out = {}
        candidates = list(self.me.children(recursive=True))
        candidates += [p for p in psutil.process_iter() if _tagged(p)]
        for p in candidates:
            if p.pid in self.before or p.pid in out or p.pid == self.me.pid:
                continue
            try:
                if p.status() == psutil.STATUS_ZOMBIE:
                    out[p.pid] = p
                elif any(m in " ".join(p.cmdline()) for m in ENGINE_MARKERS):
                    out[p.pid] = p
            except psutil.NoSuchProcess:
                pass
        return list(out.values())

    def reap(self) -> None:
        """Reap zombies adopted during the test (so one failure does not spill into the next)."""
        for p in self():
            try:
                if p.ppid() == self.me.pid and p.status() == self.psutil.STATUS_ZOMBIE:
                    os.waitpid(p.pid, os.WNOHANG)
            except (self.psutil.Error, ChildProcessError):
                pass


@pytest.fixture
def stray_engines():
    """A callable listing engine processes and zombies that appeared during the test and are
    still there; the match tests assert it is empty after every run."""
    s = StrayProcesses()
    yield s
    s.reap()


@pytest.fixture
def eng():
    """A fresh `cellfish` process (tests/engine_proc.py), told `quit` after the test, which
    must have written nothing on stderr.  Test files with an engine set up differently (a
    variant chosen, stderr not checked) define their own `eng`, which takes precedence."""
    from engine_proc import EngineProcess
    e = EngineProcess()
    yield e
    e.close()
    assert not e.err, e.err


# The fixed subset the README's test command runs a second time against the compiled engine
# (`CELLFISH_TEST_NATIVE=1 python -m pytest -m native`): perft of every game family, the
# search, and the protocol (a minute of CPU compiled; test_native.py checks the build itself
# and that it searches the same nodes as the files).
NATIVE_SUBSET = ("test_chess_perft.py", "test_knavish_perft.py", "test_shogi_perft.py", "test_nested_perft.py",
                 "test_nichtschach_perft.py", "test_notake_perft.py", "test_ninepiece_perft.py", "test_search.py",
                 "test_protocol_basic.py", "test_protocol_during_search.py", "test_knavish_protocol.py",
                 "test_nested_protocol.py", "test_nichtschach_protocol.py")


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.path.name in NATIVE_SUBSET:
            item.add_marker(pytest.mark.native)
    if not NATIVE_SUITE:
        return
    import engine._native
    assert engine._native.active, "CELLFISH_TEST_NATIVE=1 but no build of these files: cellfish native --build"
    skip = pytest.mark.skip(reason="patches the engine's functions, which compiled code does not look up")
    for item in items:
        if "interpreted" in item.keywords:
            item.add_marker(skip)


def pytest_xdist_auto_num_workers(config):
    """`-n auto` (the default, pyproject.toml): two workers more than the cores.  A sixth of the
    suite's time is spent waiting, not computing (engines starting and answering, the browser,
    clocks running down, a Dask worker killed): on CI's 2 cores the whole suite took 541 s with
    two workers (160% of the cores busy), 521 s with three (172%) and 506 s with four (182%)
    (29 Nov 2026, each run with other work beside it at nice 19)."""
    return (os.cpu_count() or 1) + 2
