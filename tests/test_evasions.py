"""In check, the searcher leaves out the moves that cannot end it before ordering them
(engine/movegen.py, ``evasions``; used by negamax and quiescence where ``fast_evasions``
holds): against one attacker only royal moves, moves that take it and moves (drops too) onto
the cells between it and the royal; against two only royal moves.  Proven here: named
positions in shogi and chess keep exactly those, and on random positions in check of seven
games the moves left out are all illegal, every legal move is kept, and the board is left as
it was.  Also here: out of check, drops are generated after the moves that cut most
(``staged_drops``), in the order a full generation gives."""
from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import variants  # noqa: E402
from engine.movegen import (attacked, evasions, gives_check, in_check, legal_moves,  # noqa: E402
                            pseudo_moves)
from engine.quiet_checks import quiet_checks  # noqa: E402
from engine.moves import CELL, DOUBLE, FROM_SHIFT, TYPE_MASK, TYPE_SHIFT, is_drop  # noqa: E402
from engine.notation.move_text import move_text  # noqa: E402
from engine.notation.position_text import format, parse  # noqa: E402
from engine.search import Searcher  # noqa: E402
from tests.walk_helpers import random_position  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
variants.load_file(str(ROOT / "examples" / "crooked.ini"))


def _kept(v, text, drops_only=False):
    pos = parse(v, text)
    assert in_check(pos)
    side = pos.side
    kept = evasions(pos, pseudo_moves(pos), pos.king[side], side ^ 1)
    return sorted(move_text(v, m) for m in kept
                  if not drops_only or is_drop(m))


def test_a_distant_check_keeps_the_drops_between():
    v = variants.get("shogi")
    # a Rook on e9 gives check along the file to the king on e1; a Gold in hand
    assert _kept(v, "k3r4/9/9/9/9/9/9/9/4K4[G] w 0 1", True) == [f"G@e{r}" for r in range(2, 9)]


def test_a_contact_check_keeps_no_drop():
    v = variants.get("shogi")
    # a Gold on e2 gives check beside the king: no drop can stand between
    assert _kept(v, "8k/9/9/9/9/9/9/4g4/4K4[GSP] w 0 1", True) == []


def test_a_double_check_keeps_only_royal_moves():
    v = variants.get("shogi")
    # a Rook on e9 along the file and a Bishop on a5 along the diagonal
    kept = _kept(v, "4r3k/9/9/9/b8/9/9/9/4K4[GS] w 0 1")
    assert kept and all(t.startswith("e1") for t in kept)
    v = variants.get("chess")
    # the Knight on f6 and the Rook on e1 both check the King on e8
    kept = _kept(v, "4k3/8/5N2/8/8/8/8/4R1K1 b - - 0 1")
    assert kept and all(t.startswith("e8") for t in kept)


def test_one_checker_keeps_captures_blocks_and_royal_moves():
    v = variants.get("chess")
    # the Bishop on b5 checks the King on e8 along b5-c6-d7: the Knight on b6 can block on
    # d7, the Queen on e5 can take on b5; no other piece reaches b5, c6 or d7
    text = "4k3/pp3ppp/1n6/1B2q3/8/8/8/7K b - - 0 1"
    kept = _kept(v, text)
    assert [t for t in kept if not t.startswith("e8")] == ["b6d7", "e5b5"]
    royal = sorted(move_text(v, m) for m in pseudo_moves(parse(v, text))
                   if move_text(v, m).startswith("e8"))
    assert [t for t in kept if t.startswith("e8")] == royal


def test_the_searcher_uses_it_where_legality_is_the_generic_filter():
    assert Searcher(variants.get("shogi")).fast_evasions
    assert Searcher(variants.get("chess")).fast_evasions
    assert Searcher(variants.get("crazyhouse")).fast_evasions
    assert not Searcher(variants.get("nested-a")).fast_evasions     # its own legality
    assert not Searcher(variants.get("elefantnichtschach")).fast_evasions   # no check


def _in_check_positions(v, rng, want):
    """Positions of seeded random games where the side to move is in check and can move."""
    found = []
    for _ in range(600):
        pos = parse(v, v.start_fen)
        for _ply in range(rng.randrange(6, 120)):
            moves = legal_moves(pos)
            if not moves:
                break
            checks = []
            for m in moves:
                pos.make(m)
                if in_check(pos) and legal_moves(pos):
                    checks.append(m)
                pos.unmake()
            pos.make(rng.choice(checks) if checks and rng.random() < 0.3 else rng.choice(moves))
            if in_check(pos) and legal_moves(pos):
                found.append(parse(v, format(pos)))
                break
        if len(found) >= want:
            break
    return found


def test_the_moves_left_out_are_exactly_illegal_ones():
    rng = random.Random(11)
    for name in ("chess", "knavish", "crookedbishops", "shogi", "crazyhouse", "torishogi",
                 "capahouse"):
        v = variants.get(name)
        positions = _in_check_positions(v, rng, 10)
        assert len(positions) >= 6, name
        left_out = 0
        for pos in positions:
            side = pos.side
            board = list(pos.board)
            pseudo = pseudo_moves(pos)
            kept = evasions(pos, pseudo, pos.king[side], side ^ 1)
            assert pos.board == board
            assert kept == [m for m in pseudo if m in set(kept)]      # the generator's order
            for m in set(pseudo) - set(kept):
                pos.make(m)
                safe = not attacked(pos, pos.king[side], side ^ 1)
                pos.unmake()
                assert not safe, (name, format(pos), move_text(v, m))
            assert set(legal_moves(pos)) <= set(kept)
            left_out += len(kept) < len(pseudo)
            # the searcher's form: board moves filtered, then the drops onto those cells
            staged = evasions(pos, pseudo_moves(pos, drops=False), pos.king[side], side ^ 1, True)
            assert sorted(staged) == sorted(kept)
        assert left_out >= len(positions) // 2, name


def test_staged_drops_come_in_the_order_a_full_generation_gives():
    """Out of check the searcher orders the board moves (with the hash move and killers
    among the drops) first, and the other drops only when the keys fall below the killers':
    the same keys in the same order as ordering every move at once."""
    from engine.ordering import K_KILLER
    rng = random.Random(5)
    for name in ("shogi", "crazyhouse"):
        v = variants.get(name)
        s = Searcher(v)
        assert s.staged_drops
        seen_drops = 0
        for _ in range(20):
            pos = random_position(v, rng, 20, 90)
            if in_check(pos):
                continue
            full_moves = pseudo_moves(pos)
            drops = [m for m in full_moves if is_drop(m)]
            board = [m for m in full_moves if not is_drop(m)]
            if not drops or not board:
                continue
            seen_drops += 1
            ply = 3
            tt = rng.choice(full_moves)
            s.killers[ply] = [rng.choice(drops), rng.choice(board)]
            s.set_history({m * 2 + pos.side: rng.randrange(1000) for m in rng.sample(full_moves, 10)})
            full = s.order(pos, full_moves, tt, ply)
            stage = pseudo_moves(pos, drops=False)
            assert stage == board
            first = s._first_drops(pos, stage, (tt, *s.killers[ply]))
            assert set(first) <= set(drops) and s.killers[ply][0] in first
            staged = list(s._with_drops(pos, s.order(pos, stage + first, tt, ply), first, tt, ply))
            assert [k for k, _ in staged] == [k for k, _ in full]
            assert sorted(m for _, m in staged) == sorted(full_moves)
            assert [k for k, _ in staged].index(max(k for k, _ in staged)) == 0
            assert all(k >= K_KILLER for k, m in staged if m in first)
        assert seen_drops >= 5, name


def test_a_quiet_move_checks_exactly_where_quiet_checks_says():
    """Futile quiet moves and drops are pruned unmade unless they give check, read from
    ``quiet_checks``: on random positions it agrees with making each move and testing check,
    for every drop and every quiet move (no capture, promotion, castling or en passant; a
    pawn's long step included) from a cell that is not first on one of the enemy royal's
    lines."""
    from engine.moves import unmade_ok
    rng = random.Random(7)
    for name in ("shogi", "crazyhouse", "capahouse", "chess", "knavish", "crookedbishops"):
        v = variants.get(name)
        assert Searcher(v).quiet_checks
        drops = moves_ = checking = long_steps = 0
        for _ in range(25):
            pos = random_position(v, rng, 10, 100)
            if in_check(pos):
                continue
            direct, first = quiet_checks(pos)
            # only empty cells are listed: a capture (a losing one sorts among the quiet
            # moves) is never pruned unmade by this table
            assert not any(pos.board[c] for c in direct)
            for m in legal_moves(pos):
                frm = (m >> FROM_SHIFT) & CELL
                if is_drop(m):
                    code = ((m >> TYPE_SHIFT) & TYPE_MASK) * 2 + pos.side
                    drops += 1
                elif not unmade_ok(m) or pos.board[m & CELL] or frm in first:
                    continue
                else:
                    code = pos.board[frm]
                    moves_ += 1
                    long_steps += bool(m & DOUBLE)
                says = code in direct.get(m & CELL, ())
                assert says == gives_check(pos, m), (name, format(pos), move_text(v, m))
                checking += says
        assert moves_ > 200 and checking, name
        assert drops > 50 or not v.hands, name
        assert long_steps or name in ("shogi",), name


def test_two_zigzag_attackers_whose_paths_cross_can_be_blocked_at_once():
    """Crooked pieces attack along zigzag paths, and two such paths can cross: then one
    piece put on the crossing ends both attacks.  The black king on a3 is attacked by the
    crooked bishop on d4 (d4-c3-b4-a3) and the crooked rook on f8 (f8-e8-e7-d7-d6-c6-c5-b5-
    b4-a4-a3); the black crooked rook on d3 blocks both on b4."""
    from tests.test_crooked import Royal
    v = Royal()
    text = "5C2/K5C1/8/4Aa2/3A4/k2c4/8/8 b - - 0 1"
    pos = parse(v, text)
    kept = {move_text(v, m) for m in evasions(pos, pseudo_moves(pos), pos.king[1], 0)}
    assert "d3b4" in kept
    assert {move_text(v, m) for m in legal_moves(pos)} == {"a3b2", "d3b4"}
