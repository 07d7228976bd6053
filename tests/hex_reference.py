"""A reference for Glinski's and McCooey's hexagonal chess written from their rules pages
(docs/variants/glinski.md, docs/variants/mccooey.md) on coordinates of its own: it never reads
the engine's geometry, tables or notation.

A cell is (file, height): the file 0..10 (a..l without j) and its height above f1 in half
cells, ``2 (rank - 1) + |file - 5|`` (ruling G1: a file's foot is half a cell above its
neighbour's nearer the middle).  An orthogonal step (through an edge) is (0, +-2) or
(+-1, +-1); a diagonal one (through a corner) (+-2, 0) or (+-1, +-3) (G2); the knight's
cells are an orthogonal step then a diagonal one that lands on no line and not next door
(G8).  ``Hex`` keeps a dict cell -> letter (upper case White); moves are texts ``f5f6``,
``f10f11q``; legality by making the move and testing the king.
"""
from __future__ import annotations
from reference_base import LegalAndPerft

FILES = "abcdefghikl"
ORTH = ((0, 2), (0, -2), (1, 1), (1, -1), (-1, 1), (-1, -1))
DIAG = ((2, 0), (-2, 0), (1, 3), (1, -3), (-1, 3), (-1, -3))

Cell = tuple[int, int]


def _on_a_line(v: Cell) -> bool:
    return any(v[0] * d[1] == v[1] * d[0] and v[0] * d[0] + v[1] * d[1] > 0
               for d in ORTH + DIAG)


KNIGHT = tuple(sorted({(o[0] + d[0], o[1] + d[1]) for o in ORTH for d in DIAG
                       if (o[0] + d[0], o[1] + d[1]) != (0, 0)
                       and not _on_a_line((o[0] + d[0], o[1] + d[1]))}))
assert len(KNIGHT) == 12, KNIGHT


def length(f: int) -> int:
    return 11 - abs(f - 5)


def cell(text: str) -> Cell:
    f = FILES.index(text[0])
    return (f, 2 * (int(text[1:]) - 1) + abs(f - 5))


def name(c: Cell) -> str:
    return FILES[c[0]] + str((c[1] - abs(c[0] - 5)) // 2 + 1)


def on(c: Cell) -> bool:
    f, h = c
    if not 0 <= f <= 10:
        return False
    low = abs(f - 5)
    return low <= h <= low + 2 * (length(f) - 1) and (h - low) % 2 == 0


def last(c: Cell, white: bool) -> bool:
    """The last cell of its file for that side's pawns (G12)."""
    f, h = c
    return h == abs(f - 5) + 2 * (length(f) - 1) if white else h == abs(f - 5)


GAMES = {
    "glinski": {
        "capture": ((1, 1), (-1, 1)),                  # G10: orthogonal, 60 degrees ahead
        "start": {True: "b1 c2 d3 e4 f5 g4 h3 i2 k1", False: "b7 c7 d7 e7 f7 g7 h7 i7 k7"},
        "fen": "b/qbk/n1b1n/r5r/ppppppppp/11/5P5/4P1P4/3P1B1P3/2P2B2P2/1PRNQBKNRP1 w - - 0 1",
        "stalemate": (1, 4),                            # G14: the side stalemated scores 1/4
    },
    "mccooey": {
        "capture": ((1, 3), (-1, 3)),                  # M4: the two forward diagonals
        "start": {True: "c1 d2 e3 g3 h2 i1", False: "c8 d8 e8 g8 h8 i8"},   # M3: not f4, f8
        "fen": "b/qbk/rnbnr/ppppppp/9/11/11/5P5/4PBP4/3PNBNP3/2PRQBKRP2 w - - 0 1",
        "stalemate": (1, 2),
    },
}


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


class Hex(LegalAndPerft):
    """A position of one of the two games from its position text."""

    def __init__(self, game: str, fen: str | None = None) -> None:
        self.game = game
        rules = GAMES[game]
        fen = fen or rules["fen"]
        parts = fen.split()
        rows = parts[0].split("/")
        assert len(rows) == 11, fen
        self.board: dict[Cell, str] = {}
        for i, row in enumerate(rows):
            rank = 11 - i
            files = [f for f in range(11) if length(f) >= rank]
            k = 0
            num = ""
            for ch in row + " ":
                if ch.isdigit():
                    num += ch
                    continue
                if num:
                    k += int(num)
                    num = ""
                if ch == " ":
                    break
                f = files[k]
                self.board[(f, 2 * (rank - 1) + abs(f - 5))] = ch
                k += 1
            assert k == len(files), (row, rank)
        self.white = parts[1] == "w"
        self.ep = None if parts[3] == "-" else cell(parts[3])
        self.capture = rules["capture"]
        self.start = {side: {cell(t) for t in text.split()} for side, text in rules["start"].items()}

    def targets(self, s: Cell, piece: str) -> set:
        """Cells the piece on s attacks (a pawn: its two capture cells)."""
        b, white = self.board, piece.isupper()
        kind = piece.upper()
        if kind == "N":
            return _leaps(b, s, white, KNIGHT)
        if kind == "K":
            return _leaps(b, s, white, ORTH + DIAG)
        if kind == "R":
            return _slide(b, s, white, ORTH)
        if kind == "B":
            return _slide(b, s, white, DIAG)
        if kind == "Q":
            return _slide(b, s, white, ORTH + DIAG)
        if kind == "P":
            f = 1 if white else -1
            return {c for c in ((s[0] + dx, s[1] + f * dh) for dx, dh in self.capture) if on(c)}
        raise ValueError(piece)

    def attacked(self, c: Cell, by_white: bool) -> bool:
        return any(p.isupper() == by_white and c in self.targets(s, p)
                   for s, p in self.board.items())

    def king(self, white: bool) -> Cell | None:
        return next((s for s, p in self.board.items() if p == ("K" if white else "k")), None)

    def in_check(self) -> bool:
        k = self.king(self.white)
        return k is not None and self.attacked(k, not self.white)

    def pseudo(self) -> list[str]:
        b, w = self.board, self.white
        out = []
        for s, p in list(b.items()):
            if p.isupper() != w:
                continue
            if p.upper() != "P":
                out += [name(s) + name(t) for t in self.targets(s, p)]
                continue
            f = 1 if w else -1
            dests = [t for t in self.targets(s, p)
                     if (t in b and b[t].isupper() != w) or t == self.ep]
            one = (s[0], s[1] + 2 * f)
            if on(one) and one not in b:
                dests.append(one)
                two = (s[0], s[1] + 4 * f)
                if s in self.start[w] and on(two) and two not in b:
                    dests.append(two)
            for t in dests:
                if last(t, w):
                    out += [name(s) + name(t) + x for x in "qrbn"]
                else:
                    out.append(name(s) + name(t))
        return out

    def make(self, m: str) -> None:
        b, w = self.board, self.white
        k = next(i for i in range(2, len(m)) if m[i].isalpha())
        s = cell(m[:k])
        rest = m[k:]
        j = next((i for i in range(1, len(rest)) if rest[i].isalpha()), len(rest))
        t = cell(rest[:j])
        promo = rest[j:]
        p = b.pop(s)
        if p.upper() == "P" and t == self.ep:
            b.pop((t[0], t[1] - (2 if w else -2)))       # the pawn that passed (G11)
        b[t] = (promo.upper() if w else promo) if promo else p
        self.ep = (s[0], (s[1] + t[1]) // 2) \
            if p.upper() == "P" and abs(t[1] - s[1]) == 4 else None
        self.white = not w

    def copy(self) -> Hex:
        c = Hex.__new__(Hex)
        c.game, c.board, c.white, c.ep = self.game, dict(self.board), self.white, self.ep
        c.capture, c.start = self.capture, self.start
        return c


    def stalemate_share(self) -> tuple[int, int] | None:
        """The side to move's share of the point when it is stalemated (G14, M7), else None."""
        if self.legal() or self.in_check():
            return None
        return GAMES[self.game]["stalemate"]
