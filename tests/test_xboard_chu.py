"""Chu Shogi under CECP as XBoard 4.9 plays it (`variant chu`): the Lion's and the Falcon's
and Eagle's two-leg moves in XBoard's text (two legs joined by a comma), the pass in both of
the forms XBoard sends, XBoard's FEN (`w - 0 1`), and a game to its end over the protocol,
every engine move checked against the rules page's own move generator
(tests/chu_reference.py), the opponent's moves chosen from it and written as XBoard writes
them.  The hexagonal and 3D games are refused with the reason."""
from __future__ import annotations

import random
import re

import pytest

import variants
from engine.movegen import legal_moves
from engine.notation.move_text import MoveTextError, move_text
from engine.notation.position_text import parse as parse_position
from protocol.xboard_board import fen_from_xboard, from_xboard, parse_xboard_move, to_xboard
from tests import chu_reference as ref
from tests.engine_proc import EngineProcess
from tests.test_xboard_protocol import sync


@pytest.fixture(scope="module")
def xb():
    e = EngineProcess()
    e.send("xboard")
    e.send("protover 2")
    got = e.expect("feature done=1")
    e.features = " ".join(got)
    yield e
    e.close()


def cell(c) -> str:
    """A reference cell (x, y) as XBoard names it on Chu Shogi's 12x12 board (a1 .. l12)."""
    return f"{chr(97 + c[0])}{c[1] + 1}"


def xb_text(board, mv) -> str:
    """A reference move as XBoard 4.9 writes it: `a1b2`, `+` for a promotion, a move taking a
    piece in passing as two legs `f5f6,f6f7` (igui `f5f6,f6f5`); a Lion's pass as a step onto an
    empty cell and back (what XBoard sends when the user moves the Lion out and back)."""
    s, c1, t, prom = mv
    plus = "+" if prom else ""
    if c1 is not None:
        return f"{cell(s)}{cell(c1)},{cell(c1)}{cell(t)}{plus}"
    if s == t:
        if board[s][0] in ("N", "+O"):
            e = next((s[0] + dx, s[1] + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                     if (dx, dy) != (0, 0) and 0 <= s[0] + dx < 12 and 0 <= s[1] + dy < 12
                     and (s[0] + dx, s[1] + dy) not in board)
            return f"{cell(s)}{cell(e)},{cell(e)}{cell(s)}"
        return f"{cell(s)}{cell(s)}"
    return f"{cell(s)}{cell(t)}{plus}"


def ref_move(text: str):
    """An XBoard move text as a reference move (from, cell taken in passing, to, promotes)."""
    def c(name):
        return (ord(name[0]) - 97, int(name[1:]) - 1)
    prom = text.endswith("+")
    cells = [c(x) for x in re.findall(r"[a-l]\d+", text.rstrip("+"))]
    if len(cells) == 4:          # two legs: from, mid / mid, to
        assert cells[1] == cells[2], text
        return (cells[0], cells[1], cells[3], prom)
    return (cells[0], None, cells[1], prom)


# ---- the text: both directions, in the core's notation ------------------------------------

def test_two_leg_text_both_ways():
    v = variants.get("chushogi")
    assert to_xboard(v, "f5f6f7") == "f5f6,f6f7"           # Lion: takes f6, ends on f7
    assert to_xboard(v, "f5f6f5") == "f5f6,f6f5"           # igui
    assert to_xboard(v, "f5f5") == "f5f5"                   # the pass, as XBoard accepts it
    assert to_xboard(v, "a9a10+") == "a9a10+"
    # the text as sent first (another game's move may have a comma), then what the legs are
    assert from_xboard(v, "f5f6,f6f5") == ["f5f6,f6f5", "f5f6f5", "f5f5"]   # igui, or a pass
    assert from_xboard(v, "f5f6,f6f7") == ["f5f6,f6f7", "f5f6f7", "f5f7"]   # two captures, or the step
    assert from_xboard(v, "f5f6,f6f5", lambda c: c == "f6") == ["f5f6,f6f5", "f5f6f5"]
    assert from_xboard(v, "f5f6,f6f5", lambda c: False) == ["f5f6,f6f5", "f5f5"]
    assert from_xboard(v, "f5f6,f7f8") == ["f5f6,f7f8"]       # legs that do not join: as sent
    # a FEN as XBoard writes it for Chu Shogi has a castling field the game's text has not
    assert fen_from_xboard(v, "6k5/12/12/12/P11/12/12/12/12/12/12/5K6 w - 0 1") == \
        "6k5/12/12/12/P11/12/12/12/12/12/12/5K6 w 0 1"


def test_duck_moves_keep_their_comma():
    """Duck chess writes a move and the duck's new cell with a comma (`e2e4,e4e5`), which looks
    like two legs that join: it is read as the duck move it is."""
    v = variants.get("duck")
    pos = parse_position(v, v.start_fen)
    legal = legal_moves(pos)
    m = parse_xboard_move(pos, legal, "e2e4,e4e5")
    assert move_text(v, m, "uci") == "e2e4,e4e5"
    assert to_xboard(v, "e2e4,e4e5") == "e2e4,e4e5"


LION_POS = "11k/12/12/12/12/12/5p6/4p1b5/5N6/12/12/K11 w - 0 1"


def test_lion_moves_read_as_xboard_sends_them():
    """A Lion on f4 with enemy pawns on e5 and f6 and a bishop on g5: XBoard's two legs read as
    the one legal move they name, checked against the reference's list."""
    v = variants.get("chushogi")
    pos = parse_position(v, fen_from_xboard(v, LION_POS))
    legal = legal_moves(pos)
    board, side = ref.read_sfen(LION_POS.replace(" w - 0 1", " b"))
    ref_texts = {xb_text(board, mv) for mv in ref.legal(board, side)}
    for text in ("f4e5,e5f6", "f4g5,g5f4", "f4e5,e5e6", "f4g5,g5h6", "f4f6"):
        m = parse_xboard_move(pos, legal, text)
        assert to_xboard(v, move_text(v, m, "uci")) == text
        assert text in ref_texts
    # f4f5 is empty: out and back is the pass, written either way
    assert parse_xboard_move(pos, legal, "f4f5,f5f4") == parse_xboard_move(pos, legal, "f4f4")
    # a step onto an empty cell and on is the jump to the far cell (one move, the rules page)
    assert parse_xboard_move(pos, legal, "f4f5,f5f6") == parse_xboard_move(pos, legal, "f4f6")
    with pytest.raises(MoveTextError):
        parse_xboard_move(pos, legal, "f4e5,f5f6")        # the legs do not join


def test_chu_over_cecp(xb):
    """`variant chu` is Chu Shogi (XBoard knows the game: no setup line); XBoard's FEN; the
    two-leg moves, igui and both pass forms as usermoves; XBoard's null move `@@@@` and a
    promotion by a non-capture inside the zone (XBoard 4.9 allows both, the rules do not) are
    refused with `Illegal move` and the game is unchanged."""
    assert "chu" in xb.features.split('variants="')[1].split('"')[0].split(",")
    assert "chushogi" not in xb.features.split('variants="')[1].split('"')[0].split(",")
    xb.send("new")
    xb.send("variant chu")
    xb.send("force")
    assert sync(xb) == []
    xb.send(f"setboard {LION_POS}")
    xb.send("usermove f4e5,e5f6")        # the Lion takes e5 and f6
    xb.send("usermove l12k12")
    xb.send("usermove f6g5,g5f6")        # igui on the bishop
    xb.send("usermove k12l12")
    xb.send("usermove f6f7,f7f6")        # f7 is empty: a pass
    xb.send("usermove l12k12")
    xb.send("usermove f6f6")             # the pass as XBoard also takes it
    xb.send("usermove @@@@")
    assert sync(xb) == ["Illegal move: @@@@"]
    xb.send("setboard 6k5/12/12/12/P11/12/12/12/12/12/12/5K6 w - 0 1")
    xb.send("usermove a8a9")             # entering the zone without promoting
    xb.send("usermove g12g11")
    xb.send("usermove a9a10+")           # inside the zone, no capture: no promotion
    assert sync(xb) == ["Illegal move: a9a10+"]
    xb.send("usermove a9a10")
    assert sync(xb) == []
    xb.send("variant chushogi")          # its own name is still taken
    assert sync(xb) == []


def test_hex_and_3d_refused_with_the_reason(xb):
    for name in ("glinski", "mccooey"):
        xb.send(f"variant {name}")
        got = sync(xb)
        assert got == [f"Error (unknown variant): {name} (XBoard has no hexagonal board)"]
    for name in ("raumschach8", "alice", "elefantnichtschach"):
        xb.send(f"variant {name}")
        assert sync(xb) == [f"Error (unknown variant): {name} (XBoard has no 3D board)"]
    xb.send("variant nested-a")
    assert sync(xb) == ["Error (unknown variant): nested-a (XBoard has no board of cells on the "
                        "squares' corners)"]
    xb.send("variant notake-tow")
    assert sync(xb) == ["Error (unknown variant): notake-tow (XBoard's moves cannot change a "
                        "piece on a third cell)"]
    xb.send("variant nosuchgame")
    assert sync(xb) == ["Error (unknown variant): nosuchgame"]
    names = xb.features.split('variants="')[1].split('"')[0].split(",")
    assert not {"glinski", "mccooey", "raumschach8"} & set(names)
    assert {"xxl", "omega", "chu"} <= set(names)


# Black's king in the corner, two of its pawns on the Lion's file: the engine (Sente, White
# in XBoard's words) opens with the Lion's double capture and mates
GAME_POS = "11k/9p2/12/12/12/5g6/5p6/5N6/12/12/12/K11 w - 0 1"


def test_a_game_to_its_end_over_cecp(xb):
    """The engine plays Sente at depth 2 from GAME_POS; Gote's moves are drawn at random from
    the reference generator's legal moves and sent as XBoard writes them.  Every engine move is
    one of the reference's legal moves, one of them takes two pieces in one move, and the game
    ends with the engine's result line: checkmate, which the reference agrees with (Gote has
    no legal move)."""
    rng = random.Random(50)
    board, side = ref.read_sfen(GAME_POS.replace(" w - 0 1", " b"))
    last = None
    xb.send("new")
    xb.send("variant chu")
    xb.send("force")
    xb.send(f"setboard {GAME_POS}")
    xb.send("sd 2")
    xb.send("go")
    played = []
    result = None
    for _ in range(120):
        got = xb.expect(lambda s: s.startswith(("move ", "1-0", "0-1", "1/2-1/2", "Illegal", "Error")),
                        timeout=60)
        line = got[-1]
        if not line.startswith("move "):
            result = line
            break
        text = line.split()[1]
        mv = ref_move(text)
        legal = ref.legal(board, side, last)
        assert mv in legal, (text, played)
        played.append(text)
        last = (board[mv[0]][0], ref.taken(board, mv))
        board, side = ref.make(board, mv), side ^ 1
        legal = ref.legal(board, side, last)
        if not legal or not ref.royals(board, side):
            result = xb.expect(lambda s: s[:3] in ("1-0", "0-1", "1/2"))[-1]
            break
        mv = rng.choice(legal)
        text = xb_text(board, mv)
        played.append(text)
        last = (board[mv[0]][0], ref.taken(board, mv))
        board, side = ref.make(board, mv), side ^ 1
        xb.send(f"usermove {text}")
    assert result == "1-0 {checkmate}", (result, played)
    assert ref.legal(board, side, last) == [] and side == 1
    assert any("," in t for t in played[::2]), played
