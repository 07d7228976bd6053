"""The captures alone from the capture index, the quiet moves alone, and the search that
generates the quiet moves only when the captures have not cut a node off.

* ``pseudo_moves(pos, True)`` takes a leaper's captures from one mask of the enemy's cells
  (``tables.index_captures``): the same moves as the general walker keeps from all targets.
* ``quiet_moves(pos)`` is the rest of ``pseudo_moves(pos)``: with the captures, every
  pseudo-legal move once, the quiet ones in the full generator's order.
* The staged search (``Searcher.staged_quiets``) visits the same nodes and finds the same
  score and move as the search that generates every move at once.
"""
from __future__ import annotations

import random
import sys
import threading
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from engine.moves import CELL, EP
import engine.movegen  # noqa: E402
import engine.ordering  # noqa: E402
import variants  # noqa: E402
from engine.limits import Limits  # noqa: E402
from engine.movegen import pseudo_moves, quiet_moves  # noqa: E402
from engine.notation.position_text import parse  # noqa: E402
from engine.search import TT, Searcher  # noqa: E402
from tests.walk_helpers import random_position  # noqa: E402

ALL = variants.names()


def _general_captures(v, pos):
    """pseudo_moves(pos, True) with the capture index switched off: the general walker."""
    saved = [(t, t.capfast) for t in v.table_list if t is not None]
    for t, _ in saved:
        t.capfast = False
    try:
        return pseudo_moves(pos, True)
    finally:
        for t, fast in saved:
            t.capfast = fast


def test_the_index_covers_the_leapers_and_not_the_walkers():
    knavish = variants.get("knavish")
    assert all(t.capfast for t in knavish.table_list if t is not None)
    geo = knavish.geometry
    pawn = knavish.table_list[2]            # White's pawn: it captures by en-passant leaps
    d5 = geo.parse("d5")
    assert {geo.name(c) for c in pawn.epcells[d5]} == {"c6", "e6"}
    assert pawn.capbits[d5] == (1 << geo.parse("c6")) | (1 << geo.parse("e6"))
    carpenter = knavish.table_list[16]      # White's Carpenter (ND): twelve leaps, no rides
    assert bin(carpenter.capbits[geo.parse("e5")]).count("1") == 12
    assert not any(carpenter.caprides)
    queen = knavish.table_list[8]
    assert queen.capbits[d5] == 0 and len(queen.caprides[d5]) == 8
    # Ninepiece's bent linepieces keep the general walker
    assert not all(t.capfast for t in variants.get("ninepiece-nichtschach").table_list if t is not None)


def test_en_passant_from_the_index():
    v = variants.get("chess")
    pos = parse(v, "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3")
    caps = pseudo_moves(pos, True)
    ep = [m for m in caps if m & EP]
    assert len(ep) == 1 and ep[0] & CELL == pos.ep
    assert Counter(caps) == Counter(_general_captures(v, pos))


# games whose extra moves are made from the table moves (Seirawan's gating: a move from a gate
# may bring a piece in): the captures generator gates captures only, so the split below does
# not hold for them, and the searcher never generates their quiet moves apart
# (``rules.staged_quiets`` off: the test after this one)
DERIVED = [n for n in ALL if getattr(variants.get(n), "seirawan_gating", False)]


def test_games_whose_extra_moves_come_from_the_table_moves_are_generated_whole():
    assert DERIVED
    assert not any(variants.get(n).rules.staged_quiets for n in DERIVED)


@pytest.mark.parametrize("name", [n for n in ALL if n not in DERIVED])
def test_captures_and_quiet_moves_split_the_generator(name):
    v = variants.get(name)
    rng = random.Random(f"split-{name}")
    for _ in range(12):
        pos = random_position(v, rng, 0, 80)
        full = pseudo_moves(pos)
        caps = pseudo_moves(pos, True)
        quiet = quiet_moves(pos)
        assert Counter(caps) == Counter(_general_captures(v, pos))     # the index's captures
        assert Counter(full) == Counter(caps) + Counter(quiet)
        in_quiet = Counter(quiet)
        assert [m for m in full if in_quiet[m]] == quiet      # the generator's own order


@pytest.mark.interpreted
@pytest.mark.parametrize("name", ["knavish", "chess", "shogi", "elefantnichtschach"])
def test_the_compiled_engine_reads_the_index_cell_by_cell_in_the_same_order(name, monkeypatch):
    """Compiled (``movegen.COMPILED``), the capture generator reads a leaper's capture cells
    one by one instead of the mask: the same captures in the same order, so that both
    engines search the same nodes.  Here the interpreter runs that path."""
    v = variants.get(name)
    rng = random.Random(f"cells-{name}")
    for _ in range(12):
        pos = random_position(v, rng, 0, 80)
        monkeypatch.setattr(engine.movegen, "COMPILED", False)
        by_mask = pseudo_moves(pos, True)
        monkeypatch.setattr(engine.movegen, "COMPILED", True)
        assert pseudo_moves(pos, True) == by_mask


KNAVISH = ["1dn4n2/r2bqkb2r/ppppcppp1p/2c2nd1n1/5D1N1C/4P3p1/4PN2D1/1PCN1PPPPP/5KB2R/4Q2ND1 b - - 3 31",
           "4c2nd1/r2d1kb2r/p1bncppppp/2pnp1n1dq/1pNd2P3/1P1D4P1/2P2CD3/P1BPCPNB1P/R2DQ1KN1R/2N3D3 b kq - 3 31",
           "7nd1/r4kb2r/pp3pppp1/3dp3d1/P3n5/1P5n1p/4N2C1P/1c1PPNP1P1/3BK1D1D1/7N1R w - - 0 44"]
CHESS = ["r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
         "r2q1rk1/pp2bppp/2n1pn2/3p4/3P1B2/2PB1N2/PP1N1PPP/R2QK2R w KQ - 0 10"]


@pytest.mark.parametrize("name", ["knavish", "chess", "elefantnichtschach"])
def test_staged_order_is_the_order_of_every_move(name):
    """What the staged generator yields, keys and moves, is ``order`` over the captures and
    the quiet moves together (equal keys in generation order), with killers and history."""
    v = variants.get(name)
    rng = random.Random(f"staged-order-{name}")
    s = Searcher(v, TT(1))
    for _ in range(10):
        pos = random_position(v, rng, 10, 80)
        caps = pseudo_moves(pos, True)
        quiet = quiet_moves(pos)
        if quiet:
            s.killers[3] = [rng.choice(quiet), rng.choice(quiet)]
            s.set_history({m * 2 + pos.side: rng.randrange(1000) for m in rng.sample(quiet, len(quiet) // 2)})
        assert list(s._staged_quiets(pos, 0, 3)) == s.order(pos, caps + quiet, 0, 3)


@pytest.mark.interpreted
@pytest.mark.parametrize("name, fen", [("knavish", f) for f in KNAVISH] + [("chess", f) for f in CHESS])
def test_staged_search_finds_the_same_and_skips_quiet_moves(name, fen, monkeypatch):
    """The staged search against the one that generates every move at once: the same move
    and score at depth 4 on these positions, and the quiet moves generated at fewer nodes
    than the captures (a node the captures cut off never generates them).  The two trees
    are not the same node for node: the staged search keys its quiet moves after the
    captures' subtrees, with the history they added to, and a side's cells are a set whose
    order of iteration changes as moves are made and taken back."""
    v = variants.get(name)
    calls = Counter()

    def counted(fn, key):
        def wrapper(*args, **kw):
            calls[key] += 1
            return fn(*args, **kw)
        return wrapper

    monkeypatch.setattr(engine.ordering, "pseudo_moves", counted(pseudo_moves, "captures"))
    monkeypatch.setattr(engine.ordering, "quiet_moves", counted(quiet_moves, "quiet"))
    results = []
    for staged in (True, False):
        s = Searcher(v, TT(4))
        assert s.staged_quiets
        s.staged_quiets = staged
        best, _, score = s.search(parse(v, fen), Limits(depth=4), threading.Event())
        results.append((best, score))
    assert results[0] == results[1]
    assert 0 < calls["quiet"] < 0.8 * calls["captures"]


def test_staged_only_where_the_captures_are_the_tactical_moves():
    assert Searcher(variants.get("knavish"), TT(1)).staged_quiets
    assert not Searcher(variants.get("shogi"), TT(1)).staged_quiets            # drops: staged_drops
    assert not Searcher(variants.get("notake-rifle"), TT(1)).staged_quiets     # its own tactical moves
