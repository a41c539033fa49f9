"""Sign-flip permutation test of paired per-case differences."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from physbench.stats import SignFlip, paired_sign_flip, sign_flip, sign_flip_test


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


def test_three_differences_enumerated_by_hand():
    """d = 1, 2, 3: the 8 sign patterns give sums +-6, +-4, +-2, 0, 0; only +-6 reach the observed 6, p = 2/8.
    d = 0.5, -1, 2 (observed sum 1.5): the sums are +-3.5, +-2.5, +-1.5, +-0.5, so p = 6/8."""
    result = sign_flip([1, 2, 3])
    assert result == SignFlip(pvalue=0.25, mean=2.0, nonzero=3, exact=True, n_perm=8)
    assert sign_flip([0.5, -1, 2]).pvalue == pytest.approx(0.75)


def test_monte_carlo_p_counts_the_observed_pattern_and_is_never_zero():
    """Thirty equal differences: no random pattern but all-plus or all-minus (chance 2^-29) reaches the
    observed sum, so p = (0 + 1) / (n_perm + 1) exactly (Phipson & Smyth 2010)."""
    result = sign_flip([1.0] * 30, n_perm=999, seed=4)
    assert result.exact is False and result.n_perm == 999 and result.nonzero == 30
    assert result.pvalue == 1 / 1000
    assert sign_flip_test([1.0] * 30, n_perm=999, seed=4) == result.pvalue


def test_paired_test_averages_each_case_over_its_seeds_first():
    """Per-case seed means of A - B: case 1 (1,1,0) - (0,0,0) = 2/3, case 2 (1,1,1) - (0,0,0) = 1,
    case 3 (0,0,0) - (0,0,1) = -1/3. Sums over the 8 sign patterns: +-2, +-4/3, 0, 0, +-2/3 against the
    observed 4/3, so p = 4/8. Pooling the nine case-seeds instead would test a different set of signs."""
    first = [[1, 1, 0], [1, 1, 1], [0, 0, 0]]
    second = [[0, 0, 0], [0, 0, 0], [0, 0, 1]]
    result = paired_sign_flip(first, second)
    assert result.pvalue == pytest.approx(0.5) and result.exact and result.nonzero == 3
    assert result.mean == pytest.approx(4 / 9)
