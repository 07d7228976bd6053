"""The searcher's move order read from one float per move (``engine/ordering.py``, ``SLOT_BITS``):
it must be the order of a stable sort of (key, move) pairs by key, descending, with equal keys
in the generator's order; and ``evaluate._cells``, which takes a mask apart a word at a time,
must list the same cells as taking it apart bit by bit."""
from __future__ import annotations

import random

import pytest

import variants
from engine.evaluate import _cells
from engine.movegen import pseudo_moves
from engine.moves import is_drop
from engine.ordering import LAST, SLOT_BITS
from engine.search import TT, Searcher
from tests.walk_helpers import random_position


@pytest.mark.parametrize("name", ["knavish", "chess", "shogi"])
def test_order_is_the_stable_sort_of_the_keys(name):
    """Keys never rise, equal keys keep the generator's order, and every move comes once;
    shogi's drops give negative keys (history plus square value minus the piece's value)."""
    v = variants.get(name)
    rng = random.Random(f"entries-{name}")
    s = Searcher(v, TT(1))
    negative = ties = 0
    for _ in range(12):
        pos = random_position(v, rng, 10, 80)
        moves = pseudo_moves(pos)
        s.killers[3] = [rng.choice(moves), rng.choice(moves)]
        s.set_history({m * 2 + pos.side: rng.randrange(2000) for m in rng.sample(moves, len(moves) // 3)})
        tt = rng.choice(moves)
        keyed = s.order(pos, moves, tt, 3)
        assert sorted(m for _, m in keyed) == sorted(moves)
        assert keyed[0] == (keyed[0][0], tt) and keyed[0][0] >= max(k for k, _ in keyed[1:])
        where = {m: i for i, m in enumerate(moves)}
        for (k1, m1), (k2, m2) in zip(keyed, keyed[1:]):
            assert k1 >= k2
            if k1 == k2:
                ties += 1
                assert where[m1] < where[m2]
        negative += sum(k < 0 for k, m in keyed if is_drop(m))
        assert s.ordered(pos, moves, tt, 3) == [m for _, m in keyed]
    assert ties > 20
    assert negative or name != "shogi"


def test_an_entry_keeps_its_key_and_index_exactly():
    for key in (-5000, -1, 0, 1, 1 << 20, (1 << 30) + 12345, (1 << 24) + (1 << 20) * 16):
        for index in (0, 1, 77, LAST):
            e = int(float((key << SLOT_BITS) + LAST - index))
            assert (e >> SLOT_BITS, LAST - (e & LAST)) == (key, index)


def test_cells_of_a_mask_word_by_word():
    rng = random.Random(11)
    for _ in range(3000):
        n = rng.choice((9, 60, 64, 100, 121, 512))
        bits = rng.getrandbits(n) if rng.random() < 0.5 else sum(1 << rng.randrange(n) for _ in range(6))
        assert _cells(bits) == [c for c in range(bits.bit_length()) if bits >> c & 1]


@pytest.mark.parametrize("name", ["chess", "shogi", "duck"])
def test_history_in_list_and_dict_is_one_dict_by_move_and_side(name):
    """The history keeps plain moves in a list and the others (drops, promotions, the duck's
    wall cells) in a dict: rewarded and aged, it reads as the one dict by move * 2 + side the
    searcher used to keep, and ``order`` reads it."""
    v = variants.get(name)
    rng = random.Random(f"history-{name}")
    s = Searcher(v, TT(1))
    ref: dict[int, int] = {}
    listed = odd = 0
    for _ in range(40):
        pos = random_position(v, rng, 4, 60)
        moves = pseudo_moves(pos)
        for m in rng.sample(moves, min(len(moves), 8)):
            d = rng.randrange(1, 12)
            s._reward([0, 0], m, pos.side, d)
            ref[m * 2 + pos.side] = min(ref.get(m * 2 + pos.side, 0) + d * d, (1 << 20) - 1)
            if s.hist_index(m, pos.side) >= 0:
                listed += 1
            else:
                odd += 1
        if rng.random() < 0.2:
            s.age_history()
            ref = {k: x >> 2 for k, x in ref.items() if x >= 4}
    for k, x in ref.items():
        assert s.history_of(k >> 1, k & 1) == x
    assert len(s.hused) + len(s.history) == len(ref)
    assert listed > 100 and (odd > 0 or name == "chess")
    pos = random_position(v, rng, 4, 60)
    moves = pseudo_moves(pos)
    keyed = dict((m, k) for k, m in s.order(pos, moves, 0, 3))
    for m in moves:
        if keyed[m] < (1 << 20) and not is_drop(m):
            assert keyed[m] == ref.get(m * 2 + pos.side, 0)
