"""Sign-flip permutation test of paired per-case differences."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from physbench.stats import sign_flip_test


def test_five_equal_positive_differences_give_two_in_thirty_two():
    """Only the all-plus and all-minus sign patterns reach |sum| = 5: p = 2/32."""
    assert sign_flip_test([1, 1, 1, 1, 1]) == pytest.approx(2 / 32)
    assert sign_flip_test([1, 1, 1, 1, 1, 0, 0]) == pytest.approx(2 / 32)   # zeros carry no sign
    assert sign_flip_test([0, 0]) == 1.0


def test_monte_carlo_agrees_with_full_enumeration_beyond_the_exact_limit():
    d = np.random.default_rng(0).normal(0.3, 1.0, size=17)
    totals = np.abs(np.array(list(itertools.product((1, -1), repeat=17))) @ d)
    exact = float((totals >= abs(d.sum()) - 1e-12).mean())
    approx = sign_flip_test(d, n_perm=40_000, seed=1)
    assert approx == pytest.approx(exact, abs=4 * np.sqrt(exact * (1 - exact) / 40_000) + 1e-4)


def test_bad_input_is_refused():
    for bad in ([], [1.0, float("nan")], [1.0, float("inf")]):
        with pytest.raises(ValueError):
            sign_flip_test(bad)
    with pytest.raises(ValueError):
        sign_flip_test([1.0], n_perm=0)


@given(st.lists(st.floats(-10, 10), min_size=1, max_size=12))
def test_p_is_a_probability_unchanged_by_negating_every_difference(d):
    p = sign_flip_test(d)
    assert 0.0 < p <= 1.0
    assert sign_flip_test([-x for x in d]) == pytest.approx(p)
