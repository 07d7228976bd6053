"""A reference for XXL Chess written from its rules page (docs/variants/xxl.md) on coordinates
only: it never reads the engine's tables, geometry or piece notation.

Chess on 14 x 14 (files a..n, ranks 1..14) without a queen and with five pieces more: Camel
(a (1,3) leap), General (king + knight), Hawk (bishop + knight), Elephant (rook + knight),
Amazon (queen + knight) (rules X2-X3).  A pawn steps one rank, two from its home rank (2 for
White, 13 for Black), takes one step diagonally forward and en passant (X4), and promotes on
White's rank 8, Black's rank 7 to a Rook, Knight, Bishop, Camel, General, Hawk, Elephant or
Amazon (X5).  The king castles from h to m with the n rook going to l, or to c with the a rook
going to d, when every cell between king and rook is empty and the king's cells from h to its
destination are not attacked (X6).  ``XXL`` keeps a dict (file, rank) -> letter (upper case
White); moves are UCI texts; legality by making the move and testing the king.
"""
from __future__ import annotations
from reference_base import LegalAndPerft

N = 14
FILES = "abcdefghijklmn"
DIAG = ((1, 1), (1, -1), (-1, 1), (-1, -1))
ORTH = ((1, 0), (-1, 0), (0, 1), (0, -1))
KNIGHT = ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))
CAMEL = ((1, 3), (3, 1), (-1, 3), (-3, 1), (1, -3), (3, -1), (-1, -3), (-3, -1))
PROMOTE = "rnbcghea"
# piece letter -> (leaps, slides)
MOVES = {"K": (DIAG + ORTH, ()), "N": (KNIGHT, ()), "C": (CAMEL, ()),
         "G": (DIAG + ORTH + KNIGHT, ()), "R": ((), ORTH), "B": ((), DIAG),
         "H": (KNIGHT, DIAG), "E": (KNIGHT, ORTH), "A": (KNIGHT, ORTH + DIAG)}
PROMOTION_RANK = {True: 7, False: 6}        # rank index: White's 8th, Black's 7th
HOME_RANK = {True: 1, False: 12}

Sq = tuple[int, int]


def name(s: Sq) -> str:
    return FILES[s[0]] + str(s[1] + 1)


def parse_name(t: str) -> Sq:
    return FILES.index(t[0]), int(t[1:]) - 1


def split_move(m: str) -> tuple[Sq, Sq, str]:
    """'h2h4' -> ((7,1), (7,3), ''); 'g7g8e' -> (..., 'e'); 'a13a14' has two-digit ranks."""
    i = 1
    while m[i].isdigit():
        i += 1
    j = i + 1
    while j < len(m) and m[j].isdigit():
        j += 1
    return parse_name(m[:i]), parse_name(m[i:j]), m[j:]


def on(c: Sq) -> bool:
    return 0 <= c[0] < N and 0 <= c[1] < N


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


class XXL(LegalAndPerft):
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
                self.board[(x, N - 1 - i)] = row[k]
                x += 1
                k += 1
        self.white = parts[1] == "w"
        self.castle = "" if parts[2] == "-" else parts[2]
        self.ep = None if parts[3] == "-" else parse_name(parts[3])

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
                     if (t in b and b[t].isupper() != w) or t == self.ep]
            one = (s[0], s[1] + f)
            if on(one) and one not in b:
                dests.append(one)
                two = (s[0], s[1] + 2 * f)
                if s[1] == HOME_RANK[w] and two not in b:
                    dests.append(two)
            for t in dests:
                if t[1] == PROMOTION_RANK[w]:
                    out += [name(s) + name(t) + x for x in PROMOTE]
                else:
                    out.append(name(s) + name(t))
        rank = 0 if w else N - 1
        king = (7, rank)
        if b.get(king) == ("K" if w else "k"):
            for right, rook, to in (("K", 13, 12), ("Q", 0, 2)):
                if (right if w else right.lower()) not in self.castle \
                        or b.get((rook, rank)) != ("R" if w else "r"):
                    continue
                lo, hi = sorted((7, rook))
                step = 1 if to > 7 else -1
                if any((x, rank) in b for x in range(lo + 1, hi)):
                    continue
                if any(self.attacked((x, rank), not w) for x in range(7, to + step, step)):
                    continue
                out.append(name(king) + name((to, rank)))
        return out

    def make(self, m: str) -> None:
        b, w = self.board, self.white
        s, t, promo = split_move(m)
        p = b.pop(s)
        if p.upper() == "P" and t == self.ep:
            b.pop((t[0], s[1]), None)
        if p.upper() == "K" and abs(t[0] - s[0]) > 2:
            rf, rt = (13, 11) if t[0] > s[0] else (0, 3)
            b[(rt, s[1])] = b.pop((rf, s[1]))
        b[t] = (promo.upper() if w else promo) if promo else p
        self.ep = (s[0], (s[1] + t[1]) // 2) if p.upper() == "P" and abs(t[1] - s[1]) == 2 else None
        top = N - 1
        for sq, rights in (((7, 0), "KQ"), ((7, top), "kq"), ((13, 0), "K"), ((0, 0), "Q"),
                           ((13, top), "k"), ((0, top), "q")):
            if sq in (s, t):
                self.castle = "".join(c for c in self.castle if c not in rights)
        self.white = not w

    def copy(self) -> XXL:
        c = XXL.__new__(XXL)
        c.board, c.white, c.castle, c.ep = dict(self.board), self.white, self.castle, self.ep
        return c

