"""Each chess rule proven by a named position whose legal moves or result the test states."""
import variants
from engine.game import game_result
from engine.movegen import in_check, legal_moves
from engine.notation.move_text import move_text, parse_move
from engine.notation.position_text import format, parse


def setup(fen, moves=()):
    v = variants.get("chess")
    pos = parse(v, fen)
    for t in moves:
        pos.make(parse_move(v, legal_moves(pos), t))
    return v, pos


def texts(v, pos):
    return {move_text(v, m) for m in legal_moves(pos)}


def test_castling_both_ways_and_rook_placement():
    v, pos = setup("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert {"e1g1", "e1c1"} <= texts(v, pos)
    pos.make(parse_move(v, legal_moves(pos), "e1c1"))
    assert format(pos) == "r3k2r/8/8/8/8/8/8/2KR3R b kq - 1 1"


def test_no_castling_through_an_attacked_square_or_out_of_check():
    v, pos = setup("r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1")    # f2 rook hits f1
    t = texts(v, pos)
    assert "e1g1" not in t and "e1c1" in t
    v, pos = setup("r3k2r/8/8/8/4r3/8/8/R3K2R w KQkq - 0 1")    # in check from e4
    t = texts(v, pos)
    assert "e1g1" not in t and "e1c1" not in t


def test_castling_rights_lost_when_the_rook_is_captured():
    v, pos = setup("r3k2r/8/8/8/8/8/6b1/R3K2R b KQkq - 0 1", ["g2h1"])
    assert format(pos).split()[2] == "Qkq"


def test_en_passant_only_on_the_next_move():
    v, pos = setup("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1", ["d7d5"])
    assert "e5d6" in texts(v, pos)
    v, pos = setup("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1", ["d7d5", "e1d1", "e8d8"])
    assert "e5d6" not in texts(v, pos)


def test_en_passant_that_exposes_the_king_is_illegal():
    v, pos = setup("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1")
    assert "e5d6" not in texts(v, pos)


def test_promotion_offers_four_pieces():
    v, pos = setup("8/P6k/8/8/8/8/8/K7 w - - 0 1")
    assert {"a7a8q", "a7a8r", "a7a8b", "a7a8n"} <= texts(v, pos)
    assert "a7a8" not in texts(v, pos)


def test_checkmate_and_stalemate():
    v, pos = setup("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")
    assert game_result(pos) == (-1, "checkmate")
    v, pos = setup("7k/8/6QK/8/8/8/8/8 b - - 0 1")
    assert not in_check(pos) and game_result(pos) == (0, "stalemate")


def test_fifty_move_rule():
    v, pos = setup("4k3/8/8/8/8/8/8/R3K3 w - - 99 80", ["a1a2"])
    assert game_result(pos) == (0, "50-move rule")


def test_threefold_repetition():
    v, pos = setup("4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
                   ["e1d1", "e8d8", "d1e1", "d8e8", "e1d1", "e8d8", "d1e1"])
    assert game_result(pos) is None                  # twice so far
    pos.make(parse_move(v, legal_moves(pos), "d8e8"))
    assert game_result(pos) == (0, "repetition")


def test_insufficient_material():
    for fen, dead in [("8/8/4k3/8/8/3BK3/8/8 w - - 0 1", True),
                      ("8/8/4k3/8/8/3NK3/8/8 w - - 0 1", True),
                      ("8/2b5/4k3/8/8/3BK3/8/8 w - - 0 1", False),   # opposite-coloured bishops
                      ("8/3b4/4k3/8/8/3BK3/8/8 w - - 0 1", True),    # same colour
                      ("8/8/4k3/8/8/3PK3/8/8 w - - 0 1", False)]:
        v, pos = setup(fen)
        assert (game_result(pos) == (0, "insufficient material")) == dead, fen
