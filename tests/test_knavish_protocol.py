"""Knavish Chess through the protocol loop (the installed `cellfish` command): the variant announcement,
`d` with the 10x10 board and the hand, `go perft`, and a short self-play game of each variant
with every bestmove checked legal by the core."""

import pytest

import variants
from engine.game import game_result
from engine.movegen import legal_moves
from protocol.move_text import move_text
from protocol.position_text import format, parse
from tests.engine_proc import EngineProcess

NAMES = ["knavish", "knavish8", "knavish-kneader", "knavish-promotion", "knavish-returns",
         "knavish8-promotion", "knavish8-returns"]
PLIES = 24


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
def test_self_play_through_protocol(engine, name):
    v = variants.get(name)
    engine.send(f"setoption name UCI_Variant value {name}")
    engine.send("isready")
    engine.expect("readyok")
    pos = parse(v, v.start_fen)
    played = []
    for _ in range(PLIES):
        engine.send("position startpos" + (" moves " + " ".join(played) if played else ""))
        engine.send("go depth 2")
        best = engine.expect("bestmove", 60)[-1].split()[1]
        legal = legal_moves(pos)
        if not legal:
            assert best == "(none)"
            break
        texts = {move_text(v, m): m for m in legal}
        assert best in texts, f"illegal bestmove {best} after {' '.join(played)}"
        pos.make(texts[best])
        played.append(best)
        if game_result(pos) is not None:
            break
    assert len(played) >= 10
    engine.send("position startpos moves " + " ".join(played))
    engine.send("d")
    assert engine.expect("Fen:")[-1] == f"Fen: {format(pos)}"
