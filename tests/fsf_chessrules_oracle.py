"""A small pyffish oracle for tests/test_fsf_chessrules.py: the same start text, perft and
random games (legal moves, position text and result at every ply) for a shipped section and
Fairy-Stockfish's built-in of the same name.

pyffish's results are scores for the side to move in centipawn units (-32000 a loss, 0 a draw
or the game going on); ``pyffish.game_result`` is read only where pyffish offers no move,
and ``is_optional_game_end`` (repetition, the move rule) is left out: a random game of 60
plies reaches neither."""
from __future__ import annotations

import random
from collections.abc import Callable

import pyffish as sf
from fsf_perft import fsf_perft as sf_perft  # noqa: F401  (the tests' name for it)

import variants
from engine.game import game_result
from engine.movegen import legal_moves
from engine.notation.move_text import move_text
from engine.notation.position_text import format as format_text
from engine.notation.position_text import parse


def ours(name: str):
    return variants.get(name)


def our_moves(pos) -> dict[str, int]:
    v = pos.variant
    return {move_text(v, m): m for m in legal_moves(pos)}


def perft(pos, depth: int) -> int:
    if depth == 0:
        return 1
    if game_result(pos) is not None:
        return 0
    ms = legal_moves(pos)
    if depth == 1:
        return len(ms)
    n = 0
    for m in ms:
        pos.make(m)
        n += perft(pos, depth - 1)
        pos.unmake()
    return n


def score(r) -> int:
    """Our result as pyffish's score for the side to move."""
    return 0 if r is None else {1: 32000, 0: 0, -1: -32000}[r[0]]


def play(name: str, seed: int, plies: int = 60,
         prefer: Callable[[str, object, int], bool] | None = None,
         fen: str | None = None) -> dict[str, int]:
    """One random game in both engines from the start (or ``fen``); asserts the same legal
    moves, position text and result at every ply.  ``prefer(text, pos, move)`` marks the moves
    the game is steered to (chosen when any is legal, half the time).  Returns a count of the
    steered moves played, by their text's kind (``prefer``'s truth)."""
    rnd = random.Random(seed)
    v = ours(name)
    start = fen or sf.start_fen(name)
    pos = parse(v, start)
    assert format_text(pos) == sf.get_fen(name, start, []), "start text"
    played: list[str] = []
    steered = 0
    for ply in range(plies):
        mine = our_moves(pos)
        theirs = sf.legal_moves(name, start, played)
        where = f"{name} seed {seed} ply {ply} after {' '.join(played)}"
        assert sorted(mine) == sorted(theirs), where
        r = game_result(pos, list(mine.values()))
        if not theirs:
            assert score(r) == sf.game_result(name, start, played), where
            break
        assert r is None, where
        pick = [t for t in sorted(mine) if prefer and prefer(t, pos, mine[t])]
        text = rnd.choice(pick) if pick and rnd.random() < 0.5 else rnd.choice(sorted(mine))
        steered += text in pick
        pos.make(mine[text])
        played.append(text)
        assert format_text(pos) == sf.get_fen(name, start, played), where
    return {"plies": len(played), "steered": steered}
