"""Exact (Clopper-Pearson) binomial intervals for accuracies, in pure Python.

Clopper & Pearson (1934), Biometrika 26:404: the bounds are Beta quantiles,
lo = B(a/2; k, n-k+1), hi = B(1-a/2; k+1, n-k). The quantile is found by bisection on the
regularized incomplete beta function, evaluated by its continued fraction (Numerical Recipes,
3rd ed., section 6.4, eq. 6.4.5, with Lentz's method). scipy.special.betaincinv gives the same
numbers (a test compares them); this module avoids importing scipy (about 0.4 s) on the path of
every `physbench eval`, whose summary needs a few intervals.
"""

from __future__ import annotations

import math

_EPS = 1e-15
_TINY = 1e-300


def _beta_cf(a: float, b: float, x: float) -> float:
    """The continued fraction of I_x(a, b) (Lentz's method)."""
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > _TINY else _TINY)
    h = d
    for m in range(1, 10_000):
        m2 = 2 * m
        for aa in (m * (b - m) * x / ((qam + m2) * (a + m2)), -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))):
            d = 1.0 + aa * d
            d = 1.0 / (d if abs(d) > _TINY else _TINY)
            c = 1.0 + aa / c
            c = c if abs(c) > _TINY else _TINY
            h *= d * c
        if abs(d * c - 1.0) < _EPS:
            break
    return h


def beta_cdf(x: float, a: float, b: float) -> float:
    """The regularized incomplete beta function I_x(a, b) for a, b > 0."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    if x < (a + 1.0) / (a + b + 2.0):  # the fraction converges fast here; else use the symmetry
        return math.exp(log_front) * _beta_cf(a, b, x) / a
    return 1.0 - math.exp(log_front) * _beta_cf(b, a, 1.0 - x) / b


def beta_quantile(q: float, a: float, b: float) -> float:
    """x with I_x(a, b) = q, by bisection to double precision."""
    lo, hi = 0.0, 1.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if mid in (lo, hi):
            break
        if beta_cdf(mid, a, b) < q:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def exact_interval(k: int, n: int, confidence: float = 0.95) -> tuple[float | None, float | None]:
    """Two-sided exact interval for k successes in n trials; (None, None) when n is 0."""
    if n <= 0:
        return None, None
    if not 0 <= k <= n:
        raise ValueError(f"k={k} outside 0..n={n}")
    alpha = 1.0 - confidence
    lo = 0.0 if k == 0 else beta_quantile(alpha / 2, k, n - k + 1)
    hi = 1.0 if k == n else beta_quantile(1 - alpha / 2, k + 1, n - k)
    return lo, hi
