"""Alice Chess, shipped as variants/files/alice.ini (docs/variants/alice.md, rulings A1-A12),
against tests/alice_reference.py, a move generator written from that page on coordinates
only: perft 1-3 from the start and from hand-made positions, the legal moves at every ply of
random games, a named position for each ruling, then a complete game through the protocol
and a match played to its end."""
from __future__ import annotations

import json
import random

import alice_reference as ref
import pytest
from engine_proc import EngineProcess
from selfplay import play_game

import variants
from engine.game import game_result, perft
from engine.movegen import in_check, legal_moves
from engine.notation import NotationError, move_text, parse_position
from engine.notation.move_text import parse_move
from engine.notation.position_text import format as format_position
from match import EngineSpec, MatchConfig, TimeControl, cellfish_command, run_match

GAME = "alice"
V = variants.get(GAME)
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR|8/8/8/8/8/8/8/8 w KQkq - 0 1"

# hand-made positions: castling both ways for both sides; promotions on both boards with a
# king in check from a pawn; a king in check on board b that pieces of board a can block;
# a crowded middlegame from a random game
POSITIONS = [
    "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R|8/8/8/8/8/8/8/8 w KQkq - 0 1",
    "8/2P5/8/8/8/8/5p2/4K3|4k3/8/8/8/8/8/1p4P1/8 w - - 0 1",
    "7k/8/8/8/8/2N5/8/R7|4r3/8/8/8/8/8/8/4K3 w - - 0 1",
    "5b2/pBn5/4q3/QPP5/N3p3/8/2R5/R3K3|2r1k3/8/6pr/3p1p1p/3P1P1P/P3P1PN/8/8 w - - 1 34",
]


def ours(pos) -> set[str]:
    return {move_text(V, m) for m in legal_moves(pos)}


def theirs(fen: str) -> set[str]:
    return {ref.text(m) for m in ref.legal(ref.parse(fen))}


def after(fen: str, *moves: str):
    pos = parse_position(V, fen)
    for t in moves:
        pos.make(parse_move(V, legal_moves(pos), t))
    return pos


# ---- the shipped file ---------------------------------------------------------------------
def test_alice_is_shipped_and_listed_with_the_built_in_variants():
    assert GAME in variants.builtin_names()
    assert V.start_fen == START
    assert V.geometry.size == 128 and V.geometry.name(V.geometry.index[(4, 1, 1)]) == "be2"
    assert V.caps.own_legality and not V.caps.null_move


def test_the_d_picture_shows_both_boards_side_by_side():
    lines = V.notation.diagram(after(START, "ae2ae4"))
    assert lines[0].split() == ["a", "b"]
    assert lines[5] == "4 . . . . . . . .   4 . . . . P . . ."
    assert lines[7] == "2 P P P P . P P P   2 . . . . . . . ."


# ---- perft and random games against the reference -----------------------------------------
@pytest.mark.parametrize("fen", [START] + POSITIONS)
def test_perft_1_to_3_equals_the_reference(fen):
    pos = parse_position(V, fen)
    for depth in (1, 2, 3):
        assert perft(pos, depth) == ref.perft(ref.parse(fen), depth), (fen, depth)


def test_perft_from_the_start():
    pos = parse_position(V, START)
    assert [perft(pos, d) for d in (1, 2, 3)] == [20, 400, 9384]


def test_random_games_agree_with_the_reference():
    """Legal moves, position text and check status at every ply of 30 random games."""
    rng = random.Random(20)
    ended = 0
    for _ in range(30):
        pos = parse_position(V, START)
        for _ply in range(150):
            fen = format_position(pos)
            assert ours(pos) == theirs(fen), fen
            cells, side, _ = ref.parse(fen)
            king = next(c for c, p in cells.items() if p == "Kk"[side])
            assert in_check(pos) == ref.attacked(cells, *king, 1 - side), fen
            legal = legal_moves(pos)
            if game_result(pos, legal) is not None:
                ended += 1
                break
            pos.make(rng.choice(legal))
    assert ended > 0


# ---- named positions, one or more per ruling ------------------------------------------------
def test_a2_a_square_taken_on_both_boards_is_refused():
    with pytest.raises(NotationError, match="both boards"):
        parse_position(V, "4k3/8/8/8/8/8/8/4K3|8/8/8/8/8/8/8/4N3 w - - 0 1")


def test_a4_the_piece_passes_to_the_other_board():
    pos = after(START, "ag1af3", "ab8ac6", "bf3be5")
    assert format_position(pos).split()[0] == \
        "r1bqkbnr/pppppppp/8/4N3/8/8/PPPPPPPP/RNBQKB1R|8/8/2n5/8/8/8/8/8"


def test_a5_the_arrival_square_must_be_empty():
    fen = "4k3/8/8/8/8/8/8/4K1N1|8/8/8/8/8/5p2/8/8 w - - 0 1"
    moves = ours(parse_position(V, fen))
    assert "ag1ah3" in moves and "ag1ae2" in moves and "ag1af3" not in moves


def test_a6_a_capture_happens_on_the_board_of_the_move():
    pos = after("n3k3/8/8/8/8/8/8/R3K3|8/8/8/8/8/8/8/8 w - - 0 1", "aa1aa8")
    assert format_position(pos).split()[0] == "4k3/8/8/8/8/8/8/4K3|R7/8/8/8/8/8/8/8"
    assert pos.halfmove == 0


def test_a8_check_is_on_the_kings_board():
    assert not in_check(parse_position(V, "k7/8/8/8/8/8/8/4K3|4r3/8/8/8/8/8/8/8 w - - 0 1"))
    assert in_check(parse_position(V, "k7/8/8/8/8/8/8/8|4r3/8/8/8/8/8/8/4K3 w - - 0 1"))


def test_a8_the_king_may_not_arrive_in_check_on_the_other_board():
    moves = ours(parse_position(V, "k7/8/8/8/8/8/8/4K3|4r3/8/8/8/8/8/8/8 w - - 0 1"))
    assert "ae1ae2" not in moves and "ae1ad2" in moves and "ae1af1" in moves


def test_a8_a_piece_from_the_other_board_may_block_a_check():
    moves = ours(parse_position(V, POSITIONS[2]))
    assert {"ac3ae4", "ac3ae2"} <= moves        # the knight arrives on be4 / be2, between
    assert "ac3ab5" not in moves                # does not meet the check
    assert "aa1ae1" not in moves                # A5: be1 holds the king


def test_a8_a_capture_can_expose_the_captors_king():
    """In chess Rxd6 would be legal; in Alice the rook leaves d6 for the other board, and the
    white rook on f6 then attacks the king on c6."""
    fen = "8/8/8/8/8/8/8/K7|3r4/8/2kP1R2/8/8/8/8/8 b - - 0 1"
    moves = ours(parse_position(V, fen))
    assert "bd8bd6" not in moves and "bd8bd7" in moves


def test_a9_a_king_may_not_move_onto_a_square_attacked_on_its_own_board():
    fen = "4k3/8/8/8/8/8/8/4K2r|8/8/8/8/8/8/8/8 w - - 0 1"
    moves = ours(parse_position(V, fen))
    assert in_check(parse_position(V, fen))
    assert "ae1af1" not in moves and "ae1ad1" not in moves     # along the rook's line
    assert {"ae1ad2", "ae1ae2", "ae1af2"} == moves


def test_checkmate_on_board_b():
    """Black's king on b-h8 is checked along rank 8 of board b; g8 is attacked there (A9),
    and g7 and h7 cannot be reached because their twins on board a are taken (A5)."""
    pos = parse_position(V, "8/6pp/8/8/8/8/8/K7|R6k/8/8/8/8/8/8/8 b - - 0 1")
    assert legal_moves(pos) == []
    assert game_result(pos, legal_moves(pos)) == (-1, "checkmate")


@pytest.mark.parametrize("board_b, kingside", [
    ("8/8/8/8/8/8/8/8", True), ("8/8/8/8/8/8/8/5b2", False), ("6r1/8/8/8/8/8/8/8", False)])
def test_a10_castling_carries_king_and_rook_to_board_b(board_b, kingside):
    """Kingside castling needs bf1 and bg1 empty and the king safe on bg1; queenside stays."""
    fen = f"r3k2r/8/8/8/8/8/8/R3K2R|{board_b} w KQkq - 0 1"
    moves = ours(parse_position(V, fen))
    assert ("ae1ag1" in moves) == kingside and "ae1ac1" in moves
    if kingside:
        pos = after(fen, "ae1ag1")
        assert format_position(pos).split()[:3] == \
            ["r3k2r/8/8/8/8/8/8/R7|8/8/8/8/8/8/8/5RK1", "b", "kq"]


def test_a10_no_castling_out_of_or_through_check_on_board_a():
    moves = ours(parse_position(V, "4k3/8/8/8/8/8/8/R3K2R|5r2/8/8/8/8/8/8/8 w KQ - 0 1"))
    assert "ae1ag1" in moves           # the rook on b-f8 attacks nothing on board a
    moves = ours(parse_position(V, "4kr2/8/8/8/8/8/8/R3K2R|8/8/8/8/8/8/8/8 w KQ - 0 1"))
    assert "ae1ag1" not in moves and "ae1ac1" in moves


def test_a11_promotion_then_transfer():
    fen = "4k3/2P5/8/8/8/8/8/4K3|8/8/8/8/8/8/8/8 w - - 0 1"
    assert {"ac7ac8q", "ac7ac8r", "ac7ac8b", "ac7ac8n"} <= ours(parse_position(V, fen))
    pos = after(fen, "ac7ac8n")
    assert format_position(pos).split()[0] == "4k3/8/8/8/8/8/8/4K3|2N5/8/8/8/8/8/8/8"
    blocked = "4k3/2P5/8/8/8/8/8/4K3|2r5/8/8/8/8/8/8/8 w - - 0 1"
    assert not any(t.startswith("ac7") for t in ours(parse_position(V, blocked)))


def test_a12_no_en_passant():
    pos = after(START, "ae2ae4", "ad7ad5", "be4be5", "bd5bd4")
    assert format_position(pos).split()[3] == "-"
    pos = after("4k3/8/8/8/8/8/8/4K3|8/3p4/8/4P3/8/8/8/8 b - - 0 1", "bd7bd5")
    assert "be5bd6" not in ours(pos) and format_position(pos).split()[3] == "-"
    with pytest.raises(NotationError, match="en passant"):
        parse_position(V, "4k3/8/8/8/8/8/8/4K3|8/8/8/3pP3/8/8/8/8 w - bd6 0 1")


# ---- through the protocol and in a match ---------------------------------------------------
def test_plays_a_complete_game_through_the_protocol():
    """Listed by a fresh engine without any file; every move the engine sends is one of the
    core's legal moves (selfplay.py referees), to the end of the game; `d` shows both boards."""
    eng = EngineProcess()
    try:
        combo = [ln for ln in eng.ask("uci", "uciok") if ln.startswith("option name UCI_Variant")]
        assert f" var {GAME}" in combo[0]
        game = play_game(GAME, "uci", "go depth 1", engine=eng, ply_cap=1500)
        assert game.result is not None
        eng.send("position startpos moves ae2ae4")
        lines = eng.ask("d", lambda ln: ln.startswith("Fen:") or ln.startswith("Position"), 30)
        assert any(ln.startswith("4 . . . . . . . .   4 . . . . P . . .") for ln in lines), lines
    finally:
        eng.close()


def test_a_match_plays_alice_to_its_end(tmp_path, stray_engines):
    """No --variants: the shipped variant is known to the runner, its workers and engines."""
    cmd = cellfish_command()
    engines = [EngineSpec("d1", cmd, tc=TimeControl(depth=1)),
               EngineSpec("d2", cmd, tc=TimeControl(depth=1))]
    out = tmp_path / "games.jsonl"
    cfg = MatchConfig(GAME, engines, games=2, max_plies=None, concurrency=2, stall_s=120,
                      records=str(out))
    r = run_match(cfg)
    assert not r.errors
    recs = [json.loads(line) for line in open(out)]
    assert len(recs) == 2
    for rec in recs:
        assert rec["result"] in ("1-0", "0-1", "1/2-1/2") and "faulty" not in rec, rec["reason"]
        assert "move limit" not in rec["reason"], rec["reason"]
        pos = parse_position(V, rec["start"])
        for t in rec["moves"]:
            pos.make(parse_move(V, legal_moves(pos), t, "uci"))
        assert game_result(pos, legal_moves(pos)) is not None or "repetition" in rec["reason"]
    assert not stray_engines()
