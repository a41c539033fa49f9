"""Intraclass correlation ICC(1) within clusters, the design effect and the effective sample size."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from physbench.stats import design_effect, effective_n, icc_oneway

# seed 003 Table 7: (cases, printed ICC, printed n_eff); 55 calculators x 20 cases, or 22 x 20 on the covered 440
TABLE7 = [
    (1100, "0.23", 206), (1100, "0.65", 82), (1100, "0.68", 79), (1100, "0.25", 190), (1100, "0.10", 390),
    (1100, "0.41", 124), (1100, "0.73", 74), (1100, "0.51", 103), (440, "0.05", 229),
    (1100, "0.81", 67), (1100, "0.81", 67), (1100, "0.40", 128), (1100, "0.43", 120), (1100, "0.10", 390),
    (1100, "0.43", 121), (1100, "0.69", 78), (1100, "0.42", 123),
    (1100, "0.27", 181), (440, "0.30", 65), (1100, "0.50", 105), (440, "0.11", 144),
    (1100, "0.27", 181), (440, "0.41", 51),
]


def test_shrout_fleiss_example_gives_icc_1_1_of_0_17():
    """Shrout & Fleiss 1979 (Psychol Bull 86:420), Table 2: six targets rated by four judges; one-way
    ANOVA gives BMS = 11.24 and WMS = 6.26 (their Table 3) and ICC(1,1) = 0.17 (Table 4)."""
    ratings = [[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]]
    result = icc_oneway(np.ravel(ratings), np.repeat(np.arange(6), 4))
    assert result.msb == pytest.approx(11.24, abs=0.005) and result.msw == pytest.approx(6.26, abs=0.005)
    assert round(result.icc, 2) == 0.17 and result.n0 == 4.0


def test_unequal_binary_clusters_worked_by_hand():
    """Clusters A = 1,1,1; B = 0,0; C = 1,0,1,0 (N = 9, k = 3). Grand mean 5/9; SSB = 11/9, MSB = 11/18;
    SSW = 1, MSW = 1/6; n0 = (9 - 29/9) / 2 = 26/9 (Donner 1986);
    ICC = (11/18 - 1/6) / (11/18 + (17/9)(1/6)) = 0.48. Design effect with m_w = 29/9:
    1 + (20/9)(0.48) = 62/30, so n_eff = 9 / (62/30) = 135/31."""
    result = icc_oneway([1, 1, 1, 0, 0, 1, 0, 1, 0], list("AAABBCCCC"))
    assert result.msb == pytest.approx(11 / 18) and result.msw == pytest.approx(1 / 6)
    assert result.n0 == pytest.approx(26 / 9) and result.icc == pytest.approx(0.48)
    assert result.mean_size == pytest.approx(29 / 9)
    assert result.design_effect == pytest.approx(62 / 30) and result.n_eff == pytest.approx(135 / 31)
    assert (result.n, result.clusters) == (9, 3)


def test_mean_squares_agree_with_an_ols_anova():
    """Between- and within-cluster mean squares against statsmodels' one-way ANOVA on unequal clusters."""
    import pandas as pd
    from statsmodels.formula.api import ols
    from statsmodels.stats.anova import anova_lm

    rng = np.random.default_rng(1)
    sizes = rng.integers(2, 12, size=15)
    labels = np.repeat(np.arange(15), sizes)
    y = rng.normal(size=15)[labels] + rng.normal(size=labels.size)
    table = anova_lm(ols("y ~ C(g)", data=pd.DataFrame({"y": y, "g": labels})).fit())
    result = icc_oneway(y, labels)
    assert result.msb == pytest.approx(table["mean_sq"].iloc[0]) and result.msw == pytest.approx(table["mean_sq"].iloc[1])


def test_binary_icc_recovers_the_beta_binomial_correlation():
    """Correctness drawn per cluster from Beta(a, b) then Bernoulli has ICC 1 / (a + b + 1) (Ridout et al.
    1999); 400 clusters of 5-30 cases with a = 0.7, b = 1.63 (rho = 0.3)."""
    rng = np.random.default_rng(8)
    sizes = rng.integers(5, 31, size=400)
    p = rng.beta(0.7, 1.63, size=400)
    labels = np.repeat(np.arange(400), sizes)
    y = rng.random(labels.size) < p[labels]
    assert icc_oneway(y, labels).icc == pytest.approx(1 / (0.7 + 1.63 + 1), abs=0.05)


def test_table7_effective_n_follows_from_the_printed_icc():
    """Seed 003 Table 7: n_eff = n / (1 + 19 ICC) for 20 cases per calculator; the printed ICC is rounded
    to two decimals, so n_eff over ICC +- 0.005 must reach the printed n_eff +- 0.5."""
    for n, icc_text, printed in TABLE7:
        icc = float(icc_text)
        high, low = effective_n(n, icc - 0.005, 20), effective_n(n, icc + 0.005, 20)
        assert low - 0.5 <= printed <= high + 0.5, (n, icc_text, printed, low, high)


def test_equal_clusters_reduce_to_kish():
    """With clusters of one size m, m_w = m and the design effect is Kish's 1 + (m - 1) ICC."""
    rng = np.random.default_rng(2)
    labels = np.repeat(np.arange(30), 8)
    result = icc_oneway(rng.normal(size=30)[labels] + rng.normal(size=240), labels)
    assert result.mean_size == 8.0 and result.n0 == 8.0
    assert result.design_effect == pytest.approx(1 + 7 * result.icc)


def test_a_cases_by_seeds_table_is_averaged_over_seeds_first():
    grid = np.random.default_rng(3).random((40, 5))
    labels = np.repeat(np.arange(8), 5)
    assert icc_oneway(grid, labels) == icc_oneway(grid.mean(axis=1), labels)


def test_negative_estimate_is_reported_but_reads_as_zero_in_the_design_effect():
    """Clusters 0,1 | 1,0 | 0,1 have equal means: MSB = 0, so ICC = -1 / (n0 - 1) = -1; n_eff stays n."""
    result = icc_oneway([0, 1, 1, 0, 0, 1], [1, 1, 2, 2, 3, 3])
    assert result.icc == pytest.approx(-1.0)
    assert result.design_effect == 1.0 and result.n_eff == 6.0


def test_all_equal_outcomes_leave_the_icc_undefined():
    result = icc_oneway([1, 1, 1, 1], ["a", "a", "b", "b"])
    assert math.isnan(result.icc) and math.isnan(result.n_eff) and math.isnan(result.design_effect)


@pytest.mark.parametrize(
    "values, clusters, message",
    [
        ([1, 0, 1], ["a", "a", "a"], "two clusters"),
        ([1, 0], ["a", "b"], "two or more units"),
        ([], [], "non-empty"),
        ([1, 0, 1], ["a", "b"], "one cluster label per case"),
        ([1, np.inf, 0, 1], ["a", "a", "b", "b"], "finite"),
        (["x", "y"], ["a", "b"], "numbers"),
    ],
)
def test_bad_input_raises_one_clear_value_error(values, clusters, message):
    with pytest.raises(ValueError, match=message):
        icc_oneway(values, clusters)


def test_design_effect_refuses_impossible_inputs():
    with pytest.raises(ValueError):
        design_effect(-0.5, 5)           # 1 + 4 (-0.5) = -1
    with pytest.raises(ValueError):
        design_effect(0.2, 0.5)
    with pytest.raises(ValueError):
        effective_n(0, 0.2, 20)
    assert effective_n(1100, 0.68, 20) == pytest.approx(1100 / 13.92)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.floats(-5, 5), min_size=1, max_size=6), min_size=2, max_size=8))
@example([[3.9748070443684005e-250], [0.0, 0.0]])  # variation whose squares underflow: NaN, not a crash
def test_icc_lies_between_minus_one_over_n0_minus_one_and_one(groups):
    if all(len(g) == 1 for g in groups):
        return
    values = [v for g in groups for v in g]
    labels = [i for i, g in enumerate(groups) for _ in g]
    result = icc_oneway(values, labels)
    if not math.isnan(result.icc):
        assert -1 / (result.n0 - 1) - 1e-9 <= result.icc <= 1 + 1e-9
        assert 0 < result.n_eff <= result.n + 1e-9
