"""Intraclass correlation within clusters (one-way ANOVA estimator) and the effective sample size it implies.

Seed 003 Table 7 reports, for each paired gap, the ICC of the per-case differences within
calculators and the effective number of cases n_eff = n / (1 + (m - 1) ICC): cases of one
calculator move together, so 1,100 cases carry the information of 67 to 390 independent ones.

ICC(1), the ANOVA estimator of the one-way random-effects model, for k clusters of sizes n_i
(N in all), valid for continuous and binary outcomes (Donner 1986, Int Stat Rev 54:67, Sec. 3;
Ridout, Demetrio & Firth 1999, Biometrics 55:137, the estimator they recommend for binary data):

    ICC = (MSB - MSW) / (MSB + (n0 - 1) MSW),   n0 = (N - sum(n_i^2) / N) / (k - 1)

with MSB and MSW the between- and within-cluster mean squares; n0 is the coefficient of the
between-cluster variance in E[MSB] and equals the common size when clusters are equal.

The design effect of a mean over all N units with exchangeable correlation rho inside a cluster is
1 + (m_w - 1) rho with m_w = sum(n_i^2) / N, the size-weighted mean cluster size: it follows from
Var(mean) = sigma^2 / N^2 * sum n_i (1 + (n_i - 1) rho). With equal sizes it is Kish's 1 + (m - 1) rho
(Kish 1965, Survey Sampling, Ch. 5); with unequal sizes it is the form 1 + ((cv^2 + 1) m - 1) rho, m the
mean size and cv the coefficient of variation of the sizes (Eldridge, Ashby & Kerry 2006, Int J
Epidemiol 35:1292), with cv taken over the observed clusters (population SD).
"""

from __future__ import annotations

import math
from typing import Hashable, NamedTuple, Sequence

import numpy as np
from numpy.typing import ArrayLike

from physbench.stats.bootstrap import _cluster_index


class ICC(NamedTuple):
    """ICC(1) with its ANOVA parts, the design effect and the effective sample size (NaN where undefined)."""

    icc: float
    n: int                  # units (cases)
    clusters: int
    n0: float               # adjusted cluster size of the ANOVA estimator
    msb: float
    msw: float
    mean_size: float        # m_w = sum(n_i^2) / N, the cluster size of the design effect
    design_effect: float    # 1 + (m_w - 1) max(ICC, 0)
    n_eff: float            # n / design_effect


def icc_oneway(values: ArrayLike, clusters: Sequence[Hashable] | ArrayLike) -> ICC:
    """One-way ANOVA ICC(1) for unequal cluster sizes (Donner 1986) with the design effect and effective n.

    `values` holds one number per unit (1/0 correctness, a per-case gap); a units x runs table is
    first averaged over its runs (NaN ignored), so the unit stays the case as in seed 003 Table 7.
    The ICC is returned as estimated, negative values included; the design effect reads a negative
    estimate as 0 (under the random-effects model rho >= 0), so n_eff never exceeds n. When every
    value is the same, the ICC is undefined: NaN, and so are the design effect and n_eff.
    """
    y = _units(values)
    which = _cluster_index(clusters, y.size)
    k = int(which.max()) + 1
    n = y.size
    if k < 2:
        raise ValueError("an intraclass correlation needs at least two clusters")
    if n == k:
        raise ValueError("an intraclass correlation needs a cluster with two or more units (every cluster has one)")
    sizes = np.bincount(which).astype(float)
    means = np.bincount(which, weights=y) / sizes
    grand = y.mean()
    ssb = float((sizes * (means - grand) ** 2).sum())
    ssw = float(((y - means[which]) ** 2).sum())
    msb, msw = ssb / (k - 1), ssw / (n - k)
    n0 = (n - float((sizes**2).sum()) / n) / (k - 1)
    mean_size = float((sizes**2).sum()) / n
    if float(np.ptp(y)) == 0.0 or msb + (n0 - 1.0) * msw == 0.0:  # no variation (or so little that its
        return ICC(math.nan, n, k, n0, msb, msw, mean_size, math.nan, math.nan)  # squares underflow): 0 / 0
    icc = (msb - msw) / (msb + (n0 - 1.0) * msw)  # n0 > 1 once a cluster has two units, so this is > 0
    deff = design_effect(max(icc, 0.0), mean_size)
    return ICC(icc, n, k, n0, msb, msw, mean_size, deff, n / deff)


def design_effect(icc: float, mean_size: float) -> float:
    """1 + (m - 1) rho: variance of a clustered mean over that of a simple random sample of the same size (Kish 1965, Ch. 5)."""
    rho, m = float(icc), float(mean_size)
    if not (math.isfinite(rho) and math.isfinite(m)) or m < 1.0:
        raise ValueError(f"need a finite ICC and a mean cluster size of at least 1, got {icc!r} and {mean_size!r}")
    deff = 1.0 + (m - 1.0) * rho
    if deff <= 0.0:
        raise ValueError(f"ICC {rho} with cluster size {m} gives a design effect of {deff}, not positive")
    return deff


def effective_n(n: float, icc: float, mean_size: float) -> float:
    """n / (1 + (m - 1) ICC): the number of independent units a clustered sample of n is worth (seed 003 Table 7, n_eff)."""
    if not (math.isfinite(float(n)) and float(n) > 0):
        raise ValueError(f"n must be a positive number, got {n!r}")
    return float(n) / design_effect(icc, mean_size)


def _units(values: ArrayLike) -> np.ndarray:
    try:
        y = np.asarray(values, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"values must be numbers: {exc}") from None
    if y.ndim == 2 and y.shape[1] > 0:
        if np.isnan(y).all(axis=1).any():
            raise ValueError("every unit needs at least one observed run")
        y = np.nanmean(y, axis=1)
    if y.ndim != 1 or y.size == 0:
        raise ValueError("values must be a non-empty list (one number per unit) or a units x runs table")
    if not np.isfinite(y).all():
        raise ValueError("values must be finite")
    return y
