"""Fairy-Stockfish's cambodian, karouk and sittuyin, shipped as variants-file sections
(variants/files/fairy-seasia.ini), against pyffish's built-ins of the same names: the same
start text, perft from the start, random games with the same legal moves, position text and
result at every ply (tests/fsf_oracle.py), and named positions for each rule key:
``cambodianMoves`` (the king's leap, the met's step, what takes them away), the Cambodian
count, ``sittuyinRookDrop`` and ``sittuyinPromotion``, and sittuyin's setup by drops."""
from __future__ import annotations

import pytest

import pyffish as sf  # a real peer: a missing pyffish fails the suite, never skips it

from fsf_oracle import after, fsf_perft, play_random_games  # noqa: E402

import variants  # noqa: E402
from engine.game import game_result, perft  # noqa: E402
from engine.movegen import legal_moves  # noqa: E402
from engine.notation import move_text, parse_position  # noqa: E402
from engine.notation.position_text import format  # noqa: E402

NAMES = ["cambodian", "karouk", "sittuyin"]
# perft 3 from the start, as pyffish 0.0.90 counts it (fsf_perft(name, start, [], 3): 651 calls
# of pyffish, too slow for every run); sittuyin's setup is proven to depth 2
PERFT3 = {"cambodian": 15031, "karouk": 15031}



def texts(name: str, fen: str, moves: list[str] = ()) -> list[str]:
    pos = after(name, fen, moves)
    return sorted(move_text(pos.variant, m) for m in legal_moves(pos))


def same(name: str, fen: str, moves: list[str] = ()) -> list[str]:
    """Our legal moves and position text after ``moves``, asserted equal to pyffish's."""
    pos = after(name, fen, moves)
    ours = sorted(move_text(pos.variant, m) for m in legal_moves(pos))
    assert ours == sorted(sf.legal_moves(name, fen, list(moves)))
    assert format(pos) == sf.get_fen(name, fen, list(moves))
    return ours


@pytest.mark.parametrize("name", NAMES)
def test_start_text_and_perft_are_pyffishs(name):
    v = variants.get(name)
    fen = sf.start_fen(name)
    assert v.start_fen == fen
    pos = v.start_position()
    assert format(pos) == sf.get_fen(name, fen, [])
    assert [perft(pos, d) for d in (1, 2)] == [fsf_perft(name, fen, [], d) for d in (1, 2)]
    if name in PERFT3:
        assert perft(pos, 3) == PERFT3[name]


@pytest.mark.parametrize("name, fen", [
    ("cambodian", None), ("karouk", None), ("sittuyin", None),
    # a pawn on its diagonal and one off it, both sides' rooks near: promotions by each rule
    ("sittuyin", "r3k3/2p5/8/3P4/8/1r6/P4P2/4K2R w - - 0 1"),
    # the Cambodian count: a rook and a met against a lone king
    ("cambodian", "4k3/8/8/8/8/8/8/R2KM3 w DE - 0 1")])
def test_random_games_agree_with_pyffish(name, fen):
    log = play_random_games(name, games=1, plies=60, fen=fen)
    if name == "sittuyin":
        assert ("drop" if fen is None else "promotion") in log.kinds
    if fen and name == "cambodian":
        assert log.results == [(0, "counting rule")]


# ---- cambodianMoves -------------------------------------------------------------------------
def test_the_king_leaps_and_the_met_steps_from_their_gates():
    fen = "4k3/8/8/8/8/8/8/R2KM3 w DE - 0 1"
    moves = same("cambodian", fen)
    assert {"d1b2", "d1f2", "e1e3"} <= set(moves)
    # the leap closes the king's gate; the met's step closes its own
    assert format(after("cambodian", fen, ["d1b2"])).split()[2] == "E"
    assert format(after("cambodian", fen, ["e1e3"])).split()[2] == "D"
    # a piece on the cell: no leap there, no step
    moves = same("cambodian", "4k3/8/8/8/8/4N3/1N6/R2KM3 w DE - 0 1")
    assert "d1b2" not in moves and "e1e3" not in moves and "d1f2" in moves


def test_no_leap_out_of_check_nor_after_a_rook_came_onto_the_kings_line():
    assert not {"d1b2", "d1f2"} & set(same("cambodian", "4k3/8/8/8/8/8/8/r2K4 w De - 0 1"))
    # a rook that moves onto the e-file takes the black king's leap, whatever stands between
    fen = "4k3/4p3/8/8/8/8/R7/3K4 w De - 0 1"
    same("cambodian", fen, ["a2e2"])
    assert format(after("cambodian", fen, ["a2e2"])).split()[2] == "D"
    # a rook that stays off the king's lines does not
    assert format(after("cambodian", fen, ["a2b2"])).split()[2] == "De"
    # a gate taken by a capture closes
    fen = "4k3/8/8/8/8/8/8/r1SKM3 b DE - 0 1"
    same("cambodian", fen, ["a1c1"])
    assert format(after("cambodian", fen, ["a1c1", "d1c1"])).split()[2] == "E"


def test_the_cambodian_count_is_makruks_one_move_shorter_and_starts_with_pawns():
    # a rook against a lone king: 15 moves (30 plies), counted from twice the pieces
    assert format(after("cambodian", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", ["a1a2"])) \
        == "4k3/8/8/8/8/8/R7/4K3 b - 30 6 1" == sf.get_fen("cambodian", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", ["a1a2"])
    # the board's honour (63 moves) starts while pawns are left, once a side has three pieces
    for fen, move, field in (("4k3/8/3p4/8/8/3P4/8/R3KS2 w - - 0 1", "a1a2", "126"),
                             ("r3k3/8/3pp3/8/8/3P4/8/4K3 w - - 0 1", "e1e2", "-")):
        assert format(after("cambodian", fen, [move])).split()[3] == field
        assert format(after("cambodian", fen, [move])) == sf.get_fen("cambodian", fen, [move])
    # past the limit: a draw
    pos = after("cambodian", "4k3/8/8/8/8/8/8/R3K3 w - 30 30 40", ["a1a2"])
    assert game_result(pos) == (0, "counting rule")


def test_karouk_the_first_check_wins():
    fen = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"
    pos = after("karouk", fen, ["a1a8"])
    assert format(pos) == sf.get_fen("karouk", fen, ["a1a8"]) == "R3k3/8/8/8/8/8/8/4K3 b - 30 0+1 6 1"
    assert game_result(pos)[0] == -1 and sf.game_result("karouk", fen, ["a1a8"]) < 0


# ---- sittuyin ---------------------------------------------------------------------------------
def test_sittuyin_setup_drops_on_the_own_three_ranks_rooks_on_the_first():
    start = sf.start_fen("sittuyin")
    moves = same("sittuyin", start)
    assert len(moves) == 88 and all("@" in m for m in moves)      # must drop: no pawn moves
    assert sorted(m for m in moves if m.startswith("R@")) == [f"R@{f}1" for f in "abcdefgh"]
    assert {m[3] for m in moves} == {"1", "2", "3"}
    # Black holds pieces still: White, whose hand is empty, moves; Black must drop
    fen = "8/8/4pppp/pppp4/4PPPP/PPPP4/8/RNSKFSNR[kfrrssnn] w - - 0 1"
    assert not any("@" in m for m in same("sittuyin", fen))
    assert all("@" in m for m in same("sittuyin", fen, ["a3a4"]))


def test_sittuyin_promotion_by_a_move_of_its_own():
    # d5 is on its diagonal, a2 is not: only d5 promotes, in place or to an empty cell the
    # general reaches; its plain moves do not promote
    fen = "4k3/8/8/3P4/8/8/P7/4K3 w - - 0 1"
    moves = same("sittuyin", fen)
    assert [m for m in moves if m.endswith("f")] == ["d5c4f", "d5c6f", "d5d5f", "d5e4f", "d5e6f"]
    assert "d5d6" in moves
    assert format(after("sittuyin", fen, ["d5d5f"])) == "4k3/8/8/3F4/8/8/P7/4K3[] b - - 0 1"
    # a side's last pawn promotes anywhere
    assert [m for m in same("sittuyin", "4k3/8/8/8/8/8/P7/4K3 w - - 0 1") if m.endswith("f")] \
        == ["a2a2f", "a2b1f", "a2b3f"]
    # not where the general would attack a piece (c6's rook), and not with a general on the board
    moves = same("sittuyin", "4k3/8/2r5/3P4/8/8/P7/4K3 w - - 0 1")
    assert "d5d5f" not in moves and "d5e6f" in moves and "d5c6" in moves
    assert not [m for m in same("sittuyin", "4k3/8/8/3P4/8/8/P7/4KF2 w - - 0 1") if m.endswith("f")]
    # a pawn on the last rank stays a pawn
    assert "a7a8" in same("sittuyin", "3k4/P7/8/8/8/8/8/4K3 w - - 0 1")


def test_sittuyin_counts_as_asean_chess():
    fen = "3k4/8/8/8/8/8/8/R3K3 w - - 0 1"
    assert format(after("sittuyin", fen, ["a1a2"])) == sf.get_fen("sittuyin", fen, ["a1a2"]) \
        == "3k4/8/8/8/8/8/R7/4K3[] b - 32 0 1"


# ---- a file written for Fairy-Stockfish that inherits from these built-ins -------------------
USER_FILE = """
[ouk-nightriders:cambodian]
customPiece1 = n:NN
"""


def test_a_section_inheriting_from_cambodian_with_a_letter_given_again(tmp_path):
    path = tmp_path / "user.ini"
    path.write_text(USER_FILE)
    sf.load_variant_config(USER_FILE)
    assert sorted(variants.load_file(str(path))) == ["ouk-nightriders"]
    name = "ouk-nightriders"
    fen = sf.start_fen(name)
    pos = parse_position(variants.get(name), fen)
    assert format(pos) == sf.get_fen(name, fen, [])
    assert [perft(pos, d) for d in (1, 2)] == [fsf_perft(name, fen, [], d) for d in (1, 2)]
    play_random_games(name, games=1, plies=30)


@pytest.mark.parametrize("text, problem", [
    ("[x:makruk]\ncambodianMoves = true\n",
     (2, "cambodianMoves", "needs gating (the first moves are the gates')")),
    ("[x:makruk]\nsittuyinRookDrop = true\n", (2, "sittuyinRookDrop", "needs pieceDrops"))])
def test_the_keys_refuse_what_they_cannot_mean(text, problem):
    from variants.inifile.load import load_text
    from variants.inifile.parse import VariantFileError
    with pytest.raises(VariantFileError) as e:
        load_text(text, "x.ini", set(variants.builtin_names()))
    assert [(p.line, p.key, p.what) for p in e.value.problems] == [problem]
