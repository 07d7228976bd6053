"""Time allocation: soft/hard limits from the `go` clock parameters never exceed what the
clock (plus byoyomi) allows after the move overhead."""
from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from engine.limits import allocate  # noqa: E402


def test_movetime_minus_overhead():
    assert allocate(0, {"movetime": 1000}, 50) == (0.95, 0.95)
    soft, hard = allocate(1, {"movetime": 10}, 50)
    assert 0 < hard <= 0.01


def test_no_clock_means_no_limit():
    assert allocate(0, {}, 50) == (None, None)
    assert allocate(0, {"depth": 5}, 50) == (None, None)


def test_sudden_death_uses_a_fraction():
    soft, hard = allocate(0, {"wtime": 60000, "btime": 1000}, 50)
    assert 0 < soft < hard <= 30.0
    assert soft < 3.0
    # black's clock is the one that counts for black
    soft_b, hard_b = allocate(1, {"wtime": 60000, "btime": 1000}, 50)
    assert hard_b <= 0.5


def test_increment_and_movestogo():
    s1, h1 = allocate(0, {"wtime": 10000, "winc": 2000}, 50)
    s0, h0 = allocate(0, {"wtime": 10000}, 50)
    assert s1 > s0
    s, h = allocate(0, {"wtime": 10000, "movestogo": 1}, 50)
    assert h <= 5.0


def test_a_longer_game_plans_less_time_a_move():
    short = allocate(0, {"wtime": 6000, "winc": 60}, 50)
    long_ = allocate(0, {"wtime": 6000, "winc": 60}, 50, 60)
    assert long_[0] < short[0] and long_[1] < short[1]
    # movestogo from the GUI wins over the game's own plan
    assert allocate(0, {"wtime": 6000, "movestogo": 10}, 50, 60) == allocate(0, {"wtime": 6000, "movestogo": 10}, 50)


def test_byoyomi():
    soft, hard = allocate(0, {"btime": 0, "wtime": 0, "byoyomi": 1000}, 50)
    assert 0 < soft <= hard <= 0.95
    soft, hard = allocate(1, {"btime": 0, "wtime": 30000, "byoyomi": 1000}, 50)
    assert hard <= 15.0 + 1.0


def test_never_more_than_the_clock_allows():
    rng = random.Random(3)
    for _ in range(2000):
        side = rng.randrange(2)
        left = rng.choice([0, 5, 20, 60, 100, 500, 3000, 60000, 600000])
        p = {("wtime", "btime")[side]: left}
        if rng.random() < 0.5:
            p[("winc", "binc")[side]] = rng.choice([0, 10, 100, 2000])
        if rng.random() < 0.3:
            p["movestogo"] = rng.randrange(1, 50)
        byo = rng.choice([0, 0, 100, 1000]) if rng.random() < 0.3 else 0
        if byo:
            p["byoyomi"] = byo
        ov = rng.choice([0, 10, 50, 300])
        soft, hard = allocate(side, p, ov)
        assert soft <= hard
        budget = (left + byo - ov) / 1000.0
        assert hard <= max(0.01, budget) + 1e-9, (p, ov, hard)


def test_the_session_plans_the_clock_over_the_games_own_length():
    """Nested Chess games run well over a hundred moves a side: its clock is planned over 60
    moves (``Variant.clock_moves``), chess's over 30.  A pondering `go` keeps the limits it
    will use on `ponderhit`, so they are read without timing anything."""
    import io

    from protocol.session import Session
    clock = {"wtime": 6000, "btime": 6000, "winc": 60, "binc": 60}
    planned = {}
    for name in ("chess", "nested-a"):
        out = io.StringIO()
        s = Session(out)
        s.handle(f"setoption name UCI_Variant value {name}")
        s.handle("position startpos")
        s.handle("go ponder " + " ".join(f"{k} {v}" for k, v in clock.items()))
        planned[name] = s.pending_hit
        s.handle("stop")
        s.handle("quit")
    overhead = Session(io.StringIO()).values["overhead"]
    assert planned["chess"] == allocate(0, clock, overhead, 30)
    assert planned["nested-a"] == allocate(0, clock, overhead, 60)
    assert planned["nested-a"][0] < planned["chess"][0]
