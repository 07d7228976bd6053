"""The attack tables with code masks (engine/attacks.py) give the answers of the frozenset
tables they are made from, and the legality filter's shortcut for royal moves (the royal
lifted from its cell, its destination tested unmade) keeps exactly the moves that make and
test keep.  Proven on positions of seeded random games in games with leapers, riders, lame
leapers (shogi's and xiangqi-like pieces are not here: Knavish's and the crooked pieces'
paths are), hoppers (grasshopper, shako's cannon), drops, 3D boards and a board whose rays
need not be straight."""
from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import variants  # noqa: E402
from engine.moves import CELL, FROM_SHIFT, is_drop
from engine.attacks import attacked_mask, mask_attack_tables, pinned_mask  # noqa: E402
from engine.movegen import (attacked_with, legal_moves, pinned_with, pseudo_moves,  # noqa: E402
                            royal_filter)
from engine.notation.position_text import format  # noqa: E402
from tests.walk_helpers import random_position  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
variants.load_file(str(ROOT / "tests" / "data" / "fsf_variants.ini"))
variants.load_file(str(ROOT / "examples" / "crooked.ini"))
variants.load_file(str(ROOT / "examples" / "raumschach.ini"))

GAMES = ("chess", "knavish", "shogi", "crazyhouse", "grasshopper", "shako", "crookedbishops",
         "janus", "raumschach", "elefantnichtschach", "knightmate", "torishogi")


def _positions(v, rng, n):
    return [random_position(v, rng, 4, 50) for _ in range(n)]


def test_the_masks_answer_as_the_frozensets():
    rng = random.Random(48)
    for name in GAMES:
        v = variants.get(name)
        atk = v.attacks
        masks = mask_attack_tables(atk)
        assert v.attack_masks[0].leaps == masks[0].leaps, name
        hits = 0
        for pos in _positions(v, rng, 5):
            b = pos.board
            for colour in (0, 1):
                for t in range(len(b)):
                    want = attacked_with(atk[colour], b, t)
                    assert attacked_mask(masks[colour], b, t) == want, (name, format(pos), t)
                    hits += want
                k = pos.king[colour ^ 1]
                if k >= 0:
                    assert pinned_mask(masks[colour], b, k, colour ^ 1) == \
                        pinned_with(atk[colour], b, k, colour ^ 1), (name, format(pos))
        assert hits > 0, name
        if name in ("grasshopper", "shako"):
            assert any(m.hops is not None for m in masks), name


def test_a_royal_move_tested_unmade_keeps_what_make_keeps():
    rng = random.Random(49)
    for name in GAMES:
        v = variants.get(name)
        royal = 0
        for pos in _positions(v, rng, 10):
            side = pos.side
            k = pos.king[side]
            if k < 0 or not v.royal_check:
                continue
            pseudo = pseudo_moves(pos)
            board = list(pos.board)
            got = royal_filter(pos, pseudo)
            assert pos.board == board
            want = []
            for m in pseudo:
                pos.make(m)
                kk = pos.king[side]
                if kk < 0 or not attacked_with(v.attacks[side ^ 1], pos.board, kk):
                    want.append(m)
                pos.unmake()
            if v.rules.drop_rule:
                want = [m for m in want if not is_drop(m) or v.drop_legal(pos, m)]
            assert got == want, (name, format(pos))
            royal += sum((m >> FROM_SHIFT) & CELL == k for m in pseudo)
            assert set(legal_moves(pos)) <= set(got)
        assert royal > 0 or not v.royal_check, name
