"""A small Alice Chess move generator written from docs/variants/alice.md alone (coordinates and
the rulings, nothing of the engine's tables or hooks), for the tests to compare with.

A position is (cells, side, rights): ``cells`` maps (board, file, rank) -> piece letter
(uppercase White), boards 0 = a and 1 = b; ``rights`` a subset of "KQkq".  A move is the text
the engine writes: from cell and to cell on the board of the move, plus a promotion letter.
"""
from __future__ import annotations

KNIGHT = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]
KING = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]
ROOK = KING[:4]
BISHOP = KING[4:]
BOARDS = "ab"


def parse(text: str):
    fields = text.split()
    cells = {}
    for b, group in enumerate(fields[0].split("|")):
        for row, rtext in enumerate(group.split("/")):
            f = 0
            for ch in rtext:
                if ch.isdigit():
                    f += int(ch)
                else:
                    cells[(b, f, 7 - row)] = ch
                    f += 1
    return cells, 0 if fields[1] == "w" else 1, "" if fields[2] == "-" else fields[2]


def name(b: int, f: int, r: int) -> str:
    return f"{BOARDS[b]}{'abcdefgh'[f]}{r + 1}"


def white(p: str) -> bool:
    return p.isupper()


def mine(p: str | None, side: int) -> bool:
    return p is not None and white(p) == (side == 0)


def attacked(cells, b: int, f: int, r: int, by: int) -> bool:
    """A8: is (f, r) on board b attacked by a piece of `by` standing on board b?"""
    def at(df, dr):
        return cells.get((b, f + df, r + dr))
    for df, dr in KNIGHT:
        p = at(df, dr)
        if p and mine(p, by) and p.upper() == "N":
            return True
    for df, dr in KING:
        p = at(df, dr)
        if p and mine(p, by) and p.upper() == "K":
            return True
    fwd = 1 if by == 0 else -1                      # a pawn of `by` attacks forward-diagonally
    for df in (1, -1):
        p = at(df, -fwd)
        if p and mine(p, by) and p.upper() == "P":
            return True
    for dirs, kinds in ((ROOK, "RQ"), (BISHOP, "BQ")):
        for df, dr in dirs:
            x, y = f + df, r + dr
            while 0 <= x < 8 and 0 <= y < 8:
                p = cells.get((b, x, y))
                if p:
                    if mine(p, by) and p.upper() in kinds:
                        return True
                    break
                x, y = x + df, y + dr
    return False


def _board_moves(cells, side):
    """(from, to, promotion) of every move on the board where the piece stands (A3), the
    transfer not yet considered."""
    out = []
    for (b, f, r), p in list(cells.items()):
        if not mine(p, side):
            continue
        kind = p.upper()

        def free(x, y, b=b):
            return 0 <= x < 8 and 0 <= y < 8 and (b, x, y) not in cells

        def enemy(x, y, b=b):
            return 0 <= x < 8 and 0 <= y < 8 and mine(cells.get((b, x, y)), 1 - side)

        targets = []
        if kind == "P":
            d = 1 if side == 0 else -1
            last = 7 if side == 0 else 0
            steps = []
            if free(f, r + d):
                steps.append((f, r + d))
                if r == (1 if side == 0 else 6) and free(f, r + 2 * d):
                    steps.append((f, r + 2 * d))
            steps += [(f + dx, r + d) for dx in (1, -1) if enemy(f + dx, r + d)]
            for x, y in steps:
                for promo in ("q", "r", "b", "n") if y == last else ("",):
                    out.append(((b, f, r), (b, x, y), promo))
            continue
        if kind in "NK":
            for df, dr in KNIGHT if kind == "N" else KING:
                if free(f + df, r + dr) or enemy(f + df, r + dr):
                    targets.append((f + df, r + dr))
        else:
            dirs = {"R": ROOK, "B": BISHOP, "Q": KING}[kind]
            for df, dr in dirs:
                x, y = f + df, r + dr
                while free(x, y):
                    targets.append((x, y))
                    x, y = x + df, y + dr
                if enemy(x, y):
                    targets.append((x, y))
        out += [((b, f, r), (b, x, y), "") for x, y in targets]
    return out


def make(pos, move):
    """The position after a move (A4, A6, A10, A11), with the castling rights it keeps."""
    cells, side, rights = pos
    (b, f, r), (_, x, y), promo = move[:3]
    cells = dict(cells)
    p = cells.pop((b, f, r))
    cells.pop((b, x, y), None)                               # A6: capture on this board
    if promo:
        p = promo.upper() if side == 0 else promo
    cells[(1 - b, x, y)] = p                                 # A4: through the looking-glass
    if len(move) == 4:                                       # castling: the rook too
        (rb, rf, rr), (_, tf, tr) = move[3]
        cells[(1 - rb, tf, tr)] = cells.pop((rb, rf, rr))
    home = {(0, 4, 0): "KQ", (0, 7, 0): "K", (0, 0, 0): "Q",
            (0, 4, 7): "kq", (0, 7, 7): "k", (0, 0, 7): "q"}
    for c in ((b, f, r), (b, x, y)):
        for ch in home.get(c, ""):
            rights = rights.replace(ch, "")
    return cells, 1 - side, rights


def legal(pos):
    """Every legal move as (from, to, promo[, rook from/to]) (A5, A8, A9, A10)."""
    cells, side, rights = pos
    out = []
    for mv in _board_moves(cells, side):
        (b, f, r), (_, x, y), _p = mv
        if (1 - b, x, y) in cells:                           # A5
            continue
        after = make(pos, mv)
        king = next(c for c, p in after[0].items() if p == ("K" if side == 0 else "k"))
        if attacked(after[0], *king, 1 - side):              # A8
            continue
        if cells[(b, f, r)].upper() == "K" and attacked(after[0], b, x, y, 1 - side):
            continue                                         # A9
        out.append(mv)
    rank = 0 if side == 0 else 7
    for ch, kf, rf, rt, between, path in (("K", 4, 7, 5, (5, 6), (4, 5, 6)),
                                          ("Q", 4, 0, 3, (1, 2, 3), (4, 3, 2))):
        if (ch if side == 0 else ch.lower()) not in rights:
            continue
        kt = path[-1]
        if cells.get((0, kf, rank), "").upper() != "K" or cells.get((0, rf, rank), "").upper() != "R":
            continue
        if any((0, x, rank) in cells for x in between):
            continue
        if any(attacked(cells, 0, x, rank, 1 - side) for x in path):
            continue
        if (1, kt, rank) in cells or (1, rt, rank) in cells:
            continue
        mv = ((0, kf, rank), (0, kt, rank), "", ((0, rf, rank), (0, rt, rank)))
        after = make(pos, mv)
        if attacked(after[0], 1, kt, rank, 1 - side):
            continue
        out.append(mv)
    return out


def text(move) -> str:
    (b, f, r), (b2, x, y), promo = move[:3]
    return name(b, f, r) + name(b2, x, y) + promo


def perft(pos, depth: int) -> int:
    moves = legal(pos)
    if depth == 1:
        return len(moves)
    return sum(perft(make(pos, m), depth - 1) for m in moves)
