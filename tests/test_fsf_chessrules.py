"""Fairy-Stockfish's built-ins of the chess family that need its check, blast and stalemate
keys (variants/files/fairy-chessrules.ini) against pyffish, under the same names: the same
start text, perft 1-3 from the start, seeded random games of 60 plies steered to the moves the
rule is about (checks, captures), with the same legal moves, position text and result at every
ply, and named positions where each rule decides (tests/fsf_chessrules_oracle.py)."""
from __future__ import annotations

from pathlib import Path

import pytest

import pyffish as sf  # a real peer: a missing pyffish fails the suite, never skips it

from engine.game import game_result  # noqa: E402
from engine.movegen import in_check  # noqa: E402
from engine.moves import CASTLE, CELL, EP  # noqa: E402
from engine.notation.errors import PositionTextError  # noqa: E402
from engine.notation.position_text import format as format_text  # noqa: E402
from engine.notation.position_text import parse  # noqa: E402
from engine_proc import EngineProcess  # noqa: E402
from fsf_chessrules_oracle import our_moves, ours, perft, play, score, sf_perft  # noqa: E402

NAMES = ["3check", "5check", "nocheckatomic", "atomic", "atomar", "misere", "suicide", "checkshogi",
         "petrified", "duck", "armageddon"]
SLOW_PERFT = {"checkshogi"}        # pyffish takes seconds for its perft 3
DEPTH1 = {"duck"}                  # perft 2 is 379440 (slow, below); perft 3 is over a million


def gives_check(text, pos, m):
    pos.make(m)
    check = in_check(pos)
    pos.unmake()
    return check


def capture(text, pos, m):
    return bool(pos.board[m & CELL]) or bool(m & (EP | CASTLE))


STEER = {"3check": gives_check, "5check": gives_check, "nocheckatomic": capture,
         "atomic": capture, "atomar": capture, "misere": capture, "suicide": capture,
         "checkshogi": gives_check, "petrified": capture, "duck": capture,
         "armageddon": capture}


@pytest.mark.parametrize("name", NAMES)
def test_start_text_and_perft_as_pyffish(name):
    start = sf.start_fen(name)
    pos = parse(ours(name), start)
    assert format_text(pos) == sf.get_fen(name, start, [])    # checkshogi: its counts written
    depths = (1,) if name in DEPTH1 else (1, 2) if name in SLOW_PERFT else (1, 2, 3)
    for depth in depths:
        assert perft(pos, depth) == sf_perft(name, start, [], depth), (name, depth)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SLOW_PERFT | DEPTH1))
def test_deep_perft_as_pyffish(name):
    start = sf.start_fen(name)
    depth = 2 if name in DEPTH1 else 3
    assert perft(parse(ours(name), start), depth) == sf_perft(name, start, [], depth)


@pytest.mark.parametrize("name", NAMES)
def test_random_games_as_pyffish(name):
    steered = 0
    for seed in range(3):
        steered += play(name, seed, prefer=STEER[name])["steered"]
    assert steered >= 3            # the steered moves were played


def same(name, fen, moves=()):
    """Our legal moves and result at ``fen`` after ``moves`` are pyffish's; returns them."""
    pos = parse(ours(name), fen)
    for t in moves:
        pos.make(our_moves(pos)[t])
    mine = sorted(our_moves(pos))
    assert mine == sorted(sf.legal_moves(name, fen, list(moves)))
    assert format_text(pos) == sf.get_fen(name, fen, list(moves))
    r = game_result(pos)
    if not mine:
        assert score(r) == sf.game_result(name, fen, list(moves))
    return mine, r, format_text(pos)


# ---- check counting -------------------------------------------------------------------------
def test_the_last_check_wins_and_counts_are_written():
    fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 1+2 0 1"
    moves, r, text = same("3check", fen, ["e2e4", "f7f6", "d1h5"])
    assert moves == [] and r == (-1, "checks given")
    assert text == "rnbqkbnr/ppppp1pp/5p2/7Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 0+2 1 2"
    # with a check left to give, the same check only counts
    moves, r, text = same("3check", fen.replace("1+2", "2+2"), ["e2e4", "f7f6", "d1h5"])
    assert moves == ["g7g6"] and r is None and " 1+2 " in text


def test_counts_left_out_read_as_the_next_check_wins():
    _, _, text = same("5check", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
    assert text == "4k3/8/8/8/8/8/8/R3K3 w - - 1+1 0 1"
    moves, r, _ = same("5check", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", ["a1a8"])
    assert moves == [] and r is not None and r[0] == -1


def test_bad_counts_are_refused():
    with pytest.raises(PositionTextError):
        parse(ours("3check"), "4k3/8/8/8/8/8/8/R3K3 w - - 3+x 0 1")
    with pytest.raises(PositionTextError):
        parse(ours("3check"), "4k3/8/8/8/8/8/8/R3K3 w - - 99+3 0 1")


def test_counts_are_part_of_the_hash_and_come_back_at_unmake():
    v = ours("3check")
    a = parse(v, "4k3/8/8/8/8/8/8/R3K3 w - - 3+3 0 1")
    b = parse(v, "4k3/8/8/8/8/8/8/R3K3 w - - 2+3 0 1")
    assert a.hash != b.hash
    h = a.hash
    a.make(our_moves(a)["a1a8"])
    assert format_text(a).endswith("b - - 2+3 1 1")
    a.unmake()
    assert a.hash == h and format_text(a) == "4k3/8/8/8/8/8/8/R3K3 w - - 3+3 0 1"


# ---- blasts ---------------------------------------------------------------------------------
SELF_BLAST = "4k3/8/8/8/8/3p4/3QK3/8 w - - 0 1"


def test_a_capture_beside_the_own_king():
    # atomic: blasting the own king is illegal; nocheckatomic: legal, and loses at once;
    # atomar: the king survives the blast
    assert "d2d3" not in same("atomic", SELF_BLAST)[0]
    moves, r, text = same("nocheckatomic", SELF_BLAST, ["d2d3"])
    assert text == "4k3/8/8/8/8/8/8/8 b - - 0 1" and r is not None and r[0] == 1
    _, r, text = same("atomar", SELF_BLAST, ["d2d3"])
    assert text == "4k3/8/8/8/8/8/4K3/8 b - - 0 1" and r is None


def test_touching_kings_cannot_be_attacked():
    moves, _, _ = same("atomic", "8/8/8/8/8/3k4/8/r2K4 w - - 0 1")
    assert moves == ["d1c2", "d1d2", "d1e2"]        # c1 and e1 are attacked, d2 touches


def test_blasting_the_other_king_ends_the_game_whatever_else():
    # White in check by the rook may blast Black's king instead of answering the check
    moves, _, _ = same("atomic", "8/8/8/8/3kp3/8/4R3/r3K3 w - - 0 1")
    assert "e2e4" in moves
    moves, r, _ = same("atomic", "8/8/8/8/3kp3/8/4R3/r3K3 w - - 0 1", ["e2e4"])
    assert moves == [] and r == (-1, "extinction")


def test_en_passant_blasts_too():
    moves, _, text = same("atomic", "4k3/3p4/8/2N1P3/8/8/8/4K3 b - - 0 1", ["d7d5"])
    assert "e5d6" in moves
    _, _, text = same("atomic", "4k3/3p4/8/2N1P3/8/8/8/4K3 b - - 0 1", ["d7d5", "e5d6"])
    assert text == "4k3/8/8/8/8/8/8/4K3 b - - 0 2"     # the knight on c5 blasted too


def test_kings_are_mutually_immune_in_atomar():
    moves, _, _ = same("atomar", "8/8/8/8/8/8/3kK3/8 w - - 0 1")
    assert "e2d2" not in moves and "e2d1" in moves


# ---- walls ----------------------------------------------------------------------------------
def test_a_capturing_piece_petrifies():
    moves, r, text = same("petrified", "4k3/8/8/8/8/3n4/3R4/4K3 w - - 0 1", ["d2d3"])
    assert text == "4k3/8/8/8/8/3*4/8/4K3 b - - 0 1" and r is None


def test_a_wall_blocks_and_is_never_taken():
    moves, _, text = same("petrified", "4k3/8/8/8/8/3*4/3R4/4K3 w - - 0 1")
    assert text == "4k3/8/8/8/8/3*4/3R4/4K3 w - - 0 1"
    assert "d2d3" not in moves and "d2d4" not in moves and "d2a2" in moves
    moves, _, _ = same("petrified", "4k3/8/8/8/4r3/3*4/3R4/4K3 w - - 0 1")
    assert moves == ["d2e2", "e1d1", "e1f1", "e1f2"]         # the wall does not shield e1


def test_the_king_may_not_petrify_itself():
    moves, _, _ = same("petrified", "4k3/8/8/8/8/8/4p3/4K3 w - - 0 1")
    assert moves == ["e1d2", "e1f2"]


def test_a_king_may_step_beside_the_king_that_cannot_take_it():
    """The other king may not capture (it would turn to stone, and a side may not lose its
    pseudo-royal king), so it attacks nothing: Black's king steps next to it (a random game
    of the shipped petrified found this, f7e6 beside the White king on d5)."""
    fen = "r1b5/2p2k2/pp6/*2pK1Pp/3*2*1/2*5/3*4/2B2*2 b - - 2 33"
    moves, _, _ = same("petrified", fen)
    assert "f7e6" in moves and "f7e7" in moves
    moves, _, _ = same("petrified", "8/8/8/3k4/8/3K4/8/8 w - - 0 1")
    assert "d3d4" in moves and "d3c4" in moves       # beside the other king, both ways


def test_the_duck_moves_with_every_move():
    start = sf.start_fen("duck")
    moves, _, text = same("duck", start, ["e2e4,e4e5"])
    assert text == "rnbqkbnr/pppppppp/8/4*3/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    assert "d7d5,d5d4" in moves and "d7d5,d5e5" not in moves     # the duck must move
    _, _, text = same("duck", start, ["e2e4,e4e5", "d7d5,d5d4"])
    assert text == "rnbqkbnr/ppp1pppp/8/3p4/3*P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    moves, _, _ = same("duck", start, ["e2e4,e4e5", "d7d5,d5d4", "d1h5,h5d6"])
    assert "d8d7,d7a3" in moves and not any(m.startswith("d8d6") for m in moves)   # a wall
    assert not any(m.split(",")[0].endswith("d6") for m in moves)   # is never entered nor taken


def test_the_duck_after_castling():
    _, _, text = same("duck", "4k3/8/8/8/8/8/8/4K2R w K - 0 1", ["e1g1,g1a1"])
    assert text == "4k3/8/8/8/8/8/8/*4RK1 b - - 1 1"


# ---- results --------------------------------------------------------------------------------
def test_misere_checkmate_wins():
    moves, r, _ = same("misere", "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
    assert moves == [] and r == (1, "checkmate")


@pytest.mark.parametrize("fen,value", [
    ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 1),         # Black stalemated wins
    ("8/8/8/8/8/6k1/5q2/7K w - - 0 1", -1),        # White stalemated loses
])
def test_armageddon_stalemate_is_black_s(fen, value):
    moves, r, _ = same("armageddon", fen)
    assert moves == [] and r == (value, "stalemate")


def test_armageddon_repetition_is_black_s():
    pos = parse(ours("armageddon"), sf.start_fen("armageddon"))
    texts = ["g1f3", "g8f6", "f3g1", "f6g8"] * 2
    for t in texts:
        pos.make(our_moves(pos)[t])
    assert game_result(pos) == (-1, "repetition")        # White to move loses
    assert sf.is_optional_game_end("armageddon", sf.start_fen("armageddon"), texts) == (True, -32000)


@pytest.mark.parametrize("fen,value", [
    ("8/8/8/8/8/p7/P7/8 w - - 0 1", 0),           # as many pieces: a draw
    ("8/8/8/8/p7/P7/8/7n w - - 0 1", 1),          # fewer: the stalemated side wins
    ("8/8/8/8/p7/P7/8/7N b - - 0 1", 1),
    ("8/8/8/8/p7/P7/8/6NN b - - 0 1", 1),
])
def test_suicide_stalemate_counts_pieces(fen, value):
    moves, r, _ = same("suicide", fen)
    assert moves == [] and r is not None and r[0] == value


# ---- by name through the protocol ---------------------------------------------------------------
def test_each_is_offered_by_name():
    eng = EngineProcess()
    try:
        for name in NAMES:
            eng.send(f"setoption name UCI_Variant value {name}")
            eng.send("position startpos")
            lines = eng.ask("d", "Game state:")
            fen = next(line[5:] for line in lines if line.startswith("Fen: "))
            assert fen == sf.get_fen(name, sf.start_fen(name), []), name
    finally:
        eng.close()


# ---- castling and flag keys no built-in uses (tests/data/fsf_chessrules_keys.ini) ----------------
KEYS_INI = Path(__file__).parent / "data" / "fsf_chessrules_keys.ini"
KEY_NAMES = ["flagcount2", "flagsafe2", "flagsafe1", "opposite", "castlewinsq", "castlewins",
             "pass", "passw", "passstalemate", "passgiveaway"]
ROOKS = ("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")


@pytest.fixture(scope="module")
def key_sections():
    import variants
    assert variants.load_file(str(KEYS_INI)) == KEY_NAMES
    if not set(KEY_NAMES) <= set(sf.variants()):
        sf.load_variant_config(KEYS_INI.read_text())


def rook_or_king(text, pos, m):
    return bool(m & CASTLE) or bool(pos.board[m & CELL]) or text[0] in "ah" or text[:2] in ("e1", "e8")


def a_pass(text, pos, m):
    return text[:2] == text[2:4]


@pytest.mark.parametrize("name", KEY_NAMES)
def test_key_sections_random_games_as_pyffish(name, key_sections):
    for seed in range(3):
        play(name, seed, fen=ROOKS[seed % 2], prefer=a_pass if name.startswith("pass") and seed % 2
             else rook_or_king)


def test_passing(key_sections):
    start = sf.start_fen("chess")
    moves, _, text = same("pass", start, ["e2e4", "e8e8"])
    assert text == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2" and "e1e1" in moves
    moves, r, _ = same("pass", start, ["e2e4", "e8e8", "e1e1"])
    assert moves == [] and r == (0, "both passed")
    assert "e1e1" not in same("pass", "4k3/8/8/8/8/8/8/r3K3 w - - 0 1")[0]     # never in check
    assert "e8e8" not in same("passw", start, ["e2e4"])[0]
    assert same("passstalemate", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")[0] == ["h8h8"]
    assert "e1e1" not in same("passstalemate", start)[0]
    moves, _, text = same("passgiveaway", start, ["f2f3", "a7a7"])   # a pawn's pass
    assert text.endswith(" 0 2")


def test_flag_piece_count(key_sections):
    fen = "8/R6R/4k3/8/8/8/8/4K3 w - - 0 1"
    assert same("flagcount2", fen, ["a7a8"])[1] is None
    moves, r, _ = same("flagcount2", fen, ["a7a8", "e6e5", "h7h8"])
    assert moves == [] and r == (-1, "flag")


def test_flag_piece_safe(key_sections):
    fen = "8/Rb5R/4k3/8/8/8/8/4K3 w - - 0 1"
    assert same("flagsafe1", fen, ["a7a8"])[1] is None         # the bishop attacks a8
    assert same("flagsafe1", fen, ["h7h8"])[1] == (-1, "flag")
    fen = "8/R6R/4k3/8/8/8/8/b3K3 w - - 0 1"                    # the bishop attacks h8
    assert same("flagsafe2", fen, ["a7a8", "e6d6", "h7h8"])[1] is None
    assert same("flagsafe2", fen, ["a7a8", "e6d6", "h7g7", "d6c6", "g7g8"])[1] == (-1, "flag")


def test_opposite_castling(key_sections):
    moves, _, text = same("opposite", ROOKS[1], ["e1g1"])
    assert text.split()[2] == "q" and "e8c8" in moves and "e8g8" not in moves
    moves, _, text = same("opposite", ROOKS[1], ["e1c1"])
    assert text.split()[2] == "k" and "e8g8" in moves and "e8c8" not in moves


def test_castling_wins(key_sections):
    assert same("castlewinsq", ROOKS[1], ["e1c1"])[1] is None    # White's castling is no goal
    assert same("castlewinsq", ROOKS[1], ["e1g1", "e8c8"])[1] == (-1, "castling")
    assert same("castlewinsq", ROOKS[1], ["a1a2", "a8a7"])[1] == (1, "castling rights lost")
    assert same("castlewins", ROOKS[1], ["e1g1"])[1] == (-1, "castling")
    assert same("castlewins", ROOKS[1], ["a1a2"])[1] is None      # one right left
    assert same("castlewins", ROOKS[1], ["e1e2"])[1] == (1, "castling rights lost")
