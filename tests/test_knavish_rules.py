"""Knavish Chess: one named test per numbered ruling of docs/variants/knavish.md ("Rulings",
test_ruling_N_*), the piece shapes and pawn rules of its "Pieces" section, plus
position/move text and material draws."""
import pytest

import variants
from engine.game import divide, game_result
from engine.movegen import in_check, legal_moves
from engine.notation.move_text import move_text, parse_move
from engine.notation.position_text import PositionTextError, format, parse

EMPTY10 = "/".join(["10"] * 8)


def setup(name, fen=None, moves=()):
    v = variants.get(name)
    pos = parse(v, fen or v.start_fen)
    for t in moves:
        pos.make(parse_move(v, legal_moves(pos), t))
    return v, pos


def texts(v, pos):
    return {move_text(v, m) for m in legal_moves(pos)}


def play(v, pos, t):
    pos.make(parse_move(v, legal_moves(pos), t))


def reach(v, token, cell):
    """Cells a lone piece can reach from `cell` on an empty board (its binding)."""
    tab = v.tables[v.by_token[token].id * 2]
    seen, todo = {cell}, [cell]
    while todo:
        c = todo.pop()
        for t in tab.leaps[c] + tab.mleaps[c]:
            if t not in seen:
                seen.add(t)
                todo.append(t)
    return frozenset(seen)


# ---- ruling 1: board size -------------------------------------------------------------------
@pytest.mark.parametrize("name,files", [("knavish", 10), ("knavish8", 8), ("knavish-kneader", 10),
                                        ("knavish-promotion", 10), ("knavish8-promotion", 8),
                                        ("knavish-returns", 10), ("knavish8-returns", 8)])
def test_ruling_1_board_has_ten_ranks(name, files):
    v = variants.get(name)
    assert v.geometry.size == files * 10
    last = chr(96 + files) + "10"
    assert v.geometry.name(v.geometry.size - 1) == last


# ---- piece shapes ("Pieces") ----------------------------------------------------------------
@pytest.mark.parametrize("name,token,targets", [
    ("knavish", "N", {"d8", "f8", "d4", "f4", "c6", "g6"}),
    ("knavish", "D", {"c7", "c5", "g7", "g5", "e8", "e4"}),
    ("knavish", "C", {"d8", "f8", "d4", "f4", "c7", "c5", "g7", "g5", "c6", "g6", "e8", "e4"}),
    ("knavish-kneader", "E", {"d8", "f8", "d4", "f4", "c6", "g6"}),     # moves as a Knave
    ("knavish-kneader", "T", {"c7", "c5", "g7", "g5", "e8", "e4"}),     # moves as a Debtor
])
def test_leapers_from_e6_on_an_empty_board(name, token, targets):
    v, pos = setup(name, f"k9/10/10/10/4{token}5/10/10/10/10/9K w - - 0 1")
    e6 = [t[2:] for t in texts(v, pos) if t.startswith("e6")]
    assert len(e6) == (12 if token == "C" else 6)      # from e6: 6 leaps, the Carpenter 12
    assert set(e6) == targets


def test_leapers_are_never_blocked():
    # Knave e6 boxed in by its own Pawns still leaps to all six cells
    v, pos = setup("knavish", "k9/10/10/3PPP4/3PNP4/3PPP4/10/10/10/9K w - - 0 1")
    assert {t[2:] for t in texts(v, pos) if t.startswith("e6")} == {"d8", "f8", "d4", "f4", "c6", "g6"}


def test_knave_and_debtor_have_four_bindings_carpenter_none():
    v = variants.get("knavish")
    geo = v.geometry
    for token, ident in (("N", lambda x, y: (y % 2, (x - y // 2) % 2)),
                         ("D", lambda x, y: (x % 2, (y - x // 2) % 2))):
        classes = {reach(v, token, c) for c in range(geo.size)}
        assert len(classes) == 4
        for cls in classes:                 # the binding formula of the docs page names them
            assert len({ident(*geo.coords[c]) for c in cls}) == 1
    assert len(reach(v, "C", 0)) == geo.size


def test_kneader_moves_as_knave_and_captures_as_debtor():
    # Black men on d4 (a Knave cell) and c5 (a Debtor cell): only c5 can be taken
    v, pos = setup("knavish-kneader", "4k5/10/10/10/4E5/2p7/3p6/10/10/4K5 w - - 0 1")
    e6 = {t[2:] for t in texts(v, pos) if t.startswith("e6")}
    assert e6 == {"c6", "g6", "d8", "f8", "f4", "c5"}


def test_contrakneader_moves_as_debtor_and_captures_as_knave():
    v, pos = setup("knavish-kneader", "4k5/10/10/10/4T5/2p7/3p6/10/10/4K5 w - - 0 1")
    e6 = {t[2:] for t in texts(v, pos) if t.startswith("e6")}
    assert e6 == {"c7", "g7", "g5", "e8", "e4", "d4"}


# ---- rulings 2-4: arrays --------------------------------------------------------------------
def _cells(pos, v, token):
    code = v.by_token[token].id * 2
    return {v.geometry.name(c) for c, p in enumerate(pos.board) if p == code}


def test_ruling_2_ten_file_array():
    v, pos = setup("knavish")
    assert _cells(pos, v, "D") == {"b1", "b2", "i1", "i2"}
    assert _cells(pos, v, "N") == {"c1", "c2", "h1", "h2"}
    assert _cells(pos, v, "C") == {"e1", "f1"}
    assert _cells(pos, v, "Q") == {"e2"} and _cells(pos, v, "K") == {"f2"}
    assert not any(pos.board[v.geometry.by_name[c]] for c in ("a1", "d1", "g1", "j1"))
    # one Knave per Knave binding, one Debtor per Debtor binding
    for token in "ND":
        cells = [v.geometry.by_name[c] for c in _cells(pos, v, token)]
        assert len({reach(v, token, c) for c in cells}) == 4


def test_ruling_3_eight_file_array():
    v, pos = setup("knavish8")
    assert format(pos).split()[0] == "dndccdnd/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/DNDCCDND"
    for token in "ND":
        cells = [v.geometry.by_name[c] for c in _cells(pos, v, token)]
        assert len({reach(v, token, c) for c in cells}) == 4


def test_ruling_4_kneader_array_replaces_knaves_and_debtors():
    v, pos = setup("knavish-kneader")
    assert _cells(pos, v, "E") == {"c1", "c2", "h1", "h2"}
    assert _cells(pos, v, "T") == {"b1", "b2", "i1", "i2"}
    assert not _cells(pos, v, "N") and not _cells(pos, v, "D")


# ---- ruling 5: castling ---------------------------------------------------------------------
def test_ruling_5_castling_on_rank_2_written_as_the_kings_move():
    fen = "1dn1cc1nd1/r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R/1DN1CC1ND1 w KQkq - 0 1"
    v, pos = setup("knavish", fen, ["f2h2"])
    assert format(pos) == "1dn1cc1nd1/r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R5RK2/1DN1CC1ND1 b kq - 1 1"
    play(v, pos, "f9c9")
    assert format(pos).split()[0].split("/")[1] == "2kr5r"
    v, pos = setup("knavish8", "dndccdnd/r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R/DNDCCDND w KQkq - 0 1",
                   ["e2g2"])
    assert format(pos).split()[0].split("/")[8] == "R4RK1"


def test_ruling_5_queenside_castling_on_eight_files():
    v, pos = setup("knavish8", "dndccdnd/r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R/DNDCCDND w KQkq - 0 1",
                   ["e2c2"])
    assert format(pos) == "dndccdnd/r3k2r/pppppppp/8/8/8/8/PPPPPPPP/2KR3R/DNDCCDND b kq - 1 1"


def test_ruling_5_castling_conditions():
    base = "1dn1cc1nd1/r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R/1DN1CC1ND1 w KQkq - 0 1"
    v, pos = setup("knavish", base)
    assert {"f2h2", "f2c2"} <= texts(v, pos)
    # a black rook on e9 hits e2 through the open e-file: O-O-O passes e2
    v, pos = setup("knavish", "1dn1cc1nd1/r3rk3r/pppp1ppppp/10/10/10/10/PPPP1PPPPP/R4K3R/1DN1CC1ND1 w KQkq - 0 1")
    t = texts(v, pos)
    assert "f2h2" in t and "f2c2" not in t
    # in check (rook f9 on the open f-file): no castling at all
    v, pos = setup("knavish", "1dn1cc1nd1/r4r3k/ppppp1pppp/10/10/10/10/PPPPP1PPPP/R4K3R/1DN1CC1ND1 w KQ - 0 1")
    assert in_check(pos) and not {"f2h2", "f2c2"} & texts(v, pos)
    # a piece between King and Rook (b2) bars O-O-O even though the King does not pass b2
    v, pos = setup("knavish", "1dn1cc1nd1/r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/RD3K3R/1DN1CC1ND1 w KQkq - 0 1")
    t = texts(v, pos)
    assert "f2h2" in t and "f2c2" not in t
    # the King may not land on an attacked cell: rook h9 on the open h-file hits h2 (O-O),
    # rook c9 on the open c-file hits c2 (O-O-O); the cells the King passes are safe
    v, pos = setup("knavish", "1dn1cc1nd1/r4k1r1r/ppppppp1pp/10/10/10/10/PPPPPPP1PP/R4K3R/1DN1CC1ND1 w KQkq - 0 1")
    t = texts(v, pos)
    assert not in_check(pos) and "f2h2" not in t and "f2c2" in t
    v, pos = setup("knavish", "1dn1cc1nd1/r1r2k3r/pp1ppppppp/10/10/10/10/PP1PPPPPPP/R4K3R/1DN1CC1ND1 w KQkq - 0 1")
    t = texts(v, pos)
    assert not in_check(pos) and "f2c2" not in t and "f2h2" in t
    # a piece between King and Rook on the King's side (i2) bars O-O
    v, pos = setup("knavish", "1dn1cc1nd1/r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K2DR/1DN1CC1ND1 w KQkq - 0 1")
    t = texts(v, pos)
    assert "f2c2" in t and "f2h2" not in t
    # rights go when the King or the Rook moves
    v, pos = setup("knavish", base, ["j2j1", "a9a10"])
    assert format(pos).split()[2] == "Qk"


# ---- ruling 6: double step and en passant ---------------------------------------------------
def test_ruling_6_double_step_only_from_rank_3():
    v, pos = setup("knavish", "4k5/10/10/10/10/10/4P5/2P7/10/4K5 w - - 0 1")
    t = texts(v, pos)
    assert {"c3c4", "c3c5", "e4e5"} <= t and "e4e6" not in t
    v, pos = setup("knavish", "4k5/10/10/10/10/10/10/2p7/2P7/4K5 w - - 0 1")
    assert not any(m.startswith("c2") for m in texts(v, pos))    # blocked single step


def test_ruling_6_en_passant_next_move_only():
    fen = "4k5/10/3p6/10/4P5/10/10/10/10/4K5 b - - 0 1"
    v, pos = setup("knavish", fen, ["d8d6"])
    assert format(pos).split()[3] == "d7" and "e6d7" in texts(v, pos)
    play(v, pos, "e6d7")
    assert format(pos).split()[0] == "4k5/10/10/3P6/10/10/10/10/10/4K5"
    v, pos = setup("knavish", fen, ["d8d6", "e1d1", "e10d10"])
    assert "e6d7" not in texts(v, pos)


def test_ruling_6_en_passant_field_written_as_fairy_stockfish_does():
    # the skipped cell is written only when an enemy Pawn stands beside the arrival cell
    v, pos = setup("knavish", None, ["e3e5"])
    assert format(pos).split()[3] == "-"
    v, pos = setup("knavish", "4k5/10/10/10/10/3p6/10/4P5/10/4K5 w - - 0 1", ["e3e5"])
    assert format(pos).split()[3] == "e4" and "d5e4" in texts(v, pos)


def test_ruling_6_en_passant_that_exposes_the_king_is_illegal():
    v, pos = setup("knavish", "10/10/10/10/10/k2p5R/10/4P5/10/4K5 w - - 0 1", ["e3e5"])
    assert format(pos).split()[3] == "e4"
    assert "d5e4" not in texts(v, pos) and "d5d4" in texts(v, pos)


# ---- pawn promotion -------------------------------------------------------------------------
def test_pawn_promotes_to_queen_or_carpenter_only():
    v, pos = setup("knavish", "4k5/P9/10/10/10/10/10/10/10/4K5 w - - 0 1")
    assert {t for t in texts(v, pos) if t.startswith("a9")} == {"a9a10q", "a9a10c"}
    v, pos = setup("knavish8", "4k3/8/8/8/8/8/8/8/p7/4K3 b - - 0 1")
    assert {t for t in texts(v, pos) if t.startswith("a2")} == {"a2a1q", "a2a1c"}


# ---- ruling 7: optional promotion -----------------------------------------------------------
def test_ruling_7_optional_promotion_only_on_moves_ending_on_the_far_rank():
    # Fairy-Stockfish would also offer a10a5+ (a move that starts on the far rank); we do not.
    v, pos = setup("knavish-promotion", "R9/10/4k5/10/10/10/10/10/10/4K5 w - - 0 1")
    t = texts(v, pos)
    assert "a10a5" in t and "a10a5+" not in t
    assert {"a10b10", "a10b10+"} <= t
    assert not any(m.endswith("+") and not m.endswith("10+") for m in t)


def test_ruling_7_promotion_may_be_declined_and_taken_later():
    v, pos = setup("knavish-promotion", "4k5/10/10/10/10/10/10/10/R9/4K5 w - - 0 1", ["a2a10"])
    assert format(pos).split()[0].startswith("R3k5")
    play(v, pos, "e10f9")
    assert "a10b10+" in texts(v, pos)
    play(v, pos, "a10b10+")
    assert format(pos).split()[0].startswith("1+R")
    play(v, pos, "f9f8")
    assert {"b10c9", "b10j2", "b10b1"} <= texts(v, pos)      # +R moves as a Queen


def test_ruling_7_knave_and_debtor_become_carpenters_bishop_becomes_queen():
    v, pos = setup("knavish-promotion", "9k/10/2N1D1B3/10/10/10/10/10/10/4K5 w - - 0 1")
    t = texts(v, pos)
    assert {"c8b10+", "c8d10+", "e8e10+", "g8i10+", "g8e10+", "g8h9", "g8f9"} <= t
    assert "g8h9+" not in t and "g8f9+" not in t          # rank 9 is not the far rank
    play(v, pos, "c8d10+")
    assert format(pos).split()[0].startswith("3+N5k")
    v2, pos2 = setup("knavish-promotion", "7k2/10/7B2/10/10/10/10/10/10/4K5 w - - 0 1")
    assert "h8j10+" in texts(v2, pos2) and "h8f10+" in texts(v2, pos2)


def test_ruling_7_no_piece_promotion_for_kneaders_or_in_the_base_game():
    v, pos = setup("knavish-kneader", "9k/10/2E1T5/10/10/10/10/10/R9/4K5 w - - 0 1")
    assert not any(t.endswith("+") for t in texts(v, pos))
    v, pos = setup("knavish", "9k/10/2N1D5/10/10/10/10/10/R9/4K5 w - - 0 1")
    assert not any(t.endswith("+") for t in texts(v, pos))


# ---- ruling 8: returns ----------------------------------------------------------------------
def test_ruling_8_captured_pieces_return_unpromoted():
    # a +R (promoted Rook) and a Q~ (promoted Pawn) are captured: they go to hand as R and P
    v, pos = setup("knavish-returns", "4k5/4r5/10/10/4+R5/10/10/10/Q~9/4K5[] b - - 0 1", ["e9e6"])
    assert format(pos).split()[0].endswith("[r]")
    v, pos = setup("knavish-returns", "4k5/q9/10/10/10/10/10/10/Q~9/4K5[] b - - 0 1", ["a9a2"])
    assert format(pos).split()[0].endswith("[p]")


def test_ruling_8_pawn_promotion_in_returns_is_written_with_tilde():
    v, pos = setup("knavish-returns", "4k5/P9/10/10/10/10/10/10/10/4K5[] w - - 0 1", ["a9a10q"])
    assert format(pos).split()[0].startswith("Q~3k5")
    assert v.piece_types[pos.board[v.geometry.by_name["a10"]] >> 1].demotes_to == "P"


def test_ruling_8_drops_anywhere_but_pawns_not_on_ranks_1_and_10():
    v, pos = setup("knavish-returns", f"4k5/{EMPTY10}/4K5[PN] w - - 0 1")
    t = texts(v, pos)
    drops_p = {m[2:] for m in t if m.startswith("P@")}
    assert drops_p == {f"{f}{r}" for f in "abcdefghij" for r in range(2, 10)}
    assert {"N@a1", "N@j10"} <= t
    v, pos = setup("knavish-returns", f"4k5/{EMPTY10}/4K5[p] b - - 0 1")
    assert {m[2:] for m in texts(v, pos) if m.startswith("P@")} == \
        {f"{f}{r}" for f in "abcdefghij" for r in range(2, 10)}


def test_ruling_8_doubled_pawns_and_pawn_drop_mate_allowed():
    v, pos = setup("knavish-returns", "k2N6/10/1K8/10/10/10/4P5/10/10/10[PP] w - - 0 1")
    t = texts(v, pos)
    assert "P@e3" in t and "P@e5" in t                     # same file as the e4 Pawn
    play(v, pos, "P@b9")
    assert in_check(pos) and not legal_moves(pos)
    assert game_result(pos) == (-1, "checkmate")


def test_ruling_8_dropped_pawn_on_rank_3_may_double_step():
    v, pos = setup("knavish-returns", f"4k5/{EMPTY10}/4K5[P] w - - 0 1", ["P@c3", "e10e9"])
    assert "c3c5" in texts(v, pos)


def test_ruling_8_drops_give_no_castling_rights():
    v, pos = setup("knavish-returns", "4k5/10/10/10/10/10/10/10/R4K4/10[R] w Q - 0 1", ["R@j2", "e10e9"])
    t = texts(v, pos)
    assert "f2c2" in t and "f2h2" not in t
    assert format(pos).split()[2] == "Q"


# ---- ruling 9: draws ------------------------------------------------------------------------
@pytest.mark.parametrize("name,fen", [
    ("knavish", "k9/10/1Q8/10/10/10/10/10/10/4K5 b - - 0 1"),
    ("knavish8", "k7/8/1Q6/8/8/8/8/8/8/4K3 b - - 0 1"),
])
def test_stalemate_is_a_draw(name, fen):
    # Black King a10: a9, b9, b10 covered by the Queen b8, a10 itself not attacked
    v, pos = setup(name, fen)
    assert not in_check(pos) and legal_moves(pos) == []
    assert game_result(pos) == (0, "stalemate")


def test_ruling_9_fifty_move_rule():
    v, pos = setup("knavish", "4k5/10/10/10/10/10/10/10/10/4KR4 w - - 99 80")
    assert game_result(pos) is None
    play(v, pos, "f1f5")
    assert game_result(pos) == (0, "50-move rule")


def test_ruling_9_threefold_repetition():
    v, pos = setup("knavish")
    for _ in range(2):
        for t in ("h2g4", "h9g7", "g4h2", "g7h9"):
            assert game_result(pos) is None
            play(v, pos, t)
    assert game_result(pos) == (0, "repetition")


def test_ruling_9_returns_clock_restarts_on_pawn_drops_only():
    fen = f"4k5/{EMPTY10}/4K5[PNQ] w - - 30 40"
    v, pos = setup("knavish-returns", fen, ["P@e5"])
    assert format(pos).split()[4] == "0"
    v, pos = setup("knavish-returns", fen, ["N@e5"])        # Fairy-Stockfish would write 0
    assert format(pos).split()[4] == "31"
    # a piece promotion is neither a capture nor a Pawn move (Fairy-Stockfish would write 0)
    v, pos = setup("knavish-promotion", "4k5/10/10/10/10/10/10/10/R9/4K5 w - - 30 40", ["a2a10+"])
    assert format(pos).split()[4] == "31"


@pytest.mark.parametrize("name,fen,dead", [
    ("knavish", "4k5/10/10/10/10/10/10/10/10/4K5 w - - 0 1", True),
    ("knavish", "4k5/10/10/10/10/10/10/10/10/4KN4 w - - 0 1", True),
    ("knavish", "4k5/10/10/10/10/10/10/10/10/4KD4 w - - 0 1", True),
    ("knavish", "4k5/10/10/10/10/10/10/10/10/4KB4 w - - 0 1", True),
    ("knavish", "4k5/10/10/10/10/10/10/10/10/3BKB4 w - - 0 1", True),
    ("knavish", "4k5/10/10/10/10/10/10/10/10/3BK1B3 w - - 0 1", False),
    ("knavish", "4k5/10/10/10/10/10/10/10/10/4KC4 w - - 0 1", False),
    ("knavish", "4k5/10/10/10/10/10/10/5P4/10/4K5 w - - 0 1", False),
    ("knavish", "4kn4/10/10/10/10/10/10/10/10/4KN4 w - - 0 1", False),
    ("knavish-kneader", "4k5/10/10/10/10/10/10/10/10/4KE4 w - - 0 1", True),
    ("knavish-kneader", "4k5/10/10/10/10/10/10/10/10/4KT4 w - - 0 1", True),
    ("knavish-returns", "4k5/10/10/10/10/10/10/10/10/4K5[] w - - 0 1", True),
    ("knavish-returns", "4k5/10/10/10/10/10/10/10/10/4K5[n] w - - 0 1", False),
    ("knavish-returns", "4k5/10/10/10/10/10/10/10/10/4KN4[] w - - 0 1", False),
])
def test_insufficient_material(name, fen, dead):
    v, pos = setup(name, fen)
    assert (game_result(pos) == (0, "insufficient material")) is dead


def _lone_mate_exists(v, token):
    """Is there any position K + one `token` (a leaper) against a bare K with the bare side
    checkmated?  Leapers are never blocked, so attack sets are fixed per cell."""
    geo = v.geometry
    tab = v.tables[v.by_token[token].id * 2]
    hits = [set(tab.leaps[c] + tab.cleaps[c]) for c in range(geo.size)]
    near = [{t for t in range(geo.size) if t != c and
             max(abs(a - b) for a, b in zip(geo.coords[c], geo.coords[t])) <= 1}
            for c in range(geo.size)]
    for bk in range(geo.size):
        for xs in (s for s in range(geo.size) if bk in hits[s]):
            for wk in range(geo.size):
                if wk == xs or wk == bk or wk in near[bk]:
                    continue
                if xs in near[bk] and xs not in near[wk]:
                    continue                                 # the King takes the piece
                if all(f in near[wk] or f in hits[xs] for f in near[bk] if f != xs):
                    return True
    return False


@pytest.mark.parametrize("name,token,exists", [
    ("knavish", "N", False), ("knavish", "D", False), ("knavish", "C", True),
    ("knavish8", "N", False), ("knavish8", "D", False), ("knavish8", "C", True),
    ("knavish-kneader", "E", False), ("knavish-kneader", "T", False),
])
def test_lone_leaper_mates_exist_only_for_the_carpenter(name, token, exists):
    """The proof behind the material rule: no K + Knave/Debtor/Kneader/Contrakneader vs K
    checkmate exists on either board; K + Carpenter has one (K c2, C c1 vs K a1)."""
    assert _lone_mate_exists(variants.get(name), token) is exists


# ---- position and move text -----------------------------------------------------------------
@pytest.mark.parametrize("name,fen", [
    ("knavish", "1dn1cc1nd1/rdnbqkbndr/ppp2ppppp/10/3pP5/10/10/PPPP1PPPPP/RDNBQKBNDR/1DN1CC1ND1 w KQkq d7 0 2"),
    ("knavish-promotion", "+Rdn1cc1nd1/1dnbqkbndr/1ppppppppp/10/10/10/10/1PPPPPPPPP/1DNBQKBNDR/1DN1CC1ND1 b Kk - 0 1"),
    ("knavish-returns", "1+Rn1cc1ndr/1dnbqkbnd1/1ppppppppp/10/10/10/10/1PPPPPPPPP/1DNBQKBNDR/1DN1CC1ND1[D] b K - 0 2"),
    ("knavish-returns", "1Q~n1cc1nd1/1dnbqkbndr/1ppppppppp/10/10/10/10/1PPPPPPPPP/RDNBQKBNDR/1DN1CC1ND1[D] b KQk - 0 1"),
    ("knavish-returns", "4k5/10/10/10/10/10/10/10/10/4K5[CDNQRBPcdnqrbp] w - - 5 10"),
    ("knavish8-returns", "dndccdnd/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/DNDCCDND[] w KQkq - 0 1"),
])
def test_position_text_round_trip_in_fairy_stockfish_form(name, fen):
    v = variants.get(name)
    assert format(parse(v, fen)) == fen


def test_hand_written_in_fairy_stockfish_order():
    v = variants.get("knavish-returns")
    assert format(parse(v, f"4k5/{EMPTY10}/4K5[pbPQqCDNRBcdnr] w - - 5 10")).split()[0].endswith(
        "[CDNQRBPcdnqrbp]")


def test_bad_positions_are_refused():
    v = variants.get("knavish")
    for fen in ("4k5/10/10/10/10/10/10/10/10/10 w - - 0 1",          # no white King
                "4k4P/10/10/10/10/10/10/10/10/4K5 w - - 0 1",        # Pawn on rank 10
                "4k5/10/10/10/10/10/10/10/10/4K4 w - - 0 1"):        # short rank
        with pytest.raises(PositionTextError):
            parse(v, fen)


def test_move_texts():
    v, pos = setup("knavish-returns", "4k5/P9/10/10/10/10/10/10/R9/4K5[N] w - - 0 1")
    t = texts(v, pos)
    assert {"a9a10q", "a9a10c", "N@e5", "a2a8"} <= t
    v, pos = setup("knavish-promotion", "4k5/10/10/10/10/10/10/10/R9/4K5 w - - 0 1")
    assert {"a2a10", "a2a10+"} <= texts(v, pos)


# ---- hand check of perft 1 (the start figures of "Figures reproduced") ----------------------
HAND_LIST = {
    # 20 Pawn moves; R a2-a1, R j2-j1; Q e2-d1; K f2-g1; Knaves c2-b4,d4 and
    # h2-g4,i4; Debtors b2-d1,b4 and i2-g1,i4; Knave c1-a1, h1-j1; C e1-g1, C f1-d1
    "knavish": ([f"{f}3{f}{r}" for f in "abcdefghij" for r in (4, 5)] +
                ["a2a1", "j2j1", "e2d1", "f2g1", "c2b4", "c2d4", "h2g4", "h2i4",
                 "b2d1", "b2b4", "i2g1", "i2i4", "c1a1", "h1j1", "e1g1", "f1d1"]),
    # 16 Pawn moves; Knaves b2-a4,c4 and g2-f4,h4
    "knavish8": ([f"{f}3{f}{r}" for f in "abcdefgh" for r in (4, 5)] +
                 ["b2a4", "b2c4", "g2f4", "g2h4"]),
}


@pytest.mark.parametrize("name,total", [("knavish", 36), ("knavish8", 20)])
def test_start_divide_1_is_the_hand_list(name, total):
    v, pos = setup(name)
    div = {move_text(v, m): n for m, n in divide(pos, 1)}
    assert len(HAND_LIST[name]) == total == sum(div.values())
    assert div == dict.fromkeys(HAND_LIST[name], 1)
