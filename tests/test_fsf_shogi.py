"""Fairy-Stockfish's shogi-template built-ins shipped in variants/files/fairy-shogi.ini
(Dobutsu shogi, Sho shogi), proven equal to Fairy-Stockfish (pyffish) under their own names:
the same start text, perft 1-3 from the start, random games steered to drops and promotions
with the same legal move texts, position text and result at every ply, a named position for
each rule, and a game through USI."""
from __future__ import annotations

import pyffish
import pytest
from fsf_oracle import fsf_perft, kinds_allowed, play_random_games, same
from selfplay import play_game

import variants
from engine.game import perft
from engine.notation import parse_position
from engine.notation.position_text import format as format_position

GAMES = {"dobutsu": 3, "shoshogi": 3}


def test_every_section_of_the_file_is_tested_here_and_speaks_usi():
    path = variants.SHIPPED_DIR + "/fairy-shogi.ini"
    assert set(variants.shipped_names_of(path)) == set(GAMES)
    assert set(GAMES) <= set(pyffish.variants())
    assert all(variants.get(n).template == "shogi" for n in GAMES)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_start_text_and_perft_equal_fairy_stockfish(name):
    v = variants.get(name)
    fen = pyffish.start_fen(name)
    assert v.start_fen == fen
    pos = parse_position(v, fen)
    assert format_position(pos) == pyffish.get_fen(name, fen, [])
    for depth in range(1, GAMES[name] + 1):
        assert perft(pos, depth) == fsf_perft(name, fen, [], depth), (name, depth)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_random_games_equal_fairy_stockfish(name):
    """Dobutsu's games are short (a lion is soon taken or tries): ten of them, each to its
    end, ends by the lion's capture and by its try among them; Sho shogi: one long game."""
    if name == "dobutsu":
        log = play_random_games(name, games=10, plies=60)
        assert {r[1] for r in log.results if r} >= {"extinction", "flag"}, log.results
    else:
        log = play_random_games(name, games=1, plies=100)
    assert kinds_allowed(name) <= log.kinds, (name, kinds_allowed(name) - log.kinds)



# ---- Dobutsu ----------------------------------------------------------------------------------

def test_the_lions_try_wins_only_where_it_cannot_be_taken():
    # b3b4 reaches the far rank beside Black's giraffe: no win, the giraffe may take it
    moves, r, _ = same("dobutsu", "g2/1L1/2l/3[] w - - 0 1", ("b3b4",))
    assert r is None and "a4b4" in moves
    # b3c4: no black piece reaches c4, White has won (Black, to move, has lost)
    assert same("dobutsu", "3/1L1/l2/3[] w - - 0 1", ("b3c4",))[1] == (-1, "flag")
    # a lion that stood on its far rank through the other side's move wins for the side to
    # move: Black's lion on b1 is safe, White's on b4 is not
    assert same("dobutsu", "gL1/3/3/1l1[] b - - 0 1")[1] == (1, "flag")
    assert same("dobutsu", "gL1/3/3/1l1[] w - - 0 1")[1] == (-1, "flag")
    # both lions safe on their far ranks: a draw
    assert same("dobutsu", "1L1/3/3/1l1[] w - - 0 1")[1] == (0, "flag")


def test_the_lion_is_no_king_it_may_stand_attacked_and_its_capture_loses():
    moves, _, _ = same("dobutsu", "2l/3/g2/1L1[] w - - 0 1")
    assert {"b1a1", "b1b2"} <= set(moves)              # cells Black's giraffe attacks
    _, r, _ = same("dobutsu", "g2/1L1/2l/3[] w - - 0 1", ("b3c2",))
    assert r == (-1, "extinction")                      # Black's lion is taken


def test_the_chick_must_become_a_hen_and_a_taken_hen_is_a_chick_in_hand():
    moves, _, _ = same("dobutsu", "1l1/C2/3/1L1[] w - - 0 1")
    assert [t for t in moves if t.startswith("a3")] == ["a3a4+"]
    _, _, text = same("dobutsu", "l2/+C2/1E1/1L1[] b - - 0 1", ("a4a3",))
    assert text == "3/l2/1E1/1L1[c] w - - 0 2"
    moves, _, _ = same("dobutsu", "1l1/3/1L1/3[C] w - - 0 1")
    assert {"C@a4", "C@c1"} <= {t for t in moves if "@" in t}   # any empty cell, the last rank too


# ---- Sho shogi --------------------------------------------------------------------------------

def test_the_drunk_elephant_steps_anywhere_but_straight_back_and_becomes_a_crown_prince():
    moves, _, _ = same("shoshogi", "4k4/9/9/9/9/9/9/4E4/K8 w 0 1")
    assert sorted(t for t in moves if t.startswith("e2")) == \
        ["e2d1", "e2d2", "e2d3", "e2e3", "e2f1", "e2f2", "e2f3"]
    moves, _, _ = same("shoshogi", "4k4/9/9/4E4/9/9/9/9/K8 w 0 1")
    assert {"e6e7", "e6e7+"} <= set(moves)
    _, _, text = same("shoshogi", "4k4/9/9/4E4/9/9/9/9/K8 w 0 1", ("e6e7+",))
    assert text.startswith("4k4/9/4+E4/")


def test_with_a_crown_prince_the_king_is_no_longer_royal_and_a_capture_leaves_the_hand_empty():
    # two king pieces: the king may step where the promoted knight attacks it (e9)
    fen = "3+N1k2s/l7l/psn3gp1/8p/3p2P2/P6+eP/1GK6/L7L/2S4G1 b - - 1 51"
    assert "f9e9" in same("shoshogi", fen)[0]
    # the king taken, the crown prince plays on; taken pieces go to no hand
    fen = "4k4/9/9/9/9/9/+e8/4R4/K8 w 0 1"
    moves, r, text = same("shoshogi", fen, ("e2e9",))
    assert r is None and moves and "[" not in text
    # the crown prince taken, the king is royal again: Black must meet the rook's check
    fen = "4k4/9/9/9/9/9/4+e4/4R4/K8 w 0 1"
    moves, _, _ = same("shoshogi", fen, ("e2e3",))
    assert moves and all(not t.startswith("e9e") for t in moves)


# ---- USI ---------------------------------------------------------------------------------------

# Both games also go through tests/test_fsf_builtins.py's USI test (every shogi-template
# section of the fairy*.ini files): along a random game sent in USI move text, the engine's
# SFEN and its perft 1 moves are Fairy-Stockfish's.

def test_dobutsu_plays_to_its_end_through_usi():
    """The engine plays both sides in USI (its moves checked legal at every ply) until the
    game ends, by a capture of a lion or by a try."""
    game = play_game("dobutsu", "usi", ply_cap=300)
    assert game.result is not None
