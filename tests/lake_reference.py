"""A reference for Lake Chess written from its rules page (docs/variants/lake.md) on
coordinates only: it never reads the engine's tables or geometry.

FIDE chess on 8x8 whose four centre squares d4 e4 d5 e5 are a lake: no piece stands on it, a
line piece stops in front of it (rulings L2-L3), a knight jumps over it (L4), a pawn's step
or double step into it is impossible (L5), castling and en passant as in chess (L6-L7).
``Chess`` keeps a dict (file, rank) -> letter (upper case White); moves are UCI texts;
legality by making the move and testing the king.
"""
from __future__ import annotations

from tests.reference_base import LegalAndPerft

LAKE = frozenset({(3, 3), (4, 3), (3, 4), (4, 4)})
DIAG = ((1, 1), (1, -1), (-1, 1), (-1, -1))
ORTH = ((1, 0), (-1, 0), (0, 1), (0, -1))
KNIGHT = ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))
FILES = "abcdefgh"

Sq = tuple[int, int]


def name(s: Sq) -> str:
    return FILES[s[0]] + str(s[1] + 1)


def on(c: Sq) -> bool:
    """A square of the board: inside 8x8 and not in the lake."""
    return 0 <= c[0] < 8 and 0 <= c[1] < 8 and c not in LAKE


def _slide(board, s, white, dirs):
    out = set()
    for d in dirs:
        c = (s[0] + d[0], s[1] + d[1])
        while on(c):
            p = board.get(c)
            if p is None:
                out.add(c)
            else:
                if p.isupper() != white:
                    out.add(c)
                break
            c = (c[0] + d[0], c[1] + d[1])
    return out


def _leaps(board, s, white, vecs):
    out = set()
    for d in vecs:
        c = (s[0] + d[0], s[1] + d[1])
        if on(c) and (board.get(c) is None or board[c].isupper() != white):
            out.add(c)
    return out


def targets(board: dict, s: Sq, piece: str) -> set:
    """Cells the piece on s attacks (pawns: their diagonal captures only; no castling)."""
    white = piece.isupper()
    kind = piece.upper()
    if kind == "N":
        return _leaps(board, s, white, KNIGHT)
    if kind == "K":
        return _leaps(board, s, white, DIAG + ORTH)
    if kind == "R":
        return _slide(board, s, white, ORTH)
    if kind == "B":
        return _slide(board, s, white, DIAG)
    if kind == "Q":
        return _slide(board, s, white, ORTH + DIAG)
    if kind == "P":
        f = 1 if white else -1
        return {c for c in ((s[0] - 1, s[1] + f), (s[0] + 1, s[1] + f)) if on(c)}
    raise ValueError(piece)


class Chess(LegalAndPerft):
    """A Lake Chess position from its FEN (a lake square is written ``*``)."""

    def __init__(self, fen: str) -> None:
        parts = fen.split()
        self.board: dict = {}
        for i, row in enumerate(parts[0].split("/")):
            x = 0
            for ch in row:
                if ch.isdigit():
                    x += int(ch)
                elif ch == "*":
                    assert (x, 7 - i) in LAKE, fen
                    x += 1
                else:
                    self.board[(x, 7 - i)] = ch
                    x += 1
        self.white = parts[1] == "w"
        self.castle = "" if parts[2] == "-" else parts[2]
        self.ep = None if parts[3] == "-" else (FILES.index(parts[3][0]), int(parts[3][1]) - 1)

    def attacked(self, c: Sq, by_white: bool) -> bool:
        return any(p.isupper() == by_white and c in targets(self.board, s, p)
                   for s, p in self.board.items())

    def king(self, white: bool) -> Sq:
        return next(s for s, p in self.board.items() if p == ("K" if white else "k"))

    def in_check(self) -> bool:
        return self.attacked(self.king(self.white), not self.white)

    def pseudo(self) -> list[str]:
        b, w = self.board, self.white
        out = []
        for s, p in list(b.items()):
            if p.isupper() != w:
                continue
            if p.upper() != "P":
                out += [name(s) + name(t) for t in targets(b, s, p)]
                continue
            f = 1 if w else -1
            dests = [t for t in targets(b, s, p)
                     if (t in b and b[t].isupper() != w) or t == self.ep]
            one = (s[0], s[1] + f)
            if on(one) and one not in b:
                dests.append(one)
                two = (s[0], s[1] + 2 * f)
                if s[1] == (1 if w else 6) and on(two) and two not in b:
                    dests.append(two)
            for t in dests:
                if t[1] in (0, 7):
                    out += [name(s) + name(t) + x for x in "nbrq"]
                else:
                    out.append(name(s) + name(t))
        rank = 0 if w else 7
        for right, empty, path, to in (("K", (5, 6), (4, 5, 6), "g"), ("Q", (1, 2, 3), (4, 3, 2), "c")):
            if (right if w else right.lower()) in self.castle \
                    and not any((x, rank) in b for x in empty) \
                    and not any(self.attacked((x, rank), not w) for x in path):
                out.append(f"e{rank + 1}{to}{rank + 1}")
        return out

    def make(self, m: str) -> None:
        b, w = self.board, self.white
        s = (FILES.index(m[0]), int(m[1]) - 1)
        t = (FILES.index(m[2]), int(m[3]) - 1)
        p = b.pop(s)
        if p.upper() == "P" and t == self.ep:
            b.pop((t[0], s[1]), None)
        if p.upper() == "K" and abs(t[0] - s[0]) == 2:
            rf, rt = (7, 5) if t[0] == 6 else (0, 3)
            b[(rt, s[1])] = b.pop((rf, s[1]))
        b[t] = (m[4].upper() if w else m[4]) if len(m) == 5 else p
        self.ep = (s[0], (s[1] + t[1]) // 2) if p.upper() == "P" and abs(t[1] - s[1]) == 2 else None
        for sq, rights in (((4, 0), "KQ"), ((4, 7), "kq"), ((7, 0), "K"), ((0, 0), "Q"),
                           ((7, 7), "k"), ((0, 7), "q")):
            if sq in (s, t):
                self.castle = "".join(c for c in self.castle if c not in rights)
        self.white = not w

    def copy(self) -> Chess:
        c = Chess.__new__(Chess)
        c.board, c.white, c.castle, c.ep = dict(self.board), self.white, self.castle, self.ep
        return c

