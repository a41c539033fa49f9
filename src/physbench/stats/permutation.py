"""Sign-flip permutation test of paired per-case differences (seed 003 Table 7: on seed-averaged differences).

Under the null hypothesis that the two arms are exchangeable within a case, each case's difference
is as likely to carry either sign (Fisher's randomisation test, The Design of Experiments, 1935,
Sec. 21, on Darwin's paired plants). The statistic is |sum of differences|; a zero
difference is the same under either sign and is left out. With at most `EXACT_MAX` non-zero
differences all 2^n sign patterns are enumerated and p is exact (the observed pattern is one of
them). Beyond that, `n_perm` patterns are drawn at random and p = (hits + 1) / (n_perm + 1), which
counts the observed pattern as one draw and is never 0 (Phipson & Smyth 2010, "Permutation
P-values should never be zero", Stat Appl Genet Mol Biol 9:39). Both are two-sided.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from physbench.stats import _checks

EXACT_MAX = 16          # enumerate all 2^n sign patterns up to this many non-zero differences
_CHUNK_CELLS = 2_000_000  # sign patterns x differences held in memory at once


class SignFlip(NamedTuple):
    """Two-sided sign-flip p, the mean difference, how many differences were non-zero, and how p was found."""

    pvalue: float
    mean: float
    nonzero: int
    exact: bool
    n_perm: int     # sign patterns compared: 2^nonzero when exact, else the Monte Carlo draws


def sign_flip(
    differences: ArrayLike, *, n_perm: int = 10_000, seed: int | np.random.Generator = 0
) -> SignFlip:
    """Two-sided p that the mean paired difference is 0 by flipping each case's sign; exact when few cases differ."""
    d = np.asarray(differences, dtype=float).ravel()
    if d.size == 0 or not np.isfinite(d).all():
        raise ValueError("differences must be a non-empty list of finite numbers")
    n_perm = _checks.count(n_perm, "n_perm")
    if n_perm < 1:
        raise ValueError("n_perm must be at least 1")
    rng = _checks.generator(seed)
    mean = float(d.mean())
    d = d[d != 0.0]
    if d.size == 0:
        return SignFlip(1.0, mean, 0, True, 1)
    observed = abs(d.sum())
    tol = 1e-12 * max(1.0, float(np.abs(d).sum()))   # sums that differ only by rounding count as ties
    if d.size <= EXACT_MAX:
        patterns = 1 << d.size
        codes = np.arange(patterns, dtype=np.int64)[:, None] >> np.arange(d.size)
        signs = 1.0 - 2.0 * (codes & 1)                # every pattern of +1/-1, one row each
        hits = int((np.abs(signs @ d) >= observed - tol).sum())
        return SignFlip(hits / patterns, mean, int(d.size), True, patterns)
    hits = 0
    chunk = max(1, _CHUNK_CELLS // d.size)
    for start in range(0, n_perm, chunk):
        size = min(chunk, n_perm - start)
        signs = 1.0 - 2.0 * rng.integers(0, 2, size=(size, d.size))
        hits += int((np.abs(signs @ d) >= observed - tol).sum())
    return SignFlip((hits + 1) / (n_perm + 1), mean, int(d.size), False, n_perm)


def sign_flip_test(differences: ArrayLike, *, n_perm: int = 10_000, seed: int | np.random.Generator = 0) -> float:
    """The p value of `sign_flip` alone (two-sided; exact for few non-zero differences, Monte Carlo with +1 otherwise)."""
    return sign_flip(differences, n_perm=n_perm, seed=seed).pvalue

