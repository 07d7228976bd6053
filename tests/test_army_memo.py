"""The army memo of the win-rule plugins (``engine.armies.ArmyMemo``) asked as a search asks
it: at some positions only, with the memo of positions started over now and then.  A position
it has not seen follows from the nearest one seen before it through the moves since (a
capture takes a code from the opponent's army, a promotion changes one of the mover's, a drop
adds one); a count afresh gives the positions before it their armies too.  Either way, the
facts of a count from scratch."""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import variants  # noqa: E402
from engine.armies import ArmyMemo  # noqa: E402
from engine.movegen import legal_moves  # noqa: E402
from engine.moves import CELL, PROMO, is_drop  # noqa: E402
from engine.notation.position_text import parse  # noqa: E402


# Elefant, White to move with a Stockpoint that promotes (a random game's position)
PROMOTING = ("rubenr/1ppp1p/6/1Pp1p1/P1PPPP/RUBENR|nadgau/2p1pp/4p1/1p4/PPPPPP/NADGAU|"
             "ekqlyb/ppp3/pp1PFp/PP1pY1/P1PPPP/EKQL1B|bylqke/2ppp1/pP4/1PP1Pp/5P/BYLQKE|"
             "uagdan/pp1ppp/2p3/2P1P1/P3PP/UAGDAN|rnebur/pp1p1P/F1p3/2P3/PP1PP1/RNEBUR w [F] 0 20")


def _kind(pos, m) -> str:
    if is_drop(m):
        return "drop"
    if m & PROMO:
        return "promotion"
    return "capture" if pos.board[m & CELL] else "plain"


@pytest.mark.parametrize("name, memo, kinds, follows", [
    ("elefantnichtschach", lambda v: v._cover_armies, {"drop", "promotion", "capture"}, True),
    # fusion and fission (moves of the plugin's own) change an army in a way the memo does
    # not follow: the position after one is counted afresh
    ("ninepiece-nichtschach", lambda v: v._group_armies, {"capture", "promotion"}, False),
])
def test_armies_asked_at_some_positions_only_are_those_of_a_count_from_scratch(name, memo, kinds, follows):
    v = variants.get(name)
    compute = v._army_facts
    counted = []
    mem = ArmyMemo(compute, lambda pos, side: counted.append(1) or tuple(sorted(
        pos.board[s] for s in pos.occ[side])))
    assert type(mem) is type(memo(v))
    rng = random.Random(f"sparse-{name}")
    seen_kinds: set[str] = set()
    asked = 0
    starts = [v.start_fen, v.start_fen, PROMOTING if name == "elefantnichtschach" else v.start_fen]
    for fen in starts:
        pos = parse(v, fen)
        for _ply in range(70):
            moves = legal_moves(pos)
            if not moves:
                break
            # promotions, captures and drops first, so that the armies change often
            promos = [m for m in moves if _kind(pos, m) == "promotion"]
            rare = promos or [m for m in moves if _kind(pos, m) != "plain"]
            m = rng.choice(rare if rare and rng.random() < 0.7 else moves)
            seen_kinds.add(_kind(pos, m))
            pos.make(m)
            if rng.random() < 0.03:
                mem._seen = [{}, {}]                    # the memo starts over, as when full
            if rng.random() < 0.5:                      # a search asks at some nodes only
                side = rng.randrange(2)
                b = pos.board
                assert mem.get(pos, side) == compute(tuple(sorted(b[s] for s in pos.occ[side])))
                asked += 1
    assert kinds <= seen_kinds
    assert asked > 40
    # most positions follow from one seen before them, without a count of their codes
    assert 0 < len(counted) < (asked // 2 if follows else asked + 1)


def test_a_memo_started_over_follows_again_after_one_count():
    """After the memo of positions is emptied, the first position asked is counted afresh
    and gives its ancestors their armies: its sibling, reached by a capture from the same
    parent, follows from the parent without a count."""
    v = variants.get("elefantnichtschach")
    rng = random.Random("siblings")
    pos = parse(v, v.start_fen)
    for _ply in range(12):
        pos.make(rng.choice(legal_moves(pos)))
    counted = []
    mem = ArmyMemo(v._army_facts, lambda p, side: counted.append(1) or tuple(sorted(
        p.board[s] for s in p.occ[side])))
    side = pos.side ^ 1                                 # the army the capture changes
    caps = [m for m in legal_moves(pos) if _kind(pos, m) == "capture"][:2]
    assert len(caps) == 2
    pos.make(caps[0])
    first = mem.get(pos, side)
    pos.unmake()
    pos.make(caps[1])
    second = mem.get(pos, side)
    b = pos.board
    assert second == v._army_facts(tuple(sorted(b[s] for s in pos.occ[side])))
    assert first is not None and len(counted) == 1
