"""A board of 4,096 cells, the most a move's 12-bit cell fields name (engine/moves.py): every
field value is a cell, a drop is a move from its cell to itself without SPECIAL or LEGS, the
acted cell is stored XOR the from cell and the wall cell XOR the to cell.

The 64 x 64 board is a variants-file section (files a .. z, aa .. bl; ranks 1 .. 64) of
leapers, so that its tables build in a second or two: kings, knights and pawns promoting to a
knight, with drops (captures go to the hand).  Its two corner cells, a1 (cell 0) and bl64
(cell 4095), take part in moves, captures, drops and promotions; perft 1 and 2 of a named
position are counted again by a reference written here on coordinates alone; position and
move text read back; 4,097 cells are refused."""
from __future__ import annotations

import pytest

import variants
from engine.game import perft
from engine.geometry import file_letters
from engine.movegen import legal_moves
from engine.moves import (IN_PLACE, LEGS, MAX_CELLS, NULL_MOVE, SPECIAL, acted_of, drop_move, from_of,
                          is_drop, mk, ptype_of, to_of, wall_of)
from engine.notation import move_text, parse_move, parse_position
from engine.notation.position_text import format as format_position
from file_helpers import problems
from variants.inifile import load_text

N = 64
EMPTY_BOARD = "/".join(["64"] * N)


def section(extra: str = "", fen: str = "") -> str:
    start = fen or "/".join(["63k"] + ["64"] * 62 + ["K63"]) + "[] w - - 0 1"
    return f"""[big64:chess]
maxFile = 64
maxRank = 64
queen = -
rook = -
bishop = -
castling = false
promotionRegionWhite = *64
promotionRegionBlack = *1
promotionPieceTypes = n
pieceDrops = true
capturesToHand = true
startFen = {start}
{extra}"""


@pytest.fixture(scope="module")
def v():
    # (the start position is read below: read_starts would build the tables a second time)
    cls = load_text(section(), "big64.ini", set(variants.builtin_names()), read_starts=False)["big64"]
    return cls()


def name(f: int, r: int) -> str:
    return f"{file_letters(f)}{r + 1}"


def fen_of(pieces: dict[tuple[int, int], str], hand: str, side: str) -> str:
    rows = []
    for r in range(N - 1, -1, -1):
        row, run = "", 0
        for f in range(N):
            p = pieces.get((f, r))
            if p:
                row += (str(run) if run else "") + p
                run = 0
            else:
                run += 1
        rows.append(row + (str(run) if run else ""))
    return "/".join(rows) + f"[{hand}] {side} - - 0 1"


# ---- the move's fields --------------------------------------------------------------------
def test_every_field_carries_cell_0_and_cell_4095():
    assert MAX_CELLS == 4096
    for a, b in ((0, 4095), (4095, 0), (4095, 4094), (1, 0)):
        # (an acted cell is never the from cell, a wall never the to cell: Notake's shunt acts
        # on the cell it lands on, the duck may go where the mover stood)
        m = mk(a, b, 5, acted=b, flags=SPECIAL, wall=a)
        assert (from_of(m), to_of(m), ptype_of(m), acted_of(m), wall_of(m)) == (a, b, 5, b, a)
        assert not is_drop(m) and m < 1 << 62          # an unboxed int in the compiled engine
        plain = mk(a, b)
        assert (acted_of(plain), wall_of(plain), plain & ~0xFFFFFF) == (-1, -1, 0)
    for c in (0, 4095):
        d = drop_move(c, 3)
        assert is_drop(d) and (from_of(d), to_of(d), ptype_of(d)) == (-1, c, 3)
        assert mk(-1, c, 3) == d
        # a move from a cell to itself that is a variant's own (a pass, a Notake act) or a
        # two-leg one (a Lion's igui or pass) is a board move
        assert not is_drop(mk(c, c, flags=SPECIAL)) and not is_drop(mk(c, c, acted=c ^ 7, flags=LEGS))
        assert acted_of(mk(c, c, acted=c ^ 7, flags=LEGS)) == c ^ 7
        assert IN_PLACE == SPECIAL | LEGS
    # the null move is a drop of no piece: no legal move is one (a drop names a type)
    assert is_drop(NULL_MOVE) and ptype_of(NULL_MOVE) == 0


# ---- the 64 x 64 board ----------------------------------------------------------------------
# White: knight a1 (cell 0), king c3, pawn bl63 (one step from bl64, cell 4095), a knight in
# hand; Black: king bj60, pawn b2 (one step from its promotion rank, next to a1)
NAMED = {(0, 0): "N", (2, 2): "K", (63, 62): "P", (61, 59): "k", (1, 1): "p"}


def test_the_board_and_its_names(v):
    geo = v.geometry
    assert geo.size == 4096 and geo.names[0] == "a1" and geo.names[4095] == "bl64"
    assert [geo.names[i] for i in (25, 26, 63, 64 * 63)] == ["z1", "aa1", "bl1", "a64"]
    pos = parse_position(v, v.start_fen)
    assert format_position(pos) == v.start_fen
    assert pos.board[4095] and pos.board[0]                 # k on bl64, K on a1


def test_corner_cells_move_drop_promote_and_read_back(v):
    fen = fen_of(NAMED, "N", "w")
    pos = parse_position(v, fen)
    assert format_position(pos) == fen
    legal = legal_moves(pos)
    texts = {move_text(v, m): m for m in legal}
    assert len(texts) == len(legal) == 4102
    # the knight leaves a1 (cell 0); the pawn promotes on bl64 (cell 4095); drops go to bl64
    assert {"a1b3", "a1c2", "bl63bl64n", "N@bl64", "c3b2"} <= set(texts)
    assert from_of(texts["a1b3"]) == 0 and to_of(texts["bl63bl64n"]) == 4095
    assert is_drop(texts["N@bl64"]) and to_of(texts["N@bl64"]) == 4095
    for t in ("bl63bl64n", "N@bl64"):       # (each call writes every legal move's text)
        assert parse_move(v, legal, t) == texts[t]
    assert "N@aa33" in texts and texts["c3b2"]
    # then Black takes on a1 (cell 0) and promotes there, its knight leaves a1, White drops
    # on a1 and Black drops on bl64 (cell 4095), which White's new knight has left
    seq = ["bl63bl64n", "b2a1n", "bl64bj63", "a1b3", "N@a1", "N@bl64"]
    for t in seq:
        m = {move_text(v, m): m for m in legal_moves(pos)}[t]
        pos.make(m)
        text = format_position(pos)
        assert format_position(parse_position(v, text)) == text
    white_n, black_n = v.by_token["N"].id * 2, v.by_token["N"].id * 2 + 1
    assert (pos.board[0], pos.board[4095]) == (white_n, black_n)
    assert text.startswith("63n/") and "[]" in text
    for _ in seq:
        pos.unmake()
    assert format_position(pos) == fen


# ---- a reference on coordinates: kings, knights, pawns promoting to knights, knight drops ----
KING = [(x, y) for x in (-1, 0, 1) for y in (-1, 0, 1) if x or y]
KNIGHT = [(x, y) for x in (-2, -1, 1, 2) for y in (-2, -1, 1, 2) if abs(x) != abs(y)]


def _on(f: int, r: int) -> bool:
    return 0 <= f < N and 0 <= r < N


def _attacked(board: dict, sq: tuple[int, int], white: bool) -> bool:
    """Is sq attacked by the pieces of that side?"""
    f, r = sq
    case = str.upper if white else str.lower
    for dx, dy in KING:
        if board.get((f + dx, r + dy)) == case("k"):
            return True
    for dx, dy in KNIGHT:
        if board.get((f + dx, r + dy)) == case("n"):
            return True
    back = -1 if white else 1
    return any(board.get((f + dx, r + back)) == case("p") for dx in (-1, 1))


def ref_moves(board: dict, white: bool, hand: int) -> list[tuple[str, dict]]:
    """(text, board after) of every legal move; ``hand``: knights in the mover's hand."""
    mine = str.isupper if white else str.islower
    out = []
    for (f, r), p in board.items():
        if not mine(p):
            continue
        kind = p.lower()
        targets = []
        if kind in "kn":
            for dx, dy in KING if kind == "k" else KNIGHT:
                t = (f + dx, r + dy)
                if _on(*t) and not (t in board and mine(board[t])):
                    targets.append(t)
        else:
            dy = 1 if white else -1
            if _on(f, r + dy) and (f, r + dy) not in board:
                targets.append((f, r + dy))
            for dx in (-1, 1):
                t = (f + dx, r + dy)
                if t in board and not mine(board[t]):
                    targets.append(t)
        for t in targets:
            after = dict(board)
            del after[(f, r)]
            promote = kind == "p" and t[1] in (0, N - 1)
            after[t] = ("N" if white else "n") if promote else p
            out.append((name(f, r) + name(*t) + ("n" if promote else ""), after))
    if hand:
        for f in range(N):
            for r in range(N):
                if (f, r) not in board:
                    after = dict(board)
                    after[(f, r)] = "N" if white else "n"
                    out.append((f"N@{name(f, r)}", after))
    king = "K" if white else "k"
    return [(t, b) for t, b in out
            if not _attacked(b, next(c for c, p in b.items() if p == king), not white)]


def test_perft_1_and_2_equal_the_reference(v):
    fen = fen_of(NAMED, "N", "w")
    pos = parse_position(v, fen)
    first = ref_moves(NAMED, True, 1)
    assert sorted(t for t, _ in first) == sorted(move_text(v, m) for m in legal_moves(pos))
    # by hand: the knight 2, the king 8 (taking b2 among them), the promotion 1, the drops on
    # the 4,091 empty cells
    assert len(first) == 2 + 8 + 1 + 4091
    second = sum(len(ref_moves(b, False, 0)) for _, b in first)   # Black's hand is empty
    assert [perft(pos, 1), perft(pos, 2)] == [len(first), second] == [4102, 40943]


def test_keys_name_files_past_z():
    """Regions and holes name the files past z with two letters (the board only: no tables)."""
    text = section("holes = aa1 bl*\npromotionRegionWhite = bk64 bl64\n").replace(
        "promotionRegionWhite = *64\n", "")
    cls = load_text(text, "f.ini", set(variants.builtin_names()), read_starts=False)["big64"]
    geo = cls().geometry
    assert geo.size == 4096 - 1 - 64
    assert "aa1" not in geo.by_name and "bl64" not in geo.by_name and "bk64" in geo.by_name
    assert cls.promo_region[0] == frozenset({(62, 63), (63, 63)})


# ---- past 4,096 -------------------------------------------------------------------------------
def test_a_section_past_4096_cells_is_refused():
    assert problems(section().replace("maxRank = 64", "maxRank = 65")) == [
        "f.ini:3: [big64] maxRank: out of range 1..64 (65)"]
    big = section("levels = 3\n").replace("maxFile = 64", "maxFile = z")
    assert problems(big)[0].endswith("levels: 4992 cells, more than the 4096 a move can name (3)")
    wide = section("levels = 2\n").replace("maxRank = 64", "maxRank = 8")
    assert problems(wide)[0].endswith("levels: at most 26 files (a .. z) on a board of levels (2)")
