"""Agreement and repeatability: Cohen's kappa, repeated runs of the same items, consistency over runs.

Seed 000 Table 14 compares two runs of the same items (accuracy in each, exact McNemar p, Cohen's
kappa, items failed again); seed 002 counts a problem as consistently solved when at least k of
its n runs are correct (4 of 5 there).
"""

from __future__ import annotations

import math
from typing import Hashable, NamedTuple, Sequence

import numpy as np
from numpy.typing import ArrayLike
from statsmodels.stats.inter_rater import cohens_kappa

from physbench.stats import _checks
from physbench.stats.paired import PairedCounts
from physbench.stats.tests_exact import mcnemar_exact


def cohen_kappa(first: Sequence[Hashable], second: Sequence[Hashable]) -> float:
    """Cohen's (1960) kappa between two ratings of the same items (statsmodels); NaN when chance agreement is total."""
    if len(first) != len(second):
        raise ValueError(f"ratings differ in length: {len(first)} and {len(second)}")
    if not first:
        raise ValueError("kappa needs at least one rated item")
    labels = sorted(set(first) | set(second), key=repr)
    where = {label: i for i, label in enumerate(labels)}
    table = np.zeros((len(labels), len(labels)))
    for x, y in zip(first, second):
        table[where[x], where[y]] += 1
    n = table.sum()
    chance = float((table.sum(axis=0) * table.sum(axis=1)).sum() / n**2)
    if math.isclose(chance, 1.0):
        return math.nan
    return float(cohens_kappa(table, return_results=False))


class RepeatRuns(NamedTuple):
    """Two runs of the same items (seed 000 Table 14): accuracy in each, exact McNemar p, kappa, repeat failures."""

    n: int
    first_rate: float
    second_rate: float
    pvalue: float
    kappa: float
    failed_first: int
    failed_again: int


def repeat_runs(first: Sequence[bool], second: Sequence[bool]) -> RepeatRuns:
    """Compare pass/fail of the same items in two runs: McNemar exact p and Cohen's kappa (seed 000 Table 14)."""
    cells = PairedCounts.from_outcomes(first, second)
    if cells.n == 0:
        raise ValueError("repeat runs need at least one item answered in both")
    failed_first = cells.second_only + cells.neither
    return RepeatRuns(
        n=cells.n,
        first_rate=(cells.both + cells.first_only) / cells.n,
        second_rate=(cells.both + cells.second_only) / cells.n,
        pvalue=mcnemar_exact(cells.first_only, cells.second_only),
        kappa=cohen_kappa([bool(v) for v in first], [bool(v) for v in second]),
        failed_first=failed_first,
        failed_again=cells.neither,
    )


class Consistency(NamedTuple):
    """Items solved in at least k of n runs (seed 002 "consistently solved"), beside the mean accuracy."""

    k: int
    runs: int
    items: int
    solved: int
    share: float
    mean_accuracy: float


def consistency(outcomes: ArrayLike, k: int) -> Consistency:
    """Share of items correct in at least k of their n runs, and accuracy averaged over runs (seed 002, Sec. 4.3: 4 of 5)."""
    grid = np.asarray(outcomes)
    if grid.ndim != 2 or grid.shape[0] == 0 or grid.shape[1] == 0:
        raise ValueError("outcomes must be a non-empty items x runs table")
    if grid.dtype != bool:
        if not np.isin(grid, (0, 1)).all():
            raise ValueError("outcomes must be True/False (or 1/0)")
        grid = grid.astype(bool)
    runs = grid.shape[1]
    k = _checks.count(k, "k")
    if not 1 <= k <= runs:
        raise ValueError(f"k must be between 1 and the number of runs ({runs}), got {k}")
    solved = int((grid.sum(axis=1) >= k).sum())
    return Consistency(k, runs, grid.shape[0], solved, solved / grid.shape[0], float(grid.mean()))
