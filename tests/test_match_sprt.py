"""SPRT in the match runner: the log-likelihood ratio against first principles, early stops
for H1 and H0, and SPRT from the command line."""
from __future__ import annotations

import json
import math
import re
import subprocess
import sys

import pytest
from match_helpers import CELLFISH, FAKE, ROOT, cellfish, fake

from match import (
    MatchConfig,
    TimeControl,
    run_match,
    stats,
)


# ---- SPRT --------------------------------------------------------------------------------------
def logistic_score(elo: float) -> float:
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def reference_llr(w, d, l, elo0, elo1):
    """The GSPRT log-likelihood ratio in its normal approximation, from first principles: the
    mean score x of n games is about normal with variance sigma^2 / n (sigma^2: the variance
    of one game's score, 1, 1/2 or 0), so LLR = ln N(x; s1, sigma^2/n) - ln N(x; s0, sigma^2/n)
    = n ((x - s0)^2 - (x - s1)^2) / (2 sigma^2), s0 and s1 the logistic scores of elo0 and
    elo1.  As documented, x and sigma^2 count half a game more of each kind (n does not)."""
    n = w + d + l
    games = [(1.0, w + 0.5), (0.5, d + 0.5), (0.0, l + 0.5)]     # (score, weight)
    weight = sum(c for _, c in games)
    x = sum(a * c for a, c in games) / weight
    var = sum(c * (a - x) ** 2 for a, c in games) / weight
    s0, s1 = logistic_score(elo0), logistic_score(elo1)
    return n * ((x - s0) ** 2 - (x - s1) ** 2) / (2 * var)


def exact_gsprt_llr(w, d, l, elo0, elo1):
    """The exact generalised LLR of the trinomial: n * sum q_i ln(p1_i / p0_i), with p_s the
    most likely W/D/L distribution whose expected score is s (Lagrange: p_i = q_i / (1 +
    lam (a_i - s)), lam found by bisection)."""
    n = w + d + l
    q, a = [w / n, d / n, l / n], [1.0, 0.5, 0.0]

    def most_likely(s):
        f = lambda lam: sum(qi * (ai - s) / (1 + lam * (ai - s)) for qi, ai in zip(q, a))  # noqa: E731
        lo, hi = -1 / (1 - s) + 1e-12, 1 / s - 1e-12               # f falls from + to -
        for _ in range(200):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if f(mid) > 0 else (lo, mid)
        return [qi / (1 + lo * (ai - s)) for qi, ai in zip(q, a)]

    p0, p1 = most_likely(logistic_score(elo0)), most_likely(logistic_score(elo1))
    return n * sum(qi * math.log(x1 / x0) for qi, x0, x1 in zip(q, p0, p1) if qi > 0)


def test_sprt_llr_against_first_principles():
    for w, d, l, e0, e1 in [(300, 400, 250, 0, 10), (120, 160, 100, 0, 20), (100, 300, 120, -5, 5),
                            (3, 5, 9, 0, 50), (7, 0, 0, 0, 100), (0, 0, 4, 0, 100)]:
        assert stats.sprt_llr(w, d, l, e0, e1) == pytest.approx(reference_llr(w, d, l, e0, e1), rel=1e-9)
    # ... and that approximation is the trinomial GSPRT's for small Elo gaps and many games
    for w, d, l, e0, e1 in [(300, 400, 250, 0, 10), (120, 160, 100, 0, 20), (100, 300, 120, -5, 5)]:
        assert stats.sprt_llr(w, d, l, e0, e1) == pytest.approx(exact_gsprt_llr(w, d, l, e0, e1), rel=0.01)
    assert stats.sprt_bounds(0.05, 0.1) == pytest.approx((math.log(0.1 / 0.95), math.log(0.9 / 0.05)))


@pytest.mark.parametrize("decision,concurrency", [("H1", 1), ("H0", 2)])
def test_sprt_stops_early(decision, concurrency, stray_engines):
    """cellfish against a fake that always plays an illegal move: H1 (the first engine is
    ELO1 stronger) when cellfish is first, H0 when the fake is; at the first game that
    takes the LLR out of the bounds.  With two worker processes the runner stops the pool
    at once, and no engine is left."""
    engines = [cellfish("cf"), fake("illegal", after=0)]
    if decision == "H0":
        engines.reverse()
    cfg = MatchConfig("chess", engines, tc=TimeControl(depth=1), games=40, sprt=(0, 100, 0.1, 0.1),
                      max_plies=10, concurrency=concurrency)
    r = run_match(cfg)
    ps = r.pairs[(0, 1)]
    lo, hi = math.log(0.1 / 0.9), math.log(0.9 / 0.1)
    assert r.sprt["decision"] == decision
    assert (r.sprt["lower"], r.sprt["upper"]) == pytest.approx((lo, hi))
    assert r.sprt["llr"] == pytest.approx(reference_llr(ps.w, ps.d, ps.l, 0, 100))
    one_game_less = (ps.w - 1, 0, 0) if decision == "H1" else (0, 0, ps.l - 1)
    assert lo < reference_llr(*one_game_less, 0, 100) < hi
    assert (ps.w, ps.d, ps.l) == ((ps.n, 0, 0) if decision == "H1" else (0, 0, ps.n))
    assert len(r.records) == ps.n < 40
    assert f"{decision} accepted" in r.table()
    assert not stray_engines()


def test_sprt_on_the_command_line(tmp_path, stray_engines):
    out = tmp_path / "s.jsonl"
    p = subprocess.run(
        [*CELLFISH, "match", "--engine", f"cmd={sys.executable} {FAKE} ok", "name=good",
         "--engine", f"cmd={sys.executable} {FAKE} illegal 0", "name=bad", "--depth", "1",
         "--games", "40", "--sprt", "0", "100", "0.1", "0.1", "--records", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    recs = [json.loads(line) for line in open(out)]
    assert 1 < len(recs) < 40 and all(x["faulty"] == "bad" for x in recs)
    m = re.search(r"SPRT elo0=0 elo1=100 alpha=0.1 beta=0.1: LLR (\S+) \[(\S+), (\S+)\] "
                  r"-> H1 accepted", p.stdout)
    assert m, p.stdout
    llr, lo, hi = map(float, m.groups())
    assert llr == pytest.approx(reference_llr(len(recs), 0, 0, 0, 100), abs=0.005)
    assert (lo, hi) == pytest.approx((math.log(0.1 / 0.9), math.log(0.9 / 0.1)), abs=0.005)
    assert llr >= hi > reference_llr(len(recs) - 1, 0, 0, 0, 100)
    assert "good vs bad" in p.stdout and f"{len(recs)} games" in p.stdout
    assert not stray_engines()
