"""Exact (Clopper-Pearson) and Wilson intervals for one proportion."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import binom, binomtest
from stats_seed_tables import HALF_SPLIT_CALCULATION, TABLE2_CALCULATION, TABLE9, agrees

from physbench.stats import Interval, clopper_pearson, exact_proportion, wilson


def test_clopper_pearson_reproduces_the_seed_examples_148_of_150_and_0_of_75():
    """Seed 000 Table 9: 148/150 -> 98.7 (95.3-99.8); 0/75 -> 0.0 (0.0-4.8)."""
    lo, hi = clopper_pearson(148, 150)
    assert agrees(100 * lo, "95.3") and agrees(100 * hi, "99.8")
    assert clopper_pearson(0, 75) == Interval(0.0, pytest.approx(0.048, abs=5e-4))


@pytest.mark.parametrize("table", [TABLE2_CALCULATION, HALF_SPLIT_CALCULATION], ids=["table2", "half_split"])
def test_calculation_accuracy_intervals_match_the_seed_tables(table):
    """Seed 000 Table 2 and the half-split table of Section F: % and exact 95% CI per model."""
    for model, (k, n, pct, lo_txt, hi_txt) in table.items():
        value, lo, hi = exact_proportion(k, n)
        assert agrees(100 * value, pct), model
        assert agrees(100 * lo, lo_txt), (model, 100 * lo, lo_txt)
        assert agrees(100 * hi, hi_txt), (model, 100 * hi, hi_txt)


def test_detection_and_false_alarm_intervals_match_table9():
    """Seed 000 Table 9: detection and false-alarm rates with exact 95% intervals, all 24 rows."""
    for model, fmt, n, det_k, fa_k, det, det_lo, det_hi, fa, fa_lo, fa_hi, *_ in TABLE9:
        for k, printed in ((det_k, (det, det_lo, det_hi)), (fa_k, (fa, fa_lo, fa_hi))):
            got = exact_proportion(k, n)
            assert all(agrees(100 * g, p) for g, p in zip(got, printed)), (model, fmt, got, printed)


def test_intervals_reproduce_newcombe_1998_single_proportion_examples():
    """Newcombe 1998, Stat Med 17:857, Table I: Clopper-Pearson (method 5) and Wilson (method 3)."""
    cases = {  # (k, n): (exact lo, exact hi, wilson lo, wilson hi)
        (81, 263): (0.2527, 0.3676, 0.2553, 0.3662),
        (15, 148): (0.0578, 0.1617, 0.0624, 0.1605),
        (0, 20): (0.0, 0.1684, 0.0, 0.1611),
        (1, 29): (0.0009, 0.1776, 0.0061, 0.1718),
    }
    for (k, n), expected in cases.items():
        got = (*clopper_pearson(k, n), *wilson(k, n))
        assert got == pytest.approx(expected, abs=5e-5), (k, n)


def test_clopper_pearson_agrees_with_scipys_exact_binomial_interval():
    """Beta quantiles and scipy's root-finding `binomtest(...).proportion_ci(method="exact")` agree."""
    for n in (1, 2, 7, 75, 150, 600):
        for k in sorted({0, 1, n // 3, n // 2, n - 1, n}):
            ci = binomtest(k, n).proportion_ci(confidence_level=0.95, method="exact")
            assert clopper_pearson(k, n) == pytest.approx((ci.low, ci.high), abs=1e-10)


def test_interval_unpacks_as_a_pair_and_names_its_ends():
    lo, hi = clopper_pearson(3, 10)
    interval = clopper_pearson(3, 10)
    assert (interval.lo, interval.hi) == (lo, hi)


@pytest.mark.parametrize("k, n", [(-1, 10), (11, 10), (1, 0), (1.5, 10), (True, 10), ("3", 10)])
def test_bad_counts_raise_one_clear_value_error(k, n):
    with pytest.raises(ValueError):
        clopper_pearson(k, n)
    with pytest.raises(ValueError):
        wilson(k, n)


@pytest.mark.parametrize("alpha", [0, 1, -0.1, float("nan"), "0.05"])
def test_bad_alpha_is_refused(alpha):
    with pytest.raises(ValueError):
        clopper_pearson(3, 10, alpha)


@given(n=st.integers(1, 400), data=st.data())
def test_intervals_lie_in_the_unit_interval_and_contain_the_observed_share(n, data):
    k = data.draw(st.integers(0, n))
    for lo, hi in (clopper_pearson(k, n), wilson(k, n)):
        assert 0.0 <= lo <= k / n <= hi <= 1.0
    lo, hi = clopper_pearson(k, n)
    assert (lo == 0.0) == (k == 0) and (hi == 1.0) == (k == n)


@given(n=st.integers(2, 300), data=st.data())
def test_exact_limits_rise_with_the_count_and_widen_with_confidence(n, data):
    k = data.draw(st.integers(0, n - 1))
    lo1, hi1 = clopper_pearson(k, n)
    lo2, hi2 = clopper_pearson(k + 1, n)
    assert lo1 < lo2 and hi1 < hi2
    wide = clopper_pearson(k, n, alpha=0.01)
    assert wide.lo <= lo1 and wide.hi >= hi1


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 60), p=st.floats(0.001, 0.999))
def test_exact_interval_covers_the_true_rate_at_least_95_percent_of_the_time(n, p):
    """Clopper-Pearson is conservative: exact coverage over all outcomes k is >= 1 - alpha for every p."""
    ks = np.arange(n + 1)
    covered = np.array([lo <= p <= hi for lo, hi in (clopper_pearson(int(k), n) for k in ks)])
    assert binom.pmf(ks, n, p)[covered].sum() >= 0.95 - 1e-9
