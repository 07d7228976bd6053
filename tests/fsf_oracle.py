"""Fairy-Stockfish (pyffish) as the oracle for a variant cellfish plays under the same name:
the shipped sections that write its built-ins (variants/files/fairy*.ini), and any section a
test loads into both engines.  Used by tests/test_fsf_builtins.py; reusable by any test that
compares a variant with Fairy-Stockfish:

* :func:`builtin_sections` - the sections of the shipped ``fairy*.ini`` files whose names
  are Fairy-Stockfish built-ins (found from the files, so a new file is covered as it lands);
* :func:`fsf_perft` (from tests/fsf_perft.py), :func:`perft_depth` - Fairy-Stockfish's perft, and the depth to compare
  (3, or 2 where depth 3 would pass a node budget);
* :func:`fsf_result` - its result for the side to move;
* :func:`play_random_games` - random games steered to the special moves, compared at every
  ply: the same legal moves, position text and result.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

import pyffish
from fsf_perft import fsf_perft  # noqa: F401  (re-exported: the oracle's perft)

import variants
from engine.game import game_result
from engine.movegen import legal_moves
from engine.moves import CASTLE, CELL, EP, FROM_SHIFT, TYPE_MASK, TYPE_SHIFT, is_drop
from engine.notation import move_text, parse_position
from engine.notation.position_text import format as format_position

FSF_NAMES = frozenset(pyffish.variants())


def fairy_files() -> list[Path]:
    """The shipped files of Fairy-Stockfish's built-ins (``variants/files/fairy*.ini``)."""
    return sorted(Path(variants.SHIPPED_DIR).glob("fairy*.ini"))


def builtin_sections() -> list[str]:
    """Every section of the fairy*.ini files that is a Fairy-Stockfish built-in, file by file."""
    return [n for f in fairy_files() for n in variants.shipped_names_of(str(f)) if n in FSF_NAMES]




def same(name: str, fen: str, moves: tuple[str, ...] = ()) -> tuple[list[str], tuple | None, str]:
    """Our legal move texts, result and position text after ``moves``, each asserted equal to
    Fairy-Stockfish's."""
    v = variants.get(name)
    pos = parse_position(v, fen)
    for t in moves:
        pos.make({move_text(v, m): m for m in legal_moves(pos)}[t])
    ours = sorted(move_text(v, m) for m in legal_moves(pos))
    theirs = sorted(pyffish.legal_moves(name, fen, list(moves)))
    assert ours == theirs, (name, fen, moves, set(ours) ^ set(theirs))
    text = format_position(pos)
    assert text == pyffish.get_fen(name, fen, list(moves)), (name, fen, moves)
    r = game_result(pos, legal_moves(pos))
    assert (r[0] if r else None) == fsf_result(name, fen, list(moves), theirs), (name, fen, moves, r)
    return ours, r, text


def after(name: str, fen: str, moves: list[str] | tuple[str, ...] = ()):
    """Our position after the move texts ``moves`` from ``fen``."""
    v = variants.get(name)
    pos = parse_position(v, fen)
    for t in moves:
        pos.make({move_text(v, m): m for m in legal_moves(pos)}[t])
    return pos


def perft_depth(counts: list[int], budget: int = 60_000) -> int:
    """3, unless the moves at depth 1 and 2 say depth 3 would pass ``budget`` nodes (the
    estimate: depth 2 times its branching), then 2."""
    d1, d2 = counts
    return 3 if d1 and d2 * d2 // max(d1, 1) <= budget else 2


def fsf_result(name: str, fen: str, moves: list[str], legal: list[str]) -> int | None:
    """Fairy-Stockfish's result for the side to move (1, 0, -1) or None: a rule that ends the
    game, checkmate or stalemate when no move is left, or a rule a player may claim."""
    def sign(x: int) -> int:
        return (x > 0) - (x < 0)
    end, value = pyffish.is_immediate_game_end(name, fen, moves)
    if end:
        return sign(value)
    if not legal:
        return sign(pyffish.game_result(name, fen, moves))
    end, value = pyffish.is_optional_game_end(name, fen, moves)
    return sign(value) if end else None


def kind_of(pos, m: int) -> str | None:
    """The special kind of a move: castling, en passant, drop, promotion (pawn-style),
    piece promotion (shogi-style, to a ``+`` type), demotion, or None."""
    v = pos.variant
    if m & CASTLE:
        return "castling"
    if m & EP:
        return "en passant"
    if is_drop(m):
        return "drop"
    tid = (m >> TYPE_SHIFT) & TYPE_MASK
    if tid:
        pt = v.piece_types[tid]
        if pt.token.startswith("+"):
            return "piece promotion"
        if v.piece_demotion and not pt.promoted and pt.token.lower() in v.promoted_of:
            return "demotion"
        return "promotion"
    return None


@dataclass
class GameLog:
    """What random games met: the special kinds played, the results, the plies compared."""
    kinds: set[str] = field(default_factory=set)
    results: list[tuple[int, str] | None] = field(default_factory=list)
    plies: int = 0


def play_random_games(name: str, games: int = 3, plies: int = 60, seed: str = "",
                      fen: str | None = None) -> GameLog:
    """Random games of `name` from `fen` (the start), steered to special moves (each new kind
    first, then captures and special moves often): at every ply the same legal move texts,
    the same position text (pyffish.get_fen), Fairy-Stockfish's text read back to itself,
    and the same result.  Asserts on the first difference, naming the moves played."""
    v = variants.get(name)
    fen = fen or pyffish.start_fen(name)
    rng = random.Random(seed or name)
    log = GameLog()
    for _game in range(games):
        pos = parse_position(v, fen)
        moves: list[str] = []
        # pyffish is given the position after the last move that restarted its move-rule count
        # (its repetition scans stop there) and the moves since, not the whole game each ply
        base, tail = fen, []
        result = None
        for ply in range(plies + 1):
            ours = {move_text(v, m): m for m in legal_moves(pos)}
            theirs_fen = pyffish.get_fen(name, base, tail)
            if tail and theirs_fen.split()[-2] == "0":
                base, tail = theirs_fen, []
            theirs = set(pyffish.legal_moves(name, base, tail))
            assert format_position(pos) == theirs_fen, (name, fen, moves)
            assert set(ours) == theirs, (name, fen, moves, sorted(set(ours) ^ theirs))
            if ply % 10 == 9:
                assert format_position(parse_position(v, theirs_fen)) == theirs_fen, (name, moves)
            r = game_result(pos, list(ours.values()))
            expected = fsf_result(name, base, tail, sorted(theirs))
            assert (r[0] if r else None) == expected, (name, fen, moves, r, expected)
            log.plies += 1
            if r is not None or ply == plies:
                result = r
                break
            fresh = sorted(t for t, m in ours.items() if kind_of(pos, m) and kind_of(pos, m) not in log.kinds)
            tactical = sorted(t for t, m in ours.items() if kind_of(pos, m) or pos.board[m & CELL])
            pawns = sorted(t for t, m in ours.items() if not is_drop(m)
                           and v.piece_types[pos.board[(m >> FROM_SHIFT) & CELL] >> 1].pawn)
            home = 0 if pos.side == 0 else v.ranks - 1
            clear = sorted(t for t, m in ours.items() if not is_drop(m)
                           and v.geometry.coords[(m >> FROM_SHIFT) & CELL][1] == home
                           and v.piece_types[pos.board[(m >> FROM_SHIFT) & CELL] >> 1].token.lower()
                           not in {getattr(v, "castle_king", "k"), *getattr(v, "castle_rooks", "r")})
            if fresh:
                t = rng.choice(fresh)
            elif clear and pos.castle and "castling" not in log.kinds and rng.random() < 0.6:
                t = rng.choice(clear)       # clear the way between king and rook
            elif pawns and "promotion" not in log.kinds and rng.random() < 0.6:
                t = rng.choice(pawns)       # towards a promotion not seen yet
            elif tactical and rng.random() < 0.4:
                t = rng.choice(tactical)
            else:
                t = rng.choice(sorted(ours))
            kind = kind_of(pos, ours[t])
            if kind:
                log.kinds.add(kind)
            pos.make(ours[t])
            moves.append(t)
            tail.append(t)
        log.results.append(result)
    return log


def kinds_allowed(name: str) -> set[str]:
    """The special kinds the start position of `name` makes possible, by its rules: castling
    (a right in the start text), drops (hands), promotion (promotion types for a pawn on the
    board), piece promotion (shogi-style promoted types)."""
    v = variants.get(name)
    pos = parse_position(v, pyffish.start_fen(name))
    out = set()
    if pos.castle:
        out.add("castling")
    if v.hands and getattr(v, "piece_drops", True):     # Seirawan's hand only gates
        out.add("drop")
    codes = {p for p in pos.board if p}
    if any(o and not v.piece_types[o].token.startswith("+")
           and not (v.piece_demotion and v.piece_types[o].token.lower() in v.promoted_of)
           for c in codes & set(v.promo) for opts in v.promo[c].values() for o in opts):
        out.add("promotion")
    if v.promoted_of:
        out.add("piece promotion")
    return out
