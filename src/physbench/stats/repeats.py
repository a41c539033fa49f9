"""Repeated runs over seeds: accuracy with its seed standard deviation, and agreement across seeds.

Seed 003 runs every arm at five seeds (42-46) and reports accuracy as the mean over seeds with the
seed standard deviation beside it (Tables 1, 3, 4), and how often the seeds agree on a case
(Table 24): "Agree" is the share of cases that every seed scores alike, "Pairwise" the mean over the
seed pairs (ten for five seeds) of the share of cases a pair scores alike, and "Right" / "Wrong" the
shares of cases right, or wrong, in every seed (so Agree = Right + Wrong).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray


class SeedAccuracy(NamedTuple):
    """Mean accuracy over seeds, its sample standard deviation over seeds (NaN for one seed), per-seed accuracy."""

    mean: float
    sd: float
    seeds: int
    per_seed: tuple[float, ...]


def seed_accuracy(outcomes: ArrayLike) -> SeedAccuracy:
    """Accuracy of each seed (column) over its cases, their mean, and their sample SD (n - 1 divisor; seed 003 Table 3).

    `outcomes` is cases x seeds (True/False, 1/0 or scores); NaN marks a case a seed did not run,
    which leaves that seed's accuracy over the cases it ran.
    """
    grid = _table(outcomes, allow_missing=True)
    observed = ~np.isnan(grid)
    if not observed.any(axis=0).all():
        raise ValueError("every seed needs at least one observed case")
    per_seed = np.where(observed, grid, 0.0).sum(axis=0) / observed.sum(axis=0)
    sd = float(np.std(per_seed, ddof=1)) if per_seed.size > 1 else math.nan
    return SeedAccuracy(float(per_seed.mean()), sd, int(per_seed.size), tuple(float(v) for v in per_seed))


class SeedAgreement(NamedTuple):
    """Agreement across seeds as seed 003 Table 24 reports it, as shares in [0, 1]."""

    cases: int
    seeds: int
    agree: float        # every seed scores the case alike
    pairwise: float     # mean over seed pairs of the share of cases the pair scores alike
    right: float        # right in every seed
    wrong: float        # wrong in every seed


def seed_agreement(outcomes: ArrayLike) -> SeedAgreement:
    """Share of cases all seeds score alike, the mean pairwise agreement, and the unanimous right / wrong shares (seed 003 Table 24).

    `outcomes` is cases x seeds of right/wrong (True/False or 1/0), complete, with at least two seeds.
    The pairwise share is computed per case as [C(r, 2) + C(s - r, 2)] / C(s, 2) for r right out of s
    seeds, which equals the mean over the C(s, 2) seed pairs.
    """
    grid = _table(outcomes, allow_missing=False)
    if not np.isin(grid, (0.0, 1.0)).all():
        raise ValueError("agreement across seeds needs right/wrong outcomes (True/False or 1/0)")
    cases, seeds = grid.shape
    if seeds < 2:
        raise ValueError("agreement across seeds needs at least two seeds")
    right = grid.sum(axis=1)
    wrong = seeds - right
    pairs = seeds * (seeds - 1) / 2
    pairwise = (right * (right - 1) / 2 + wrong * (wrong - 1) / 2) / pairs
    all_right = float((right == seeds).mean())
    all_wrong = float((right == 0).mean())
    return SeedAgreement(cases, seeds, all_right + all_wrong, float(pairwise.mean()), all_right, all_wrong)


def _table(outcomes: ArrayLike, *, allow_missing: bool) -> NDArray[np.float64]:
    try:
        grid = np.asarray(outcomes, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"outcomes must be numbers or True/False: {exc}") from None
    if grid.ndim != 2 or grid.shape[0] == 0 or grid.shape[1] == 0:
        raise ValueError("outcomes must be a non-empty cases x seeds table")
    if np.isinf(grid).any() or (not allow_missing and np.isnan(grid).any()):
        raise ValueError("outcomes must be finite" + ("" if allow_missing else " and complete (no NaN)"))
    return grid
