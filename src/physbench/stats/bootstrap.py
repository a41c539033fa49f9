"""Percentile bootstrap intervals that resample cases, patients or clusters, with repeated runs kept together.

A case's repeated runs (seeds) are one resampling unit: the row of a case travels whole. Seed 003
resamples calculators ("calculator-cluster bootstrap", 10,000 draws) and pools every case-seed of
the drawn calculators; seed 001 resamples patients and weights each patient equally (patient means).
"""

from __future__ import annotations

from typing import Hashable, Literal, Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

from physbench.stats import _checks
from physbench.stats.results import Estimate

Weighting = Literal["pooled", "cluster"]
_CHUNK_CELLS = 2_000_000  # draws x clusters held in memory at once


def case_bootstrap(
    values: ArrayLike, *, n_boot: int = 10_000, alpha: float = 0.05, seed: int | np.random.Generator = 0
) -> Estimate:
    """Mean over cases and runs with a percentile interval from resampling cases (Efron 1979); runs of a case stay together.

    `values` is cases x runs (or one value per case); NaN marks a run that a case lacks.
    """
    grid = _grid(values)
    return cluster_bootstrap(grid, np.arange(grid.shape[0]), n_boot=n_boot, alpha=alpha, seed=seed)


def cluster_bootstrap(
    values: ArrayLike,
    clusters: Sequence[Hashable] | ArrayLike,
    *,
    weighting: Weighting = "pooled",
    n_boot: int = 10_000,
    alpha: float = 0.05,
    seed: int | np.random.Generator = 0,
) -> Estimate:
    """Percentile interval from resampling whole clusters (calculators, patients), all their cases and runs together (seed 003 Table 2).

    `weighting="pooled"` averages every case-run of the drawn clusters (seed 003); `"cluster"` averages
    within each cluster first and weights clusters equally (seed 001's patient means).
    """
    grid = _grid(values)
    which = _cluster_index(clusters, grid.shape[0])
    if weighting not in ("pooled", "cluster"):
        raise ValueError(f"weighting must be 'pooled' or 'cluster', got {weighting!r}")
    n_boot = _checks.count(n_boot, "n_boot")
    if n_boot < 1:
        raise ValueError("n_boot must be at least 1")
    a = _checks.alpha(alpha)

    observed = ~np.isnan(grid)
    sums = np.bincount(which, weights=np.where(observed, grid, 0.0).sum(axis=1))
    counts = np.bincount(which, weights=observed.sum(axis=1).astype(float))
    if (counts == 0).any():
        raise ValueError("every cluster needs at least one observed value")
    means = sums / counts
    estimate = sums.sum() / counts.sum() if weighting == "pooled" else means.mean()

    rng = _checks.generator(seed)
    k = sums.shape[0]
    draws = np.empty(n_boot)
    chunk = max(1, _CHUNK_CELLS // k)
    for start in range(0, n_boot, chunk):
        size = min(chunk, n_boot - start)
        picks = rng.integers(0, k, size=(size, k))
        if weighting == "pooled":
            draws[start:start + size] = sums[picks].sum(axis=1) / counts[picks].sum(axis=1)
        else:
            draws[start:start + size] = means[picks].mean(axis=1)
    lo, hi = np.quantile(draws, [a / 2, 1 - a / 2])
    return Estimate(float(estimate), float(lo), float(hi))


def patient_bootstrap(
    values: ArrayLike, patients: Sequence[Hashable] | ArrayLike, *, n_boot: int = 10_000,
    alpha: float = 0.05, seed: int | np.random.Generator = 0,
) -> Estimate:
    """Patient-weighted mean with a patient-bootstrap percentile interval (seed 001, Fig. 2: patients weighted equally)."""
    return cluster_bootstrap(values, patients, weighting="cluster", n_boot=n_boot, alpha=alpha, seed=seed)


def _cluster_index(clusters: Sequence[Hashable] | ArrayLike, cases: int) -> NDArray[np.intp]:
    """Number the clusters in order of first appearance, so the draws do not depend on how labels sort."""
    labels = clusters.tolist() if isinstance(clusters, np.ndarray) else list(clusters)  # type: ignore[arg-type]
    if len(labels) != cases:
        raise ValueError(f"need one cluster label per case: {cases} cases, {len(labels)} labels")
    index: dict[Hashable, int] = {}
    try:
        return np.array([index.setdefault(label, len(index)) for label in labels], dtype=np.intp)
    except TypeError:
        raise ValueError("cluster labels must be hashable (names or numbers)") from None


def _grid(values: ArrayLike) -> NDArray[np.float64]:
    try:
        grid = np.asarray(values, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"values must be numbers: {exc}") from None
    if grid.ndim == 1:
        grid = grid[:, None]
    if grid.ndim != 2 or grid.shape[0] == 0 or grid.shape[1] == 0:
        raise ValueError("values must be a non-empty cases x runs table")
    if np.isinf(grid).any():
        raise ValueError("values must be finite (NaN marks a missing run)")
    if np.isnan(grid).all(axis=1).any():
        raise ValueError("every case needs at least one observed run")
    return grid
