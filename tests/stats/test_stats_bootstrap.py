"""Case, cluster and patient bootstraps (percentile intervals, runs of a case kept together)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from physbench.stats import Estimate, case_bootstrap, cluster_bootstrap, patient_bootstrap


def test_same_seed_gives_the_same_interval_and_the_estimate_is_the_mean():
    values = np.random.default_rng(0).random((120, 5)) < 0.4
    first = case_bootstrap(values, n_boot=2000, seed=11)
    assert isinstance(first, Estimate)
    assert first == case_bootstrap(values, n_boot=2000, seed=11)
    assert first.value == pytest.approx(values.mean())
    assert first.lo < first.value < first.hi


def test_runs_of_a_case_travel_together():
    """Repeating every run column changes nothing when the case is the resampling unit; resampling
    case-runs one by one would narrow the interval by about sqrt(5)."""
    one = np.random.default_rng(1).random(200)
    single = case_bootstrap(one, n_boot=3000, seed=5)
    repeated = case_bootstrap(np.repeat(one[:, None], 5, axis=1), n_boot=3000, seed=5)
    assert repeated == pytest.approx(single, abs=1e-12)


def test_case_bootstrap_is_the_cluster_bootstrap_with_one_case_per_cluster():
    values = np.random.default_rng(2).normal(size=(80, 3))
    labels = [f"case{i:03d}" for i in range(80)]
    assert case_bootstrap(values, n_boot=1500, seed=3) == pytest.approx(
        cluster_bootstrap(values, labels, n_boot=1500, seed=3), abs=1e-12)


def test_cluster_interval_is_wider_when_cases_share_their_cluster():
    """55 calculators x 20 cases (seed 003's design) with calculator-level differences in accuracy."""
    rng = np.random.default_rng(4)
    cluster_rate = rng.uniform(0.1, 0.9, size=55)
    labels = np.repeat(np.arange(55), 20)
    values = rng.random((1100, 5)) < cluster_rate[labels][:, None]
    case = case_bootstrap(values, n_boot=2000, seed=0)
    cluster = cluster_bootstrap(values, labels, n_boot=2000, seed=0)
    assert case.value == pytest.approx(cluster.value)
    assert (cluster.hi - cluster.lo) > 2.0 * (case.hi - case.lo)


def test_percentile_width_matches_the_normal_theory_width_for_a_mean():
    """For the mean of 400 normal values the 95% percentile interval is close to +-1.96 s/sqrt(n)."""
    values = np.random.default_rng(6).normal(10.0, 2.0, size=400)
    value, lo, hi = case_bootstrap(values, n_boot=20_000, seed=1)
    expected = 2 * 1.96 * values.std() / np.sqrt(values.size)
    assert (hi - lo) == pytest.approx(expected, rel=0.05)
    assert lo < value < hi


def test_patient_weighting_averages_within_each_patient_first():
    """Seed 001: accuracy averaged within each patient, patients weighted equally."""
    values = [1, 1, 1, 0, 0, 1]            # patient A: 3 tasks all right; B: 1 of 2; C: 1 of 1
    patients = ["A", "A", "A", "B", "B", "C"]
    assert patient_bootstrap(values, patients, n_boot=500).value == pytest.approx((1 + 0.0 + 1) / 3)
    values[3] = 1
    assert patient_bootstrap(values, patients, n_boot=500).value == pytest.approx((1 + 0.5 + 1) / 3)
    pooled = cluster_bootstrap(values, patients, n_boot=500)
    assert pooled.value == pytest.approx(5 / 6)


def test_a_missing_run_is_left_out_of_its_case():
    values = [[1.0, 0.0, np.nan], [1.0, 1.0, 1.0]]
    assert case_bootstrap(values, n_boot=200).value == pytest.approx(4 / 5)


@pytest.mark.parametrize(
    "values, labels, kwargs",
    [
        ([1, 0, 1], ["a", "b"], {}),
        ([[np.nan, np.nan], [1, 0]], ["a", "b"], {}),
        ([1, np.inf], ["a", "b"], {}),
        ([1, 0], ["a", "b"], {"weighting": "median"}),
        ([1, 0], ["a", "b"], {"n_boot": 0}),
        ([1, 0], ["a", "b"], {"alpha": 1.0}),
        (["x", "y"], ["a", "b"], {}),
        ([], [], {}),
    ],
)
def test_bad_inputs_raise_value_error(values, labels, kwargs):
    with pytest.raises(ValueError):
        cluster_bootstrap(values, labels, **kwargs)


def test_percentile_interval_covers_the_true_rate_about_95_percent_of_the_time():
    """400 simulated runs of 150 Bernoulli(0.3) cases: coverage near nominal (binomial SD 0.011)."""
    rng = np.random.default_rng(8)
    hits = 0
    for rep in range(400):
        sample = rng.random(150) < 0.3
        _, lo, hi = case_bootstrap(sample, n_boot=1000, seed=rep)
        hits += lo <= 0.3 <= hi
    assert 0.90 <= hits / 400 <= 0.99


@settings(max_examples=30, deadline=None)
@given(st.lists(st.lists(st.floats(-5, 5), min_size=2, max_size=2), min_size=1, max_size=30), st.integers(0, 2**32 - 1))
def test_interval_stays_within_the_range_of_the_case_means(rows, seed):
    values = np.array(rows)
    value, lo, hi = case_bootstrap(values, n_boot=300, seed=seed)
    means = values.mean(axis=1)
    assert means.min() - 1e-9 <= lo <= hi <= means.max() + 1e-9
    assert means.min() - 1e-9 <= value <= means.max() + 1e-9
