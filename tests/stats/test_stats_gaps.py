"""Paired gaps between two arms over cases and seeds: cluster and case bootstraps, one Table 7 row."""

from __future__ import annotations

import numpy as np
import pytest

from physbench.stats import (
    PairedGap, icc_oneway, paired_case_bootstrap, paired_cluster_bootstrap, paired_gaps, paired_sign_flip,
)


def test_case_bootstrap_keeps_the_seeds_of_a_case_together():
    """Two cases, five seeds: case A scores 1,1,1,1,0 (gap 0.8 on average), case B 0 in every seed.
    Resampling cases gives means 0, 0.4, 0.8 with chances 1/4, 1/2, 1/4, so the 95% interval is
    exactly [0, 0.8]. Resampling the ten case-seeds one by one would give Binomial(10, 0.4) / 10,
    whose 95% interval is about [0.1, 0.7]."""
    first = [[1, 1, 1, 1, 0], [0, 0, 0, 0, 0]]
    second = np.zeros((2, 5))
    result = paired_case_bootstrap(first, second, n_boot=10_000, seed=1)
    assert isinstance(result, PairedGap)
    assert (result.gap, result.lo, result.hi) == (pytest.approx(0.4), 0.0, pytest.approx(0.8))
    assert (result.n_boot, result.cases, result.clusters) == (10_000, 2, 2)


def test_cluster_bootstrap_keeps_the_cases_and_seeds_of_a_cluster_together():
    """Three calculators of two cases x five seeds; calculator X is right everywhere, Y and Z wrong.
    Drawing three calculators gives means 0, 1/3, 2/3, 1 with chances 8/27, 12/27, 6/27, 1/27; since
    1/27 > 2.5% the interval is exactly [0, 1]. Resampling the six cases instead reaches 1 only with
    chance (1/3)^6 and would end the interval at 2/3."""
    first = np.repeat([1.0, 0.0, 0.0], 2)[:, None] * np.ones((6, 5))
    clusters = ["X", "X", "Y", "Y", "Z", "Z"]
    result = paired_cluster_bootstrap(first, np.zeros((6, 5)), clusters, n_boot=10_000, seed=2)
    assert (result.gap, result.lo, result.hi) == (pytest.approx(1 / 3), 0.0, 1.0)
    assert (result.cases, result.clusters) == (6, 3)
    case = paired_case_bootstrap(first, np.zeros((6, 5)), n_boot=10_000, seed=2)
    assert case.hi == pytest.approx(2 / 3)


def test_the_gap_is_paired_case_seed_by_case_seed():
    """Two arms that agree on every case-seed have gap 0 and a zero-width interval, however much the
    cases vary; an unpaired resampling of the arms would give a wide interval."""
    rng = np.random.default_rng(3)
    arm = rng.random((200, 5)) < rng.random(200)[:, None]
    clusters = np.repeat(np.arange(20), 10)
    for result in (paired_cluster_bootstrap(arm, arm, clusters, n_boot=500),
                   paired_case_bootstrap(arm, arm, n_boot=500)):
        assert (result.gap, result.lo, result.hi) == (0.0, 0.0, 0.0)


def test_a_seed_missing_from_either_arm_leaves_that_case_seed_out():
    first = [[1.0, np.nan, 1.0], [0.0, 1.0, 1.0]]
    second = [[0.0, 0.0, np.nan], [0.0, 0.0, 1.0]]   # pairs: (1-0) | (0-0), (1-0), (1-1)
    assert paired_case_bootstrap(first, second, n_boot=200).gap == pytest.approx(2 / 4)


def test_cluster_interval_covers_the_true_gap_and_the_case_interval_does_not_when_calculators_differ():
    """Simulation with a known mean gap of 0.05: 40 calculators whose own gaps spread with SD 0.1,
    10 cases each, 3 seeds, case and seed noise SD 0.1. The calculator-cluster percentile interval
    covers the true gap near 95% of the time; the case interval ignores the calculator spread
    (about 0.45 of the true standard error) and covers it only about 63% of the time."""
    rng = np.random.default_rng(20)
    labels = np.repeat(np.arange(40), 10)
    reps, cluster_hits, case_hits = 300, 0, 0
    for rep in range(reps):
        calculator = rng.normal(0.05, 0.1, 40)[labels]
        gap = calculator[:, None] + rng.normal(0, 0.1, (400, 1)) + rng.normal(0, 0.1, (400, 3))
        zeros = np.zeros_like(gap)
        _, lo, hi, *_ = paired_cluster_bootstrap(gap, zeros, labels, n_boot=1000, seed=rep)
        cluster_hits += lo <= 0.05 <= hi
        _, lo, hi, *_ = paired_case_bootstrap(gap, zeros, n_boot=1000, seed=rep)
        case_hits += lo <= 0.05 <= hi
    assert 0.88 <= cluster_hits / reps <= 0.99
    assert case_hits / reps < 0.80


def test_table7_row_parts_equal_each_function_run_alone():
    rng = np.random.default_rng(4)
    labels = np.repeat(np.arange(55), 20)
    rate = rng.uniform(0.2, 0.9, 55)[labels][:, None]
    first, second = rng.random((1100, 5)) < rate + 0.05, rng.random((1100, 5)) < rate
    row = paired_gaps(first, second, labels, n_boot=2000, n_perm=2000, seed=7)
    assert row.cluster == paired_cluster_bootstrap(first, second, labels, n_boot=2000, seed=7)
    assert row.case == paired_case_bootstrap(first, second, n_boot=2000, seed=7)
    assert row.permutation == paired_sign_flip(first, second, n_perm=2000, seed=7)
    per_case = (first.astype(float) - second).mean(axis=1)
    assert row.icc == icc_oneway(per_case, labels)
    assert (row.cases, row.gap, row.pvalue) == (1100, pytest.approx(per_case.mean()), row.permutation.pvalue)
    assert row.cluster.hi - row.cluster.lo > row.case.hi - row.case.lo   # calculators differ here


def test_a_seeded_generator_and_its_seed_give_the_same_interval():
    gap = np.random.default_rng(5).normal(size=(50, 4))
    zeros = np.zeros_like(gap)
    assert paired_case_bootstrap(gap, zeros, n_boot=300, seed=9) == paired_case_bootstrap(
        gap, zeros, n_boot=300, seed=np.random.default_rng(9))


@pytest.mark.parametrize(
    "first, second, clusters, message",
    [
        ([[1, 0]], [[1, 0]], ["a"], "two clusters"),
        ([[1, 0], [0, 1]], [[1, 0], [0, 1]], ["a", "a"], "two clusters"),
        ([[1, 0], [0, 1]], [[1, 0, 1], [0, 1, 0]], ["a", "b"], "shape"),
        ([], [], [], "non-empty"),
        ([[1, np.nan], [1, 0]], [[np.nan, 0], [1, 0]], ["a", "b"], "no seed observed in both"),
        ([[1, 0], [0, 1]], [[1, 0], [0, 1]], ["a"], "one cluster label per case"),
        ([["x"], ["y"]], [[1], [0]], ["a", "b"], "numbers"),
    ],
)
def test_bad_input_raises_one_clear_value_error(first, second, clusters, message):
    with pytest.raises(ValueError, match=message):
        paired_cluster_bootstrap(first, second, clusters, n_boot=100)


def test_case_bootstrap_of_one_case_is_refused():
    with pytest.raises(ValueError, match="two cases"):
        paired_case_bootstrap([[1, 0, 1]], [[0, 0, 0]])
    with pytest.raises(ValueError):
        paired_case_bootstrap([[1], [0]], [[0], [0]], n_boot=0)
    with pytest.raises(ValueError):
        paired_case_bootstrap([[1], [0]], [[0], [0]], seed=-1)
