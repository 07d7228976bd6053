"""The evaluator's sum kept by make and unmake (``Position.acc`` and ``Position.acch``,
``Evaluator.prime``).

* Along random games with take-backs, in every variant, the sum kept move by move is the sum
  taken afresh from the board, and so is the evaluation.
* A variant's own move (``SPECIAL``) or a capture hook leaves the sum unknown; the evaluator
  sums it again, and unmake brings back the sum from before the move.
* The fields of the sum read back what they hold: the square values, the phase, the pawns.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import variants  # noqa: E402
from engine.evaluate import Evaluator  # noqa: E402
from engine.movegen import legal_moves  # noqa: E402
from engine.moves import SPECIAL  # noqa: E402
from engine.notation.position_text import parse  # noqa: E402


def kept_sum(pos, ev):
    """The sum make kept, in ``Evaluator.prime``'s form (None: unknown)."""
    return None if pos.acc is None else pos.acc + (pos.acch << ev.ACC_SHIFT)


@pytest.mark.parametrize("name", variants.names())
def test_kept_sum_is_the_fresh_sum(name):
    v = variants.get(name)
    ev = Evaluator(v)
    fresh = Evaluator(v)          # a second evaluator: its own table, so it always sums afresh
    rng = random.Random(f"acc-{name}")
    pos = parse(v, v.start_fen)
    ev.prime(pos)
    kept = 0
    for _ply in range(160):
        if pos.acc is not None:
            kept += 1
            a = kept_sum(pos, ev)
            assert a == ev.prime(pos)
        assert ev.evaluate(pos) == fresh.evaluate(pos)
        ev.prime(pos)             # fresh.evaluate marked the position as its own
        moves = legal_moves(pos)
        if not moves or v.adjudicate(pos) is not None:
            break
        m = rng.choice(moves)
        before = kept_sum(pos, ev)
        pos.make(m)
        pos.unmake()
        assert kept_sum(pos, ev) == before
        pos.make(m)
    assert kept > 0


def test_special_moves_leave_the_sum_unknown_and_unmake_brings_it_back():
    v = variants.get("ninepiece-nichtschach")
    ev = Evaluator(v)
    rng = random.Random("acc-special")
    pos = parse(v, v.start_fen)
    seen = 0
    for _ply in range(200):
        moves = legal_moves(pos)
        if not moves:
            break
        special = [m for m in moves if m & SPECIAL]
        ev.prime(pos)
        before = kept_sum(pos, ev)
        if special:
            pos.make(special[0])
            assert pos.acc is None
            ev.evaluate(pos)
            assert kept_sum(pos, ev) == ev.prime(pos)
            pos.unmake()
            assert kept_sum(pos, ev) == before
            seen += 1
        pos.make(rng.choice(moves))
    assert seen > 0


def test_fields_of_the_sum():
    v = variants.get("knavish")
    ev = Evaluator(v)
    pos = parse(v, v.start_fen)
    a = ev.prime(pos)
    shift, pbits = ev.ACC_SHIFT, ev.PHASE_BITS
    hi = (a + (1 << (shift - 1))) >> shift
    assert a - (hi << shift) == 0                                # a symmetric array: even
    assert hi & ((1 << pbits) - 1) == ev.phase_max                # the start's phase
    pawns = hi >> pbits
    n = v.geometry.size
    geo = v.geometry
    white = {geo.name(c) for c in range(n) if pawns >> c & 1}
    black = {geo.name(c) for c in range(n) if pawns >> (n + c) & 1}
    assert white == {f"{f}3" for f in "abcdefghij"}
    assert black == {f"{f}8" for f in "abcdefghij"}
    pos.make(legal_moves(pos)[0])
    pos.acc = None
    assert ev.evaluate(pos) == Evaluator(v).evaluate(pos)
