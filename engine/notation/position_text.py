"""Position text: FEN-like codecs driven by the variant's layout.

The variant's text format (``Variant.notation``) supplies ``layout``: groups (3D levels) of
rows of cells, top row first, each row's cells in the order they are written.  Tokens are the
piece tokens of the variant
(``P``, ``+P``, ``Q~``, ``(RB)``), uppercase for the first player.  Runs of empty cells are
written as numbers (possibly several digits).  A place of the layout that is no cell (a hole
of the board, ``HOLE`` in the layout) is written ``*``; a run of empty cells never spans one.

Formats (``TextFormat.kind``, per dialect):
  ``fen``   board[hand] side castling ep halfmove fullmove  (fields after the side given by
            ``TextFormat.fields``)
  ``sfen``  board side hand movenumber (USI)
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..position import Position
from .errors import PositionTextError
from .formats import HOLE

if TYPE_CHECKING:
    from ..variant import Variant


def _tokens(text: str):
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isdigit():
            j = i
            while j < n and text[j].isdigit():
                j += 1
            yield int(text[i:j]), None
            i = j
        elif ch == "*":
            yield None, "*"
            i += 1
        elif ch == "+":
            if i + 1 >= n or not text[i + 1].isalpha():
                raise PositionTextError(f"bad promoted token ({text[i:i + 2]})")
            yield None, text[i:i + 2]
            i += 2
        elif ch == "(":
            j = text.find(")", i)
            if j < 0:
                raise PositionTextError(f"unclosed compound ({text[i:]})")
            yield None, text[i:j + 1]
            i = j + 1
        elif ch.isalpha():
            if i + 1 < n and text[i + 1] == "~":
                yield None, text[i:i + 2]
                i += 2
            else:
                yield None, ch
                i += 1
        else:
            raise PositionTextError(f"unexpected character ({ch})")


def token_code(variant: Variant, tok: str) -> int:
    letters = [c for c in tok if c.isalpha()]
    if not letters:
        raise PositionTextError(f"bad piece token ({tok})")
    white = all(c.isupper() for c in letters)
    black = all(c.islower() for c in letters)
    if not (white or black):
        raise PositionTextError(f"mixed-case piece token ({tok})")
    pt = variant.by_token.get(tok.upper())
    if pt is None:
        raise PositionTextError(f"unknown piece ({tok})")
    return pt.id * 2 + (0 if white else 1)


def code_token(variant: Variant, code: int) -> str:
    tok = variant.piece_type(code >> 1).token
    return tok if code & 1 == 0 else tok.lower()


def parse_board(variant: Variant, text: str, board: list[int]) -> None:
    groups = variant.notation.layout
    # a game whose squares can become walls has a piece of token "*" (its first player's code
    # stands for every wall): "*" on a cell of the board is a wall, on a hole the hole
    wt = variant.by_token.get("*")
    wall = wt.id * 2 if wt is not None else None
    gtexts = text.split("|")
    if len(gtexts) != len(groups):
        raise PositionTextError(f"expected {len(groups)} board groups separated by | ({text})")
    for gtext, rows in zip(gtexts, groups):
        rtexts = gtext.split("/")
        if len(rtexts) != len(rows):
            raise PositionTextError(f"expected {len(rows)} rows ({gtext})")
        for rtext, cells in zip(rtexts, rows):
            i = 0
            for empties, tok in _tokens(rtext):
                if tok is None:
                    if empties <= 0:
                        raise PositionTextError(f"bad empty count ({rtext})")
                    if HOLE in cells[i:i + empties]:
                        raise PositionTextError(f"a hole written as an empty cell ({rtext})")
                    i += empties
                else:
                    if i >= len(cells):
                        raise PositionTextError(f"row too long ({rtext})")
                    if tok == "*" and cells[i] != HOLE and wall is not None:
                        board[cells[i]] = wall          # a wall square (a game's own piece "*")
                    elif (tok == "*") != (cells[i] == HOLE):
                        raise PositionTextError(f"a hole is written * and only a hole is ({rtext})")
                    elif tok != "*":
                        board[cells[i]] = token_code(variant, tok)
                    i += 1
                if i > len(cells):
                    raise PositionTextError(f"row too long ({rtext})")
            if i != len(cells):
                raise PositionTextError(f"row too short ({rtext})")


def format_board(variant: Variant, board: list[int]) -> str:
    gout = []
    for rows in variant.notation.layout:
        rout = []
        for cells in rows:
            s, run = [], 0
            for c in cells:
                p = board[c] if c != HOLE else 0
                if c == HOLE:
                    if run:
                        s.append(str(run))
                        run = 0
                    s.append("*")
                elif p:
                    if run:
                        s.append(str(run))
                        run = 0
                    s.append(code_token(variant, p))
                else:
                    run += 1
            if run:
                s.append(str(run))
            rout.append("".join(s))
        gout.append("/".join(rout))
    return "|".join(gout)


def parse_hand_letters(variant: Variant, text: str, hand: list[int]) -> None:
    if text in ("", "-"):
        return
    for _empties, tok in _tokens(text):
        if tok is None:
            raise PositionTextError(f"digit in hand ({text})")
        code = token_code(variant, tok)
        if not variant.hands:
            raise PositionTextError(f"this variant has no hands ({text})")
        hand[code] += 1


def format_hand_letters(variant: Variant, hand: list[int]) -> str:
    out = []
    for color in (0, 1):
        for tid in variant.notation.hand_order():
            code = tid * 2 + color
            out.append(code_token(variant, code) * hand[code])
    s = "".join(out)
    return s


def parse_sfen_hand(variant: Variant, text: str, hand: list[int]) -> None:
    if text == "-":
        return
    n = None
    for empties, tok in _tokens(text):
        if tok is None:
            n = empties
            continue
        code = token_code(variant, tok)
        if not variant.hands:
            raise PositionTextError(f"this variant has no hands ({text})")
        hand[code] += n or 1
        n = None
    if n is not None:
        raise PositionTextError(f"hand ends with a number ({text})")


def format_sfen_hand(variant: Variant, hand: list[int]) -> str:
    out = []
    for color in (0, 1):
        for tid in variant.notation.sfen_hand_order():
            code = tid * 2 + color
            n = hand[code]
            if n:
                out.append((str(n) if n > 1 else "") + code_token(variant, code))
    return "".join(out) or "-"


def _int(field: str, what: str) -> int:
    try:
        v = int(field)
    except ValueError:
        raise PositionTextError(f"bad {what} ({field})") from None
    if v < 0:
        raise PositionTextError(f"bad {what} ({field})")
    return v


def parse(variant: Variant, text: str, fmt: str | None = None) -> Position:
    """Parse a position text into a fresh Position; raises PositionTextError."""
    fmt = fmt or variant.notation.kind
    fields = text.split()
    if not fields:
        raise PositionTextError("empty position text")
    pos = Position(variant)
    variant.notation.init_fields(pos)
    board = pos.board
    if fmt == "sfen":
        if len(fields) < 2:
            raise PositionTextError(f"sfen needs board and side ({text})")
        parse_board(variant, fields[0], board)
        side = fields[1]
        if side not in ("b", "w"):
            raise PositionTextError(f"bad side to move ({side})")
        pos.side = 0 if side == "b" else 1
        if len(fields) > 2:
            parse_sfen_hand(variant, fields[2], pos.hand)
        if len(fields) > 3:
            pos.fullmove = max(1, (_int(fields[3], "move number") + 1) // 2)
        variant.validate_position(pos)
        pos.reset_state()
        return pos
    btext = fields[0]
    if "[" in btext:
        if not btext.endswith("]"):
            raise PositionTextError(f"bad hand ({btext})")
        btext, htext = btext[:-1].split("[", 1)
        parse_hand_letters(variant, htext, pos.hand)
        parse_board(variant, btext, board)
    else:
        try:
            parse_board(variant, btext, board)
        except PositionTextError as e:
            # pieces in hand written after the last row without brackets read as a long row
            if variant.hands and "hand" not in variant.notation.field_names(fields[1:]) \
                    and str(e).startswith("row too long"):
                raise PositionTextError(f"{e}: this game has hands, written in brackets after "
                                        f"the last row ([] when both are empty)") from None
            raise
    rest = fields[1:]
    spec = variant.notation.field_names(rest)
    for i, name in enumerate(spec):
        if i >= len(rest):
            break
        f = rest[i]
        if name == "side":
            if f not in ("w", "b"):
                raise PositionTextError(f"bad side to move ({f})")
            pos.side = 0 if f == "w" else 1
        elif name == "hand":
            if not (f.startswith("[") and f.endswith("]")):
                raise PositionTextError(f"bad hand ({f})")
            parse_hand_letters(variant, f[1:-1], pos.hand)
        elif name == "castling":
            pos.castle = variant.notation.parse_castling(f, board)
        elif name == "ep":
            if f != "-":
                pos.ep, pos.ep_victim = variant.notation.parse_ep(pos, f)
        elif name == "halfmove":
            pos.halfmove = _int(f, "halfmove clock")
        elif name == "fullmove":
            pos.fullmove = max(1, _int(f, "move number"))
        else:
            variant.notation.parse_field(pos, name, f)
    if len(rest) > len(spec):
        raise PositionTextError(f"too many fields ({' '.join(rest[len(spec):])})")
    variant.validate_position(pos)
    pos.reset_state()
    return pos


def format(pos: Position, fmt: str | None = None) -> str:
    variant = pos.variant
    fmt = fmt or variant.notation.kind
    board = format_board(variant, pos.board)
    if fmt == "sfen":
        ply = (pos.fullmove - 1) * 2 + pos.side + 1
        return f"{board} {'bw'[pos.side]} {format_sfen_hand(variant, pos.hand)} {ply}"
    out = [board]
    if variant.hands and variant.notation.hand_in_board:
        out[0] += "[" + (format_hand_letters(variant, pos.hand) or variant.notation.empty_hand_text) + "]"
    for name in variant.notation.fields:
        if name == "side":
            out.append("wb"[pos.side])
        elif name == "hand":
            out.append("[" + (format_hand_letters(variant, pos.hand) or "-") + "]")
        elif name == "castling":
            out.append(variant.notation.format_castling(pos.castle))
        elif name == "ep":
            out.append(variant.notation.ep_text(pos))
        elif name == "halfmove":
            out.append(variant.notation.halfmove_text(pos))
        elif name == "fullmove":
            out.append(str(pos.fullmove))
        else:
            out.append(variant.notation.format_field(pos, name))
    return " ".join(out)
