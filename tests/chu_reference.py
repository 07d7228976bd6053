"""A Chu Shogi move generator written from docs/variants/chushogi.md alone, for the tests: a
dictionary board, pieces as the page lists them (steps, slides, jumps and Lion power by
direction), the promotion and Lion-trading rules, and legality by making the move and asking
whether any enemy move could take a lone royal piece (King or Crown Prince).  Slow and plain; it shares nothing with the
engine but the move text (USI cells, ``+`` for a promotion, the three-cell text of a move
that takes a piece in passing)."""
from __future__ import annotations

SIZE = 12
F, B, L, R = (0, 1), (0, -1), (-1, 0), (1, 0)
FL, FR, BL, BR = (-1, 1), (1, 1), (-1, -1), (1, -1)
ORTH = (F, B, L, R)
DIAG = (FL, FR, BL, BR)
ALL = ORTH + DIAG

# token: (steps, slides, jumps, lion-power directions or "all")
PIECES = {
    "K": (ALL, (), (), ()),
    "G": ((F, FL, FR, L, R, B), (), (), ()),
    "S": ((F, FL, FR, BL, BR), (), (), ()),
    "C": ((F, FL, FR, B), (), (), ()),
    "F": ((F, FL, FR, B, BL, BR), (), (), ()),
    "T": ((B, L, R, FL, FR, BL, BR), (), (), ()),
    "E": ((F, L, R, FL, FR, BL, BR), (), (), ()),
    "O": (DIAG, (), ((0, 2), (0, -2), (2, 0), (-2, 0)), ()),
    "X": (ORTH, (), ((2, 2), (2, -2), (-2, 2), (-2, -2)), ()),
    "L": ((), (F,), (), ()),
    "A": ((), (F, B), (), ()),
    "M": ((F, B), (L, R), (), ()),
    "V": ((L, R), (F, B), (), ()),
    "R": ((), ORTH, (), ()),
    "B": ((), DIAG, (), ()),
    "D": (DIAG, ORTH, (), ()),
    "H": (ORTH, DIAG, (), ()),
    "Q": ((), ALL, (), ()),
    "N": ((), (), (), "all"),
    "P": ((F,), (), (), ()),
    "I": ((F, B), (), (), ()),
    "+P": ((F, FL, FR, L, R, B), (), (), ()),
    "+G": ((), ORTH, (), ()),
    "+S": ((L, R), (F, B), (), ()),
    "+C": ((F, B), (L, R), (), ()),
    "+F": ((), DIAG, (), ()),
    "+T": ((L, R, FL, FR, BL, BR), (F, B), (), ()),
    "+E": (ALL, (), (), ()),
    "+O": ((), (), (), "all"),
    "+X": ((), ALL, (), ()),
    "+L": ((), (F, B, FL, FR), (), ()),
    "+A": ((), (F, B, BL, BR), (), ()),
    "+M": ((), (L, R) + DIAG, (), ()),
    "+V": ((), (F, B) + DIAG, (), ()),
    "+R": (DIAG, ORTH, (), ()),
    "+B": (ORTH, DIAG, (), ()),
    "+D": ((), ORTH + (BL, BR), (), (FL, FR)),
    "+H": ((), (B, L, R) + DIAG, (), (F,)),
    "+I": ((F, L, R, FL, FR, BL, BR), (), (), ()),
}
LIONS = ("N", "+O")
LOW = ("P", "I")


def usi(c):
    return f"{SIZE - c[0]}{chr(97 + SIZE - 1 - c[1])}"


def read_sfen(sfen):
    """(board {(x, y): (token, colour)}, side) from an SFEN (b: sente, colour 0, to move)."""
    rows, side = sfen.split()[:2]
    board = {}
    for r, row in enumerate(rows.split("/")):
        y = SIZE - 1 - r
        x, i = 0, 0
        while i < len(row):
            ch = row[i]
            if ch.isdigit():
                j = i
                while j < len(row) and row[j].isdigit():
                    j += 1
                x += int(row[i:j])
                i = j
                continue
            tok = ch
            if ch == "+":
                tok = "+" + row[i + 1]
                i += 1
            board[(x, y)] = (tok.upper(), 0 if tok[-1].isupper() else 1)
            x += 1
            i += 1
    return board, 0 if side == "b" else 1


def _on(c):
    return 0 <= c[0] < SIZE and 0 <= c[1] < SIZE


def _add(c, v, k=1):
    return (c[0] + v[0] * k, c[1] + v[1] * k)


def _rank(c, side):
    return c[1] if side == 0 else SIZE - 1 - c[1]


def _zone(c, side):
    return _rank(c, side) >= SIZE - 4


def pseudo(board, side):
    """(from, victim or None, to, promotes) of every move by the rules, kings left aside."""
    out = []
    for s, (tok, col) in list(board.items()):
        if col != side:
            continue
        sign = 1 if side == 0 else -1
        steps, slides, jumps, lion = PIECES[tok]

        def d(v, sign=sign):
            return (v[0] * sign, v[1] * sign)

        def free(t):
            return _on(t) and (t not in board or board[t][1] != side)

        targets = set()
        for v in steps:
            t = _add(s, d(v))
            if free(t):
                targets.add(t)
        for v in jumps:
            t = _add(s, d(v))
            if free(t):
                targets.add(t)
        for v in slides:
            t = _add(s, d(v))
            while _on(t):
                if t in board:
                    if board[t][1] != side:
                        targets.add(t)
                    break
                targets.add(t)
                t = _add(t, d(v))
        doubles = set()
        if lion == "all":
            for dx in range(-2, 3):
                for dy in range(-2, 3):
                    t = (s[0] + dx, s[1] + dy)
                    if (dx, dy) != (0, 0) and free(t):
                        targets.add(t)
            for v in ALL:
                c1 = _add(s, v)
                if not _on(c1):
                    continue
                if c1 not in board:
                    doubles.add((None, s))           # a pass
                elif board[c1][1] != side:
                    for w in ALL:
                        t = _add(c1, w)
                        if t == s or free(t):
                            doubles.add((c1, t))
        elif lion:
            for v in lion:
                v = d(v)
                for k in (1, 2):
                    t = _add(s, v, k)
                    if free(t):
                        targets.add(t)
                c1 = _add(s, v)
                if not _on(c1):
                    continue
                if c1 not in board:
                    doubles.add((None, s))
                elif board[c1][1] != side:
                    doubles.add((c1, s))
                    t = _add(c1, v)
                    if free(t):
                        doubles.add((c1, t))
        for t in targets:
            out.append((s, None, t, False))
            if ("+" + tok) in PIECES and (_zone(s, side) or _zone(t, side)):
                if (not _zone(s, side)) or t in board \
                        or (tok in ("P", "L") and _rank(t, side) == SIZE - 1):
                    out.append((s, None, t, True))
        for c1, t in doubles:
            out.append((s, c1, t, False))
    return out


def make(board, mv):
    s, c1, t, prom = mv
    nb = dict(board)
    tok, col = nb.pop(s)
    if c1 is not None:
        del nb[c1]
    nb[t] = ("+" + tok if prom else tok, col)
    return nb


def attacked(board, cell, by):
    return any(t == cell or c1 == cell for _s, c1, t, _p in pseudo(board, by))


def royals(board, side):
    """The King and Crown Prince cells of ``side`` (the page's royal pieces)."""
    return [c for c, (tok, col) in board.items() if tok in ("K", "+E") and col == side]


def legal(board, side, last=None):
    """The legal moves; ``last``: the previous move's (mover token, tokens it took).  A side
    left with one royal piece after its move may not leave it attacked; with two, either may
    be."""
    out = []
    for mv in pseudo(board, side):
        nb = make(board, mv)
        r = royals(nb, side)
        if len(r) == 1 and attacked(nb, r[0], side ^ 1):
            continue
        if not trading_ok(board, side, mv, nb, last):
            continue
        out.append(mv)
    return out


def taken(board, mv):
    s, c1, t, _p = mv
    out = []
    if c1 is not None:
        out.append(board[c1][0])
    if t != s and t in board:
        out.append(board[t][0])
    return out


def trading_ok(board, side, mv, nb, last):
    s, c1, t, _p = mv
    lions_taken = [c for c in ((c1,) if c1 is not None else ()) + ((t,) if t != s else ())
                   if c in board and board[c][0] in LIONS and board[c][1] != side]
    if not lions_taken:
        return True
    if board[s][0] not in LIONS:
        # rule 2: not right after a Lion was taken by a piece that is not a Lion
        return not (last and last[0] not in LIONS and any(x in LIONS for x in last[1]))
    for c in lions_taken:
        if max(abs(c[0] - s[0]), abs(c[1] - s[1])) < 2:
            continue
        if c1 is not None and board[c1][0] not in LOW:
            continue
        if attacked(nb, t, side ^ 1):
            return False
    return True


def text(mv):
    s, c1, t, prom = mv
    return usi(s) + (usi(c1) if c1 is not None else "") + usi(t) + ("+" if prom else "")
