"""A reference for Omega Chess written from its rules page (docs/variants/omega.md) on
coordinates only: it never reads the engine's tables, geometry or piece notation.

The board is the 10 x 10 field b2..k11 of a 12 x 12 grid (files a..l, ranks 1..12) and the four
wizard cells a1, l1, a12, l12 beyond its corners (O1).  Pieces: chess's, the Champion (one or
two cells orthogonally, two diagonally, leaping) and the Wizard (one cell diagonally, or a
(1,3) leap) (O2).  A pawn steps one rank, two or three from its home rank (3 for White, 10 for
Black) over empty cells, takes one step diagonally forward, and en passant on any cell the
enemy pawn's long step passed (O3); it promotes on White's rank 11, Black's rank 2 to a Queen,
Rook, Bishop, Knight, Champion or Wizard (O4).  The king castles from g to i with the j rook
going to h, or to e with the c rook going to f, when the cells between are empty and the
king's cells are not attacked (O5).  ``Omega`` keeps a dict (file, rank) -> letter (upper case
White); moves are UCI texts; legality by making the move and testing the king.
"""
from __future__ import annotations
from reference_base import LegalAndPerft

FILES = "abcdefghijkl"
WIZARD_CELLS = frozenset({(0, 0), (11, 0), (0, 11), (11, 11)})
DIAG = ((1, 1), (1, -1), (-1, 1), (-1, -1))
ORTH = ((1, 0), (-1, 0), (0, 1), (0, -1))
KNIGHT = ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))
CAMEL = ((1, 3), (3, 1), (-1, 3), (-3, 1), (1, -3), (3, -1), (-1, -3), (-3, -1))
CHAMPION = ORTH + tuple((2 * x, 2 * y) for x, y in ORTH + DIAG)
PROMOTE = "qrbncw"
MOVES = {"K": (DIAG + ORTH, ()), "N": (KNIGHT, ()), "C": (CHAMPION, ()), "W": (DIAG + CAMEL, ()),
         "R": ((), ORTH), "B": ((), DIAG), "Q": ((), ORTH + DIAG)}
PROMOTION_RANK = {True: 10, False: 1}       # rank index: 11 for White, 2 for Black
HOME_RANK = {True: 2, False: 9}

Sq = tuple[int, int]


def name(s: Sq) -> str:
    return FILES[s[0]] + str(s[1] + 1)


def parse_name(t: str) -> Sq:
    return FILES.index(t[0]), int(t[1:]) - 1


def split_move(m: str) -> tuple[Sq, Sq, str]:
    i = 1
    while m[i].isdigit():
        i += 1
    j = i + 1
    while j < len(m) and m[j].isdigit():
        j += 1
    return parse_name(m[:i]), parse_name(m[i:j]), m[j:]


def on(c: Sq) -> bool:
    """A cell: inside the 10 x 10 field, or a wizard cell."""
    return 1 <= c[0] <= 10 and 1 <= c[1] <= 10 or c in WIZARD_CELLS


def targets(board: dict, s: Sq, piece: str) -> set:
    """Cells the piece on s attacks (pawns: their diagonal captures only; no castling)."""
    white = piece.isupper()
    kind = piece.upper()
    if kind == "P":
        f = 1 if white else -1
        return {c for c in ((s[0] - 1, s[1] + f), (s[0] + 1, s[1] + f)) if on(c)}
    leaps, slides = MOVES[kind]
    out = set()
    for d in leaps:
        c = (s[0] + d[0], s[1] + d[1])
        if on(c):
            out.add(c)
    for d in slides:
        c = (s[0] + d[0], s[1] + d[1])
        while on(c):
            out.add(c)
            if c in board:
                break
            c = (c[0] + d[0], c[1] + d[1])
    return out


class Omega(LegalAndPerft):
    def __init__(self, fen: str) -> None:
        parts = fen.split()
        self.board: dict = {}
        for i, row in enumerate(parts[0].split("/")):
            x, k = 0, 0
            while k < len(row):
                if row[k].isdigit():
                    j = k
                    while j < len(row) and row[j].isdigit():
                        j += 1
                    x += int(row[k:j])
                    k = j
                    continue
                if row[k] != "*":
                    self.board[(x, 11 - i)] = row[k]
                x += 1
                k += 1
        self.white = parts[1] == "w"
        self.castle = "" if parts[2] == "-" else parts[2]
        # en-passant cells and the pawn they take (a FEN names one cell: the first passed)
        self.ep: tuple[frozenset, Sq | None] = (frozenset(), None)
        if parts[3] != "-":
            e = parse_name(parts[3])
            f = -1 if self.white else 1          # the long-stepping pawn moved against us
            victim = next(c for c in ((e[0], e[1] + f), (e[0], e[1] + 2 * f))
                          if self.board.get(c, "").upper() == "P")
            cells = {e} | ({(e[0], e[1] + f)} if victim == (e[0], e[1] + 2 * f) else set())
            self.ep = (frozenset(cells), victim)

    def attacked(self, c: Sq, by_white: bool) -> bool:
        return any(p.isupper() == by_white and c in targets(self.board, s, p)
                   for s, p in self.board.items())

    def king(self, white: bool) -> Sq | None:
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
                out += [name(s) + name(t) for t in targets(b, s, p)
                        if t not in b or b[t].isupper() != w]
                continue
            f = 1 if w else -1
            dests = [t for t in targets(b, s, p)
                     if (t in b and b[t].isupper() != w) or t in self.ep[0]]
            for k in (1, 2, 3):
                t = (s[0], s[1] + k * f)
                if not on(t) or t in b or (k > 1 and s[1] != HOME_RANK[w]):
                    break
                dests.append(t)
            for t in dests:
                if t[1] == PROMOTION_RANK[w]:
                    out += [name(s) + name(t) + x for x in PROMOTE]
                else:
                    out.append(name(s) + name(t))
        rank = 1 if w else 10
        king = (6, rank)
        if b.get(king) == ("K" if w else "k"):
            for right, rook, to in (("K", 9, 8), ("Q", 2, 4)):
                if (right if w else right.lower()) not in self.castle \
                        or b.get((rook, rank)) != ("R" if w else "r"):
                    continue
                lo, hi = sorted((6, rook))
                step = 1 if to > 6 else -1
                if any((x, rank) in b for x in range(lo + 1, hi)):
                    continue
                if any(self.attacked((x, rank), not w) for x in range(6, to + step, step)):
                    continue
                out.append(name(king) + name((to, rank)))
        return out

    def make(self, m: str) -> None:
        b, w = self.board, self.white
        s, t, promo = split_move(m)
        p = b.pop(s)
        if p.upper() == "P" and t in self.ep[0]:
            b.pop(self.ep[1], None)
        if p.upper() == "K" and abs(t[0] - s[0]) == 2:
            rf, rt = (9, 7) if t[0] > s[0] else (2, 5)
            b[(rt, s[1])] = b.pop((rf, s[1]))
        b[t] = (promo.upper() if w else promo) if promo else p
        self.ep = (frozenset(), None)
        if p.upper() == "P" and abs(t[1] - s[1]) > 1:
            f = 1 if t[1] > s[1] else -1
            self.ep = (frozenset((s[0], s[1] + k * f) for k in range(1, abs(t[1] - s[1]))), t)
        for sq, rights in (((6, 1), "KQ"), ((6, 10), "kq"), ((9, 1), "K"), ((2, 1), "Q"),
                           ((9, 10), "k"), ((2, 10), "q")):
            if sq in (s, t):
                self.castle = "".join(c for c in self.castle if c not in rights)
        self.white = not w

    def copy(self) -> Omega:
        c = Omega.__new__(Omega)
        c.board, c.white, c.castle, c.ep = dict(self.board), self.white, self.castle, self.ep
        return c

