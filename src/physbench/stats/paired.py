"""Paired differences of proportions (the same items under two conditions) and their combination.

The seed compares the worksheet and result formats on the same cases: each of detection and
false alarms changes by a paired difference with Newcombe's paired score interval, and the change
in Youden's J joins the two by the method of variance estimates recovery (000 "Statistics").
"""

from __future__ import annotations

import math
from typing import Iterable, NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from physbench.stats import _checks
from physbench.stats.proportions import wilson_bounds
from physbench.stats.results import Diff


class PairedCounts(NamedTuple):
    """A paired 2x2 table: items positive under both conditions, only the first, only the second, neither."""

    both: int
    first_only: int
    second_only: int
    neither: int

    @property
    def n(self) -> int:
        return self.both + self.first_only + self.second_only + self.neither

    @classmethod
    def from_outcomes(cls, first: Iterable[bool], second: Iterable[bool]) -> "PairedCounts":
        """Count the four cells from two equally long sequences of yes/no outcomes on the same items."""
        x = [_as_bool(v, "first") for v in first]
        y = [_as_bool(v, "second") for v in second]
        if len(x) != len(y):
            raise ValueError(f"paired outcomes differ in length: {len(x)} and {len(y)}")
        both = sum(1 for a, b in zip(x, y) if a and b)
        first_only = sum(1 for a, b in zip(x, y) if a and not b)
        second_only = sum(1 for a, b in zip(x, y) if b and not a)
        return cls(both, first_only, second_only, len(x) - both - first_only - second_only)


def _as_bool(value: object, name: str) -> bool:
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)) and value in (0, 1):
        return bool(value)
    raise ValueError(f"{name} outcomes must be True/False (or 1/0), got {value!r}")


def _checked(table: PairedCounts | tuple[int, int, int, int]) -> PairedCounts:
    if len(table) != 4:
        raise ValueError(f"a paired table has four cells, got {len(table)}")
    names = PairedCounts._fields
    cells = PairedCounts(*(_checks.count(v, name) for v, name in zip(table, names)))
    if cells.n == 0:
        raise ValueError("a paired table needs at least one item")
    return cells


def newcombe_paired_diff(table: PairedCounts | tuple[int, int, int, int], alpha: float = 0.05) -> Diff:
    """p_first - p_second on the same items, Newcombe's paired square-and-add score interval (Newcombe 1998, 17:2635, method 10)."""
    cells = _checked(table)
    d, lo, hi = paired_bounds(*(np.array([v]) for v in cells), alpha=_checks.alpha(alpha))
    return Diff(float(d[0]), float(lo[0]), float(hi[0]))


def paired_bounds(
    a: ArrayLike, b: ArrayLike, c: ArrayLike, e: ArrayLike, alpha: float
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """Vectorised Newcombe paired limits for cells (both, first only, second only, neither); inputs unchecked."""
    a, b, c, e = (np.asarray(v, dtype=float) for v in (a, b, c, e))
    n = a + b + c + e
    x1, x2 = a + b, a + c                          # positives under the first and the second condition
    p1, p2 = x1 / n, x2 / n
    l1, u1 = wilson_bounds(x1, n, alpha)
    l2, u2 = wilson_bounds(x2, n, alpha)
    # phi: the correlation of the two marginal proportions, with Newcombe's correction of the
    # product difference towards zero by n/2 (set to 0 when it lies in [0, n/2]); 0 if a margin is empty
    margins = x1 * (n - x1) * x2 * (n - x2)
    product = a * e - b * c
    corrected = np.where(product > n / 2, product - n / 2, np.where(product < 0, product, 0.0))
    with np.errstate(divide="ignore", invalid="ignore"):
        phi = np.where(margins > 0, corrected / np.sqrt(np.where(margins > 0, margins, 1.0)), 0.0)
    d = p1 - p2
    dl1, du2 = p1 - l1, u2 - p2
    dl2, du1 = p2 - l2, u1 - p1
    lo = d - np.sqrt(np.maximum(dl1**2 - 2 * phi * dl1 * du2 + du2**2, 0.0))
    hi = d + np.sqrt(np.maximum(dl2**2 - 2 * phi * dl2 * du1 + du1**2, 0.0))
    return d, np.maximum(lo, -1.0), np.minimum(hi, 1.0)


def mover_diff(first: Diff | tuple[float, float, float], second: Diff | tuple[float, float, float]) -> Diff:
    """theta1 - theta2 for two independent estimates with intervals, MOVER (Zou & Donner 2008, Stat Methods Med Res 17:43)."""
    d1, l1, u1 = (float(v) for v in first)
    d2, l2, u2 = (float(v) for v in second)
    for d, lo, hi, name in ((d1, l1, u1, "first"), (d2, l2, u2, "second")):
        if not (math.isfinite(d) and math.isfinite(lo) and math.isfinite(hi) and lo <= d <= hi):
            raise ValueError(f"{name} estimate must lie inside its finite interval, got ({d}, {lo}, {hi})")
    d = d1 - d2
    lo = d - math.sqrt((d1 - l1) ** 2 + (u2 - d2) ** 2)
    hi = d + math.sqrt((u1 - d1) ** 2 + (d2 - l2) ** 2)
    return Diff(d, lo, hi)


def delta_youden(
    detection: PairedCounts | tuple[int, int, int, int],
    false_alarms: PairedCounts | tuple[int, int, int, int],
    alpha: float = 0.05,
    comparisons: int = 1,
) -> Diff:
    """Delta J = J_first - J_second on the same items: two Newcombe paired differences joined by MOVER; Bonferroni over `comparisons`.

    `detection` pairs the planted items (flagged under the first format, the second), `false_alarms`
    the correct items; planted and correct items are disjoint, so the two differences are independent.
    """
    a = _checks.alpha(alpha)
    m = _checks.count(comparisons, "comparisons")
    if m < 1:
        raise ValueError("comparisons must be at least 1")
    ds = newcombe_paired_diff(detection, a / m)
    df = newcombe_paired_diff(false_alarms, a / m)
    return mover_diff(ds, df)
