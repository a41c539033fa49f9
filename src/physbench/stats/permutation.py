"""Sign-flip permutation test of paired per-case differences (seed 003 Table 7: on seed-averaged differences)."""

from __future__ import annotations

import itertools

import numpy as np
from numpy.typing import ArrayLike

from physbench.stats import _checks

_EXACT_MAX_CASES = 16  # enumerate all 2^n sign patterns up to this many non-zero differences


def sign_flip_test(differences: ArrayLike, *, n_perm: int = 10_000, seed: int = 0) -> float:
    """Two-sided p that the mean paired difference is 0, flipping each case's sign (Fisher's randomisation test); exact for few cases."""
    d = np.asarray(differences, dtype=float).ravel()
    if d.size == 0 or not np.isfinite(d).all():
        raise ValueError("differences must be a non-empty list of finite numbers")
    n_perm = _checks.count(n_perm, "n_perm")
    if n_perm < 1:
        raise ValueError("n_perm must be at least 1")
    d = d[d != 0.0]                      # a zero difference is the same under either sign
    if d.size == 0:
        return 1.0
    observed = abs(d.sum())
    tol = 1e-12 * max(1.0, observed)
    if d.size <= _EXACT_MAX_CASES:
        signs = np.array(list(itertools.product((1.0, -1.0), repeat=d.size)))
        totals = np.abs(signs @ d)
        return float((totals >= observed - tol).mean())
    rng = np.random.default_rng(seed)
    hits = 0
    chunk = max(1, 2_000_000 // d.size)
    for start in range(0, n_perm, chunk):
        size = min(chunk, n_perm - start)
        signs = rng.choice((-1.0, 1.0), size=(size, d.size))
        hits += int((np.abs(signs @ d) >= observed - tol).sum())
    return (hits + 1) / (n_perm + 1)
