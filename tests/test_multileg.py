"""Two-leg moves (engine/pieces.py ``legs``, Betza's ``a`` legs in engine/betza.py): Chu
Shogi's Lion, Horned Falcon and Soaring Eagle on a small test board, against a reference
written here from the rules (docs/betza.md):

* the Lion: any cell up to two king steps away (jumping); or a king step onto an enemy piece,
  taken, then a second king step anywhere (back onto its start: a capture without moving,
  igui); or a king step to an empty cell and back (a pass, written as from = to);
* the Falcon has that power straight ahead only, the Eagle on the two forward diagonals.

Move text: from, the cell taken in passing, to (``d3d4e5``); a pass is ``d3d3``."""
from __future__ import annotations

import pytest

from engine.betza import BetzaError, parse_betza
from engine.movegen import legal_moves
from engine.moves import LEGS, from_of, legs_victim, to_of
from engine.notation.move_text import move_text, parse_move
from engine.notation.position_text import parse
from tests.file_helpers import one, problems

TEXT = """
[liontest]
maxRank = 8
maxFile = h
king = k
customPiece1 = n:KNADcKaKmKabK
customPiece2 = f:BsRbRfWfDcfWavWmfWabW
customPiece3 = e:RbBfFfAcfFavFmfFabF
customPiece4 = p:fW
customPiece5 = r:R
castling = false
doubleStep = false
promotionPieceTypes = -
startFen = 4k3/8/8/8/3pp3/3N4/8/4K3 w - - 0 1
"""

FILES = "abcdefgh"


def _name(c):
    return f"{FILES[c[0]]}{c[1] + 1}"


def _board(fen):
    """(file, rank) -> letter for the board field of fen (8x8)."""
    out = {}
    for r, row in enumerate(fen.split()[0].split("/")):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                out[(f, 7 - r)] = ch
                f += 1
    return out


def _on(c):
    return 0 <= c[0] < 8 and 0 <= c[1] < 8


def reference_lion_power(board, s, firsts, seconds, jumps, white=True):
    """The texts of a lion-power piece's moves on s from the rules: single steps ``firsts``
    and jumps ``jumps`` (to an empty or enemy cell), a pass through an empty first cell, and
    after a first step onto an enemy, each second step of ``seconds(v)`` (back onto s: igui)."""
    def enemy(c):
        return c in board and board[c].islower() == white

    def free(c):
        return c not in board or enemy(c)

    out = set()
    for v in list(firsts) + list(jumps):
        t = (s[0] + v[0], s[1] + v[1])
        if _on(t) and free(t):
            out.add(_name(s) + _name(t))
    for v in firsts:
        c1 = (s[0] + v[0], s[1] + v[1])
        if not _on(c1):
            continue
        if c1 not in board:
            out.add(_name(s) + _name(s))
        elif enemy(c1):
            for w in seconds(v):
                t = (c1[0] + w[0], c1[1] + w[1])
                if t == s or (_on(t) and free(t)):
                    out.add(_name(s) + _name(c1) + _name(t))
    return out


KING = [(x, y) for x in (-1, 0, 1) for y in (-1, 0, 1) if (x, y) != (0, 0)]
RING = [(x, y) for x in range(-2, 3) for y in range(-2, 3) if max(abs(x), abs(y)) == 2]


def _lion(board, s):
    return reference_lion_power(board, s, KING, lambda v: KING, RING)


@pytest.fixture(scope="module")
def v():
    return one(TEXT)


def _moves_from(v, fen, cell_name):
    pos = parse(v, fen)
    ms = legal_moves(pos)
    return pos, ms, {move_text(v, m) for m in ms if move_text(v, m).startswith(cell_name)
                     and not move_text(v, m)[len(cell_name)].isdigit()}


@pytest.mark.parametrize("fen,cell", [
    ("4k3/8/8/8/3pp3/3N4/8/4K3 w - - 0 1", (3, 2)),     # two pawns next to it
    ("4k3/8/8/2ppp3/2pNp3/2ppp3/8/4K3 w - - 0 1", (3, 3)),  # surrounded: no pass
    ("N3k3/1p6/8/8/8/8/8/4K3 w - - 0 1", (0, 7)),       # in a corner
    ("4k3/8/8/3P4/2pNp3/8/8/4K3 w - - 0 1", (3, 3)),    # an own piece ahead
])
def test_lion_moves_agree_with_the_reference(v, fen, cell):
    _pos, _ms, got = _moves_from(v, fen, _name(cell))
    assert got == _lion(_board(fen), cell)


def test_lion_named_position(v):
    """Lion d3, black pawns d4 e4: 23 single moves, a pass, 8 double moves through each pawn."""
    fen = "4k3/8/8/8/3pp3/3N4/8/4K3 w - - 0 1"
    _pos, _ms, got = _moves_from(v, fen, "d3")
    assert len(got) == 40
    assert {"d3d3", "d3d4d3", "d3e4d3", "d3d4e4", "d3e4d4", "d3d4e5"} <= got
    assert "d3d4d4" not in got


def test_surrounded_lion_cannot_pass(v):
    _pos, _ms, got = _moves_from(v, "4k3/8/8/2ppp3/2pNp3/2ppp3/8/4K3 w - - 0 1", "d4")
    assert "d4d4" not in got and "d4c5d4" in got


def test_double_capture_igui_and_pass_make_and_unmake(v):
    fen = "4k3/8/8/8/3pp3/3N4/8/4K3 w - - 0 1"
    pos = parse(v, fen)
    ms = legal_moves(pos)
    before = (pos.hash, pos.board[:], [set(o) for o in pos.occ])
    for m in ms:
        pos.make(m)
        pos.unmake()
        assert (pos.hash, pos.board, pos.occ) == before
    d4, e4, d3 = 27, 28, 19
    m = parse_move(v, ms, "d3d4e4")          # both pawns taken, the Lion on e4
    assert m & LEGS and legs_victim(m) == d4 and to_of(m) == e4 and from_of(m) == d3
    lion = pos.board[d3]
    pos.make(m)
    assert pos.board[d4] == 0 and pos.board[d3] == 0 and pos.board[e4] == lion
    assert pos.occ[1] == {pos.king[1]}      # only Black's king is left
    pos.unmake()
    m = parse_move(v, ms, "d3e4d3")          # igui: e4 taken, the Lion stays
    pos.make(m)
    assert pos.board[e4] == 0 and pos.board[d3] and pos.board[d4]
    pos.unmake()
    m = parse_move(v, ms, "d3d3")            # a pass changes nothing but the side to move
    pos.make(m)
    assert pos.board == before[1] and pos.side == 1
    pos.unmake()
    assert (pos.hash, pos.board) == before[:2]


def test_capture_in_passing_may_not_open_a_line_on_the_own_king(v):
    """Black's rook a8 is held off White's king a1 by a black pawn a3 only: the Lion b2 may
    take it and stand on the file (b2a3, b2a3a4) but not take it and leave (b2a3b2, b2a3b3)."""
    fen = "r3k3/8/8/8/8/p7/1N6/K7 w - - 0 1"
    _pos, _ms, got = _moves_from(v, fen, "b2")
    assert {"b2a3", "b2a3a4", "b2a3a2"} <= got
    assert not {"b2a3b2", "b2a3b3", "b2a3b4"} & got


def test_falcon_forward_lion_power(v):
    """Horned Falcon d4 (White), black pawn d5: d4d5d4 (igui), d4d5d6, the jump d4d6; no
    lion power sideways (d4e4 is a slide, there is no d4c4 igui)."""
    fen = "4k3/8/8/3p4/2pF4/8/8/4K3 w - - 0 1"
    _pos, _ms, got = _moves_from(v, fen, "d4")
    power = {t for t in got if len(t) == 6 or t == "d4d4"}
    ref = reference_lion_power(_board(fen), (3, 3), [(0, 1)], lambda w: [w, (-w[0], -w[1])], [(0, 2)])
    assert power == {t for t in ref if len(t) == 6 or t == "d4d4"}
    assert power == {"d4d5d4", "d4d5d6"}
    assert "d4d6" in got and "d4c4" in got and "d4c4d4" not in got


def test_eagle_forward_diagonal_lion_power(v):
    fen = "4k3/8/8/2p1p3/3E4/8/8/4K3 w - - 0 1"
    _pos, _ms, got = _moves_from(v, fen, "d4")
    power = {t for t in got if len(t) == 6 or t == "d4d4"}
    assert power == {"d4c5d4", "d4c5b6", "d4e5d4", "d4e5f6"}
    assert {"d4b6", "d4f6", "d4c5", "d4e5"} <= got


def test_black_lion_power_points_down(v):
    """A black Falcon's forward is down the board."""
    fen = "4k3/8/8/3f4/3P4/8/8/4K3 b - - 0 1"
    _pos, _ms, got = _moves_from(v, fen, "d5")
    assert {"d5d4d5", "d5d4d3"} <= got and "d5d6d5" not in got


@pytest.mark.parametrize("betza,why", [
    ("cRaK", "first leg is a plain leap: 'cR'"),
    ("pKaK", "first leg is a plain leap: 'pK'"),
    ("cKaR", "needs a leaper atom after 'a': 'cKaR'"),
    ("cKa", "needs a leaper atom after 'a': 'cKa'"),
    ("cKaKK", "second leg is a plain leap: 'cKaKK'"),
    ("aK", "unknown Betza letter 'a'"),
])
def test_two_leg_betza_refused(betza, why):
    with pytest.raises(BetzaError, match=why.replace("(", r"\(")):
        parse_betza(betza)


def test_a_capture_in_passing_beyond_the_leaps_is_refused():
    """cWaW takes on a W cell and steps on: its last cells lie outside any leap of the piece,
    which the attack tables cannot follow (check would be missed): the file is refused."""
    (msg,) = problems(TEXT.replace("liontest", "bad").replace("n:KNADcKaKmKabK", "n:cWaW"))
    assert "[bad] cannot build: a two-leg move capturing in passing reaches cell" in msg


def test_san_of_two_leg_moves(v):
    """PGN names a two-leg move in full (match/records.py) and reads it back."""
    from match.pgn_read import _match
    from match.records import san
    pos = parse(v, "4k3/8/8/8/3pp3/3N4/8/4K3 w - - 0 1")
    ms = legal_moves(pos)
    for text, want in (("d3d4e4", "Nd3xd4xe4"), ("d3d4e5", "Nd3xd4-e5"), ("d3e4d3", "Nd3xe4-d3"),
                       ("d3d3", "Nd3-d3"), ("d3e4", "Nxe4")):
        m = parse_move(v, ms, text)
        assert san(v, pos, m, ms) == want
        assert _match(v, pos, ms, want) == m
