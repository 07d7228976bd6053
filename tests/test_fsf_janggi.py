"""Fairy-Stockfish's janggi games, shipped as variants-file sections (variants/files/
fairy-janggi.ini), against pyffish's built-ins of the same names: the same start text, perft
from the start, steered random games with the same legal moves, position text and result at
every ply, and named positions for each rule: the janggi cannon (one screen that is not a
cannon, never taking a cannon, also along the palace diagonals), the palace diagonals of the
rook, advisor, king and soldier, the janggi elephant, passing, bikjang and the material count,
and what differs between the forms."""
from __future__ import annotations

import random
import re
from collections import Counter

import pytest

import pyffish as sf  # a real peer: a missing pyffish fails the suite, never skips it

import variants  # noqa: E402
from engine.game import game_result, perft  # noqa: E402
from engine.movegen import in_check, legal_moves  # noqa: E402
from engine.moves import CELL, FROM_SHIFT, SPECIAL  # noqa: E402
from engine.notation.move_text import move_text, parse_move  # noqa: E402
from engine.notation.position_text import format, parse  # noqa: E402
from file_helpers import problems  # noqa: E402
from fsf_oracle import fsf_perft, fsf_result  # noqa: E402

NAMES = ["janggi", "janggicasual", "janggitraditional", "janggimodern"]


def ours(name: str, fen: str, moves: list[str] = ()):
    v = variants.get(name)
    pos = parse(v, fen)
    for t in moves:
        pos.make(parse_move(v, legal_moves(pos), t))
    return v, pos


def texts(name: str, fen: str, moves: list[str] = ()) -> list[str]:
    v, pos = ours(name, fen, moves)
    return sorted(move_text(v, m) for m in legal_moves(pos))


def theirs(name: str, fen: str, moves: list[str] = ()) -> list[str]:
    return sorted(sf.legal_moves(name, fen, list(moves)))


def result(name: str, fen: str, moves: list[str] = ()):
    v, pos = ours(name, fen, moves)
    return game_result(pos)


def sf_score(name: str, fen: str, moves: list[str] = ()):
    return fsf_result(name, fen, list(moves), sf.legal_moves(name, fen, list(moves)))


# ---- the start, perft and random games ---------------------------------------------------------
@pytest.mark.parametrize("name", NAMES)
def test_start_text_and_perft_2_are_pyffishs(name):
    v = variants.get(name)
    pos = v.start_position()
    fen = sf.start_fen(name)
    assert format(pos) == fen
    assert [perft(pos, d) for d in (1, 2)] == [fsf_perft(name, fen, [], d) for d in (1, 2)]


def test_perft_3_equals_pyffish():
    """Depth 3 from the start: janggi live against pyffish (1.6 s there); the casual form,
    where facing kings may stay facing, against pyffish's figure for it (33316, measured with
    fsf_perft), which the modern form shares; the traditional form moves as janggi does (they
    differ only in how a bikjang, a draw or a repetition is scored)."""
    got = {n: perft(variants.get(n).start_position(), 3) for n in NAMES}
    assert got == {"janggi": 33000, "janggicasual": 33316, "janggitraditional": 33000,
                   "janggimodern": 33316}
    assert got["janggi"] == fsf_perft("janggi", sf.start_fen("janggi"), [], 3)


def _kinds(v, pos, m: int, lines: frozenset) -> list[str]:
    frm, to = (m >> FROM_SHIFT) & CELL, m & CELL
    if m & SPECIAL and frm == to:
        return ["pass"]
    out = []
    p = pos.board[to]
    if p and (p & 1) != pos.side:
        out.append("capture")
    pt = v.piece_types[pos.board[frm] >> 1]
    if pt.name == "janggiCannon":
        out.append("cannon")
    a, z = v.geometry.coords[frm], v.geometry.coords[to]
    if a[0] != z[0] and a[1] != z[1] and pt.name != "horse" and pt.name != "janggiElephant":
        out.append("diagonal")
    return out


def play(name: str, seed: int, plies: int, seen: Counter, fen: str | None = None,
         back: float = 0.0) -> None:
    """One random game compared with pyffish at every ply (legal moves, position text,
    result), steered to captures, palace diagonals, cannon moves, facing kings, rare passes;
    ``back``: how often a move undoes the mover's last one."""
    v = variants.get(name)
    rnd = random.Random(seed)
    fen = fen or sf.start_fen(name)
    pos = parse(v, fen)
    lines = v.diagonal_lines
    played: list[str] = []
    for _ply in range(plies):
        legal = legal_moves(pos)
        ts = [move_text(v, m) for m in legal]
        assert sorted(ts) == theirs(name, fen, played), (name, seed, played)
        r = game_result(pos, legal)
        assert (None if r is None else r[0]) == sf_score(name, fen, played), (name, seed, played, r)
        if r is not None:
            seen["end: " + r[1]] += 1
            return
        by: dict[str, list[int]] = {}
        for m in legal:
            for k in _kinds(v, pos, m, lines):
                by.setdefault(k, []).append(m)
            pos.make(m)
            if v.bikjang and v.facing(pos):
                by.setdefault("facing", []).append(m)
            if in_check(pos):
                by.setdefault("checking", []).append(m)
            pos.unmake()
        if len(played) >= 2 and back:
            # the move that undoes the mover's last one (the move repetition rule)
            cells = re.findall(r"[a-i]\d+", played[-2])
            undo = cells[1] + cells[0] if len(cells) == 2 else None
            by["back"] = [m for m, t in zip(legal, ts) if t == undo]
        m = None
        for k, p in (("back", back), ("facing", 0.1), ("checking", 0.3), ("capture", 0.5), ("diagonal", 0.5), ("cannon", 0.3),
                     ("pass", 0.04)):
            if by.get(k) and rnd.random() < p:
                m = rnd.choice(by[k])
                break
        if m is None:
            m = rnd.choice([m for m in legal if m not in by.get("pass", ())] or legal)
        for k in _kinds(v, pos, m, lines):
            seen[k] += 1
        if v.bikjang and v.facing(pos):
            seen["bikjang"] += 1
        pos.make(m)
        if in_check(pos):
            seen["check"] += 1
        played.append(ts[legal.index(m)])
        assert format(pos) == sf.get_fen(name, fen, played), (name, seed, played)
        seen["plies"] += 1


@pytest.mark.parametrize("name", NAMES)
def test_random_games_agree_with_pyffish(name):
    seen: Counter = Counter()
    for seed in range(5):
        play(name, seed, 60, seen)
    if name == "janggimodern":         # short games of pieces moved back and forth
        for seed in range(3, 8):
            play(name, seed, 60, seen, back=0.9)
    assert seen["plies"] >= 100 and seen["capture"] > 10 and seen["cannon"] > 5
    assert seen["diagonal"] > 0 and seen["check"] > 0
    if name == "janggimodern":
        assert seen["end: move repetition"] > 0 and seen["end: repetition, material count"] > 0


# ---- named positions: the pieces -------------------------------------------------------------
def test_cannon_needs_a_screen_that_is_not_a_cannon_and_never_takes_one():
    # the white cannon on c5: over the b5 soldier it reaches a5 only; up the c-file the c8
    # cannon is no screen; right, over the d5 horse, it goes on to i5 and takes nothing;
    # down, nothing to hop over
    fen = "3k5/9/2c6/9/9/1PCN5/9/9/9/4K4 w - - 0 1"
    moves = texts("janggi", fen)
    assert moves == theirs("janggi", fen)
    assert [t for t in moves if t.startswith("c5")] == ["c5a5", "c5e5", "c5f5", "c5g5", "c5h5", "c5i5"]
    # over a screen it may not take a cannon: the c2 cannon hops the c4 soldier to c5-c7,
    # not onto the c8 cannon
    fen = "3k5/9/2c6/9/9/9/2P6/9/2C6/4K4 w - - 0 1"
    moves = texts("janggi", fen)
    assert moves == theirs("janggi", fen)
    assert [t for t in moves if t.startswith("c2")] == ["c2c5", "c2c6", "c2c7"]
    # a cannon is no screen for a check either: the king on d1 stands safe behind the d5
    # cannon from the d3 one
    v, pos = ours("janggicasual", "4k4/9/9/9/9/3C5/9/3c5/9/3K5 w - - 0 1")
    assert not in_check(pos)


def test_cannon_checks_and_pins_through_a_screen():
    # the black cannon on e10 checks the white king on e2 over the e5 horse: the king steps
    # off the file, or the horse moves away (the check needs its screen); no pass in check
    fen = "4c4/3k5/9/9/9/4N4/9/9/4K4/9 w - - 0 1"
    v, pos = ours("janggi", fen)
    assert in_check(pos)
    moves = texts("janggi", fen)
    assert moves == theirs("janggi", fen)
    assert "e2e2" not in moves and "e2e1" not in moves and "e5c4" in moves
    # with an advisor on e1 too, the horse is pinned by the cannon: its only screen left
    # would be the horse... the advisor stands below the king, so the horse still may go
    fen = "4c4/3k5/9/9/9/4N4/9/9/4K4/4A4 w - - 0 1"
    assert texts("janggi", fen) == theirs("janggi", fen)
    # a cannon behind its screen pins: the e5 horse screens e4 from the e10 cannon while
    # the e3 soldier screens the king: the soldier may not leave
    fen = "4c4/3k5/9/9/9/4N4/9/4P4/4K4/9 w - - 0 1"
    moves = texts("janggi", fen)
    assert moves == theirs("janggi", fen)


def test_palace_diagonals():
    # the rook rides d1-e2-f3, the advisor on e2 steps to the four corners, the soldier on
    # d8 steps to e9 and from e9 to d10/f10, the cannon on d1 hops over e2 to f3
    fen = "3k5/9/3P5/9/9/9/9/9/4A4/R2C1K3 w - - 0 1"
    moves = texts("janggi", fen)
    assert moves == theirs("janggi", fen)
    assert {"e2d3", "e2f3", "d1f3", "d8e9"} <= set(moves)
    fen = "4k4/9/9/9/9/9/9/9/9/3R1K3 w - - 0 1"
    moves = texts("janggi", fen)
    assert moves == theirs("janggi", fen) and {"d1e2", "d1f3"} <= set(moves)
    assert "d1c2" not in moves


def test_elephant_is_blocked_on_both_cells_it_passes():
    fen = "4k4/9/9/9/9/9/9/9/9/1B2K4 w - - 0 1"
    assert texts("janggi", fen) == theirs("janggi", fen)
    assert {"b1e3", "b1d4"} & set(texts("janggi", fen))
    blocked = "4k4/9/9/9/9/9/9/9/2P6/1B2K4 w - - 0 1"
    assert texts("janggi", blocked) == theirs("janggi", blocked)
    assert "b1d4" not in texts("janggi", blocked)


# ---- passing, bikjang and the material count ---------------------------------------------------
def test_pass_is_the_king_on_its_own_cell_never_in_check():
    fen = "3k5/9/9/9/9/4r4/9/9/4K4/9 w - - 0 1"
    assert "e2e2" not in texts("janggi", fen) and texts("janggi", fen) == theirs("janggi", fen)
    fen = "3k5/9/9/9/9/9/9/9/4K4/9 w - - 0 1"
    assert "e2e2" in texts("janggi", fen)
    # two passes in a row end the game: drawn in the casual and traditional forms, by the
    # material count in janggi (here even: the second player, Han, wins it, and the first,
    # to move, loses)
    for name, want in (("janggi", -1), ("janggicasual", 0), ("janggitraditional", 0)):
        moves = ["e2e2", "d10d10"]
        assert result(name, fen, moves)[0] == want == sf_score(name, fen, moves)


def test_bikjang():
    """Kings facing on an open file: the side to move must break it or pass (even in check);
    facing kings after facing kings end the game, by the material count in janggi, drawn in
    the traditional form; in the casual form facing kings are a position like another."""
    fen = "3k5/9/9/9/9/9/9/9/4K4/9 w - - 0 1"
    for name in NAMES:
        assert texts(name, fen, ["e2d2"]) == theirs(name, fen, ["e2d2"])
    assert "d10d9" not in texts("janggi", fen, ["e2d2"])
    assert "d10d9" in texts("janggicasual", fen, ["e2d2"])
    for name, want in (("janggi", -1), ("janggitraditional", 0)):
        moves = ["e2d2", "d10d10"]
        assert result(name, fen, moves)[0] == want == sf_score(name, fen, moves)
        assert result(name, fen, moves)[1].startswith("bikjang")
    assert result("janggicasual", fen, ["e2d2", "d10d10"]) is None
    # facing from the start: the pass is legal even in check, and a pass ends it
    fen = "4k4/9/9/9/9/9/9/9/r3K4/9 w - - 0 1"
    v, pos = ours("janggi", fen)
    assert in_check(pos) and texts("janggi", fen) == theirs("janggi", fen)
    assert "e2e2" in texts("janggi", fen)
    fen = "4k4/9/9/9/9/9/9/9/4K4/R8 w - - 0 1"
    assert result("janggi", fen, ["e2e2"])[0] == -1 == sf_score("janggi", fen, ["e2e2"])


def test_material_count_decides_the_move_rule():
    fen = "4k4/9/9/9/9/9/9/9/3K5/R8 w - - 99 60"
    assert result("janggi", fen, ["a1a2"]) == (-1, "50-move rule, material count")
    assert sf_score("janggi", fen, ["a1a2"]) == -1
    assert result("janggicasual", fen, ["a1a2"])[0] == 0 == sf_score("janggicasual", fen, ["a1a2"])
    # Cho needs more than Han plus one: two soldiers against one win for Cho, one against
    # one lose
    for fen, want in (("3k5/4p4/9/9/9/9/9/9/4PK3/4P4 b - - 99 60", 1),
                      ("3k5/4p4/9/9/9/9/9/9/4PK3/9 b - - 99 60", -1)):
        assert result("janggi", fen, ["d10d9"])[0] == want == sf_score("janggi", fen, ["d10d9"])


def test_move_repetition_loses_in_the_modern_form():
    """A horse moved back and forth five times: the side to move wins in janggimodern, and
    nothing happens in janggi; a pass may stand for the second move (then six moves); a
    check on the repeating side in between cancels it."""
    fen = sf.start_fen("janggimodern")
    moves = ["b1c3", "a7a6", "c3b1", "a6a5", "b1c3", "c7c6", "c3b1", "c6c5", "b1c3"]
    assert result("janggimodern", fen, moves[:-1]) is None
    assert result("janggimodern", fen, moves) == (1, "move repetition")
    assert sf_score("janggimodern", fen, moves) == 1
    assert result("janggi", fen, moves) is None is sf_score("janggi", fen, moves)
    moves = ["b1c3", "a7a6", "e2e2", "a6a5", "c3b1", "c7c6", "b1c3", "c6c5", "c3b1", "e7e6",
             "b1c3"]
    for i in range(8, len(moves) + 1):
        assert (None if result("janggimodern", fen, moves[:i]) is None else 1) \
            == sf_score("janggimodern", fen, moves[:i]), moves[:i]
    # a rook, not a piece of the palace: a rook checks in between
    fen = "3k5/9/9/9/9/9/9/9/4K4/R8 w - - 0 1"
    moves = ["a1a2", "d10e10", "a2a1", "e10d10", "a1a2", "d10e10", "a2a1", "e10d10", "a1a2"]
    for i in range(1, len(moves) + 1):
        ours_ = result("janggimodern", fen, moves[:i])
        assert (None if ours_ is None else ours_[0]) == sf_score("janggimodern", fen, moves[:i])


def test_bad_values_are_refused_by_key():
    assert any("bikjangRule" in p for p in problems("[a:chess]\nbikjangRule = maybe\n"))
    assert any("diagonalLines" in p for p in problems("[a:chess]\ndiagonalLines = z9\n"))
    assert any("materialCounting" in p for p in problems("[a:chess]\nmaterialCounting = korean\n"))


# ---- a section of one's own, and the protocol ----------------------------------------------------
def test_a_section_inheriting_from_janggi_keeps_its_rules():
    """``[mine:janggi]`` with a custom piece in place of the horse: the cannon, the palace
    diagonals and bikjang come along; loaded into both engines, the same moves."""
    from file_helpers import one
    text = "[mine:janggi]\nhorse = -\ncustomPiece1 = n:W\n"
    v = one(text)
    sf.load_variant_config(text)
    fen = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1"
    pos = parse(v, fen)
    assert sorted(move_text(v, m) for m in legal_moves(pos)) == theirs("mine", fen)
    assert perft(pos, 2) == fsf_perft("mine", fen, [], 2)


def test_protocol_plays_janggi_by_name(eng):
    """``setoption name UCI_Variant value janggi``: a pass in the move list (``e2e2``), the
    position text, perft and a search answering a legal move."""
    eng.ask("uci", "uciok")
    eng.send("setoption name UCI_Variant value janggi")
    played = ["b1c3", "e9e9", "a1a2"]
    eng.send("position startpos moves " + " ".join(played))
    fen = sf.get_fen("janggi", sf.start_fen("janggi"), played)
    assert eng.ask("d", "Fen:")[-1] == f"Fen: {fen}"
    lines = eng.ask("go perft 1", "Nodes searched:")
    assert lines[-1] == f"Nodes searched: {len(sf.legal_moves('janggi', fen, []))}"
    lines = eng.ask("go depth 2", lambda line: line.startswith("bestmove"))
    assert lines[-1].split()[1] in sf.legal_moves("janggi", fen, [])
