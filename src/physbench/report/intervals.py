"""Exact (Clopper-Pearson) binomial intervals for accuracies.

Clopper & Pearson (1934), Biometrika 26:404: the bounds are Beta quantiles,
lo = B(a/2; k, n-k+1), hi = B(1-a/2; k+1, n-k). The statistics package will offer the same
method with more; this keeps the basic report self-contained.
"""

from __future__ import annotations

from scipy.special import betaincinv  # the Beta quantile, without importing scipy.stats


def exact_interval(k: int, n: int, confidence: float = 0.95) -> tuple[float | None, float | None]:
    """Two-sided exact interval for k successes in n trials; (None, None) when n is 0."""
    if n <= 0:
        return None, None
    if not 0 <= k <= n:
        raise ValueError(f"k={k} outside 0..n={n}")
    alpha = 1.0 - confidence
    lo = 0.0 if k == 0 else float(betaincinv(k, n - k + 1, alpha / 2))
    hi = 1.0 if k == n else float(betaincinv(k + 1, n - k, 1 - alpha / 2))
    return lo, hi
