"""Intervals for one proportion: exact (Clopper-Pearson) for reporting, Wilson score as a building block.

The seed reports every proportion with an exact 95% interval (000 "Statistics": "Proportions carry
exact 95% intervals"); the Wilson score interval feeds Newcombe's difference intervals.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray
from statsmodels.stats.proportion import proportion_confint

from physbench.stats import _checks
from physbench.stats.results import Estimate, Interval


def clopper_pearson(k: int, n: int, alpha: float = 0.05) -> Interval:
    """Exact binomial interval for k/n; Clopper & Pearson (1934), beta quantiles (statsmodels "beta")."""
    k, n = _checks.successes(k, n)
    lo, hi = proportion_confint(k, n, alpha=_checks.alpha(alpha), method="beta")
    # the exact limits are 0 at k = 0 and 1 at k = n; pin them so that no rounding leaks through
    return Interval(0.0 if k == 0 else float(lo), 1.0 if k == n else float(hi))


def exact_proportion(k: int, n: int, alpha: float = 0.05) -> Estimate:
    """k/n with its Clopper-Pearson interval, as the seed's tables print it (e.g. 98.7 (95.3-99.8))."""
    lo, hi = clopper_pearson(k, n, alpha)
    return Estimate(k / n, lo, hi)


def wilson(k: int, n: int, alpha: float = 0.05) -> Interval:
    """Wilson (1927) score interval without continuity correction (Newcombe 1998, 17:857, method 3)."""
    k, n = _checks.successes(k, n)
    lo, hi = wilson_bounds(k, n, _checks.alpha(alpha))
    return Interval(float(lo), float(hi))


def wilson_bounds(k: ArrayLike, n: ArrayLike, alpha: float) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Vectorised Wilson score limits (statsmodels `proportion_confint`, method "wilson"); inputs unchecked."""
    k_arr = np.asarray(k, dtype=float)
    n_arr = np.asarray(n, dtype=float)
    lo, hi = proportion_confint(k_arr, n_arr, alpha=alpha, method="wilson")
    lo = np.where(k_arr == 0, 0.0, lo)
    hi = np.where(k_arr == n_arr, 1.0, hi)
    return np.asarray(lo, dtype=float), np.asarray(hi, dtype=float)
