"""Small named results shared by the statistics functions; each unpacks as a plain tuple."""

from __future__ import annotations

from typing import NamedTuple


class Interval(NamedTuple):
    """A confidence interval `(lo, hi)` on the scale of the estimate (proportions in [0, 1])."""

    lo: float
    hi: float


class Estimate(NamedTuple):
    """A point estimate with its interval: `value, lo, hi = ...`."""

    value: float
    lo: float
    hi: float


class Diff(NamedTuple):
    """A difference `d` (first minus second) with its interval: `d, lo, hi = ...`."""

    d: float
    lo: float
    hi: float
