"""The royal-safety term of drop games (engine/evaluate.py, ``Evaluator._royal_zone``): own
pieces beside the royal guard it, enemy pieces within two steps threaten it, scaled by the
game phase; and the evaluation stays the same for either colour."""
from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import variants  # noqa: E402
from engine.evaluate import Evaluator  # noqa: E402
from engine.notation.position_text import parse  # noqa: E402
from tests.walk_helpers import random_position  # noqa: E402


def _without_zone(v):
    ev = Evaluator(v)
    ev.GUARD = ev.ATTACKER = 0
    return ev


def _zone_share(v, text):
    """What the royal-zone term adds to the evaluation of ``text`` (first player to move)."""
    pos = parse(v, text)
    return Evaluator(v).evaluate(pos) - _without_zone(v).evaluate(pos)


def test_the_start_position_is_balanced():
    v = variants.get("shogi")
    assert _zone_share(v, v.start_fen) == 0


def test_guards_beside_the_royal_count_for_its_side():
    v = variants.get("shogi")
    # first player's king on 5i with Gold, Silver, Gold on the rank above; the other king bare
    guarded = _zone_share(v, "4k4/9/9/9/9/9/9/3GSG3/4K4[RBrb] w 0 1")
    ev = Evaluator(v)
    assert 0 < guarded <= 3 * ev.GUARD
    # the same pieces far from the king guard nothing
    assert _zone_share(v, "4k4/9/9/3GSG3/9/9/9/9/4K4[RBrb] w 0 1") == 0


def test_enemy_pieces_near_the_royal_count_against_it():
    v = variants.get("shogi")
    # the second player's Silver and Gold beside the first player's king, a Gold two steps away
    near = _zone_share(v, "4k4/9/9/9/9/9/5g3/3sg4/4K4[RBrb] w 0 1")
    assert near < 0
    # the same seen from the other side: the second player to move gets the opposite sign
    other = _zone_share(v, "4k4/9/9/9/9/9/5g3/3sg4/4K4[RBrb] b 0 1")
    assert other == -near


def _rotated(v, pos):
    """The position turned half a turn with the colours swapped (the same game for the
    other player)."""
    cs = v.geometry.coords
    idx = {c: i for i, c in enumerate(cs)}
    top = [max(c[i] for c in cs) + min(c[i] for c in cs) for i in range(2)]
    rot = [idx[(top[0] - c[0], top[1] - c[1])] for c in cs]
    q = parse(v, v.start_fen)
    q.board = [0] * len(cs)
    for s, p in enumerate(pos.board):
        if p:
            q.board[rot[s]] = p ^ 1
    q.occ = [{rot[s] for s in pos.occ[1]}, {rot[s] for s in pos.occ[0]}]
    q.hand = [pos.hand[c ^ 1] for c in range(len(pos.hand))]
    q.king = [rot[k] if k >= 0 else -1 for k in reversed(pos.king)]
    q.side = pos.side ^ 1
    return q


def test_drop_game_evaluation_is_colour_symmetric():
    v = variants.get("shogi")
    ev = Evaluator(v)
    plain = _without_zone(v)
    rng = random.Random(3)
    seen_zone = 0
    for _ in range(30):
        pos = random_position(v, rng, 10, 80)
        assert ev.evaluate(pos) == ev.evaluate(_rotated(v, pos))
        seen_zone += ev.evaluate(pos) != plain.evaluate(pos)
    assert seen_zone          # the walk reached positions where the term counts
