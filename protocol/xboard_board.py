"""What XBoard is told of a game's board: the names it knows games by, which boards it can draw,
its rank numbering on boards of ten ranks or more, and for a game it does not know the `setup`
line (piece table, size, holdings, start position) and a Betza `piece` line for each piece."""
from __future__ import annotations

import re

import variants

# cellfish names -> the names XBoard knows for the same game
XBOARD_NAMES = {"chess": "normal", "shogi": "shogi"}
FROM_XBOARD = {v: k for k, v in XBOARD_NAMES.items()}

_SQUARE = re.compile(r"([a-z])(\d+)")

def drawable(v) -> bool:
    """Whether XBoard can draw the variant: a full rectangle of squares in two dimensions.
    3D boards and lattices (cells that are no rectangle's squares) are left out."""
    g = v.geometry
    if g.dims != 2:
        return False
    files = max(c[0] for c in g.coords) + 1
    ranks = max(c[1] for c in g.coords) + 1
    return files * ranks == len(g.coords)


def xboard_variants() -> list[str]:
    out = []
    for n in variants.names():
        try:
            if drawable(variants.get(n)):
                out.append(XBOARD_NAMES.get(n, n))
        except Exception:      # a variant that cannot be built is not offered
            continue
    return out


def rank_shift(v) -> int:
    """XBoard counts the ranks of a board with ten or more from 0 (a0 ... a9), as Fairy-
    Stockfish's XBoard mode does; cellfish's own text counts from 1."""
    g = v.geometry
    return 1 if g.dims == 2 and max(c[1] for c in g.coords) + 1 >= 10 else 0


def to_xboard(v, text: str) -> str:
    """A move in cellfish's UCI text as XBoard writes it."""
    k = rank_shift(v)
    return _SQUARE.sub(lambda x: f"{x.group(1)}{int(x.group(2)) - k}", text) if k else text


def from_xboard(v, text: str) -> str:
    """A move as XBoard writes it in cellfish's UCI text."""
    k = rank_shift(v)
    return _SQUARE.sub(lambda x: f"{x.group(1)}{int(x.group(2)) + k}", text) if k else text


# XBoard's piece slots, in its order (the king is the last one of each half)
XB_SLOTS = "PNBRQFEACWMOHIJGDVLSU"


def piece_table(v) -> str:
    """XBoard's pieceToCharTable for the variant: each of its piece letters in the slot of that
    letter where XBoard has one, else in the first free slot; '.' for a slot not used."""
    slots = ["."] * len(XB_SLOTS)
    letters = []
    for pt in v.piece_types[1:]:
        tok = pt.token
        if len(tok) == 1 and tok.upper() != "K" and tok.upper() not in letters:
            letters.append(tok.upper())
    rest = []
    for ch in letters:
        i = XB_SLOTS.find(ch)
        if i >= 0 and slots[i] == ".":
            slots[i] = ch
        else:
            rest.append(ch)
    for ch in rest:
        if "." in slots:
            slots[slots.index(".")] = ch
    white = "".join(slots) + "K"
    return white + white.lower()


def setup_line(v) -> str:
    """`setup (TABLE) FILESxRANKS+HOLDINGS_fairy FEN` for a game XBoard does not know: its
    piece letters in XBoard's piece slots, the board size, the holdings and the start
    position, with XBoard's generic `fairy` as the parent game."""
    g = v.geometry
    files = max(c[0] for c in g.coords) + 1
    ranks = max(c[1] for c in g.coords) + 1
    hold = len(v.notation.hand_order()) if v.hands else 0
    return f"setup ({piece_table(v)}) {files}x{ranks}+{hold}_fairy {v.start_fen}"

def piece_lines(v) -> list[str]:
    """`piece X& BETZA` for every piece of a variants-file game, so XBoard knows its moves."""
    out = []
    for name, letter, betza in getattr(v, "pieces", ()):
        b = betza
        if name == "pawn" and any(getattr(v, "double_region", ((), ()))):
            b += "ifmnD"            # the double step from the first rank of pawns
        if name == "king" and getattr(v, "castle_on", False):
            b += "isO2isO3"         # castling as far as the variant's rules let it
        out.append(f"piece {letter.upper()}& {b}")
    return out
