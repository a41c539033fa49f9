"""Differences of two independent proportions: Newcombe's hybrid score interval and Youden's J.

Detection (planted errors judged incorrect) and false alarms (correct calculations judged
incorrect) come from disjoint items, so J = detection - false alarms is a difference of two
independent proportions (000 "Statistics").
"""

from __future__ import annotations

import math

from physbench.stats import _checks
from physbench.stats.proportions import wilson_bounds
from physbench.stats.results import Diff


def newcombe_diff(k1: int, n1: int, k2: int, n2: int, alpha: float = 0.05) -> Diff:
    """k1/n1 - k2/n2 with Newcombe's hybrid score interval (Newcombe 1998, 17:873, method 10)."""
    k1, n1 = _checks.successes(k1, n1, "k1", "n1")
    k2, n2 = _checks.successes(k2, n2, "k2", "n2")
    a = _checks.alpha(alpha)
    p1, p2 = k1 / n1, k2 / n2
    (l1, l2), (u1, u2) = wilson_bounds([k1, k2], [n1, n2], a)
    d = p1 - p2
    # square-and-add: each limit combines the nearer-side distances of the two Wilson intervals
    lo = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    hi = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return Diff(d, max(-1.0, lo), min(1.0, hi))


def youden(det_k: int, det_n: int, fa_k: int, fa_n: int, alpha: float = 0.05) -> Diff:
    """Youden's J = detection - false-alarm rate (Youden 1950), Newcombe hybrid score interval."""
    return newcombe_diff(det_k, det_n, fa_k, fa_n, alpha)
