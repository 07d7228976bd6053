"""Match statistics: Elo difference with a 95% margin, likelihood of superiority, SPRT.

Elo from the score fraction with the logistic model; its error from the per-game score
variance (trinomial W/D/L), as cutechess-cli reports it.  LOS from the normal approximation
of wins against losses.  SPRT: the generalised (trinomial) log-likelihood ratio of
Van den Bergh's approximation, with the usual Wald bounds.
"""
from __future__ import annotations

import math


def elo_from_score(p: float) -> float:
    if p <= 0.0:
        return -math.inf
    if p >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / p - 1.0)


def score_of(elo: float) -> float:
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_and_margin(w: int, d: int, l: int) -> tuple[float, float]:
    """Elo difference of the side with these W/D/L and its 95% margin (nan if undefined)."""
    n = w + d + l
    if n == 0:
        return math.nan, math.nan
    p = (w + 0.5 * d) / n
    elo = elo_from_score(p)
    var = (w * (1 - p) ** 2 + d * (0.5 - p) ** 2 + l * p ** 2) / n
    se = math.sqrt(var / n)
    if p <= 0.0 or p >= 1.0:
        return elo, math.nan
    lo, hi = p - 1.959964 * se, p + 1.959964 * se
    if se == 0.0:
        return elo, 0.0
    if lo <= 0.0 or hi >= 1.0:
        return elo, math.inf
    return elo, (elo_from_score(hi) - elo_from_score(lo)) / 2.0


def los(w: int, l: int) -> float:
    """Likelihood of superiority (0..1): probability that the true strength is higher."""
    if w + l == 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((w - l) / math.sqrt(2.0 * (w + l))))


def sprt_llr(w: int, d: int, l: int, elo0: float, elo1: float) -> float:
    n = w + d + l
    if n == 0:
        return 0.0
    # regularise so that a one-sided start does not give a zero variance
    w_, d_, l_ = w + 0.5, d + 0.5, l + 0.5
    n_ = w_ + d_ + l_
    x = (w_ + 0.5 * d_) / n_
    var = (w_ * (1 - x) ** 2 + d_ * (0.5 - x) ** 2 + l_ * x ** 2) / n_
    if var <= 0:
        return 0.0
    s0, s1 = score_of(elo0), score_of(elo1)
    return n * (s1 - s0) * (2 * x - s0 - s1) / (2 * var)


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def sprt_state(w: int, d: int, l: int, elo0, elo1, alpha, beta):
    """(llr, lower, upper, decision) with decision 'H1', 'H0' or None (go on)."""
    llr = sprt_llr(w, d, l, elo0, elo1)
    lo, hi = sprt_bounds(alpha, beta)
    dec = "H1" if llr >= hi else ("H0" if llr <= lo else None)
    return llr, lo, hi, dec


def fmt_elo(x: float) -> str:
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return f"{x + 0.0:+.1f}"


def fmt_margin(x: float) -> str:
    if math.isnan(x):
        return "-"
    return "inf" if math.isinf(x) else f"{x:.1f}"
