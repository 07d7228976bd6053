"""Start positions for a match: a file of positions, or N random plies from the start (seeded).

File format: one opening per line; blank lines and lines starting with ``#`` are skipped.
A line is a position text in the variant's own format (FEN, 3D-FEN, nested FEN; for shogi
also SFEN; an EPD line keeps its position and drops its operations), or ``startpos``,
optionally followed by ``moves m1 m2 ...`` in the protocol's move text.  Every position and move
is checked by the rules core when the file is read.
"""
from __future__ import annotations

import random

import variants
from engine.game import game_result
from engine.movegen import legal_moves
from engine.notation.move_text import MoveTextError, move_text, parse_move
from engine.notation.position_text import PositionTextError, format as format_position, parse as parse_position

from .config import ConfigError


def parse_opening_line(v, line: str) -> tuple[str | None, tuple[str, ...]]:
    """(start position text or None for the variant's start, opening moves in the record
    dialect); raises ConfigError."""
    words = line.split()
    if "moves" in words:
        i = words.index("moves")
        head, mtexts = words[:i], words[i + 1:]
    else:
        head, mtexts = words, []
    if head and head[0] in ("fen", "sfen"):
        head = head[1:]
    text = " ".join(head)
    if not text or text == "startpos":
        pos = parse_position(v, v.start_fen)
        start = None
    else:
        pos = None
        try:
            pos = parse_position(v, text)
        except PositionTextError as e:
            err = e
            try:
                pos = parse_position(v, text, "sfen")
            except PositionTextError:
                pass
            if pos is None and ";" in text:      # EPD: the position, then operations
                words = text.split(";")[0].split()
                for n in range(len(words) - 1, 0, -1):
                    try:
                        pos = parse_position(v, " ".join(words[:n]))
                        break
                    except PositionTextError:
                        continue
            if pos is None:
                raise ConfigError(f"bad opening position: {err}") from None
        start = format_position(pos)
    dialect = v.notation.dialect
    out = []
    for t in mtexts:
        try:
            m = parse_move(v, legal_moves(pos), t, dialect)
        except MoveTextError as e:
            raise ConfigError(f"bad opening move: {e}") from None
        pos.make(m)
        out.append(move_text(v, m, dialect))
    if game_result(pos) is not None:
        raise ConfigError(f"opening ends the game already ({line.strip()})")
    return start, tuple(out)


def load_openings(variant: str, path: str) -> list[tuple[str | None, tuple[str, ...]]]:
    v = variants.get(variant)
    out = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            s = line.strip()
            if not s or s.startswith("#"):
                continue
            try:
                out.append(parse_opening_line(v, s))
            except ConfigError as e:
                raise ConfigError(f"{path}:{n}: {e}") from None
    if not out:
        raise ConfigError(f"no openings in {path}")
    return out


def random_opening(variant: str, plies: int, seed, tries: int = 100) -> tuple[str, ...]:
    """`plies` uniformly random legal moves from the start, never ending the game (seeded by
    `seed`, so every run and every worker gets the same openings)."""
    v = variants.get(variant)
    rng = random.Random(str(seed))
    for _ in range(tries):
        pos = parse_position(v, v.start_fen)
        moves = []
        ok = True
        for _ in range(plies):
            legal = legal_moves(pos)
            if not legal:
                ok = False
                break
            m = rng.choice(sorted(legal))
            pos.make(m)
            moves.append(move_text(v, m, v.notation.dialect))
            if game_result(pos) is not None:
                ok = False
                break
        if ok:
            return tuple(moves)
    raise ConfigError(f"no {plies}-ply random opening that keeps the game going")
