"""Fairy-Stockfish's xiangqi and makruk families, shipped as variants-file sections
(variants/files/fairy-asia.ini), against pyffish's built-ins of the same names: the same start
text, perft 1-3 from the start, steered random games with the same legal moves, position text
and result at every ply (tests/asia_oracle.py), and named positions for each rule key:
mobility regions, the flying general, the soldier's rank, the makpong rule and the honour
counts of makruk and ASEAN chess."""
from __future__ import annotations

import pytest

import pyffish as sf  # a real peer: a missing pyffish fails the suite, never skips it

from asia_oracle import Seen, our_perft, play, sf_perft, start_text, variant  # noqa: E402
from engine.game import game_result  # noqa: E402
from engine.movegen import in_check, legal_moves  # noqa: E402
from engine.notation.move_text import move_text, parse_move  # noqa: E402
from engine.notation.position_text import format, parse  # noqa: E402
from file_helpers import problems  # noqa: E402

NAMES = ["minixiangqi", "xiangqi", "manchu", "makruk", "makpong", "asean", "ai-wok", "shatar"]
# the pieces whose moves the games favour: those the family's keys restrict or add
PREFER = {"minixiangqi": "kc", "xiangqi": "kabc", "manchu": "mk", "makruk": "smk",
          "makpong": "k", "asean": "bqk", "ai-wok": "ak", "shatar": "jnr"}
# perft 3 of these takes pyffish several seconds (one call per position at depth 2)
DEEP = {"xiangqi", "manchu"}


def ours(name: str, fen: str, moves: list[str] = ()):
    v = variant(name)
    pos = parse(v, fen)
    for t in moves:
        pos.make(parse_move(v, legal_moves(pos), t))
    return v, pos


def texts(name: str, fen: str) -> list[str]:
    v, pos = ours(name, fen)
    return sorted(move_text(v, m) for m in legal_moves(pos))


@pytest.mark.parametrize("name", NAMES)
def test_start_text_is_pyffishs(name):
    mine, theirs = start_text(name)
    assert mine == theirs


@pytest.mark.parametrize("name", NAMES)
def test_perft_1_2_equals_pyffish(name):
    fen = sf.start_fen(name)
    for depth in (1, 2):
        assert our_perft(name, depth) == sf_perft(name, fen, depth)


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n in DEEP else n
                                  for n in NAMES])
def test_perft_3_equals_pyffish(name):
    assert our_perft(name, 3) == sf_perft(name, sf.start_fen(name), 3)


def test_known_perft_figures():
    """The published figures of the two most played games."""
    assert [our_perft("xiangqi", d) for d in (1, 2, 3)] == [44, 1920, 79666]
    assert [our_perft("makruk", d) for d in (1, 2, 3)] == [23, 529, 12012]


@pytest.mark.parametrize("name", NAMES)
def test_random_games_agree_with_pyffish(name):
    seen = Seen()
    for seed in range(4):
        play(name, seed, 60, seen, PREFER[name])
    assert seen.plies >= 120 and seen.kinds["capture"] > 10
    assert seen.kinds["check"] > 0
    if name.startswith(("mak", "asean", "ai")):
        assert seen.kinds["promotion"] + (name == "asean") > 0


# ---- endgames: the counts of makruk and ASEAN chess run and end games ---------------------
ENDGAMES = {
    "makruk": ["4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "4k3/8/8/8/8/8/8/R3K3 b - 32 10 40",
               "3mk3/8/8/8/2s5/8/1N6/R3K1S1 w - - 0 1", "4k3/8/3p4/8/8/8/8/R3KS2 w - - 0 1"],
    "asean": ["4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "4k3/8/8/8/8/8/8/1B2K1N1 b - 88 3 30"],
    "makpong": ["4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "3mk3/8/8/8/2s5/8/1N6/R3K1S1 w - - 0 1"],
}


@pytest.mark.parametrize("name", sorted(ENDGAMES))
def test_endgame_games_agree_with_pyffish(name):
    seen = Seen()
    for fen in ENDGAMES[name]:
        for seed in range(3):
            play(name, seed, 200, seen, "k", fen=fen)
    # the lone king of makpong, which may not step out of check, is mated before the count ends
    assert seen.results["checkmate" if name == "makpong" else "counting rule"] >= 1


# ---- named positions, one rule each ----------------------------------------------------------
def test_flying_general_pins_the_advisor_between_the_kings():
    fen = "4k4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1"
    assert texts("xiangqi", fen) == sorted(sf.legal_moves("xiangqi", fen, [])) == ["e1d1", "e1f1"]


def test_palace_river_and_soldier_rank():
    # the king stays off the black king's file (d); the elephant keeps to its half
    fen = "3k5/9/9/9/9/2B6/9/9/9/4K4 w - - 0 1"
    assert texts("xiangqi", fen) == ["c5a3", "c5e3", "e1e2", "e1f1"]
    # soldiers past the river (rank 6) step sideways, one before it only forward
    fen = "3k5/9/9/9/2P3P2/P8/9/9/9/4K4 w - - 0 1"
    moves = texts("xiangqi", fen)
    assert moves == sorted(sf.legal_moves("xiangqi", fen, []))
    assert {"c6b6", "c6d6", "g6h6", "a5a6"} <= set(moves) and "a5b5" not in moves


def test_makpong_king_in_check_may_not_step_away():
    fen = "4k3/4r3/8/8/8/8/8/R3K3 w - - 0 1"
    assert texts("makruk", fen) == ["e1d1", "e1d2", "e1f1", "e1f2"]
    v, pos = ours("makpong", fen)
    assert legal_moves(pos) == [] and game_result(pos)[0] == -1
    # taking the one checker stays allowed
    assert texts("makpong", "4k3/8/8/8/8/8/4r3/R3K3 w - - 0 1") == ["e1e2"]


@pytest.mark.native     # the compiled engine once refused a count read from the text (Position.extra's type)
def test_counting_text_and_draw():
    fen = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"
    v, pos = ours("makruk", fen, ["a1a2"])
    assert format(pos) == "4k3/8/8/8/8/8/R7/4K3 b - 32 6 1" == sf.get_fen("makruk", fen, ["a1a2"])
    # the count read from a text, then passed by one ply: a draw
    v, pos = ours("makruk", "4k3/8/8/8/8/8/8/R3K3 w - 32 31 40", ["a1a2"])
    assert format(pos) == "4k3/8/8/8/8/8/R7/4K3 b - 32 32 40" and game_result(pos) is None
    v, pos = ours("makruk", "4k3/8/8/8/8/8/8/R3K3 w - 32 32 40", ["a1a2"])
    assert game_result(pos) == (0, "counting rule")
    assert format(parse(v, "4k3/8/8/8/8/8/8/R3K3 w - 32 32 40")) == "4k3/8/8/8/8/8/8/R3K3 w - 32 32 40"


def test_counting_waits_for_the_last_pawn():
    fen = "4k3/8/3p4/8/8/8/8/R3KS2 w - - 0 1"
    v, pos = ours("makruk", fen, ["a1a2"])
    assert format(pos).endswith(" - - 1 1")
    v, pos = ours("makruk", fen, ["a1a2", "e8e7", "a2d2", "e7e6", "d2d6"])
    assert format(pos) == sf.get_fen("makruk", fen, ["a1a2", "e8e7", "a2d2", "e7e6", "d2d6"])
    assert " 32 " in format(pos)        # one rook against a lone king: 16 moves


def test_shatar_mates():
    # smothered by a knight: the side mated wins; by a bishop with no shak before: a draw
    for fen, want in (("6rk/5Npp/8/8/8/8/8/4K3 b - - 0 1", (1, "checkmate by a knight")),
                      ("6bk/7p/8/8/8/8/8/B3K3 b - - 0 1", (0, "checkmate without a shak"))):
        v, pos = ours("shatar", fen)
        assert game_result(pos) == want
        assert (sf.game_result("shatar", fen, []) > 0) - (sf.game_result("shatar", fen, []) < 0) == want[0]
    # every mate reached by a series of checks (White checks at each move) scored as pyffish does
    seen = []

    def walk(v, pos, fen, moves, depth):
        legal = legal_moves(pos)
        if not legal:
            r = game_result(pos, legal)
            score = sf.game_result("shatar", fen, moves)
            assert r[0] == (score > 0) - (score < 0), (fen, moves, r)
            seen.append(r[1])
            return
        for m in legal if depth else ():
            t = move_text(v, m)
            pos.make(m)
            if pos.side == 0 or in_check(pos):
                walk(v, pos, fen, moves + [t], depth - 1)
            pos.unmake()
    for fen in ("6k1/5ppp/8/8/8/8/1B6/R3K1N1 w - - 0 1", "6bk/7p/8/8/8/8/P7/1RB1K3 w - - 0 1",
                "5rk1/6pp/8/8/8/8/1B3P2/4K1NR w - - 0 1"):
        v, pos = ours("shatar", fen)
        walk(v, pos, fen, [], 5)
    assert "checkmate" in seen and "checkmate without a shak" in seen


# ---- the keys' values -------------------------------------------------------------------------
def test_bad_values_are_refused_by_key():
    out = problems("[a:chess]\ncountingRule = thai\n")
    assert any("countingRule" in p for p in out)
    out = problems("[a:chess]\nsoldierPromotionRank = 4\n")
    assert any("soldierPromotionRank: needs the soldier piece" in p for p in out)
    out = problems("[a:chess]\nmobilityRegionWhiteKing = z9\n")
    assert any("mobilityRegionWhiteKing" in p for p in out)


def test_mobility_region_of_a_missing_piece_is_ignored_and_a_custom_piece_is_bound():
    from file_helpers import one
    v = one("[a:chess]\nmobilityRegionWhiteCannon = *1\ncustomPiece1 = z:W\n"
            "mobilityRegionWhiteCustomPiece1 = a1 a2\nstartFen = 4k3/8/8/8/8/8/8/Z3K3 w - - 0 1\n")
    pos = v.start_position()
    assert sorted(move_text(v, m) for m in legal_moves(pos) if move_text(v, m).startswith("a1")) == ["a1a2"]


# ---- through the protocol -------------------------------------------------------------------
def test_protocol_plays_xiangqi_and_makruk_by_name(eng):
    """``setoption name UCI_Variant value xiangqi``: Fairy-Stockfish's move text on 10 ranks
    (``a10a9``), its position text, perft and a search; makruk's count in the position text."""
    eng.ask("uci", "uciok")
    eng.send("setoption name UCI_Variant value xiangqi")
    eng.send("position startpos moves h3e3 h10g8 a1a2 a10a9")
    lines = eng.ask("go perft 1", "Nodes searched:")
    fen = sf.get_fen("xiangqi", sf.start_fen("xiangqi"), ["h3e3", "h10g8", "a1a2", "a10a9"])
    assert lines[-1] == f"Nodes searched: {len(sf.legal_moves('xiangqi', fen, []))}"
    lines = eng.ask("d", "Fen:")
    assert lines[-1] == f"Fen: {fen}"
    lines = eng.ask("go depth 2", lambda l: l.startswith("bestmove"))
    assert lines[-1].split()[1] in sf.legal_moves("xiangqi", fen, [])
    eng.send("setoption name UCI_Variant value makruk")
    eng.send("position fen 4k3/8/8/8/8/8/8/R3K3 w - 32 31 40 moves a1a2")
    assert eng.ask("d", "Fen:")[-1] == "Fen: 4k3/8/8/8/8/8/R7/4K3 b - 32 32 40"
