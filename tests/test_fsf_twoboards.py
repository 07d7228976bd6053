"""Fairy-Stockfish's two-board games bughouse, koedem and supply, shipped as variants-file
sections (variants/files/fairy-twoboards.ini) and played as Fairy-Stockfish plays one board of
them (``twoBoards``): a capture goes to no hand here, the hands are the position text's.
Against pyffish's built-ins of the same names: the start text, perft from the start, random
games from positions with full hands (their captures fill no hand, so the drops come from the
text) with the same legal moves, position text and result at every ply (tests/fsf_oracle.py),
named positions for each rule (the stalemate lost, koedem's kings, supply's drops), and a game
through the protocol whose hand is refilled by a new position, as a GUI does for the partner."""
from __future__ import annotations

import pytest

import pyffish as sf  # a real peer: a missing pyffish fails the suite, never skips it

from engine_proc import EngineProcess  # noqa: E402
from fsf_oracle import after, fsf_perft, play_random_games  # noqa: E402

import variants  # noqa: E402
from engine.game import game_result, perft  # noqa: E402
from engine.movegen import legal_moves  # noqa: E402
from engine.notation import move_text  # noqa: E402
from engine.notation.position_text import format  # noqa: E402

NAMES = ["bughouse", "koedem", "supply"]
# perft 3 from the start, as pyffish 0.0.90 counts it (no hand yet: chess's figure)
PERFT3 = {"bughouse": 8902, "koedem": 8902}



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
    assert v.start_fen == fen and format(v.start_position()) == fen
    pos = v.start_position()
    assert [perft(pos, d) for d in (1, 2)] == [fsf_perft(name, fen, [], d) for d in (1, 2)]
    if name in PERFT3:
        assert perft(pos, 3) == PERFT3[name]


@pytest.mark.parametrize("name, fen", [
    ("bughouse", "r3k2r/pppq1ppp/2n5/8/8/2N5/PPPQ1PPP/R3K2R[QRBNPPqrbnpp] w KQkq - 0 1"),
    ("koedem", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR[KQRk] w kq - 0 1"),
    ("supply", "r1bak4/4a4/2n1b1n2/p1p1p1p1p/9/9/P1P1P1P1P/4B1N2/4A4/2BAK4[RCNPPABrcnppab] w - - 0 1")])
def test_random_games_from_full_hands_agree_with_pyffish(name, fen):
    log = play_random_games(name, games=1, plies=60, fen=fen)
    assert "drop" in log.kinds


def test_a_capture_fills_no_hand_and_a_promoted_pawn_is_marked():
    fen = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR[] w KQkq - 0 2"
    same("bughouse", fen, ["e4d5"])
    assert format(after("bughouse", fen, ["e4d5"])).split()[0].endswith("[]")
    fen = "4k3/1P6/8/8/8/8/8/4K3[] w - - 0 1"
    same("bughouse", fen, ["b7b8q"])
    assert format(after("bughouse", fen, ["b7b8q"])).startswith("1Q~2k3/")


def test_the_hand_is_the_position_texts_however_full():
    fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[QQQQQQQQQQQQNNNNNNNNNqqqqqqqqqqqqq] w KQkq - 0 1"
    assert format(after("bughouse", fen)) == fen
    moves = same("bughouse", fen)
    assert "Q@e3" in moves and "N@h6" in moves and not any(m.startswith("B@") for m in moves)


def test_a_stalemated_side_loses_in_bughouse():
    fen = "k7/2Q5/1K6/8/8/8/8/8[] b - - 0 1"
    pos = after("bughouse", fen)
    assert legal_moves(pos) == [] and game_result(pos)[0] == -1
    assert sf.game_result("bughouse", fen, []) < 0
    assert game_result(after("crazyhouse", fen))[0] == 0


def test_koedem_a_held_king_must_be_dropped_and_two_kings_win():
    # Black holds a king: it drops it (anywhere free, even attacked), nothing else
    moves = same("koedem", "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Qk] b KQ - 0 1")
    assert moves and all(m.startswith("K@") for m in moves) and "K@h3" in moves
    # White holds a king and a queen: the king first, the queen not at all
    moves = same("koedem", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR[KQ] w kq - 0 1")
    assert moves and all(m.startswith("K@") for m in moves)
    # a side with no king while the other holds both has lost; one king each plays on
    fen = "8/8/8/8/8/8/8/KK6[] b - - 0 1"
    assert game_result(after("koedem", fen)) is not None and game_result(after("koedem", fen))[0] == -1
    assert sf.is_immediate_game_end("koedem", fen, [])[0]
    fen = "8/8/8/8/8/8/8/K6k[K] b - - 0 1"
    assert same("koedem", fen) == ["h1g1", "h1g2", "h1h2"] and game_result(after("koedem", fen)) is None
    # the kings castle (castlingKingPiece), and may be taken: no check
    same("koedem", "r3k2r/8/8/8/8/8/8/R3K2R[] w KQkq - 0 1")
    assert "e1e2" in same("koedem", "4k3/8/8/8/8/8/8/R3K2r[] w Q - 0 1")


def test_supply_drops_in_the_own_half_where_each_piece_may_stand_and_never_check():
    fen = "3k5/9/9/9/9/9/9/9/9/4K4[PABNRC] w - - 0 1"
    moves = same("supply", fen)

    def cells(letter: str) -> list[str]:
        return sorted(m[2:] for m in moves if m[0] == letter)
    assert cells("P") == ["a4", "a5", "c4", "c5", "e4", "e5", "g4", "g5", "i4", "i5"]
    assert cells("A") == ["d1", "d3", "e2", "f1", "f3"]
    assert cells("B") == ["a3", "c1", "c5", "e3", "g1", "g5", "i3"]
    assert len(cells("N")) == 44 and "d4" not in cells("R")        # a rook on d4 would check


def test_a_game_through_the_protocol_refills_the_hand_by_a_new_position():
    """The partner's capture arrives as a new position text: the engine drops from it."""
    eng = EngineProcess()
    try:
        eng.ask("uci", "uciok")
        eng.send("setoption name UCI_Variant value bughouse")
        eng.send("position startpos moves e2e4 e7e5 g1f3 b8c6")
        eng.send("d")
        fen = eng.expect(lambda ln: ln.startswith("Fen:"))[-1].split(None, 1)[1]
        assert fen == "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[] w KQkq - 2 3"
        refilled = fen.replace("[]", "[Q]")
        eng.send(f"position fen {refilled} moves Q@d5 f8c5")
        eng.send("d")
        fen = eng.expect(lambda ln: ln.startswith("Fen:"))[-1].split(None, 1)[1]
        assert fen == sf.get_fen("bughouse", refilled, ["Q@d5", "f8c5"])
        eng.send("go depth 1")
        best = eng.expect(lambda ln: ln.startswith("bestmove"))[-1].split()[1]
        assert best in sf.legal_moves("bughouse", refilled, ["Q@d5", "f8c5"])
    finally:
        eng.close()


@pytest.mark.parametrize("text, problem", [
    ("[x:chess]\ntwoBoards = true\n", (2, "twoBoards", "needs pieceDrops (the hand the partner fills)")),
    ("[x:crazyhouse]\nmustDropType = q\n", (2, "mustDropType", "needs mustDrop")),
    ("[x:placement]\nmustDropType = z\n", (2, "mustDropType", "one piece letter of the section, or *"))])
def test_the_keys_refuse_what_they_cannot_mean(text, problem):
    from variants.inifile.load import load_text
    from variants.inifile.parse import VariantFileError
    with pytest.raises(VariantFileError) as e:
        load_text(text, "x.ini", set(variants.builtin_names()) - {"x"})
    assert [(p.line, p.key, p.what) for p in e.value.problems] == [problem]


def test_cecp_takes_the_hand_from_setboard():
    """Under CECP the refilled hand comes with ``setboard``, the same position text."""
    fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[Q] w KQkq - 2 3"
    eng = EngineProcess()
    try:
        eng.send("xboard")
        eng.send("protover 2")
        eng.expect(lambda ln: "done=1" in ln)
        for line in ("new", "variant bughouse", "force", f"setboard {fen}", "usermove Q@d5", "sd 1", "go"):
            eng.send(line)
        reply = eng.expect(lambda ln: ln.startswith(("move ", "Illegal", "Error")))[-1]
        assert reply.split()[0] == "move"
        assert reply.split()[1] in sf.legal_moves("bughouse", fen, ["Q@d5"])
    finally:
        eng.close()
