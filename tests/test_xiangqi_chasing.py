"""Xiangqi's chasing rule (``chasingRule = axf``, variants/inifile/chasing.py), proven against
Fairy-Stockfish (pyffish): named cycles whose result each test states, random games that seek
repetitions (tests/chase_oracle.py), the key in a user's section, and the searcher, the
protocol and the referee scoring a chase as the rules do."""
from __future__ import annotations

import threading

import pyffish  # a real peer: a missing pyffish fails the suite, never skips it

import chase_oracle
from file_helpers import one, problems
from fsf_oracle import after, same
from engine.game import game_result
from engine.limits import Limits
from engine.movegen import legal_moves
from engine.notation import move_text
from engine.search import Searcher
from engine.tt import MATE_BOUND
from match.referee import result_from_core

# Black's horse runs between b6 and a8, White's rook follows it on the a and b files: the
# horse has no protector, so the rook chases it with every move, and White loses at the third
# occurrence (Black, to move, wins)
CHASE = "5k3/9/9/9/1n7/9/9/9/9/1R1K5 b - - 0 1"
CHASE_MOVES = "b6a8 b1a1 a8b6 a1b1 b6a8 b1a1 a8b6 a1b1".split()


def _fsf(name: str, fen: str, moves: list[str]) -> tuple[bool, int]:
    return pyffish.is_optional_game_end(name, fen, moves)


def test_the_rook_that_chases_an_unprotected_horse_loses():
    for n in range(len(CHASE_MOVES)):
        ours, r, _ = same("xiangqi", CHASE, tuple(CHASE_MOVES[:n]))
        assert r is None and not _fsf("xiangqi", CHASE, CHASE_MOVES[:n])[0]
    _, r, _ = same("xiangqi", CHASE, tuple(CHASE_MOVES))
    assert r == (1, "perpetual chase")
    assert _fsf("xiangqi", CHASE, CHASE_MOVES) == (True, 32000)
    pos = after("xiangqi", CHASE, CHASE_MOVES)
    them, us = pos.variant.chases(pos)
    # the horse, followed back through its moves to a8, where the first rook move of the
    # cycle (b1a1) found it; Black chased nothing
    assert them == {pos.variant.geometry.index[(0, 7)]} and not us
    # the referee's text: Black wins
    assert result_from_core(pos.side, *r).result == "0-1"


def test_a_protected_horse_is_not_chased_by_a_rook():
    """The same cycle with the horse protected on both squares (the rook on b10 guards b6, the
    elephant on c10 guards a8): no chase, a drawn repetition."""
    fen = "1rb2k3/9/9/9/1n7/9/9/9/9/1R1K5 b - - 0 1"
    _, r, _ = same("xiangqi", fen, tuple(CHASE_MOVES))
    assert r == (0, "repetition") and _fsf("xiangqi", fen, CHASE_MOVES) == (True, 0)


def test_a_horse_chasing_a_rook_loses_even_when_the_rook_is_protected():
    """White's rook runs between a1 and a2 (guarded on both by the rook on a10), Black's horse
    follows it (b3 and c1): a horse attacking a rook chases it, protected or not."""
    fen = "R8/5k3/9/9/9/9/9/1n7/9/R2K5 w - - 0 1"
    moves = "a1a2 b3c1 a2a1 c1b3 a1a2 b3c1 a2a1 c1b3".split()
    _, r, _ = same("xiangqi", fen, tuple(moves))
    assert r == (1, "perpetual chase") and _fsf("xiangqi", fen, moves) == (True, 32000)


def test_perpetual_check_is_judged_before_the_chase():
    """Black's rook checks at every move (a2, a1) while White's king steps between e2 and e1;
    each king move uncovers a cannon (i2 over the horse, i1 over the advisor) that attacks
    the rook, so White chases it too.  The perpetual check decides: Black loses."""
    fen = "5k3/9/9/9/9/9/9/9/r3KN2C/5A2C w - - 0 1"
    moves = "e2e1 a2a1 e1e2 a1a2 e2e1 a2a1 e1e2 a1a2".split()
    _, r, _ = same("xiangqi", fen, tuple(moves))
    assert r == (1, "perpetual check") and _fsf("xiangqi", fen, moves) == (True, 32000)
    pos = after("xiangqi", fen, moves)
    them, us = pos.variant.chases(pos)
    assert us == {pos.variant.geometry.index[(0, 1)]} and not them   # the rook, back on a2


def test_manchu_and_minixiangqi_have_no_chasing_rule():
    """Fairy-Stockfish sets the rule in xiangqi alone: the same chase is a drawn repetition
    in manchu (whose section inherits xiangqi's) and in minixiangqi."""
    fen = "1r3k3/9/9/9/9/1N7/9/9/9/3K5 w - - 0 1"
    moves = "b5a3 b10a10 a3b5 a10b10 b5a3 b10a10 a3b5 a10b10".split()
    assert same("xiangqi", fen, tuple(moves))[1] == (1, "perpetual chase")
    assert same("manchu", fen, tuple(moves))[1] == (0, "repetition")
    fen = "1r1k3/7/7/1N5/7/7/2K4 w - - 0 1"
    moves = "b4a2 b7a7 a2b4 a7b7 b4a2 b7a7 a2b4 a7b7".split()
    assert same("minixiangqi", fen, tuple(moves))[1] == (0, "repetition")


def test_random_repetition_games_agree_with_pyffish():
    """A few dense games from chase_oracle (a chase played twice over, other cycles, random
    moves): the same legal moves and result as Fairy-Stockfish at every ply, and the rule met.
    The larger sweep: ``python tests/chase_oracle.py`` (docs/variants/xiangqi.md)."""
    reasons: dict[str, int] = {}
    for seed in ("suite4", "suite11"):
        log = chase_oracle.play("xiangqi", games=4, plies=40, seed=seed,
                                fens=chase_oracle.FENS[1:])
        assert not log.differences, log.differences
        for k, n in log.reasons.items():
            reasons[k] = reasons.get(k, 0) + n
    assert {"perpetual chase", "perpetual check", "repetition"} <= set(reasons), reasons


# ---- the key ------------------------------------------------------------------------------
def test_the_key_is_inherited_turned_off_and_checked():
    pyffish.load_variant_config("[chasexq:xiangqi]\n[nochasexq:xiangqi]\nchasingRule = none\n")
    chasing = one("[chasexq:xiangqi]\n")
    plain = one("[nochasexq:xiangqi]\nchasingRule = none\n")
    for v, name, want in ((chasing, "chasexq", (1, "perpetual chase")),
                          (plain, "nochasexq", (0, "repetition"))):
        from engine.notation import parse_position
        pos = parse_position(v, CHASE)
        for t in CHASE_MOVES:
            pos.make({move_text(v, m): m for m in legal_moves(pos)}[t])
        assert game_result(pos) == want
        assert _fsf(name, CHASE, CHASE_MOVES) == (True, 32000 if want[0] else 0)
    assert problems("[bad:xiangqi]\nchasingRule = asian\n") == [
        "f.ini:2: [bad] chasingRule: not none or axf (asian)"]


# ---- the searcher and the protocol --------------------------------------------------------
def test_the_searcher_scores_the_chase_as_a_loss():
    """One ply before the third occurrence, the rook's move back to b1 loses at once for the
    searcher as for the referee; it plays another move."""
    pos = after("xiangqi", CHASE, CHASE_MOVES[:-1])
    v = pos.variant
    back = {move_text(v, m): m for m in legal_moves(pos)}["a1b1"]
    s = Searcher(v)
    _, _, score = s.search(pos, Limits(depth=2, searchmoves=[back]), threading.Event())
    assert score is not None and score <= -MATE_BOUND
    best, _, score = s.search(pos, Limits(depth=2), threading.Event())
    assert best != back and score is not None and score > -MATE_BOUND


def test_protocol_reports_the_chase(eng):
    eng.ask("uci", "uciok")
    eng.send("setoption name UCI_Variant value xiangqi")
    eng.send(f"position fen {CHASE} moves {' '.join(CHASE_MOVES[:-1])}")
    lines = eng.ask("go depth 2 searchmoves a1b1", lambda line: line.startswith("bestmove"))
    # lost by the move itself: "mate 0", as the protocol writes a loss on the move
    assert [line.split(" score ")[1].split()[:2] for line in lines if " score " in line][-1] \
        == ["mate", "0"], lines
    lines = eng.ask("go depth 2", lambda line: line.startswith("bestmove"))
    assert lines[-1] != "bestmove a1b1"
    eng.send(f"position fen {CHASE} moves {' '.join(CHASE_MOVES)}")
    lines = eng.ask("d", lambda line: line.startswith("Game state"))
    assert lines[-1] == "Game state: black wins (perpetual chase)"
