"""Fairy-Stockfish's built-in board games and Chess960 games, shipped in
variants/files/fairy-games.ini, proven equal to Fairy-Stockfish (pyffish) under their own
names: the same start text, perft 1-3 from the start (depth 2 where depth 3 exceeds about a
million nodes), and random games of 60 plies, steered to captures and special moves, with the
same legal move texts, the same position text and the same result at every ply; then each
plays through the protocol under its name."""
from __future__ import annotations

import random

import pyffish
import pytest
from engine_proc import EngineProcess
from selfplay import play_game

import variants
from engine.game import game_result, perft
from engine.movegen import legal_moves
from engine.moves import CASTLE
from engine.notation import move_text, parse_position
from engine.notation.position_text import format as format_position

# name -> the depth of the start perft compared (3 unless depth 3 exceeds ~1M nodes)
GAMES = {"breakthrough": 3, "clobber": 3, "clobber10": 2}


def fsf_perft(name: str, fen: str, moves: list[str], depth: int) -> int:
    ms = pyffish.legal_moves(name, fen, moves)
    if depth == 1:
        return len(ms)
    return sum(fsf_perft(name, fen, moves + [m], depth - 1) for m in ms)


def fsf_result(name: str, fen: str, moves: list[str], legal: list[str]) -> int | None:
    """Fairy-Stockfish's result for the side to move (1, 0, -1) or None."""
    def sign(x: int) -> int:
        return (x > 0) - (x < 0)
    end, value = pyffish.is_immediate_game_end(name, fen, moves)
    if end:
        return sign(value)
    if not legal:
        return sign(pyffish.game_result(name, fen, moves))
    end, value = pyffish.is_optional_game_end(name, fen, moves)
    return sign(value) if end else None


def test_every_section_of_the_file_is_tested_here_and_is_a_fairy_stockfish_built_in():
    from variants.inifile.parse import parse_text
    path = variants.SHIPPED_DIR + "/fairy-games.ini"
    with open(path, encoding="utf-8") as f:
        names = {s.name for s in parse_text(f.read(), path)[0]}
    assert names == set(GAMES)
    assert names <= set(pyffish.variants())


@pytest.mark.parametrize("name", sorted(GAMES))
def test_start_text_and_perft_equal_fairy_stockfish(name):
    v = variants.get(name)
    fen = pyffish.start_fen(name)
    assert v.start_fen == fen
    pos = parse_position(v, fen)
    # the text a position is written in: Fairy-Stockfish's full form (get_fen)
    assert format_position(pos) == pyffish.get_fen(name, fen, [])
    for depth in range(1, GAMES[name] + 1):
        assert perft(pos, depth) == fsf_perft(name, fen, [], depth), (name, depth)


def play_random_games(name: str, games: int = 4, plies: int = 60, fen: str | None = None,
                      special=lambda pos, m: False) -> set[str]:
    """Random games against pyffish: at every ply the same legal move texts, position text and
    result; captures and the moves ``special`` names are preferred.  Returns the game ends."""
    v = variants.get(name)
    fen = fen or pyffish.start_fen(name)
    rng = random.Random(name)
    ends: set[str] = set()
    for _ in range(games):
        pos = parse_position(v, fen)
        moves: list[str] = []
        for _ply in range(plies):
            ours = {move_text(v, m): m for m in legal_moves(pos)}
            theirs = set(pyffish.legal_moves(name, fen, moves))
            assert set(ours) == theirs, (name, moves, set(ours) ^ theirs)
            assert format_position(pos) == pyffish.get_fen(name, fen, moves), (name, moves)
            r = game_result(pos, list(ours.values()))
            expected = fsf_result(name, fen, moves, sorted(theirs))
            assert (r[0] if r else None) == expected, (name, moves, r, expected)
            if r is not None:
                ends.add(r[1])
                break
            pick = [t for t, m in ours.items() if special(pos, m)]
            if not pick and rng.random() < 0.5:
                pick = [t for t, m in ours.items() if pos.board[m & 255]]
            t = rng.choice(sorted(pick or ours))
            pos.make(ours[t])
            moves.append(t)
    return ends


@pytest.mark.parametrize("name", ["breakthrough", "clobber", "clobber10"])
def test_random_games_have_fairy_stockfishs_moves_text_and_results(name):
    # every Clobber move takes a piece: a game of 100 pieces lasts fewer than 100 plies
    ends = play_random_games(name, games=6, plies=100 if name == "clobber10" else 60)
    # each game's own ending appears: reaching the far rank (Breakthrough), no move left (Clobber)
    assert ends >= ({"flag"} if name == "breakthrough" else {"stalemate"}), ends


def test_a_breakthrough_piece_on_the_far_rank_wins_and_moves_forward_only():
    v = variants.get("breakthrough")
    # White's piece on a8 has arrived: Black, to move, has lost
    pos = parse_position(v, "P7/8/8/8/8/8/8/7p b 0 1")
    assert game_result(pos, legal_moves(pos))[0] == -1
    # a piece takes diagonally forward, never straight ahead, and never moves back
    pos = parse_position(v, "8/8/8/8/8/pp6/P7/8 w 0 1")
    assert sorted(move_text(v, m) for m in legal_moves(pos)) == ["a2b3"]
    pos = parse_position(v, "8/8/8/8/8/p7/1P6/8 w 0 1")
    assert sorted(move_text(v, m) for m in legal_moves(pos)) == ["b2a3", "b2b3", "b2c3"]


def test_a_clobber_piece_only_moves_by_taking_an_orthogonal_neighbour():
    v = variants.get("clobber")
    pos = parse_position(v, "5/5/5/1p3/pP3/5 w 0 1")
    assert sorted(move_text(v, m) for m in legal_moves(pos)) == ["b2a2", "b2b3"]


@pytest.fixture(scope="module")
def engine():
    eng = EngineProcess()
    lines = eng.ask("uci", "uciok")
    combo = next(ln for ln in lines if ln.startswith("option name UCI_Variant"))
    assert all(f" var {n} " in combo + " " for n in GAMES), combo
    yield eng
    eng.close()


@pytest.mark.parametrize("name", sorted(GAMES))
def test_each_game_plays_to_its_end_through_the_protocol_under_its_name(name, engine):
    game = play_game(name, "uci", engine=engine, ply_cap=600)
    assert game.result is not None
