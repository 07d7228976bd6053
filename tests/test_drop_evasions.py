"""In check, the search leaves out the drops that block nothing before ordering them
(engine/movegen.py, ``blocking_drops``; used by the searcher's negamax and quiescence where
``drop_evasions`` holds): one test per target cell replaces a make, an attack test and an
unmake per drop.  Proven here: the named positions keep exactly the interpositions, and on
random positions in check the drops kept are exactly the legal ones, with the board left
as it was."""
from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import variants  # noqa: E402
from engine.movegen import attacked, blocking_drops, in_check, legal_moves, pseudo_moves  # noqa: E402
from engine.moves import DROP  # noqa: E402
from engine.notation.move_text import move_text  # noqa: E402
from engine.notation.position_text import parse  # noqa: E402
from engine.search import Searcher  # noqa: E402

DATA = Path(__file__).resolve().parent / "data" / "fsf_variants.ini"
variants.load_file(str(DATA))


def _kept_drops(v, text):
    pos = parse(v, text)
    assert in_check(pos)
    side = pos.side
    kept = blocking_drops(pos, pseudo_moves(pos), pos.king[side], side ^ 1)
    return sorted(move_text(v, m) for m in kept if (m >> 8) & 255 == DROP)


def test_a_distant_check_keeps_the_drops_between():
    v = variants.get("shogi")
    # a Rook on e9 gives check along the file to the king on e1; a Gold in hand
    assert _kept_drops(v, "k3r4/9/9/9/9/9/9/9/4K4[G] w 0 1") == [f"G@e{r}" for r in range(2, 9)]


def test_a_contact_check_keeps_no_drop():
    v = variants.get("shogi")
    # a Gold on e2 gives check beside the king: no drop can stand between
    assert _kept_drops(v, "8k/9/9/9/9/9/9/4g4/4K4[GSP] w 0 1") == []


def test_a_double_check_keeps_only_drops_that_block_both():
    v = variants.get("shogi")
    # a Rook on e9 along the file and a Bishop on a5 along the diagonal: no one cell
    # stands on both lines
    assert _kept_drops(v, "4r3k/9/9/9/b8/9/9/9/4K4[GS] w 0 1") == []


def test_the_searcher_uses_it_where_legality_is_the_generic_filter():
    assert Searcher(variants.get("shogi")).drop_evasions
    assert Searcher(variants.get("crazyhouse")).drop_evasions
    assert not Searcher(variants.get("chess")).drop_evasions       # no hands


def _in_check_positions(v, rng, want):
    """Positions of seeded random games where the side to move is in check and holds a
    piece in hand."""
    found = []
    for _ in range(400):
        pos = parse(v, v.start_fen)
        for _ply in range(rng.randrange(10, 120)):
            moves = legal_moves(pos)
            if not moves:
                break
            pos.make(rng.choice(moves))
            side = pos.side
            if in_check(pos) and any(pos.hand[c] for c in range(side, len(pos.hand), 2)) \
                    and legal_moves(pos):
                found.append(pos.copy() if hasattr(pos, "copy") else parse(v, _text(pos)))
                break
        if len(found) >= want:
            break
    return found


def _text(pos):
    from engine.notation.position_text import format
    return format(pos)


def test_the_drops_kept_are_exactly_the_legal_ones():
    rng = random.Random(11)
    for name in ("shogi", "crazyhouse", "torishogi", "capahouse"):
        v = variants.get(name)
        positions = _in_check_positions(v, rng, 12)
        assert len(positions) >= 6, name
        blocked_some = 0
        for pos in positions:
            side = pos.side
            k = pos.king[side]
            board = list(pos.board)
            pseudo = pseudo_moves(pos)
            kept = blocking_drops(pos, pseudo, k, side ^ 1)
            assert pos.board == board
            # every move that is not a drop is kept, in the generator's order
            assert [m for m in kept if (m >> 8) & 255 != DROP] == \
                [m for m in pseudo if (m >> 8) & 255 != DROP]
            drops = [m for m in pseudo if (m >> 8) & 255 == DROP]
            kept_drops = {m for m in kept if (m >> 8) & 255 == DROP}
            for m in drops:
                pos.make(m)
                safe = not attacked(pos, pos.king[side], side ^ 1)
                pos.unmake()
                assert safe == (m in kept_drops), (name, _text(pos), move_text(v, m))
            legal = set(legal_moves(pos))
            assert {m for m in legal if (m >> 8) & 255 == DROP} <= kept_drops
            blocked_some += len(kept_drops) < len(drops)
        assert blocked_some, name          # the walk reached checks where drops were left out


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
            pos = parse(v, v.start_fen)
            for _ply in range(rng.randrange(20, 90)):
                moves = legal_moves(pos)
                if not moves:
                    break
                pos.make(rng.choice(moves))
            if in_check(pos):
                continue
            full_moves = pseudo_moves(pos)
            drops = [m for m in full_moves if (m >> 8) & 255 == DROP]
            board = [m for m in full_moves if (m >> 8) & 255 != DROP]
            if not drops or not board:
                continue
            seen_drops += 1
            ply = 3
            tt = rng.choice(full_moves)
            s.killers[ply] = [rng.choice(drops), rng.choice(board)]
            s.history = {m * 2 + pos.side: rng.randrange(1000) for m in rng.sample(full_moves, 10)}
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
