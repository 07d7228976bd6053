"""Reading a PGN game (2D variants) back into protocol move texts, every move checked legal.

The first game of the text is read: its tags (``Variant``, ``SetUp``/``FEN``; the others are
descriptive and kept by nobody) and its move text.  Comments, variations, NAGs, move numbers
and the result are skipped.  Each move is matched against the rules core's legal moves in the
position reached so far: first the SAN this project writes (``match/records.py``), then the
protocol's own move text, then SAN with the usual liberties (a fuller disambiguation, no
``x``, no ``=``, ``0-0``, a missing or extra check mark), which must name exactly one move.
"""
from __future__ import annotations

import re

import variants
from engine.movegen import in_check, legal_moves
from engine.moves import CASTLE, LEGS, from_of, to_of
from engine.notation import (
    NotationError,
    format_position,
    move_text,
    parse_move,
    parse_position,
)

from .records import _file_rank, san

_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_NUMBER = re.compile(r"^\d+\.+")
_RESULTS = {"1-0", "0-1", "1/2-1/2", "*"}
_SHARES = re.compile(r"\d+/\d+-\d+/\d+")        # a fractional result: 3/4-1/4
ALIASES = {"standard": "chess"}


class PgnError(ValueError):
    pass


def _split(text: str) -> tuple[dict[str, str], list[str]]:
    """The first game's tags and its move tokens (no comments, variations, NAGs, numbers)."""
    tags: dict[str, str] = {}
    i, n = 0, len(text)
    while True:                                  # the tag section
        while i < n and text[i].isspace():
            i += 1
        if i < n and text[i] == "%":             # an escaped line
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        m = _TAG.match(text, i)
        if not m:
            break
        tags[m.group(1)] = re.sub(r"\\(.)", r"\1", m.group(2))
        i = m.end()
    tokens: list[str] = []
    depth = 0
    word = ""
    while i < n:
        c = text[i]
        if c == "{":
            end = text.find("}", i)
            if end < 0:
                raise PgnError("a comment { is never closed")
            i = end + 1
            c = " "
        elif c == ";":
            end = text.find("\n", i)
            i = n if end < 0 else end
            c = " "
        elif c in "()":
            depth += 1 if c == "(" else -1
            if depth < 0:
                raise PgnError("a ) closes no variation")
            c = " "
        elif c == "[" and depth == 0 and not word and tokens:
            break                                # the next game's tags
        if c.isspace():
            if word and depth == 0:
                tokens.append(word)
            word = ""
        elif depth == 0 or c in "()":
            word += c
        i += 1
    if word and depth == 0:
        tokens.append(word)
    if depth:
        raise PgnError("a variation ( is never closed")
    moves = []
    for t in tokens:
        t = _NUMBER.sub("", t)
        if not t or t.startswith("$") or t in _RESULTS or _SHARES.fullmatch(t):
            continue
        moves.append(t)
    return tags, moves


def _plain(s: str) -> str:
    s = s.replace("x", "").replace("=", "")
    return s.replace("0", "O") if s.startswith("0-0") else s


def _liberal_forms(v, pos, m: int, base: str) -> set[str]:
    """Other ways to write the move whose SAN (without its check mark) is `base`."""
    forms = {_plain(base)}
    frm, to = from_of(m), to_of(m)
    if frm < 0 or m & (CASTLE | LEGS):       # a two-leg move is written in full
        return forms
    geo = v.geometry
    ptype = v.piece_types[pos.board[frm] >> 1]
    prefix = "" if ptype.pawn else ptype.token.rstrip("~")
    ff, fr = _file_rank(geo, frm)
    tname = geo.name(to)
    flat = _plain(base)
    k = flat.find(tname, len(prefix))
    if k < 0:
        return forms
    suffix = flat[k + len(tname):]
    for dis in ("", ff, fr, ff + fr):
        forms.add(prefix + dis + tname + suffix)
    return forms


def _match(v, pos, legal: list[int], token: str) -> int:
    word = token.rstrip("!?")
    geo = v.geometry
    near = [m for m in legal if m & CASTLE or geo.name(to_of(m)) in word]
    sans = [(san(v, pos, m, legal), m) for m in near]
    exact = [m for t, m in sans if t == word]
    if len(exact) == 1:
        return exact[0]
    try:
        return parse_move(v, legal, word)
    except NotationError:
        pass
    found = set()
    for text, m in sans:
        pos.make(m)
        checks = in_check(pos)
        pos.unmake()
        base = text[:-1] if checks and text[-1] in "+#" else text
        forms = _liberal_forms(v, pos, m, base)
        mark = word[len(word.rstrip("+#")):]
        if _plain(word) in forms or (mark in ("+", "#", "++") and _plain(word[:-len(mark)]) in forms):
            found.add(m)
    if len(found) == 1:
        return found.pop()
    if found:
        raise PgnError(f"move {token!r} is ambiguous")
    raise PgnError(f"move {token!r} is not legal")


def read_pgn(text: str, default_variant: str, known: list[str]) -> tuple[str, str, list[str]]:
    """(variant, start position text, protocol move texts) of the first game in `text`.

    The variant is the ``Variant`` tag's (one of `known`, a 2D board), else `default_variant`.
    Raises PgnError (NotationError for a bad FEN) with one message; nothing is changed."""
    tags, tokens = _split(text)
    name = tags.get("Variant", default_variant)
    lower = {k.lower(): k for k in known}
    name = lower.get(ALIASES.get(name.lower(), name.lower()), "")
    if not name:
        raise PgnError(f"unknown variant {tags.get('Variant', default_variant)[:40]!r}")
    v = variants.get(name)
    if v.geometry.dims != 2:
        raise PgnError(f"{name} is a {v.geometry.dims}D board: its games are JSON records")
    fen = tags.get("FEN")
    if tags.get("SetUp") == "1" and not fen:
        raise PgnError("SetUp 1 without a FEN tag")
    pos = parse_position(v, fen) if fen and tags.get("SetUp", "1") != "0" else v.start_position()
    start = format_position(pos)
    moves = []
    for k, token in enumerate(tokens):
        legal = legal_moves(pos)
        try:
            m = _match(v, pos, legal, token)
        except PgnError as e:
            raise PgnError(f"ply {k + 1}: {e}") from None
        moves.append(move_text(v, m))
        pos.make(m)
    return name, start, moves
