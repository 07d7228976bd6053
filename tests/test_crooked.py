"""Crooked pieces (Betza's ``z``, docs/betza.md) and chess with crooked bishops
(examples/crooked.ini, docs/variants/crookedbishops.md) against tests/crooked_reference.py,
a walker and a chess move generator written from the definitions on coordinates only.

Fairy-Stockfish does not read ``z``, so the reference is our own: the crooked bishop's and
crooked rook's destinations from every cell of an empty board and among random blockers of
both colours, for both colours; legal moves and checks in random positions crowded with
crooked rooks and bishops of both colours; named checks and pins; perft 1-3 from the start;
the legal moves, the board and the check status at every ply of random games; then the game
through the protocol and in matches (`cellfish match --variants`)."""
from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

import pytest
from crooked_reference import DIAG, ORTH, Chess, crooked, name
from engine.moves import CELL, FROM_SHIFT
from engine_proc import EngineProcess
from selfplay import play_game

import variants
from engine.betza import BetzaError, parse_betza, rotate
from engine.game import game_result, perft
from engine.geometry import grid2d
from engine.movegen import in_check, legal_moves, pseudo_moves
from engine.notation import move_text, parse_position
from engine.notation.position_text import format as format_position
from engine.pieces import KING, ZIGZAG, PieceType, leap
from engine.variant import Variant
from match import EngineSpec, MatchConfig, TimeControl, cellfish_command, run_match
from engine.notation.move_text import parse_move

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "crooked.ini"
NAMES = variants.load_file(str(EXAMPLE))
GAME = "crookedbishops"


class Board(Variant):
    """8x8, no royal rule: kings only as bystanders; ``A`` is the piece under test, ``W``
    wazirs are blockers of either colour."""
    start_fen = "8/8/8/8/8/8/8/8 w - - 0 1"
    royal_check = False

    def __init__(self, betza: str) -> None:
        self.geometry = grid2d(8, 8)
        self.piece_types = [None, PieceType("King", "K", (leap(KING),)),
                            PieceType("Wazir", "W", parse_betza("W")),
                            PieceType("Test", "A", parse_betza(betza))]
        super().__init__()

    def orient(self, v):
        return rotate(v)


def fen_of(board: dict, white: bool) -> str:
    rows = []
    for y in range(7, -1, -1):
        row, gap = "", 0
        for x in range(8):
            p = board.get((x, y))
            if p is None:
                gap += 1
                continue
            row += (str(gap) if gap else "") + p
            gap = 0
        rows.append(row + (str(gap) if gap else ""))
    return "/".join(rows) + (" w" if white else " b") + " - - 0 1"


def engine_targets(v: Variant, board: dict, s, white: bool) -> set:
    pos = parse_position(v, fen_of(board, white))
    cell = v.geometry.index[s]
    return {v.geometry.coords[m & CELL] for m in pseudo_moves(pos) if (m >> FROM_SHIFT) & CELL == cell}


CASES = [("zB", DIAG, None), ("zFF", DIAG, None), ("zR", ORTH, None), ("zWW", ORTH, None),
         ("zB3", DIAG, 3), ("zR2", ORTH, 2)]


@pytest.mark.parametrize("betza,lines,limit", CASES, ids=[c[0] for c in CASES])
def test_destinations_equal_the_walkers(betza, lines, limit):
    """Every cell, both colours: the empty board, then random blockers (own and enemy)."""
    v = Board(betza)
    rng = random.Random(betza)
    for s in [(x, y) for x in range(8) for y in range(8)]:
        for white in (True, False):
            me = "A" if white else "a"
            boards = [{s: me}]
            for _ in range(4):
                b = {s: me}
                for _ in range(rng.randint(1, 24)):
                    c = (rng.randrange(8), rng.randrange(8))
                    if c != s:
                        b[c] = rng.choice("WwKk")
                boards.append(b)
            for b in boards:
                ref = crooked(b, s, white, lines, limit=limit)
                assert engine_targets(v, b, s, white) == ref, (betza, fen_of(b, white), name(s))


class Royal(Variant):
    """8x8: royal kings, wazirs, crooked bishops (A) and crooked rooks (C) of both colours."""
    start_fen = "4k3/8/8/8/8/8/8/4K3 w - - 0 1"

    def __init__(self) -> None:
        self.geometry = grid2d(8, 8)
        self.piece_types = [None, PieceType("King", "K", (leap(KING),), royal=True),
                            PieceType("Wazir", "W", parse_betza("W")),
                            PieceType("CrookedBishop", "A", parse_betza("zB")),
                            PieceType("CrookedRook", "C", parse_betza("zR"))]
        super().__init__()

    def orient(self, v):
        return rotate(v)


def _dests(b: dict, s, p: str) -> set:
    if p.upper() in "KW":
        steps = DIAG + ORTH if p.upper() == "K" else ORTH
        cells = {(s[0] + dx, s[1] + dy) for dx, dy in steps}
        return {c for c in cells if 0 <= c[0] < 8 and 0 <= c[1] < 8
                and (b.get(c) is None or b[c].isupper() != p.isupper())}
    return crooked(b, s, p.isupper(), DIAG if p.upper() == "A" else ORTH)


def _attacked(b: dict, c, by_white: bool) -> bool:
    return any(p.isupper() == by_white and c in _dests(b, s, p) for s, p in b.items())


def reference_moves(board: dict, white: bool) -> tuple[set[str], set[str], bool]:
    """(pseudo-legal moves, legal moves, in check) of the side to move, by the walker alone:
    a move is legal when the mover's king is not attacked after it."""
    king = "K" if white else "k"
    pseudo, legal = set(), set()
    for s, p in board.items():
        if p.isupper() != white:
            continue
        for t in _dests(board, s, p):
            b = dict(board)
            b[t] = b.pop(s)
            k = next(c for c, q in b.items() if q == king)
            pseudo.add(name(s) + name(t))
            if not _attacked(b, k, not white):
                legal.add(name(s) + name(t))
    k = next(c for c, q in board.items() if q == king)
    return pseudo, legal, _attacked(board, k, not white)


def test_checks_and_pins_by_crooked_rooks_and_bishops_in_random_positions():
    """Kings among crooked pieces of both colours: the legal moves (pins from the attack
    tables; make-and-test only for the king, pinned pieces and when in check) and the check
    status equal the walker's, in positions with many checks and pins."""
    v = Royal()
    assert v.fast_legality
    rng = random.Random(5)
    checks = pinned = 0
    for i in range(800):
        cells = rng.sample([(x, y) for x in range(8) for y in range(8)], rng.randint(5, 14))
        board = {cells[0]: "K", cells[1]: "k"}
        for c in cells[2:]:
            board[c] = rng.choice("AACCWaaccw")
        white = i % 2 == 0
        fen = fen_of(board, white)
        pos = parse_position(v, fen)
        pseudo, legal, check = reference_moves(board, white)
        got = ours(pos)
        assert got == legal, (fen, got ^ legal)
        assert in_check(pos) == check, fen
        checks += check
        king = name(cells[0] if white else cells[1])
        # not in check, yet a piece other than the king may not make one of its moves: a pin
        pinned += not check and any(m not in legal for m in pseudo if m[:2] != king)
    assert checks > 100 and pinned > 20, (checks, pinned)


def test_the_crooked_bishop_from_e4_on_an_empty_board():
    """Betza's example: eight zigzag paths from e4, 18 cells."""
    got = {name(c) for c in engine_targets(Board("zB"), {(4, 3): "A"}, (4, 3), True)}
    assert got == {"d5", "e6", "d7", "e8", "f5", "f7", "g4", "h5", "f3", "h3", "e2", "f1",
                   "d3", "d1", "c4", "b3", "a4", "b5"}


def test_move_and_capture_only_crooked_pieces():
    b = {(4, 3): "A", (5, 4): "w", (3, 4): "W", (5, 2): None}
    b = {k: p for k, p in b.items() if p}
    full = crooked(b, (4, 3), True)
    empties = {c for c in full if c not in b}
    assert engine_targets(Board("mzB"), b, (4, 3), True) == empties
    assert engine_targets(Board("czB"), b, (4, 3), True) == full - empties == {(5, 4)}


def test_z_atoms_and_what_is_refused():
    (a,) = parse_betza("zB")
    assert a.kind == ZIGZAG and a.max_dist is None and a.mode == "both"
    assert parse_betza("czR4")[0].max_dist == 4
    for text, why in [("zN", "rook and bishop"), ("zNN", "rook and bishop"), ("zQ", "rook and bishop"),
                      ("zK", "rook and bishop"), ("zW", "needs a rider"), ("zF", "needs a rider"),
                      ("fzB", "no direction"), ("zpR", "p, g, n or i"), ("nzB", "p, g, n or i"),
                      ("gzB", "p, g, n or i"), ("z", "without an atom")]:
        with pytest.raises(BetzaError, match=why):
            parse_betza(text, initial=lambda c, col: True)


# ---- chess with crooked bishops ---------------------------------------------------------------
def ours(pos) -> set[str]:
    return {move_text(pos.variant, m) for m in legal_moves(pos)}


def test_the_file_loads_and_keeps_fast_legality():
    v = variants.get(GAME)
    assert NAMES == [GAME]
    assert v.by_token["B"].atoms[0].kind == ZIGZAG
    assert v.fast_legality      # checks and pins come from the attack tables


@pytest.mark.parametrize("fen,check", [
    ("4k3/8/8/8/8/4b3/3P1P2/4K3 w - - 0 1", False),     # both paths e3-d2-e1, e3-f2-e1 shut
    ("4k3/8/8/8/8/4b3/3P4/4K3 w - - 0 1", True),        # through f2
    ("4k3/8/8/8/8/4b3/5P2/4K3 w - - 0 1", True),        # through d2
    ("4k3/8/8/4b3/8/4N3/8/4K3 w - - 0 1", False),       # e5-d4-e3-d2-e1 and e5-f4-e3-f2-e1 shut at e3
    ("4k3/8/8/4b3/8/8/3P4/4K3 w - - 0 1", True),        # the f-path is open
    ("4k3/8/8/8/8/8/8/3BK3 b - - 0 1", True),           # d1-e2-d3-e4-d5-e6-d7-e8
    ("4k3/8/8/8/4P3/8/8/3BK3 b - - 0 1", False),        # seven steps: that one path, shut at e4
    ("4k3/8/8/8/2P5/8/8/3BK3 b - - 0 1", True),         # c4 is not on it
    ("8/8/8/8/8/8/2k5/3BK3 b - - 0 1", True),           # a first step
    ("4k3/8/8/8/4B3/8/8/4K3 b - - 0 1", True),          # e4-d5-e6-d7-e8 (and by f5, f7)
    ("4k3/3p1p2/8/8/4B3/8/8/4K3 b - - 0 1", False),     # d7 and f7 shut both
    ("4k3/8/4p3/8/4B3/8/8/4K3 b - - 0 1", False),       # e6 lies on both paths
    ("4k3/8/8/1B6/8/8/8/4K3 b - - 0 1", False),         # a bishop's diagonal is no crooked line
])
def test_named_checks(fen, check):
    v = variants.get(GAME)
    pos = parse_position(v, fen)
    assert in_check(pos) == check == Chess(fen).in_check(), fen


def test_a_knight_pinned_by_two_zigzags_and_a_crooked_bishop_pinned_by_one():
    v = variants.get(GAME)
    pos = parse_position(v, "4k3/8/8/4b3/8/4N3/8/4K3 w - - 0 1")
    assert not [t for t in ours(pos) if t.startswith("e3")]
    # the white crooked bishop d4 shuts e5-d4-e3-d2-e1 (f4 shuts the other): it may take the
    # checker or stay on the path (e3, d2), not take f4 (that opens the path it left)
    pos = parse_position(v, "4k3/8/8/4b3/3B1p2/8/8/4K3 w - - 0 1")
    assert {t for t in ours(pos) if t.startswith("d4")} == {"d4e5", "d4e3", "d4d2"}
    assert ours(pos) == set(Chess("4k3/8/8/4b3/3B1p2/8/8/4K3 w - - 0 1").legal())
    # the same turned half round, Black to move
    pos = parse_position(v, "3k4/8/8/2P1b3/3B4/8/8/3K4 b - - 0 1")
    assert {t for t in ours(pos) if t.startswith("e5")} == {"e5d4", "e5d6", "e5e7"}
    assert ours(pos) == set(Chess("3k4/8/8/2P1b3/3B4/8/8/3K4 b - - 0 1").legal())


def test_after_e3_the_pawn_f7_is_pinned_on_the_path_f1_e8():
    """f1-e2-f3-e4-f5-e6-f7-e8: f7f5 keeps the path shut, f7f6 would open it (perft 2 = 399)."""
    v = variants.get(GAME)
    pos = v.start_position()
    pos.make(parse_move(v, legal_moves(pos), "e2e3"))
    assert "f7f5" in ours(pos) and "f7f6" not in ours(pos) and len(ours(pos)) == 19


def test_checkmate_by_a_crooked_bishop():
    """The crooked bishop g7 (guarded by the knight e6) checks h8 by its first step; the
    king's other cells are its own men's, and nothing takes g7."""
    v = variants.get(GAME)
    fen = "6nk/6Bp/4N3/8/8/8/8/4K3 b - - 0 1"
    pos = parse_position(v, fen)
    assert in_check(pos) and not legal_moves(pos)
    assert game_result(pos) == (-1, "checkmate")
    assert Chess(fen).in_check() and not Chess(fen).legal()


def test_perft_1_to_3_from_the_start_equal_the_reference():
    v = variants.get(GAME)
    pos = v.start_position()
    ref = Chess(v.start_fen)
    for depth in (1, 2, 3):
        assert perft(pos, depth) == ref.perft(depth), depth


def test_random_games_agree_with_the_reference():
    """20 games of up to 80 plies: at every ply the same legal moves, board and check status;
    captures, promotions and castling are preferred now and then so they appear."""
    v = variants.get(GAME)
    rng = random.Random(7)
    seen = set()
    for _ in range(20):
        pos = v.start_position()
        ref = Chess(v.start_fen)
        for _ply in range(80):
            assert format_position(pos).split()[0] == ref.placement()
            ms = legal_moves(pos)
            legal = {move_text(v, m): m for m in ms}
            assert len(legal) == len(ms), "a destination listed twice"
            assert set(legal) == set(ref.legal()), (format_position(pos), set(legal) ^ set(ref.legal()))
            assert in_check(pos) == ref.in_check()
            if not legal:
                seen.add("mate" if ref.in_check() else "stalemate")
                break
            special = [t for t, m in legal.items()
                       if pos.board[m & CELL] or len(t) == 5 or t in ("e1g1", "e1c1", "e8g8", "e8c8")]
            t = rng.choice(sorted(special) if special and rng.random() < 0.4 else sorted(legal))
            if ref.in_check():
                seen.add("check")
            if pos.board[legal[t] & CELL] and pos.board[legal[t] & CELL] >> 1 == v.by_token["B"].id:
                seen.add("bishop taken")
            pos.make(legal[t])
            ref.make(t)
    assert {"check", "bishop taken"} <= seen


# ---- through the protocol and in matches -------------------------------------------------------
def test_plays_a_complete_game_through_the_protocol():
    """Loaded by VariantPath; every move the engine sends is one of the core's legal moves
    (selfplay.py referees), to the end of the game; then the engine's perft 3."""
    eng = EngineProcess()
    try:
        eng.ask("uci", "uciok")
        eng.send(f"setoption name VariantPath value {EXAMPLE}")
        combo = [ln for ln in eng.ask("uci", "uciok") if ln.startswith("option name UCI_Variant")]
        assert f" var {GAME}" in combo[0]
        game = play_game(GAME, "uci", "go depth 2", engine=eng, ply_cap=1500)
        assert game.result is not None     # (79 plies, White mates, when this was written)
        eng.send("position startpos")
        lines = eng.ask("go perft 3", lambda ln: ln.startswith("Nodes searched:"), 60)
        assert lines[-1] == f"Nodes searched: {Chess(variants.get(GAME).start_fen).perft(3)}"
    finally:
        eng.close()


def test_a_match_loads_the_file_in_its_workers_and_engines(tmp_path, stray_engines):
    """Spawned workers (concurrency 2) know the variant only from the file; the engines get it
    by VariantPath; every record replays through the core."""
    cmd = cellfish_command()
    engines = [EngineSpec("d1", cmd, tc=TimeControl(depth=1)),
               EngineSpec("d2", cmd, tc=TimeControl(depth=2))]
    out = tmp_path / "games.jsonl"
    cfg = MatchConfig(GAME, engines, games=2, max_plies=16, concurrency=2, stall_s=60,
                      records=str(out), pgn=str(tmp_path / "games.pgn"),
                      variant_files=(str(EXAMPLE),))
    r = run_match(cfg)
    assert not r.errors
    recs = [json.loads(line) for line in open(out)]
    assert len(recs) == 2
    v = variants.get(GAME)
    for rec in recs:
        assert rec["result"] in ("1-0", "0-1", "1/2-1/2") and "faulty" not in rec, rec["reason"]
        assert rec["variant"] == GAME and len(rec["moves"]) > 0
        pos = parse_position(v, rec["start"])
        for t in rec["moves"]:
            pos.make(parse_move(v, legal_moves(pos), t, "uci"))
    assert (tmp_path / "games.pgn").read_text().count(f'[Variant "{GAME}"]') == 2
    assert not stray_engines()


def test_the_match_command_takes_variants_files(tmp_path, stray_engines):
    exe = cellfish_command()

    def run(path):
        argv = [*exe, "match", "--variants", str(path), "--variant", GAME,
                "--engine", "cmd=" + " ".join(exe), "name=a", "depth=1",
                "--engine", "cmd=" + " ".join(exe), "name=b", "depth=1",
                "--games", "2", "--max-plies", "8", "--records", str(tmp_path / "r.jsonl")]
        return subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=300,
                              stdin=subprocess.DEVNULL)
    r = run(EXAMPLE)
    assert r.returncode == 0, r.stderr
    assert f"{GAME}: 2 games" in r.stdout
    bad = tmp_path / "bad.ini"
    bad.write_text(f"[{GAME}:chess]\ncustomPiece1 = a:zN\n")
    r = run(bad)
    assert r.returncode == 2 and "customPiece1" in r.stderr and "crooked" in r.stderr, r.stderr
    assert not stray_engines()
