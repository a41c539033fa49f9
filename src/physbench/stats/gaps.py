"""Paired gaps between two arms run on the same cases and seeds, with case and cluster bootstraps.

Seed 003 (Sec. 2 "Statistics", Tables 2 and 7): cases nest in 55 calculators and recur over five
seeds, so the primary interval resamples calculators (10,000 draws, percentile 95%, the seeds of a
case kept together); a case bootstrap, a sign-flip permutation p on seed-averaged per-case
differences, the intraclass correlation of those differences within calculators and the effective
sample size are secondary. `paired_gaps` gives one row of Table 7; Holm within a family is
`physbench.stats.holm` over the rows' `pvalue`.

Inputs are cases x seeds tables of correctness (True/False, 1/0, or any score) for arm A and arm B,
in the same case and seed order; NaN marks a seed a case lacks, and a case-seed counts only where
both arms have it. The gap is A minus B.
"""

from __future__ import annotations

from typing import Hashable, NamedTuple, Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

from physbench.stats.bootstrap import _cluster_index, _grid, cluster_bootstrap
from physbench.stats.icc import ICC, icc_oneway
from physbench.stats.permutation import SignFlip, sign_flip


class PairedGap(NamedTuple):
    """Mean gap (A - B) over every case-seed pair with its percentile interval: `gap, lo, hi, *_ = ...`."""

    gap: float
    lo: float
    hi: float
    n_boot: int     # bootstrap draws behind the interval
    cases: int
    clusters: int   # resampling units (equal to `cases` for the case bootstrap)


def paired_differences(first: ArrayLike, second: ArrayLike) -> NDArray[np.float64]:
    """Per case-seed gap A - B as a cases x seeds table (NaN where either arm lacks the seed); checks both tables."""
    a, b = _grid(first), _grid(second)
    if a.shape != b.shape:
        raise ValueError(f"the two arms differ in shape: {a.shape} and {b.shape} (cases x seeds, same order)")
    gap = a - b
    unpaired = np.isnan(gap).all(axis=1)
    if unpaired.any():
        case = int(np.flatnonzero(unpaired)[0])
        raise ValueError(f"case {case} has no seed observed in both arms")
    return gap


def paired_cluster_bootstrap(
    first: ArrayLike,
    second: ArrayLike,
    clusters: Sequence[Hashable] | ArrayLike,
    *,
    n_boot: int = 10_000,
    alpha: float = 0.05,
    seed: int | np.random.Generator = 0,
) -> PairedGap:
    """Gap A - B with a percentile interval from resampling whole clusters (seed 003 Table 2, calculator-cluster bootstrap).

    Each draw takes k clusters with replacement out of the k observed and pools every case-seed
    pair of the drawn clusters (a case's seeds, and a cluster's cases, travel together).
    """
    gap = paired_differences(first, second)
    which = _cluster_index(clusters, gap.shape[0])
    k = int(which.max()) + 1
    if k < 2:
        raise ValueError("a cluster bootstrap needs at least two clusters (one cluster gives no interval)")
    value, lo, hi = cluster_bootstrap(gap, which, weighting="pooled", n_boot=n_boot, alpha=alpha, seed=seed)
    return PairedGap(value, lo, hi, int(n_boot), gap.shape[0], k)


def paired_case_bootstrap(
    first: ArrayLike,
    second: ArrayLike,
    *,
    n_boot: int = 10_000,
    alpha: float = 0.05,
    seed: int | np.random.Generator = 0,
) -> PairedGap:
    """Gap A - B with a percentile interval from resampling cases, each with all its seeds (seed 003 Table 7, case CI; Efron 1979)."""
    gap = paired_differences(first, second)
    if gap.shape[0] < 2:
        raise ValueError("a case bootstrap needs at least two cases (one case gives no interval)")
    value, lo, hi = cluster_bootstrap(gap, np.arange(gap.shape[0]), n_boot=n_boot, alpha=alpha, seed=seed)
    return PairedGap(value, lo, hi, int(n_boot), gap.shape[0], gap.shape[0])


def seed_averaged_differences(first: ArrayLike, second: ArrayLike) -> NDArray[np.float64]:
    """Each case's gap averaged over the seeds both arms have (the unit of the permutation test and the ICC)."""
    return np.nanmean(paired_differences(first, second), axis=1)


def paired_sign_flip(
    first: ArrayLike, second: ArrayLike, *, n_perm: int = 10_000, seed: int | np.random.Generator = 0
) -> SignFlip:
    """Sign-flip test on the seed-averaged per-case differences A - B (seed 003 Table 7, "Perm. p")."""
    return sign_flip(seed_averaged_differences(first, second), n_perm=n_perm, seed=seed)


class GapRow(NamedTuple):
    """One row of seed 003 Table 7: n, gap, permutation p, case and cluster intervals, ICC, effective n."""

    cases: int
    gap: float
    pvalue: float
    case: PairedGap
    cluster: PairedGap
    permutation: SignFlip
    icc: ICC


def paired_gaps(
    first: ArrayLike,
    second: ArrayLike,
    clusters: Sequence[Hashable] | ArrayLike,
    *,
    n_boot: int = 10_000,
    n_perm: int = 10_000,
    alpha: float = 0.05,
    seed: int = 0,
) -> GapRow:
    """Every paired statistic of a seed 003 Table 7 row for arm A against arm B on the same cases and seeds.

    Each part uses its own generator seeded with `seed`, so each equals its function run alone.
    The permutation p and the ICC use the seed-averaged per-case gaps; the effective n comes from
    the ICC of those gaps within clusters (`physbench.stats.icc_oneway`).
    """
    gap = paired_differences(first, second)
    per_case = np.nanmean(gap, axis=1)
    cluster = paired_cluster_bootstrap(first, second, clusters, n_boot=n_boot, alpha=alpha, seed=seed)
    case = paired_case_bootstrap(first, second, n_boot=n_boot, alpha=alpha, seed=seed)
    test = sign_flip(per_case, n_perm=n_perm, seed=seed)
    icc = icc_oneway(per_case, _cluster_index(clusters, gap.shape[0]))
    return GapRow(gap.shape[0], cluster.gap, test.pvalue, case, cluster, test, icc)
