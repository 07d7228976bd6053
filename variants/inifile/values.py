"""The values of a variants file's keys: whole numbers, true/false, files, win/loss/draw and
square lists, each read or refused with a :class:`KeyError_` that names the key, what is wrong
and the bad part.  Every module of the loader reads its keys' values with these."""
from __future__ import annotations

import re

from engine.geometry import file_letters

FILES = "abcdefghijklmnopqrstuvwxyz"     # a..l as Fairy-Stockfish; m..z are cellfish's own
# the largest grid board (maxFile, maxRank): Fairy-Stockfish's is 12 x 10; a move's cell fields
# name 4,096 cells (engine/moves.py), so 64 x 64.  Files past z are aa, ab .. bl
# (geometry.file_letters); a board of levels keeps to the single letters a..z (LETTER_FILES),
# whose cell names put the level's letter before the file's
MAX_FILES = 64
MAX_RANKS = 64
LETTER_FILES = len(FILES)
FILE_NAMES = tuple(file_letters(x) for x in range(MAX_FILES))
FILE_INDEX = {name: x for x, name in enumerate(FILE_NAMES)}


class KeyError_(ValueError):
    """A key whose value cannot be used: the message says what, ``token`` the bad part."""

    def __init__(self, key: str, what: str, token: str) -> None:
        super().__init__(what)
        self.key, self.what, self.token = key, what, token


class KeyErrors(ValueError):
    """Several refused keys of one section."""

    def __init__(self, errors: list[KeyError_]) -> None:
        super().__init__("; ".join(e.what for e in errors))
        self.errors = errors


def as_bool(key: str, v: str) -> bool:
    if v.lower() in ("true", "1", "yes"):
        return True
    if v.lower() in ("false", "0", "no"):
        return False
    raise KeyError_(key, "not true or false", v)


def as_int(key: str, v: str, lo: int, hi: int) -> int:
    try:
        n = int(v)
    except ValueError:
        raise KeyError_(key, "not a whole number", v) from None
    if not lo <= n <= hi:
        raise KeyError_(key, f"out of range {lo}..{hi}", v)
    return n


def as_file(key: str, v: str, files: int) -> int:
    """A file of a board ``files`` wide, from 0: its letters (a .. z, aa ..) or its number."""
    if v in FILE_INDEX and FILE_INDEX[v] < files:
        return FILE_INDEX[v]
    if v.isdigit() and 1 <= int(v) <= files:
        return int(v) - 1
    raise KeyError_(key, "not a file of the board", v)


def as_value(key: str, v: str) -> str:
    if v not in ("win", "loss", "draw"):
        raise KeyError_(key, "not win, loss or draw", v)
    return v


def as_region(key: str, v: str, files: int, ranks: int, clip: bool = False,
            levels: str = "") -> frozenset[tuple[int, ...]]:
    """A Bitboard: squares like d4, '*2' (a whole rank) or 'a*' (a whole file); '-' is none.
    ``clip``: squares off the board are dropped (Fairy-Stockfish's defaults, such as *8 on a
    smaller board) instead of refused.  On a levelled board (``levels``: its level letters) a
    token may start with its level (``ed4``, ``e*5``, ``*d4``): it gives (file, rank, level);
    a token without one gives (file, rank), which holds on every level (``in_region``).  On a
    board of one level a file past z takes two letters (``aa12``, ``bl*``)."""
    out: set[tuple[int, ...]] = set()
    for tok in v.split():
        if tok == "-":
            continue
        m = re.fullmatch(r"([a-z*])?([a-z*])(\d+|\*)", tok) if levels else \
            re.fullmatch(r"()([a-z]{1,2}|\*)(\d+|\*)", tok)
        if m is None:
            raise KeyError_(key, "not a square list", tok)
        if m.group(1) and m.group(1) != "*" and m.group(1) not in levels:
            raise KeyError_(key, "not a level of the board", tok)
        fs = range(files) if m.group(2) == "*" else [FILE_INDEX.get(m.group(2), MAX_FILES)]
        rs = range(ranks) if m.group(3) == "*" else [int(m.group(3)) - 1]
        ls: list[tuple[int, ...]] = [()] if not m.group(1) else \
            [(i,) for i in range(len(levels))] if m.group(1) == "*" else [(levels.index(m.group(1)),)]
        for f in fs:
            for r in rs:
                if not (0 <= f < files and 0 <= r < ranks):
                    if clip:
                        continue
                    raise KeyError_(key, "square off the board", tok)
                out.update((f, r) + lv for lv in ls)
    return frozenset(out)


def in_region(c: tuple[int, ...], region: frozenset) -> bool:
    """Is the cell with coordinates ``c`` in a region of ``as_region`` (a (file, rank) entry
    holds on every level)?"""
    return c in region or c[:2] in region
