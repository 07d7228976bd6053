"""One section of a variants file as the builder reads it: the typed spec of its keys.

A :class:`Section` holds the text and line of every key given (inheritance resolved) and
reads each value through the reader its key declares in ``registry.py``, with the key's
declared default when the key is absent.  ``check`` refuses, before anything is built, the
keys this board does not read (named by the registry) and every value a context-free reader
refuses, all at once; the readers that need the board (files, ranks) are read as the
builder reaches them.
"""
from __future__ import annotations

from collections.abc import Callable

from .registry import BY_NAME, GRID, HEX, LATTICE, TEXT, Reader, is_piece_key, names, on_board
from .values import KeyError_, KeyErrors, as_bool, as_file, as_int, as_value

LATTICE_ONLY = names("lattice")     # keys that make sense on a lattice board only
HEX_ONLY = names("hex")             # ... and on a hexagonal board only
REFUSED = names("refused")
ON = {GRID: on_board(GRID), LATTICE: on_board(LATTICE), HEX: on_board(HEX)}
# what a key expects, added to the message that refuses its value (docs/variant-files.md)
FORMS = {"hex": "hex = N, a hexagon of hexagons with N cells on each edge, N from 2 to 13 "
                "(6: Glinski's board of 91 cells)"}
# why a square board's piece key is not read in a hex section
HEX_PIECES = ("a hex section's pieces are king = k:definition and customPiece1..25 = "
              "letter:definition in the hex notation (W F R B K Q N, <x,y>), and it has no "
              "square-board parent: [name] alone or [name:another hex section]")


class Section(dict[str, str]):
    """The keys of one section: the mapping of each key given to its text, with ``lines``
    (key -> line), ``board`` (``grid``: square, levelled and solid boards; ``lattice``:
    squares and vertices; ``hex``: hexagons), and the typed readers of each value."""

    def __init__(self, name: str, keys: dict[str, tuple[str, int]]) -> None:
        super().__init__({k: v for k, (v, _) in keys.items()})
        self.name = name
        self.lines: dict[str, int] = {k: ln for k, (_, ln) in keys.items()}
        self.board = LATTICE if "lattice" in self else HEX if "hex" in self else GRID

    # ---- the keys given ----------------------------------------------------------------
    def given(self, key: str) -> bool:
        return key in self

    def text(self, key: str, default: str | None = None) -> str:
        """The key's text: as given, else ``default``, else its declared default, else ''."""
        if key in self:
            return self[key]
        if default is not None:
            return default
        k = BY_NAME.get(key)
        return k.default if k is not None and k.default is not None else ""

    def reader(self, key: str) -> Reader:
        k = BY_NAME.get(key)
        return k.reader if k is not None else TEXT

    def _declared(self, key: str, kind: str) -> Reader:
        r = self.reader(key)
        if r.kind != kind:
            raise AssertionError(f"{key} is declared {r.kind}, read as {kind}")
        return r

    # ---- typed values ------------------------------------------------------------------
    def flag(self, key: str, default: str | None = None) -> bool:
        self._declared(key, "bool")
        return as_bool(key, self.text(key, default))

    def number(self, key: str, default: str | None = None) -> int:
        r = self._declared(key, "int")
        return as_int(key, self.text(key, default), r.lo, r.hi)

    def outcome(self, key: str, default: str | None = None) -> str:
        self._declared(key, "value")
        return as_value(key, self.text(key, default))

    def file(self, key: str, files: int, default: str | None = None) -> int:
        """A file of a board ``files`` wide, from 0."""
        self._declared(key, "file")
        return as_file(key, self.text(key, default), files)

    def rank(self, key: str, ranks: int, default: str | None = None) -> int:
        """A rank of a board ``ranks`` high, from 0."""
        self._declared(key, "rank")
        return as_int(key, self.text(key, default), 1, ranks) - 1

    # ---- checks before building ----------------------------------------------------------
    def check(self, plugin_keys: frozenset[str],
              piece_key: Callable[[str], bool] = is_piece_key) -> None:
        """Refuse, all at once, the keys this board does not read and the values given that a
        context-free reader refuses.  ``piece_key`` tells a piece key of this board."""
        bad: list[KeyError_] = []
        for k in self:
            if k in plugin_keys or piece_key(k) or k in ON[self.board]:
                continue
            if self.board == LATTICE:
                bad.append(KeyError_(k, "not supported on a lattice board", k))
            elif self.board == HEX:
                why = f" ({HEX_PIECES})" if is_piece_key(k) else ""
                bad.append(KeyError_(k, "not supported on a hexagonal board" + why, k))
            elif k in HEX_ONLY:
                bad.append(KeyError_(k, "needs hex (a hexagonal board)", k))
            elif k in LATTICE_ONLY:
                bad.append(KeyError_(k, "needs lattice (a board of squares and vertices)", k))
            else:
                bad.append(KeyError_(k, "not supported" if k in REFUSED else "unknown key", k))
        if bad:
            raise KeyErrors(bad)
        for k in self:
            r = self.reader(k)
            if not r.context_free:
                continue
            try:
                {"bool": self.flag, "int": self.number, "value": self.outcome}[r.kind](k)
            except KeyError_ as e:
                form = FORMS.get(e.key)
                bad.append(KeyError_(e.key, f"{e.what}: {form}", e.token) if form else e)
        if bad:
            raise KeyErrors(bad) if len(bad) > 1 else bad[0]
