"""Input checks shared by the statistics functions: counts are whole, in range; alpha in (0, 1); seeds."""

from __future__ import annotations

import math
import numbers

import numpy as np


def count(value: object, name: str) -> int:
    """Return `value` as a non-negative int (a float must be whole), or raise ValueError naming it."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a whole number, got {value!r}")
    if not isinstance(value, numbers.Integral):
        if not (math.isfinite(float(value)) and float(value).is_integer()):
            raise ValueError(f"{name} must be a whole number, got {value!r}")
    result = int(value)
    if result < 0:
        raise ValueError(f"{name} must not be negative, got {result}")
    return result


def successes(k: object, n: object, k_name: str = "k", n_name: str = "n") -> tuple[int, int]:
    """Check a binomial count: `0 <= k <= n` and `n >= 1`."""
    k_i, n_i = count(k, k_name), count(n, n_name)
    if n_i == 0:
        raise ValueError(f"{n_name} must be at least 1 (a proportion of nothing is undefined)")
    if k_i > n_i:
        raise ValueError(f"{k_name} = {k_i} exceeds {n_name} = {n_i}")
    return k_i, n_i


def alpha(value: object) -> float:
    """Check a two-sided error rate: a finite number strictly between 0 and 1."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"alpha must be a number in (0, 1), got {value!r}")
    a = float(value)
    if not (math.isfinite(a) and 0.0 < a < 1.0):
        raise ValueError(f"alpha must be in (0, 1), got {value!r}")
    return a


def generator(seed: object, name: str = "seed") -> np.random.Generator:
    """A numpy Generator from a non-negative int seed (reproducible) or an existing Generator (used as is)."""
    if isinstance(seed, np.random.Generator):
        return seed
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or int(seed) < 0:
        raise ValueError(f"{name} must be a non-negative whole number or a numpy Generator, got {seed!r}")
    return np.random.default_rng(int(seed))
