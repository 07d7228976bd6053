"""More of Fairy-Stockfish's built-in games, shipped in variants/files/fairy-more.ini (Pawnback,
Joust, Wolf chess, Ataxx), proven equal to Fairy-Stockfish (pyffish) under their own names:
the same start text, perft 1-3 from the start (2 where 3 is large), random games steered to
the special moves with the same legal move texts, position text and result at every ply, a
named position for each rule, and a game through the protocol under each name."""
from __future__ import annotations

import pyffish
import pytest
from engine_proc import EngineProcess
from fsf_oracle import fsf_perft, kinds_allowed, play_random_games, same

import variants
from engine.game import perft
from engine.notation import parse_position
from engine.notation.position_text import format as format_position

# name -> the depth of the start perft compared (3 unless depth 3 is large)
GAMES = {"pawnback": 3, "joust": 3, "wolf": 2, "ataxx": 3}


def test_every_section_of_the_file_is_tested_here_and_is_a_fairy_stockfish_built_in():
    path = variants.SHIPPED_DIR + "/fairy-more.ini"
    assert set(variants.shipped_names_of(path)) == set(GAMES)
    assert set(GAMES) <= set(pyffish.variants())


@pytest.mark.parametrize("name", sorted(GAMES))
def test_start_text_and_perft_equal_fairy_stockfish(name):
    v = variants.get(name)
    fen = pyffish.start_fen(name)
    assert v.start_fen == fen
    pos = parse_position(v, fen)
    assert format_position(pos) == pyffish.get_fen(name, fen, [])
    for depth in range(1, GAMES[name] + 1):
        assert perft(pos, depth) == fsf_perft(name, fen, [], depth), (name, depth)


NEAR_PROMOTION = {"pawnback": "rnbqkbn1/pppppppP/8/8/8/8/PPPPPPPp/RNBQKBN1 w Qq - 0 1",
                  "wolf": "1wf1bbnk/P1sppss1/8/8/8/8/8/8/1SSPPSSp/KNBB1FWQ w - - 0 1"}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_random_games_equal_fairy_stockfish(name):
    """Random games (Joust's and Ataxx's to their end) with every special kind of move the
    start allows played and agreed on; the named positions below prove each rule besides."""
    log = play_random_games(name, games=1 if name != "joust" else 2, plies=60 if name != "ataxx" else 110)
    if name in NEAR_PROMOTION:                  # and a game whose pawns are about to promote
        near = play_random_games(name, games=1, plies=30, fen=NEAR_PROMOTION[name])
        log.kinds |= near.kinds
    assert kinds_allowed(name) <= log.kinds, (name, kinds_allowed(name) - log.kinds)
    if name in ("joust", "ataxx"):
        assert all(r is not None for r in log.results), log.results    # each game ended



def test_pawnback_pawns_step_back_but_not_onto_their_first_rank_and_keep_the_move_count():
    fen = "4k3/8/8/8/4P3/8/3P4/4K3 w - - 3 10"
    moves, _, _ = same("pawnback", fen)
    assert {"e4e3", "e4e5", "d2d3", "d2d4"} <= set(moves) and "d2d1" not in moves
    # no pawn move restarts the count (nMoveRuleTypes is empty): only a capture does
    assert same("pawnback", fen, ("e4e3",))[2].endswith(" 4 10")
    assert same("pawnback", fen, ("d2d4",))[2].endswith(" 4 10")
    assert same("pawnback", "4k3/8/8/3p4/4P3/8/8/4K3 w - - 7 30", ("e4d5",))[2].endswith(" 0 30")


def test_a_jousting_knight_never_captures_and_leaves_a_wall_behind():
    fen = "8/8/8/8/8/2n5/8/1N6 w - - 0 1"
    moves, _, _ = same("joust", fen)
    assert moves == ["b1a3,a3b1", "b1d2,d2b1"]        # c3 is the other knight: no capture
    assert same("joust", fen, ("b1a3,a3b1",))[2].startswith("8/8/8/8/8/N1n5/8/1*6 ")
    # walled in: no move loses
    moves, r, _ = same("joust", "8/8/8/8/8/1*6/2*5/N7 w - - 0 1")
    assert moves == [] and r == (-1, "stalemate")


def test_wolf_sergeants_double_step_leaves_two_en_passant_cells():
    """A sergeant's double step b8b6 leaves b7 and b6 (the cell it reached) to take en
    passant: the white pawn on a6 takes on b7 and removes the sergeant."""
    fen = "k7/8/1s6/8/P7/8/8/8/8/K7 b - - 0 1"
    _, _, text = same("wolf", fen, ("b8b6",))
    assert text.split()[3] == "b6b7"
    moves, _, text = same("wolf", fen, ("b8b6", "a6b7"))
    assert text.startswith("k7/8/8/1P6/8/8/")


def test_wolf_pawn_promotes_to_the_pieces_or_the_elephant_and_the_sergeant_not_to_the_elephant():
    moves, _, _ = same("wolf", "1r6/P6k/8/8/8/8/8/8/8/K7 w - - 0 1")
    assert {t for t in moves if t.startswith("a9a10")} == {f"a9a10{x}" for x in "+bfqrw"}
    moves, _, _ = same("wolf", "1r6/S6k/8/8/8/8/8/8/8/K7 w - - 0 1")
    assert {t for t in moves if t.startswith("a9a10")} == {f"a9a10{x}" for x in "bfqrw"}
    _, _, text = same("wolf", "1r6/P6k/8/8/8/8/8/8/8/K7 w - - 0 1", ("a9b10+",))
    assert text.startswith("1+P6/")                   # the elephant, a promoted pawn


def test_ataxx_clones_beside_its_pieces_jumps_two_cells_and_flips_its_neighbours():
    start = pyffish.start_fen("ataxx")
    moves, _, _ = same("ataxx", start)
    assert sorted(t for t in moves if "@" in t) == ["P@a6", "P@b6", "P@b7", "P@f1", "P@f2", "P@g2"]
    assert {"a7c5", "a7c7", "a7a5", "g1e3"} <= set(moves) and "a7b6" not in moves
    # a drop takes nothing from a hand (none is written) and restarts the count; a jump
    # counts on; the black piece on b2 next to where White's jump lands turns white
    assert same("ataxx", start, ("P@b6",))[2] == "P5p/1P5/7/7/7/7/p5P b - - 0 1"
    _, _, text = same("ataxx", start, ("a7c5", "P@b2", "c5c3"))
    assert text == "6p/7/7/7/2P4/1P5/p5P b - - 1 2"


def test_ataxx_passes_without_a_move_and_ends_by_the_count():
    boxed = "Ppp4/ppp4/ppp4/7/7/7/7 w 0 1"
    assert same("ataxx", boxed)[0] == ["a7a7"]          # a pass: White's piece stays
    assert same("ataxx", boxed, ("a7a7",))[2] == "Ppp4/ppp4/ppp4/7/7/7/7 b - - 1 1"
    # a full board: more pieces win
    moves, r, _ = same("ataxx", "PPPPPPP/PPPPPPP/PPPPPPP/PPPPPPP/PPPPPPP/PPPPPPp/PPPPPPp w 0 1")
    assert moves == [] and r == (1, "piece count")
    # no piece left: no move, and fewer pieces lose
    moves, r, _ = same("ataxx", "7/7/7/7/7/7/p6 w 0 1")
    assert moves == [] and r == (-1, "stalemate")
    # a repetition is decided by the count too, not drawn
    rep = ("a7a5", "g1g3", "a5a7", "g3g1") * 2
    assert same("ataxx", "PP5/7/7/7/7/7/6p w 0 1", rep[:-1])[1] is None
    assert same("ataxx", "PP5/7/7/7/7/7/6p w 0 1", rep)[1] == (1, "piece count")


def test_each_game_plays_through_the_protocol_under_its_name():
    """Each game chosen by name: the engine's position text after moves is Fairy-Stockfish's,
    and its best move is a legal one."""
    eng = EngineProcess()
    try:
        eng.ask("uci", "uciok")
        for name, line in (("pawnback", "e2e4 e7e5 e4e3"), ("joust", "d4c6,c6d4"),
                           ("wolf", "b3b5 h9h7 b5b6 c8c6"), ("ataxx", "a7c5 P@b2 c5c3")):
            eng.send(f"setoption name UCI_Variant value {name}")
            eng.send(f"position startpos moves {line}")
            eng.send("d")
            fen = eng.expect(lambda ln: ln.startswith("Fen:"))[-1].split(None, 1)[1]
            start = pyffish.start_fen(name)
            assert fen == pyffish.get_fen(name, start, line.split()), name
            eng.send("go depth 2")
            best = eng.expect("bestmove")[-1].split()[1]
            assert best in pyffish.legal_moves(name, start, line.split()), (name, best)
    finally:
        eng.close()
