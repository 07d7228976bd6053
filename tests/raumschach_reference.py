"""A reference for Raumschach written from its rules page (docs/variants/raumschach.md) on
coordinates only: it never reads the engine's tables, geometry or piece notation.

Cells are (level, file, rank), each 0..4 (0..n-1 in a cube of side n: Raumschach 8,
docs/variants/raumschach8.md, is the same rules with n = 8); a cell's name is level letter +
file letter + rank (``ac1``).  Directions are all (dl, df, dr) with components in -1..1, not all zero: 6 with
one nonzero component (the Rook's), 12 with two (the Bishop's), 8 with three (the
Unicorn's).  ``Raum`` holds a position (dict cell -> letter, upper case White), its legal
moves as texts (``ac2ac3``, a promotion ``ee4ee5q``) and perft.
"""
from __future__ import annotations

from itertools import permutations, product
from reference_base import LegalAndPerft

N = 5
LEVELS = "abcdefgh"         # names only: a cube of side n uses the first n
FILES = "abcdefgh"
DIRS = [d for d in product((-1, 0, 1), repeat=3) if any(d)]
ROOK = [d for d in DIRS if sum(map(abs, d)) == 1]
BISHOP = [d for d in DIRS if sum(map(abs, d)) == 2]
UNICORN = [d for d in DIRS if sum(map(abs, d)) == 3]
KNIGHT = sorted({tuple(s * x for s, x in zip(signs, p))
                 for p in permutations((2, 1, 0)) for signs in product((1, -1), repeat=3)})
PROMOTE = "qrbnu"

Cell = tuple[int, int, int]


def name(c: Cell) -> str:
    return LEVELS[c[0]] + FILES[c[1]] + str(c[2] + 1)


def parse_name(t: str) -> Cell:
    return (LEVELS.index(t[0]), FILES.index(t[1]), int(t[2]) - 1)


def on(c: Cell, n: int = N) -> bool:
    return all(0 <= x < n for x in c)


def add(c: Cell, d: tuple[int, ...], k: int = 1) -> Cell:
    return (c[0] + k * d[0], c[1] + k * d[1], c[2] + k * d[2])


def pawn_dirs(white: bool) -> tuple[list, list]:
    """(moves, captures) of a pawn, as (dl, df, dr): a step up a level or along the rank
    toward the enemy; a capture joins a file step to one of them (rulings R2, R3)."""
    up = 1 if white else -1
    moves = [(up, 0, 0), (0, 0, up)]
    caps = [(up, 1, 0), (up, -1, 0), (0, 1, up), (0, -1, up)]
    return moves, caps


def attacks(board: dict, s: Cell, piece: str, n: int = N) -> set:
    """Cells the piece on s attacks (whatever stands there)."""
    kind = piece.upper()
    out: set = set()
    if kind in "KN":
        for d in (DIRS if kind == "K" else KNIGHT):
            t = add(s, d)
            if on(t, n):
                out.add(t)
        return out
    if kind == "P":
        return {t for t in (add(s, d) for d in pawn_dirs(piece.isupper())[1]) if on(t, n)}
    lines = {"R": ROOK, "B": BISHOP, "U": UNICORN, "Q": DIRS}[kind]
    for d in lines:
        t = add(s, d)
        while on(t, n):
            out.add(t)
            if t in board:
                break
            t = add(t, d)
    return out


class Raum(LegalAndPerft):
    def __init__(self, fen: str, n: int = N) -> None:
        self.n = n
        parts = fen.split()
        self.board: dict = {}
        for lv, level in enumerate(parts[0].split("|")):
            for i, row in enumerate(level.split("/")):
                f = 0
                for ch in row:
                    if ch.isdigit():
                        f += int(ch)
                    else:
                        self.board[(lv, f, n - 1 - i)] = ch
                        f += 1
        self.white = parts[1] == "w"

    def copy(self) -> Raum:
        r = Raum.__new__(Raum)
        r.board, r.white, r.n = dict(self.board), self.white, self.n
        return r

    def attacked(self, c: Cell, by_white: bool) -> bool:
        """Walked back from c: the first piece along each direction, the knight cells, the
        cells a pawn would capture c from (the same answer as ``attacks`` from every piece)."""
        b, n = self.board, self.n

        def ours(p: str | None, kinds: str) -> bool:
            return p is not None and p.isupper() == by_white and p.upper() in kinds
        for d in DIRS:
            line = "R" if d in ROOK else "B" if d in BISHOP else "U"
            t, k = add(c, d), 1
            while on(t, n):
                if t in b:
                    if ours(b[t], "Q" + line + ("K" if k == 1 else "")):
                        return True
                    break
                t, k = add(t, d), k + 1
        if any(on(add(c, d), n) and ours(b.get(add(c, d)), "N") for d in KNIGHT):
            return True
        return any(on(add(c, d, -1), n) and ours(b.get(add(c, d, -1)), "P")
                   for d in pawn_dirs(by_white)[1])

    def king(self, white: bool) -> Cell | None:
        return next((s for s, p in self.board.items() if p == ("K" if white else "k")), None)

    def in_check(self) -> bool:
        k = self.king(self.white)
        return k is not None and self.attacked(k, not self.white)

    def pseudo(self) -> list[str]:
        b, w, n = self.board, self.white, self.n
        out = []
        for s, p in list(b.items()):
            if p.isupper() != w:
                continue
            if p.upper() != "P":
                out += [name(s) + name(t) for t in attacks(b, s, p, n)
                        if t not in b or b[t].isupper() != w]
                continue
            moves, caps = pawn_dirs(w)
            dests = [t for t in (add(s, d) for d in moves) if on(t, n) and t not in b]
            dests += [t for t in (add(s, d) for d in caps) if on(t, n) and t in b and b[t].isupper() != w]
            far = (n - 1, n - 1) if w else (0, 0)       # (level, rank) of the promotion row
            for t in dests:
                if (t[0], t[2]) == far:
                    out += [name(s) + name(t) + x for x in PROMOTE]
                else:
                    out.append(name(s) + name(t))
        return out

    def make(self, m: str) -> None:
        s, t = parse_name(m[:3]), parse_name(m[3:6])
        p = self.board.pop(s)
        self.board[t] = (m[6].upper() if self.white else m[6]) if len(m) == 7 else p
        self.white = not self.white

