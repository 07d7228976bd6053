"""Betza strings (engine/betza.py) against Fairy-Stockfish (pyffish), the engine whose reading
of the notation the variant files follow.

Each piece is put in a tiny 8x8 game: kings, Wazirs as blockers and screens (both colours), and
the piece under test.  Fairy-Stockfish gets the same game as an INI section (``[name:chess]``
with ``customPieceN = a:<Betza>`` or the predefined piece's key); both engines list every legal
move of random positions with the piece on several cells, for both colours (so the second
player's half-turned frame is checked), and the lists must be equal.  Kings stand among the
pieces, so checks by hoppers and lame leapers (the attack tables) are part of the comparison.
"""
from __future__ import annotations

import itertools
import random

import pyffish
import pytest

import variants

from engine.moves import CELL, FROM_SHIFT
from engine.betza import BetzaError, parse_betza, rank_region, rotate
from engine.geometry import grid2d
from engine.movegen import attacked, legal_moves, pseudo_moves
from engine.notation.position_text import parse
from engine.pieces import KING, LAME, PieceType, lame, lame_path, leap
from engine.variant import Variant
from variants.fsf_pieces import PIECES, UNSUPPORTED, piece_atoms, soldier_atoms

_names = itertools.count()


class BetzaGame(Variant):
    """Kings, Wazir blockers and one piece ``A`` with the given atoms, 8x8, no castling."""
    start_fen = "4k3/8/8/8/8/8/8/4K3 w - - 0 1"

    def __init__(self, atoms):
        self.geometry = grid2d(8, 8)
        self.piece_types = [None, PieceType("King", "K", (leap(KING),), royal=True),
                            PieceType("Wazir", "W", parse_betza("W")),
                            PieceType("Test", "A", tuple(atoms))]
        super().__init__()

    def orient(self, v):
        return rotate(v)


def fsf_variant(line: str) -> str:
    name = f"betza{next(_names)}"
    pyffish.load_variant_config(f"[{name}:chess]\ncastling = false\ncustomPiece2 = w:W\n{line}\n")
    return name


def fen_of(board: dict[int, str], side: str) -> str:
    rows = []
    for y in range(7, -1, -1):
        row, gap = "", 0
        for x in range(8):
            ch = board.get(y * 8 + x)
            if ch is None:
                gap += 1
                continue
            row += (str(gap) if gap else "") + ch
            gap = 0
        rows.append(row + (str(gap) if gap else ""))
    return "/".join(rows) + f" {side} - - 0 1"


def positions(rng, cells, blockers=8):
    """(fen, cell of the piece) for the piece of each colour on each cell, random blockers."""
    for cell in cells:
        for side in "wb":
            board = {cell: "A" if side == "w" else "a"}
            free = [c for c in range(64) if c != cell]
            rng.shuffle(free)
            board[free.pop()] = "K"
            board[free.pop()] = "k"
            for _ in range(rng.randint(0, blockers)):
                board[free.pop()] = rng.choice("Ww")
            yield fen_of(board, side), cell


def cellfish_moves(v, fen):
    pos = parse(v, fen)
    geo = v.geometry
    return pos, sorted(geo.name((m >> FROM_SHIFT) & CELL) + geo.name(m & CELL) for m in legal_moves(pos))


def compare(atoms, fsf_line, cells=(27, 0, 9, 54, 36, 3), seed=0, rounds=3):
    v = BetzaGame(atoms)
    name = fsf_variant(fsf_line)
    rng = random.Random(seed)
    checked = 0
    for _ in range(rounds):
        for fen, _cell in positions(rng, [c for c in cells]):
            pos, ours = cellfish_moves(v, fen)
            if attacked(pos, pos.king[pos.side ^ 1], pos.side):
                continue               # the side not to move in check: no game reaches it
            theirs = sorted(pyffish.legal_moves(name, fen, []))
            assert ours == theirs, (fsf_line, fen)
            checked += 1
    assert checked >= len(cells)


CUSTOM = [
    # every atom, K and the rider letters
    "W", "F", "D", "N", "A", "H", "C", "L", "Z", "J", "G", "K", "R", "B", "Q",
    # riders: doubled letters and ranges
    "WW", "FF", "NN", "KK", "QQ", "RR", "R4", "W2", "B3", "N2", "K2", "Q1", "R0", "N0",
    # modalities
    "mN", "cN", "mcN", "mRcB", "mKcN", "cR2", "fmWfcF",
    # directions, alone and combined
    "fN", "bN", "lN", "rN", "sN", "vN", "ffN", "fsN", "frN", "rfN", "flN", "lfN", "bsN",
    "fhN", "bhN", "rhN", "lhN", "hrN", "hlN", "fW", "bW", "sW", "vW", "fsW", "frW", "lbW",
    "fF", "bF", "frF", "lbF", "fR", "bsR", "fB", "rB", "fK", "fsK", "vQ", "fNN", "sN2",
    "fsQ", "lC", "frZ", "bG", "fD", "sH",
    # hoppers and grasshoppers
    "pR", "gR", "pB", "gB", "pQ", "gQ", "pW", "gF", "pK", "pWW", "mRcpR", "mpR", "cpB",
    "fpR", "sgR", "mBcgB",
    # lame leapers
    "nN", "nA", "nD", "nZ", "nJ", "fnN", "mnA", "cnD", "snZ",
    # everything at once
    "RcpRnN", "fmWfcFnA", "KgBpR",
]


@pytest.mark.parametrize("betza", CUSTOM)
def test_custom_betza_agrees_with_fairy_stockfish(betza):
    compare(parse_betza(betza), f"customPiece1 = a:{betza}")


@pytest.mark.parametrize("name", sorted(n for n in PIECES
                                        if n not in ("pawn", "king", "soldier")
                                        and n not in UNSUPPORTED))
def test_predefined_pieces_agree_with_fairy_stockfish(name):
    compare(piece_atoms(name), f"{name} = a")


@pytest.mark.parametrize("rank", [1, 4, 6])
def test_soldier_agrees_with_fairy_stockfish(rank):
    compare(soldier_atoms(rank, 8), f"soldier = a\nsoldierPromotionRank = {rank}",
            cells=(27, 35, 43, 19, 11, 51, 8, 15))


def test_initial_moves_start_in_the_double_step_region():
    """``i`` moves only from the side's double-step region (rank 2 / rank 7 by default)."""
    region = rank_region(1, 6)
    for betza in ("ifmW2", "ifmnDfmW"):
        compare(parse_betza(betza, initial=region), f"customPiece1 = a:{betza}",
                cells=(11, 51, 12, 52, 27, 35))


MODIFIERS = [""] + list("fblrsvh") + [a + b for a in "fblrsvh" for b in "fblrsvh"]


@pytest.mark.parametrize("atom", ["W", "F", "N", "K"])
def test_every_direction_word_as_fairy_stockfish_reads_it(atom):
    """Every one- and two-letter direction prefix on W, F, N and K, from d4 on an empty
    board: the same destinations, and BetzaError exactly where Fairy-Stockfish's piece has no
    move at all (a prefix that selects no direction)."""
    for mod in MODIFIERS:
        betza = mod + atom
        name = fsf_variant(f"customPiece1 = a:{betza}")
        for side, fen in (("w", "7k/8/8/8/3A4/8/8/K7 w - - 0 1"),
                          ("b", "7K/8/8/8/3a4/8/8/k7 b - - 0 1")):
            theirs = sorted(m for m in pyffish.legal_moves(name, fen, []) if m[:2] == "d4")
            try:
                v = BetzaGame(parse_betza(betza))
            except BetzaError:
                assert theirs == [], betza
                continue
            ours = [m for m in cellfish_moves(v, fen)[1] if m[:2] == "d4"]
            assert ours == theirs, (betza, side)


@pytest.mark.parametrize("betza", ["nN", "nZ", "pR", "gQ", "mRcpR", "nA", "cnD"])
def test_attack_tables_match_the_moves(betza):
    """``attacked`` (inverse tables with lame paths and hops) says a piece is attacked exactly
    when a pseudo-legal move of the other side captures it."""
    v = BetzaGame(parse_betza(betza))
    rng = random.Random(1)
    for _ in range(4):
        for fen, _cell in positions(rng, range(0, 64, 5), blockers=14):
            pos = parse(v, fen)
            for by in (0, 1):
                pos.side = by
                hit = {m & CELL for m in pseudo_moves(pos) if pos.board[m & CELL]}
                for t, p in enumerate(pos.board):
                    if p and p & 1 != by:
                        assert attacked(pos, t, by) == (t in hit), (betza, fen, t)


def naive_lame(v, pos, cell, vectors):
    """Destinations of a lame leaper walked on coordinates: each cell of the path must be
    empty, the target empty or enemy."""
    geo, side, out = v.geometry, pos.side, set()
    x0, y0 = geo.coords[cell]
    for dx, dy in vectors:
        path = [(x0 + a, y0 + b) for a, b in lame_path((dx, dy))]
        target = geo.index.get((x0 + dx, y0 + dy))
        if target is None or any(pos.board[geo.index[c]] for c in path):
            continue
        p = pos.board[target]
        if not p or p & 1 != side:
            out.add(target)
    return out


@pytest.mark.parametrize("betza", ["nN", "nA", "nD", "nZ"])
def test_lame_leaper_against_a_coordinate_walker(betza):
    (atom,) = parse_betza(betza)
    assert atom.kind == LAME
    v = BetzaGame([atom])
    rng = random.Random(2)
    for fen, cell in positions(rng, range(64), blockers=20):
        pos = parse(v, fen)
        ours = {m & CELL for m in pseudo_moves(pos) if (m >> FROM_SHIFT) & CELL == cell}
        assert ours == naive_lame(v, pos, cell, atom.vectors), (betza, fen)


def test_lame_path_cells():
    assert lame_path((1, 2)) == ((0, 1),)
    assert lame_path((2, 2)) == ((1, 1),)
    assert lame_path((2, 0)) == ((1, 0),)
    assert lame_path((-2, 3)) == ((0, 1), (-1, 2))
    assert lame((1, 2),).kind == LAME


def test_hopper_and_lame_variants_use_make_and_test_legality():
    assert BetzaGame(parse_betza("N")).fast_legality
    assert not BetzaGame(parse_betza("nN")).fast_legality
    assert not BetzaGame(parse_betza("mRcpR")).fast_legality


@pytest.mark.parametrize("text, token", [
    ("xN", "'x'"), ("N3x", "'x'"), ("Nf", "'f'"), ("DD", "'DD'"), ("A2", "'A2'"),
    ("pN", "'pN'"), ("pR2", "'pR2'"), ("nNN", "'nNN'"), ("nW", "'nW'"), ("pnR", "'pnR'"),
    ("hW", "'hW'"), ("vsN", "'vsN'"), ("ifmW2", "'ifmW2'"), ("N ", "' '"), ("(1,3)", "'('"),
])
def test_bad_betza_names_the_token(text, token):
    with pytest.raises(BetzaError, match=token.replace("(", r"\(")) as err:
        parse_betza(text)
    assert isinstance(err.value, ValueError)


def test_unsupported_predefined_piece_is_refused_by_name():
    with pytest.raises(ValueError, match="janggiCannon"):
        piece_atoms("janggiCannon")


def test_atoms_that_share_cells_give_each_move_once(tmp_path):
    """RWD, mWcF and BNW reach some cells by two atoms (the rook's first step is the wazir's
    step; the rook passes the dabbaba's cell).  Fairy-Stockfish's moves are pairs of cells, so
    each such move counts once: perft 1-3 equals pyffish's with the same file."""
    from engine.game import perft
    from engine.notation import parse_position
    ini = ("[overlapping:chess]\ncustomPiece1 = x:RWD\ncustomPiece2 = y:mWcF\ncustomPiece3 = z:BNW\n"
           "startFen = rnbqkbnr/pppppppp/8/2x2z2/8/2X1YZ2/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"
           "promotionPieceTypes = q\n")
    path = tmp_path / "overlapping.ini"
    path.write_text(ini)
    pyffish.load_variant_config(ini)
    assert variants.load_file(str(path)) == ["overlapping"]
    v = variants.get("overlapping")
    fen = pyffish.start_fen("overlapping")

    def fsf(moves, depth):
        ms = pyffish.legal_moves("overlapping", fen, moves)
        return len(ms) if depth == 1 else sum(fsf(moves + [m], depth - 1) for m in ms)

    pos = parse_position(v, fen)
    assert [perft(pos, d) for d in (1, 2, 3)] == [fsf([], d) for d in (1, 2, 3)] == [31, 1282, 41993]
