"""Fairy-Stockfish's perft through pyffish, the one copy every oracle module uses.

pyffish has no perft of its own: a count of depth d costs one ``legal_moves`` call per
position above the leaves, and each call costs about 1 ms whatever the position (pyffish sets
its piece tables up again on every call), so a perft 3 from a start takes 400-700 calls.  The
counts from depth 3 on are therefore kept in ``tests/data/fsf_perft.json``, recorded from
pyffish, keyed by pyffish's version, the variant, the position and the moves; a recorded count
is used only while pyffish's live perft 2 of the same position still equals the perft 2
recorded beside it (a changed section or a changed pyffish shows there first), else the count
is made live.  ``CELLFISH_RECORD_FSF=1`` writes every count made live into the file (a lock
file orders the test workers' writes)."""
from __future__ import annotations

import fcntl
import json
import os
import tempfile
from pathlib import Path

import pyffish

RECORDED = Path(__file__).resolve().parent / "data" / "fsf_perft.json"
_records: dict[str, list[int]] | None = None


def live_perft(name: str, fen: str, moves: list[str], depth: int) -> int:
    """Counted by pyffish now."""
    ms = pyffish.legal_moves(name, fen, moves)
    if depth == 1:
        return len(ms)
    return sum(live_perft(name, fen, moves + [m], depth - 1) for m in ms)


def _key(name: str, fen: str, moves: list[str], depth: int) -> str:
    version = ".".join(map(str, pyffish.version()))
    return f"pyffish {version} | {name} | {fen} | {' '.join(moves)} | {depth}"


def _load() -> dict[str, list[int]]:
    global _records
    if _records is None:
        _records = json.loads(RECORDED.read_text()) if RECORDED.exists() else {}
    return _records


def _record(key: str, entry: list[int]) -> None:
    with open(Path(tempfile.gettempdir()) / "cellfish-fsf-perft.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        now = json.loads(RECORDED.read_text()) if RECORDED.exists() else {}
        now[key] = entry
        RECORDED.write_text(json.dumps(dict(sorted(now.items())), indent=0) + "\n")
    _load()[key] = entry


def fsf_perft(name: str, fen: str, moves: list[str] | tuple[str, ...], depth: int) -> int:
    """Fairy-Stockfish's perft of ``fen`` after ``moves``: live to depth 2, recorded from 3."""
    moves = list(moves)
    if depth == 0:
        return 1
    if depth < 3:
        return live_perft(name, fen, moves, depth)
    key = _key(name, fen, moves, depth)
    check = live_perft(name, fen, moves, 2)
    entry = _load().get(key)
    if entry is not None and entry[0] == check:
        return entry[1]
    n = live_perft(name, fen, moves, depth)
    if os.environ.get("CELLFISH_RECORD_FSF") == "1":
        _record(key, [check, n])
    return n
