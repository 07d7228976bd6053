"""Notake Shogi through the real protocol loop (the installed `cellfish` command as a subprocess):
a complete self-play game of every form under USI (each bestmove checked legal by our core,
the game played to its end by the rules), a search at depth 2 per form, the only mate
in one found per form, and a short game under UCI with the translated cell names."""
import json
import random
from pathlib import Path

import pytest

import variants
from engine.game import game_result
from engine.movegen import legal_moves
from engine.moves import SPECIAL
from engine.notation.move_text import move_text, parse_move
from engine.notation.position_text import parse
from selfplay import play_game

FORMS = ("approach", "withdraw", "shunt", "tow", "overtake", "rifle")
DATA = json.loads((Path(__file__).parent / "data" / "notake_perft.json").read_text())


def start_usi(eng, form):
    eng.ask("usi", "usiok")
    eng.send(f"setoption name USI_Variant value notake-{form}")
    lines = eng.ask("isready", "readyok")
    assert any(l.startswith(f"info string variant notake-{form} files 9 ranks 9 pocket 0 "
                            "template shogi") for l in lines)


def bestmove(eng, moves, depth, timeout=60):
    eng.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
    return eng.ask(f"go depth {depth}", "bestmove", timeout)[-1].split()[1]


@pytest.mark.parametrize("form", FORMS)
def test_usi_self_play_game(eng, form):
    """A whole game under USI at `go depth 1` (tests/selfplay.py): every bestmove one of the
    core's legal moves, the game ends by the rules, the engine then agrees it is over
    (`bestmove resign` when no move is left), and `d` shows the core's final SFEN.
    Observed (depth 1 is deterministic):
      notake-approach 350 plies, draw by repetition;
      notake-withdraw 82 plies, draw by repetition;
      notake-shunt 191 plies, sente wins by checkmate;
      notake-tow 56 plies, draw by repetition;
      notake-overtake 22 plies, draw by repetition;
      notake-rifle 72 plies, draw by repetition.
    (Only 'a result, legal moves only' is asserted: a change to the search or the rules
    may change these games.)"""
    start_usi(eng, form)
    game = play_game(f"notake-{form}", "usi", "go depth 1", engine=eng)
    assert game.result is not None
    assert any(m & SPECIAL for m in game.codes)       # the engine does use the actions


@pytest.mark.parametrize("form", FORMS)
def test_usi_depth_2_from_a_middle_game(eng, form):
    start_usi(eng, form)
    v = variants.get(f"notake-{form}")
    pos = parse(v, v.start_sfen, "sfen")
    rng = random.Random(form)
    moves = []
    for _ in range(10):
        m = rng.choice(legal_moves(pos))
        moves.append(move_text(v, m, "usi"))
        pos.make(m)
    bm = bestmove(eng, moves, 2)
    assert bm in {move_text(v, m, "usi") for m in legal_moves(pos)}


@pytest.mark.parametrize("form", FORMS)
def test_usi_finds_the_only_mate_in_one(eng, form):
    sfen, mate = DATA["mate_in_one"][form]
    v = variants.get(f"notake-{form}")
    pos = parse(v, sfen, "sfen")
    mates = []
    for m in legal_moves(pos):
        pos.make(m)
        if game_result(pos) == (-1, "checkmate"):
            mates.append(move_text(v, m, "usi"))
        pos.unmake()
    assert mates == [mate]
    start_usi(eng, form)
    eng.send(f"position sfen {sfen}")
    lines = eng.ask("go depth 2", "bestmove", 60)
    assert lines[-1].split()[1] == mate
    assert any(" score mate 1 " in l for l in lines)


def test_uci_dialect_game_uses_translated_cells(eng):
    eng.ask("uci", "uciok")
    eng.send("setoption name UCI_Variant value notake-overtake")
    eng.ask("isready", "readyok")
    v = variants.get("notake-overtake")
    pos = parse(v, v.start_fen)
    moves = ["h2h5,h3"]                               # USI 2h2e,2g: the Rook jumps its Pawn
    pos.make(parse_move(v, legal_moves(pos), moves[0], "uci"))
    for _ in range(11):
        eng.send("position startpos moves " + " ".join(moves))
        bm = eng.ask("go depth 1", "bestmove", 60)[-1].split()[1]
        m = parse_move(v, legal_moves(pos), bm, "uci")
        assert move_text(v, m, "uci") == bm
        pos.make(m)
        moves.append(bm)
    eng.send("position startpos moves " + " ".join(moves))
    lines = eng.ask("d", "Game state:")
    from engine.notation.position_text import format
    assert f"Fen: {format(pos)}" in lines
