"""Compare a shipped cellfish variant with pyffish's built-in of the same name: the start
text, perft from the start, and seeded random games whose every ply has the same legal move
texts, the same position text and the same result.  Games are steered: captures, checks,
promotions and the moves of the pieces a variant singles out are preferred when legal, so
that the rules that matter come up in 60 plies.

``play`` returns what it saw (plies played, captures, promotions, checks, results, the
move kinds of ``kinds``), so a test can assert that the special moves did come up."""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

import pyffish as sf
from fsf_perft import fsf_perft

import variants
from engine.game import game_result, perft
from engine.movegen import in_check, legal_moves
from engine.moves import CELL, FROM_SHIFT, TYPE_MASK, TYPE_SHIFT, is_drop
from engine.notation.move_text import move_text
from engine.notation.position_text import format, parse


def variant(name: str):
    return variants.get(name)


def start_text(name: str) -> tuple[str, str]:
    """(cellfish's start text, pyffish's)."""
    v = variant(name)
    return format(v.start_position()), sf.start_fen(name)


def sf_perft(name: str, fen: str, depth: int, moves: tuple[str, ...] = ()) -> int:
    return fsf_perft(name, fen, moves, depth)


def our_perft(name: str, depth: int, fen: str | None = None) -> int:
    v = variant(name)
    pos = parse(v, fen) if fen else v.start_position()
    return perft(pos, depth)


def sf_result(name: str, fen: str, moves: list[str], legal: list[str]) -> int | None:
    """pyffish's result for the side to move (1 win, 0 draw, -1 loss), or None while the game
    goes on (pyffish answers VALUE_MATE-based scores).  Fairy-Stockfish's optional ends (the
    n-fold repetition, the n-move and counting rules) end a cellfish game by themselves."""
    if legal:
        end, score = sf.is_immediate_game_end(name, fen, moves)
        if not end:
            end, score = sf.is_optional_game_end(name, fen, moves)
    else:
        end, score = True, sf.game_result(name, fen, moves)
    if not end:
        return None
    return (score > 0) - (score < 0)


@dataclass
class Seen:
    plies: int = 0
    games: int = 0
    kinds: Counter = field(default_factory=Counter)
    results: Counter = field(default_factory=Counter)


def _kind(v, pos, m: int, text: str, in_chk: bool) -> list[str]:
    out = []
    to = m & CELL
    if is_drop(m):
        out.append("drop")
    elif pos.board[to]:
        out.append("capture")
    if (m >> TYPE_SHIFT) & TYPE_MASK and not is_drop(m):
        out.append("promotion")
    if in_chk:
        out.append("evasion")
    return out


def play(name: str, seed: int, plies: int = 60, seen: Seen | None = None,
         prefer: tuple[str, ...] = (), fen: str | None = None) -> Seen:
    """One steered random game compared ply by ply; ``prefer``: piece letters whose moves are
    favoured (the pieces whose rules a variant adds); ``fen``: another start position."""
    v = variant(name)
    rnd = random.Random(seed)
    seen = seen or Seen()
    seen.games += 1
    fen = fen or sf.start_fen(name)
    pos = parse(v, fen)
    assert format(pos) == sf.get_fen(name, fen, [])
    played: list[str] = []
    for ply in range(plies):
        legal = legal_moves(pos)
        texts = [move_text(v, m) for m in legal]
        theirs = sf.legal_moves(name, fen, played)
        assert sorted(texts) == sorted(theirs), (name, seed, ply, played,
                                                  sorted(set(texts) ^ set(theirs)))
        r = game_result(pos, legal)
        ours = None if r is None else r[0]
        assert ours == sf_result(name, fen, played, theirs), (name, seed, ply, played, r)
        if r is not None or not legal:
            seen.results[r[1] if r else "none"] += 1
            break
        chk = in_check(pos)
        by: dict[str, list[int]] = {}
        for m, t in zip(legal, texts):
            for k in _kind(v, pos, m, t, chk):
                by.setdefault(k, []).append(m)
            pt = v.piece_types[pos.board[(m >> FROM_SHIFT) & CELL] >> 1] if not is_drop(m) else None
            if pt is not None and pt.token.lower() in prefer:
                by.setdefault("prefer", []).append(m)
        m = None
        for k, p in (("promotion", 0.8), ("drop", 0.5), ("capture", 0.6), ("prefer", 0.4)):
            if by.get(k) and rnd.random() < p:
                m = rnd.choice(by[k])
                break
        if m is None:
            m = rnd.choice(legal)
        t = texts[legal.index(m)]
        for k in _kind(v, pos, m, t, chk):
            seen.kinds[k] += 1
        pos.make(m)
        if in_check(pos):
            seen.kinds["check"] += 1
        played.append(t)
        seen.plies += 1
        assert format(pos) == sf.get_fen(name, fen, played), (name, seed, played, format(pos),
                                                               sf.get_fen(name, fen, played))
    return seen
