"""The clock planned over the moves left of a game of a declared length (``clockGame``, a
search hint: docs/variant-files.md, "Search hints"; ``engine.limits.plan_moves``). Knavish's
file says its games run 90 moves, so the base clock is spread over the 89 moves left at move
1 and the 50 left at move 40; its ``clockMoves`` (25) is the floor, from move 65 on. Other
games keep planning ``clockMoves`` throughout. Reading and refusing the key: test_hint_keys.py."""
from __future__ import annotations

import variants
from engine.limits import allocate, plan_moves

CLOCK = {"wtime": 10000, "btime": 10000, "winc": 100, "binc": 100}


def test_knavish_plans_the_moves_left_of_a_90_move_game():
    v = variants.get("knavish")
    assert (v.clock_game, v.clock_moves) == (90, 25)
    assert plan_moves(v, 1) == 89
    assert plan_moves(v, 40) == 50
    assert plan_moves(v, 65) == 25          # the floor
    assert plan_moves(v, 200) == 25
    assert variants.get("knavish8").clock_game == 90      # inherited


def test_other_games_plan_clock_moves_throughout():
    for name in ("chess", "shogi", "nested-a"):
        v = variants.get(name)
        assert v.clock_game == 0
        assert plan_moves(v, 1) == plan_moves(v, 80) == v.clock_moves


def test_the_opening_takes_less_of_the_clock():
    """The same clock as chess's plan of 30 moves: Knavish's first move gets less than half
    of what that plan gives (the base is kept for the middlegame, where its games are
    decided); from move 65 the plan is clockMoves' 25 moves."""
    v = variants.get("knavish")
    assert allocate(0, CLOCK, 50, plan_moves(v, 1))[0] < allocate(0, CLOCK, 50, 30)[0] * 0.5
    later = dict(CLOCK, wtime=3000)
    assert allocate(0, later, 50, plan_moves(v, 70)) == allocate(0, later, 50, 25)


def test_movestogo_still_rules():
    v = variants.get("knavish")
    clock = dict(CLOCK, movestogo=10)
    assert allocate(0, clock, 50, plan_moves(v, 1)) == allocate(0, clock, 50, 30)
