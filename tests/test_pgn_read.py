"""Reading PGN back (match/pgn_read.py): python-chess's PGN, our own PGN of every 2D variant,
the usual liberties of hand-written SAN, and bad PGN refused with one message."""
from __future__ import annotations

import random

import chess
import chess.pgn
import pytest

import variants
from engine.movegen import legal_moves
from engine.notation import NotationError, format_position, move_text, parse_position
from match.pgn_read import PgnError, read_pgn
from match.records import san, to_pgn

KNOWN = variants.builtin_names()
TWO_D = [n for n in KNOWN if variants.get(n).geometry.dims == 2]


def random_game(name: str, seed: int, plies: int) -> list[str]:
    v = variants.get(name)
    pos = v.start_position()
    rng = random.Random(seed)
    moves = []
    for _ in range(plies):
        legal = legal_moves(pos)
        if not legal:
            break
        m = rng.choice(legal)
        moves.append(move_text(v, m))
        pos.make(m)
    return moves


def record(name: str, moves: list[str]) -> dict:
    v = variants.get(name)
    n = len(moves)
    return {"game": 0, "variant": name, "dialect": "uci",
            "start": format_position(v.start_position()), "white": "a", "black": "b",
            "result": "*", "reason": "unterminated", "opening": [], "moves": moves,
            "scores": [None] * n, "depths": [None] * n, "times_ms": [None] * n}


def test_python_chess_pgn_reads_to_the_same_moves():
    rng = random.Random(3)
    for _ in range(20):
        board = chess.Board()
        game = chess.pgn.Game()
        node = game
        for _ in range(rng.randrange(20, 120)):
            legal = list(board.legal_moves)
            if not legal:
                break
            mv = rng.choice(legal)
            node = node.add_variation(mv, comment=rng.choice(["", "a comment"]))
            board.push(mv)
        want = [m.uci() for m in board.move_stack]
        # no Variant tag: the variant the caller names; "Standard" is chess
        assert read_pgn(str(game), "chess", KNOWN) == ("chess", chess.STARTING_FEN, want)
        name, start, moves = read_pgn('[Variant "Standard"]\n' + str(game), "shogi", KNOWN)
        assert name == "chess" and moves == want


def test_own_pgn_of_every_2d_variant_reads_back():
    for k, name in enumerate(TWO_D):
        moves = random_game(name, k, 120)
        got = read_pgn(to_pgn(record(name, moves)), "chess", KNOWN)
        assert got[0] == name and got[2] == moves, name


@pytest.mark.parametrize("name", TWO_D)
def test_san_names_one_move(name):
    """Every legal move's SAN is its own (the reader relies on it) over random games.  A
    budget of SANs per game keeps the games whose positions have thousands of moves (the
    duck's, amazons' arrows) to fewer plies: each position is still checked whole.  Two games
    a variant (three until 29 Nov 2026: the 141 variants' third games cost the suite 5 s)."""
    v = variants.get(name)
    for seed in range(2):
        pos = v.start_position()
        rng = random.Random(seed)
        budget = 8000
        for _ in range(120):
            legal = legal_moves(pos)
            budget -= len(legal)
            if not legal or budget < 0:
                break
            sans = [san(v, pos, m, legal) for m in legal]
            assert len(set(sans)) == len(sans), format_position(pos)
            pos.make(rng.choice(legal))


def test_liberties_comments_variations_and_setup():
    text = """[Event "x"]
[SetUp "1"]
[FEN "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"]

3. Bb5 {Ruy Lopez} a6 $6 (3... Nf6 4. 0-0) 4. Bc6 dxc6 5. 0-0! f6 6. d2d4 e5d4
7. Nf3xd4 c5 8. Nb3 Qd1 9. Rxd1+ ; a wrong check mark is forgiven
*
[Event "second game, not read"]
1. e4 *"""
    name, start, moves = read_pgn(text, "chess", KNOWN)
    assert start.startswith("r1bqkbnr/pppp1ppp/2n5/")
    assert moves == ["f1b5", "a7a6", "b5c6", "d7c6", "e1g1", "f7f6", "d2d4", "e5d4", "f3d4",
                     "c6c5", "d4b3", "d8d1", "f1d1"]


def test_shogi_promotion_declined_is_written_and_read():
    """'N+' promotes; a declined promotion is written 'N=' so that a check mark reads as one."""
    v = variants.get("shogi")
    fen = "4k4/9/9/9/1N7/9/9/9/4K4[-] w 0 1"
    pos = parse_position(v, fen)
    legal = legal_moves(pos)
    written = {move_text(v, m): san(v, pos, m, legal) for m in legal
               if move_text(v, m).startswith("b5c7")}
    assert written == {"b5c7": "Nc7=", "b5c7+": "Nc7+"}
    for text, want in [("Nc7=", "b5c7"), ("Nc7+", "b5c7+"), ("b5c7", "b5c7")]:
        assert read_pgn(f'[Variant "shogi"]\n[FEN "{fen}"]\n1. {text} *', "chess",
                        KNOWN)[2] == [want]


@pytest.mark.parametrize("text,message", [
    ("1. e5", "ply 1: move 'e5' is not legal"),
    ("1. e4 e5 2. Ke3", "ply 3"),
    ('[Variant "elefantnichtschach"]\n*', "3D board"),
    ('[Variant "nochess"]\n*', "unknown variant"),
    ("1. e4 (1. d4", "never closed"),
    ("1. e4 {x", "never closed"),
    ('[SetUp "1"]\n1. e4', "without a FEN"),
])
def test_bad_pgn_one_message(text, message):
    with pytest.raises(PgnError, match=message.replace("(", r"\(")):
        read_pgn(text, "chess", KNOWN)


def test_bad_fen_is_a_notation_error():
    with pytest.raises(NotationError):
        read_pgn('[SetUp "1"]\n[FEN "8/8 w"]\n1. e4', "chess", KNOWN)
