"""Knavish Chess through the protocol loop (the installed `cellfish` command): the variant announcement,
`d` with the 10x10 board and the hand, `go perft`, and a complete self-play game of each variant
with every bestmove checked legal by the core."""

import pytest

import variants
from engine.movegen import legal_moves
from engine.notation.move_text import move_text
from engine.notation.position_text import format, parse
from tests.engine_proc import EngineProcess
from selfplay import play_game

NAMES = ["knavish", "knavish8", "knavish-kneader", "knavish-promotion", "knavish-returns",
         "knavish8-promotion", "knavish8-returns"]


@pytest.fixture
def engine():
    e = EngineProcess()
    e.send("uci")
    e.expect("uciok")
    yield e
    e.close()


def test_announcement_for_every_knavish_variant(engine):
    for name in NAMES:
        v = variants.get(name)
        engine.send(f"setoption name UCI_Variant value {name}")
        engine.send("isready")
        out = engine.expect("readyok")
        ann = [line for line in out if line.startswith("info string variant")]
        assert len(ann) == 1, out
        words = ann[0].split()
        assert words[3] == name
        assert words[words.index("files") + 1] == str(v.files)
        assert words[words.index("ranks") + 1] == "10"
        assert ann[0].split(" startpos ", 1)[1] == v.start_fen


def test_board_and_hand_shown_by_d(engine):
    engine.send("setoption name UCI_Variant value knavish-returns")
    # 1. e3e5 d8d6 2. e5xd6 (e.p. not needed: a plain capture) gives White a Pawn in hand
    engine.send("position startpos moves e3e5 d8d6 e5d6")
    engine.send("d")
    out = engine.expect("Fen:")
    board = [line for line in out if line[:3].strip().isdigit()]
    assert [line[:3].strip() for line in board] == [str(r) for r in range(10, 0, -1)]
    assert all(len(line.split()) == 11 for line in board)            # rank label + 10 cells
    assert out[out.index(board[-1]) + 1].split() == list("abcdefghij")
    assert "Hand: P" in out
    v = variants.get("knavish-returns")
    pos = parse(v, v.start_fen)
    for t in ("e3e5", "d8d6", "e5d6"):
        pos.make(next(m for m in legal_moves(pos) if move_text(v, m) == t))
    assert out[-1] == f"Fen: {format(pos)}"
    assert format(pos).split()[0].endswith("[P]")


def test_perft_through_protocol(engine):
    engine.send("setoption name UCI_Variant value knavish-promotion")
    engine.send("position fen 1dn1cc1nd1/1dnbqkbndr/1ppppppppp/10/10/10/10/1PPPPPPPPP/RDNBQKBNDR/1DN1CC1ND1 w KQkq - 0 1")
    engine.send("go perft 2")
    out = engine.expect("Nodes searched", 60)
    assert out[-1].split(":")[1].strip() == "1463"
    assert any(line.startswith("a2a10+:") for line in out)


@pytest.mark.parametrize("name", NAMES)
def test_complete_self_play_game(name):
    """A whole game at `go depth 1` (tests/selfplay.py): every bestmove one of the core's legal
    moves, the game ends by the rules, the engine then agrees it is over, and `d` shows the
    core's final position.  Observed (depth 1 is deterministic):
      knavish 179 plies, draw by stalemate;
      knavish8 125 plies, white wins by checkmate;
      knavish-kneader 119 plies, draw by repetition;
      knavish-promotion 86 plies, black wins by checkmate;
      knavish-returns 81 plies, white wins by checkmate;
      knavish8-promotion 163 plies, white wins by checkmate;
      knavish8-returns 90 plies, black wins by checkmate.
    (Only 'a result, legal moves only' is asserted: a change to the search or the rules
    may change these games.)"""
    game = play_game(name, "uci", "go depth 1")
    assert game.result is not None
    assert game.plies >= 10
    if name.endswith("-returns"):
        assert any("@" in t for t in game.moves), "no capture was ever returned to the board"
