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


def test_a_mutual_chase_is_a_draw():
    """From a random game (tests/chase_oracle.py): White's rook runs between b6 and a6, Black's
    horse between c6 and b8; every rook move attacks the unprotected horse (along the b-file,
    or along the sixth rank it opened), every horse move the rook (from b8, or by the cannon
    on f6 that it screens on c6): both sides chase, the third occurrence is a draw."""
    fen = "4k4/4a4/9/9/2n1c4/9/9/4R4/9/3K5 w - - 0 1"
    moves = "d1d2 e6f6 e3e6 c6b4 e6b6 b4c6 b6a6 c6b8 a6b6 b8c6 b6a6 c6b8 a6b6 b8c6".split()
    assert same("xiangqi", fen, tuple(moves[:-1]))[1] is None
    _, r, _ = same("xiangqi", fen, tuple(moves))
    assert r == (0, "mutual chase") and _fsf("xiangqi", fen, moves) == (True, 0)
    pos = after("xiangqi", fen, moves)
    them, us = pos.variant.chases(pos)
    assert len(them) == len(us) == 1


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


# A random game in which each side gives check nearly whenever it can (no third occurrence):
# over the plies the move rule counts, one side gave far more than ten checks, and
# Fairy-Stockfish's xiangqi waits two plies more for each check beyond ten (134 plies here)
LONG = "3k5/9/9/9/2n6/6R2/9/2C6/9/4K4 w - - 0 1"
LONG_MOVES = (
    "g5g10 d10d9 g10g9 d9d10 g9g10 d10d9 g10g9 d9d10 g9d9 d10d9 c3c1 d9d10 c1c5 c6a5 "
    "c5c8 a5c6 c8e8 c6b8 e8f8 b8d9 f8d8 d9b8 d8g8 b8a10 g8f8 a10c9 f8i8 c9b7 "
    "i8i5 d10d9 i5d5 d9d8 d5a5 b7a9 a5a2 d8d9 a2g2 d9d10 g2g10 a9c10 g10e10 c10a9 "
    "e10i10 d10d9 i10a10 a9b7 a10a8 b7d8 e1e2 d8c6 a8f8 c6d4 e2e3 d4c2 e3e2 c2d4 "
    "e2e3 d4f5 e3e2 f5g3 e2e1 g3f1 f8f2 d9d10 f2b2 d10d9 b2d2 f1h2 d2d4 h2f3 "
    "e1e2 f3g1 e2e1 g1f3 e1f1 f3d2 f1f2 d2e4 f2f1 e4g3 f1f2 g3e4 f2f3 e4d2 "
    "f3f2 d9d8 d4d5 d2e4 f2e2 e4c3 e2e1 c3a4 d5f5 d8d9 f5g5 a4c3 g5f5 d9d10 "
    "f5f1 c3a2 f1f5 a2b4 f5f1 b4d3 e1e2 d3f4 f1f3 f4h5 f3f9 h5f4 e2f2 f4d3 "
    "f2e2 d3f4 e2e3 f4g2 e3f3 g2e1 f3e3 e1c2 e3f3 c2d4 f3e3 d4c2 e3e2 c2d4 "
    "e2f2 d10e10 f9a9 e10d10 a9h9 d4b3 h9h10 b3c1 h10i10 c1d3 f2f1 d3c1 i10i8 c1b3 "
    "f1e1 b3a5 i8i9 a5b3").split()


def test_a_long_series_of_checks_delays_the_move_rule():
    for n, want in ((110, None), (143, None), (144, (0, "50-move rule"))):
        _, r, _ = same("xiangqi", LONG, tuple(LONG_MOVES[:n]))
        assert r == want, n
    pos = after("xiangqi", LONG, LONG_MOVES)
    assert (pos.halfmove, pos.variant.move_rule_extension(pos)) == (134, 34)


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


def test_pieces_of_other_keys_chase_and_are_chased_by_their_own_moves():
    """A section inheriting xiangqi with two custom pieces (a knight ``x``, a ``WfF`` ``y``):
    the ``y`` on b10/b9 chases Black's unprotected rook on c10 (the ``y``'s side loses); Black's
    horse on h6/f7 chases White's unprotected ``y`` on f5/g5 (the horse's side loses).  The
    custom pieces move by the engine's own tables."""
    ini = "[chasecustom:xiangqi]\ncustomPiece1 = x:N\ncustomPiece2 = y:WfF\n"
    pyffish.load_variant_config(ini)
    v = one(ini)
    from engine.notation import parse_position
    for fen, moves, want in (
            ("RYr6/9/3k5/9/6y2/9/9/2n1K4/2y6/9 w - - 0 1", "b10b9 c3b5 b9b10 b5c3", -1),
            ("9/9/3k5/1x7/7n1/C4Y3/4c4/9/6N2/4K1y2 w - - 0 1", "f5g5 h6f7 g5f5 f7h6", 1)):
        cycle = moves.split() * 2
        pos = parse_position(v, fen)
        for t in cycle:
            pos.make({move_text(v, m): m for m in legal_moves(pos)}[t])
        assert game_result(pos) == (want, "perpetual chase")
        assert _fsf("chasecustom", fen, cycle) == (True, 32000 * want)



def test_a_custom_hopper_chases_by_hopping():
    """A custom ``pR`` hopper (``y``) on a9 attacks Black's unprotected horse on i9 over the
    cannon on f9; from h9 the cannon attacks it over the hopper: White chases the horse at
    every move and loses.  The hopper's attack is read from the engine's hop tables."""
    ini = "[chasehop:xiangqi]\ncustomPiece1 = x:mRcpR\ncustomPiece2 = y:pR\n"
    pyffish.load_variant_config(ini)
    v = one(ini)
    from engine.notation import parse_position
    fen = "2xk5/Y4C2n/9/2r6/9/9/9/4NK3/N6y1/9 w - - 0 1"
    cycle = "a9h9 c10b10 h9a9 b10c10".split() * 2
    pos = parse_position(v, fen)
    for t in cycle:
        pos.make({move_text(v, m): m for m in legal_moves(pos)}[t])
    assert game_result(pos) == (-1, "perpetual chase")
    assert _fsf("chasehop", fen, cycle) == (True, -32000)


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
