"""Each shogi rule proven by a named position whose legal moves or result the test states."""
import variants
from engine.game import game_result
from engine.movegen import in_check, legal_moves
from engine.notation.move_text import move_text, parse_move
from engine.notation.position_text import parse


def setup(sfen, moves=()):
    v = variants.get("shogi")
    pos = parse(v, sfen, "sfen")
    for t in moves:
        pos.make(parse_move(v, legal_moves(pos), t, "usi"))
    return v, pos


def texts(v, pos):
    return {move_text(v, m, "usi") for m in legal_moves(pos)}


def test_two_pawn_rule():
    v, pos = setup("4k4/9/9/9/9/9/4P4/9/4K4 b P 1")
    t = texts(v, pos)
    assert "P*5e" not in t and "P*4e" in t


def test_pawn_drop_mate_is_illegal_but_other_drop_mates_are_legal():
    # gote king 1a, boxed in by its own lance 2a and silver 2b; gold 1c guards 1b
    v, pos = setup("7lk/7s1/8G/9/9/9/9/9/K8 b P 1")
    t = texts(v, pos)
    assert "P*1b" not in t and "P*2c" in t          # that pawn drop would mate: forbidden
    v, pos = setup("7lk/7s1/8G/9/9/9/9/9/K8 b L 1")
    assert "L*1b" in texts(v, pos)                  # a lance drop may mate
    pos.make(parse_move(v, legal_moves(pos), "L*1b", "usi"))
    assert game_result(pos) == (-1, "checkmate")


def test_drops_barred_where_the_piece_could_never_move():
    v, pos = setup("4k4/9/9/9/9/9/9/9/4K4 b PLN 1")
    t = texts(v, pos)
    assert not any(m in t for m in ("P*3a", "L*3a", "N*3a", "N*3b"))
    assert {"P*3b", "L*3b", "N*3c"} <= t


def test_forced_and_optional_promotion():
    v, pos = setup("4k4/9/P8/9/9/9/9/9/4K4 b - 1")
    t = texts(v, pos)
    assert "9c9b+" in t and "9c9b" in t                  # optional on rank b for a pawn
    v, pos = setup("4k4/P8/9/9/9/9/9/9/4K4 b - 1")
    t = texts(v, pos)
    assert "9b9a+" in t and "9b9a" not in t              # forced on the last rank
    v, pos = setup("4k4/9/9/N8/9/9/9/9/4K4 b - 1")
    t = texts(v, pos)
    assert "9d8b+" in t and "9d8b" not in t              # knight: last two ranks


# Sente's lone king on 9i, no hand: gote's rook on 8a sweeps file 8 (8h, 8i) and the rook on
# 1h sweeps rank h (9h, 8h), so every square the king could step to is attacked, yet neither
# rook nor gote's king on 1a attacks 9i.  No legal move, not in check: in shogi that loses
# (cshogi agrees: no legal move, not check, game over).
NO_MOVE_NO_CHECK = "1r6k/9/9/9/9/9/9/8r/K8 b - 1"
# the same picture turned round for gote: king on 1a, sente's rooks on 2i and 9b
NO_MOVE_NO_CHECK_GOTE = "8k/R8/9/9/9/9/9/9/K6R1 w - 1"


def test_no_legal_move_loses_even_without_check():
    import cshogi
    for sfen in (NO_MOVE_NO_CHECK, NO_MOVE_NO_CHECK_GOTE):
        ref = cshogi.Board(sfen)
        assert not ref.is_check() and len(list(ref.legal_moves)) == 0
        v, pos = setup(sfen)
        assert not in_check(pos)
        assert legal_moves(pos) == []
        assert game_result(pos)[0] == -1
    # one rook fewer and the king has a way out: the rule, not the position, decides
    v, pos = setup("1r6k/9/9/9/9/9/9/9/K8 b - 1")
    assert texts(v, pos) == {"9i9h"} and game_result(pos) is None


def test_fourfold_repetition_is_a_draw():
    cycle = ["5i4i", "5a4a", "4i5i", "4a5a"]
    v, pos = setup("4k4/9/9/9/9/9/9/9/4K4 b - 1", cycle * 2)
    assert game_result(pos) is None                     # the start stands for the 3rd time
    for m in cycle:
        pos.make(parse_move(v, legal_moves(pos), m, "usi"))
    assert game_result(pos) == (0, "repetition")        # 4th time, nobody checked


def test_perpetual_check_loses():
    # Sente's rook checks along files 5 and 6 while Gote's king steps between 5a and 6a
    loop = ["6i5i", "5a6a", "5i6i", "6a5a"] * 3 + ["6i5i"]
    v, pos = setup("4k4/9/9/9/9/9/9/9/3R4K b - 1", loop[:-4])
    assert game_result(pos) is None
    for m in loop[-4:]:
        pos.make(parse_move(v, legal_moves(pos), m, "usi"))
    # gote to move, in check, 4th occurrence: the checking side (sente) loses
    assert game_result(pos) == (1, "perpetual check")
