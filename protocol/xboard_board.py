"""What XBoard is told of a game's board: the names it knows games by, which boards it can draw,
its rank numbering on boards of exactly ten ranks, and for a game it does not know the `setup`
line (piece table, size, holdings, start position) and a Betza `piece` line for each piece."""
from __future__ import annotations

import re

import variants
from engine.notation.move_text import MoveTextError, parse_move

# cellfish names -> the names XBoard knows for the same game
XBOARD_NAMES = {"chess": "normal", "shogi": "shogi", "chushogi": "chu"}
FROM_XBOARD = {v: k for k, v in XBOARD_NAMES.items()}

_SQUARE = re.compile(r"([a-z])(\d+)")

def drawable(v) -> bool:
    """Whether XBoard can draw and play the variant: one rectangle of squares in two dimensions,
    where a square that is no cell is a hole (`*` in XBoard's FEN), and moves XBoard can replay.
    Left out: 3D boards (Alice's two boards among them), lattices (cells on the squares' corners
    too), hexagonal boards (XBoard draws squares only) and games whose moves change a piece on
    a third cell without taking it (Notake's acting moves: XBoard's moves only move pieces, so
    it refuses them as invalid)."""
    from variants.inifile.hexboard import HexVariant
    from variants.inifile.lattice import LatticeVariant
    g = v.geometry
    return g.dims == 2 and not isinstance(v, (LatticeVariant, HexVariant)) \
        and not v.acts_elsewhere


def refusal(v) -> str:
    """Why XBoard is not offered a game `drawable` leaves out: said after the name in the
    `Error (unknown variant): NAME (WHY)` line that answers `variant NAME`."""
    from variants.inifile.hexboard import HexVariant
    from variants.inifile.lattice import LatticeVariant
    if isinstance(v, HexVariant):
        return "XBoard has no hexagonal board"
    if v.geometry.dims != 2:
        return "XBoard has no 3D board"
    if isinstance(v, LatticeVariant):
        return "XBoard has no board of cells on the squares' corners"
    return "XBoard's moves cannot change a piece on a third cell"


def xboard_variants() -> list[str]:
    """The names XBoard is offered, each once: chess is XBoard's `normal`, and Fairy-
    Stockfish's built-in `normal` (the same game) would otherwise be listed a second time."""
    out: list[str] = []
    for n in variants.names():
        try:
            if drawable(variants.get(n)):
                name = XBOARD_NAMES.get(n, n)
                if name not in out:
                    out.append(name)
        except Exception:      # a variant that cannot be built is not offered
            continue
    return out


def rank_shift(v) -> int:
    """XBoard counts the ranks of a board of exactly ten from 0 (a0 ... a9), as Fairy-
    Stockfish's XBoard mode does; cellfish's own text counts from 1.  Its protocol text says
    "on boards with exactly 10 ranks": a board of eleven or more counts from 1 again."""
    g = v.geometry
    return 1 if g.dims == 2 and max(c[1] for c in g.coords) + 1 == 10 else 0


def to_xboard(v, text: str) -> str:
    """A move in cellfish's UCI text as XBoard writes it: a two-leg move `f4f5g6` (from, the
    cell taken in passing, to) as XBoard's two legs joined by a comma, `f4f5,f5g6`."""
    k = rank_shift(v)
    if k:
        text = _SQUARE.sub(lambda x: f"{x.group(1)}{int(x.group(2)) - k}", text)
    legs = _TWO_LEGS.fullmatch(text)
    if legs:
        frm, mid, to, rest = legs.groups()
        text = f"{frm}{mid},{mid}{to}{rest}"
    return text


def from_xboard(v, text: str, occupied=None) -> list[str]:
    """A move as XBoard writes it, in cellfish's UCI texts it may stand for (the caller keeps
    the one that is a legal move).  XBoard's two legs `f4f5,f5g6` are cellfish's three cells
    `f4f5g6` (taking on f5 in passing) when f5 holds a piece, and the one move `f4g6` when f5
    is empty (XBoard's Lion stepping through an empty cell); so two legs out and back,
    `f4f5,f5f4`, are a capture without moving (`f4f5f4`, igui) or a pass (`f4f4`), which
    XBoard writes either way.  `occupied(name)` says whether a cell holds a piece; without it
    both readings are given, the capture first."""
    legs = _XB_TWO_LEGS.fullmatch(text)
    texts = [text]
    if legs:
        frm, mid, mid2, to, rest = legs.groups()
        if mid == mid2:
            full = occupied is None or occupied(mid)
            empty = occupied is None or not occupied(mid)
            # the text itself first: a move of the core's may be written with a comma too
            # (the duck's `e2e4,e4e5`, the move and then the duck's cell)
            texts += [t for t, ok in ((f"{frm}{mid}{to}{rest}", full), (f"{frm}{to}{rest}", empty)) if ok]
    k = rank_shift(v)
    if not k:
        return texts
    return [_SQUARE.sub(lambda x: f"{x.group(1)}{int(x.group(2)) + k}", t) for t in texts]


def parse_xboard_move(pos, legal: list[int], text: str) -> int:
    """The legal move of `pos` that XBoard's move text stands for (MoveTextError when none)."""
    v = pos.variant
    k = rank_shift(v)

    def occupied(name: str) -> bool:
        sq = _SQUARE.fullmatch(name)
        cell = v.geometry.parse(f"{sq.group(1)}{int(sq.group(2)) + k}") if sq else None
        return cell is not None and pos.board[cell] != 0

    for t in from_xboard(v, text, occupied):
        try:
            return parse_move(v, legal, t, "uci")
        except MoveTextError:
            pass
    raise MoveTextError(f"illegal or unknown move ({text})")


_TWO_LEGS = re.compile(r"([a-z]\d+)([a-z]\d+)([a-z]\d+)(.*)")
_XB_TWO_LEGS = re.compile(r"([a-z]\d+)([a-z]\d+),([a-z]\d+)([a-z]\d+)(.*)")


def fen_from_xboard(v, fen: str) -> str:
    """A FEN as XBoard writes it (`setboard`) in cellfish's text: on a ten-rank board XBoard
    writes the en-passant cell with its own rank numbering (e3 for cellfish's e4), as in its
    moves.  Only that field looks like a cell: the board, side, castling and counters do not."""
    fields = fen.split()
    names = v.notation.fields
    # XBoard writes a castling field in every FEN (`w - 0 1` for Chu Shogi): a game whose own
    # text has neither a castling nor an en-passant field has no place for it
    if len(fields) == len(names) + 2 and fields[2] == "-" and names[:1] == ("side",) \
            and "castling" not in names and "ep" not in names:
        del fields[2]
    k = rank_shift(v)
    if k:
        for i in range(1, len(fields)):
            if _CELL.fullmatch(fields[i]):
                fields[i] = from_xboard(v, fields[i])[0]
    return " ".join(fields)


_CELL = re.compile(r"[a-z]\d+")


# XBoard's piece slots, in its order (the king is the last one of each half)
XB_SLOTS = "PNBRQFEACWMOHIJGDVLSU"
# XBoard's promoted form of the piece in slot i is the piece in slot i + 11, marked `+` in the
# table and written `+X` in FEN and in the piece command; so a piece that promotes shogi-style
# sits in one of the first ten slots.  XBoard's own shogi puts the Lance, Silver and Gold in the
# Queen's, Ferz's and Wazir's slots; a game with shogi-style promotion does the same.
PROMOTED_OFFSET = 11
SHOGI_SLOTS = {"L": 4, "S": 5, "G": 9}


def promoted_letters(v) -> list[str]:
    """The letters X of the pieces that promote shogi-style (a `+X` piece), in type order."""
    return [pt.token[1].upper() for pt in v.piece_types[1:]
            if len(pt.token) == 2 and pt.token[0] == "+"]


def piece_table(v) -> str:
    """XBoard's pieceToCharTable for the variant: each of its piece letters in the slot of that
    letter where XBoard has one, else in the first free slot; a piece that promotes shogi-style
    in one of the first ten slots with `+` eleven slots on; '.' for a slot not used."""
    slots = ["."] * len(XB_SLOTS)
    letters = []
    for pt in v.piece_types[1:]:
        tok = pt.token
        if len(tok) == 1 and tok.upper() != "K" and tok.upper() not in letters:
            letters.append(tok.upper())
    promo = [ch for ch in promoted_letters(v) if ch in letters]

    def own_slot(ch: str) -> int:
        return SHOGI_SLOTS[ch] if promo and ch in SHOGI_SLOTS else XB_SLOTS.find(ch)

    # the pieces that do not promote take their own slots first, so that a promoting piece
    # without a slot of its own among the first ten does not take the Pawn's or the Queen's
    rest = []
    for ch in letters:
        if ch in promo:
            continue
        i = own_slot(ch)
        if i >= 0 and slots[i] == ".":
            slots[i] = ch
        else:
            rest.append(ch)
    for ch in promo:
        for i in [own_slot(ch), *range(PROMOTED_OFFSET - 1)]:
            if 0 <= i < PROMOTED_OFFSET - 1 and slots[i] == "." and slots[i + PROMOTED_OFFSET] == ".":
                slots[i], slots[i + PROMOTED_OFFSET] = ch, "+"
                break
        else:
            rest.append(ch)
    for ch in rest:
        if "." in slots:
            slots[slots.index(".")] = ch
    # a piece a Pawn promoted to, which returns to the hand as a Pawn (`X~` in the FEN, as in
    # crazyhouse): XBoard's `~` in the promoted slot of the piece's own
    for pt in v.piece_types[1:]:
        if len(pt.token) == 2 and pt.token[1] == "~" and pt.token[0].upper() in slots:
            i = slots.index(pt.token[0].upper()) + PROMOTED_OFFSET
            if i < len(slots) and slots[i] == ".":
                slots[i] = "~"
    white = "".join(slots) + "K"
    return white + white.lower()


def parent(v) -> str:
    """XBoard's parent game for one it does not know: `shogi` for a game of the shogi template
    (promotion with `+` in the zone, shogi's board drawing), else its generic `fairy`."""
    return "shogi" if v.template == "shogi" else "fairy"


def setup_line(v) -> str:
    """`setup (TABLE) FILESxRANKS+HOLDINGS_PARENT FEN` for a game XBoard does not know: its
    piece letters in XBoard's piece slots, the board size (holes are `*` squares in the FEN),
    the holdings, the parent game and the start position."""
    g = v.geometry
    files = max(c[0] for c in g.coords) + 1
    ranks = max(c[1] for c in g.coords) + 1
    return f"setup ({piece_table(v)}) {files}x{ranks}+{holdings(v)}_{parent(v)} {v.start_fen}"


def holdings(v) -> int:
    """XBoard's holdings size: one row per piece type a hand can hold, the king never (as
    Fairy-Stockfish counts them: 5 for minishogi's P S G B R)."""
    if not v.hands:
        return 0
    return sum(1 for t in v.notation.hand_order() if v.piece_types[t].token.upper() != "K")


def piece_lines(v) -> list[str]:
    """`piece X& BETZA` for every piece of a variants-file game, so XBoard knows its moves, and
    `piece +X& BETZA` for the promoted form of each piece that promotes shogi-style (the Betza
    of the piece it becomes).  A piece that exists only as another's promoted form (Notake's
    Horse and Dragon) has no letter of its own in XBoard: its moves are told under `+X`."""
    betza_of = {name: betza for name, _, betza in getattr(v, "pieces", ())}
    if not betza_of:
        return []
    letters = {pt.token.upper() for pt in v.piece_types[1:] if len(pt.token) == 1}
    out = []
    for name, letter, betza in getattr(v, "pieces", ()):
        if letter.upper() not in letters:
            continue
        b = betza
        if name == "pawn" and any(getattr(v, "double_region", ((), ()))):
            b += "ifmnD"            # the double step from the first rank of pawns
        if name == "pawn" and any(getattr(v, "triple_region", ((), ()))):
            b += "ifmnH"            # the triple step (Omega's), every passed cell empty
        if name == "king" and getattr(v, "castle_on", False):
            b += "isO2isO3"         # castling as far as the variant's rules let it
        out.append(f"piece {letter.upper()}& {b}")
    seen = set()
    for pt in v.piece_types[1:]:
        tok = pt.token
        if len(tok) != 2 or tok[0] != "+" or tok in seen:
            continue
        b = betza_of.get(pt.name.removeprefix("promoted "))
        if b is not None:
            seen.add(tok)
            out.append(f"piece +{tok[1].upper()}& {b}")
    return out
