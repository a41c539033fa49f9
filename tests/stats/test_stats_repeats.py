"""Accuracy over seeds with its seed standard deviation, and agreement across seeds (seed 003 Tables 3, 24)."""

from __future__ import annotations

import itertools
import math
import statistics

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from physbench.stats import seed_accuracy, seed_agreement

# seed 003 Table 24, Qwen2.5-7B and Qwen2.5-32B-AWQ blocks: (agree, pairwise, right, wrong) in percent
TABLE24 = [
    (71.5, 86.3, 8.4, 63.2), (59.6, 80.7, 14.4, 45.2), (90.5, 95.4, 67.3, 23.3), (99.8, 99.9, 38.7, 61.1),
    (88.1, 94.2, 22.7, 65.4), (92.2, 96.0, 71.4, 20.8), (92.0, 95.8, 73.9, 18.1),
    (75.2, 88.0, 16.8, 58.4), (58.4, 79.5, 26.6, 31.7), (98.8, 99.4, 83.0, 15.8), (100.0, 100.0, 39.0, 61.0),
    (98.1, 99.1, 43.8, 54.3), (99.6, 99.8, 90.4, 9.3), (99.2, 99.6, 90.5, 8.6),
]


def test_seed_accuracy_is_the_mean_of_per_seed_accuracy_with_the_sample_sd():
    outcomes = [[1, 1, 0], [1, 0, 0], [1, 1, 1], [0, 1, 0]]     # per seed: 3/4, 3/4, 1/4
    result = seed_accuracy(outcomes)
    assert result.per_seed == (0.75, 0.75, 0.25) and result.seeds == 3
    assert result.mean == pytest.approx(7 / 12)
    assert result.sd == pytest.approx(statistics.stdev([0.75, 0.75, 0.25]))   # n - 1 divisor: 0.2887


def test_one_seed_has_no_standard_deviation_and_missing_cases_are_left_out_of_their_seed():
    assert math.isnan(seed_accuracy([[1], [0]]).sd)
    result = seed_accuracy([[1, np.nan], [0, 1], [1, 1]])
    assert result.per_seed == (pytest.approx(2 / 3), 1.0)
    with pytest.raises(ValueError):
        seed_accuracy([[1, np.nan], [0, np.nan]])
    with pytest.raises(ValueError):
        seed_accuracy([])


def test_agreement_worked_by_hand():
    """Four cases, three seeds: right in all, wrong in all, 1-0-1 and 0-0-1. Agree = 2/4; right and wrong
    1/4 each; a split case agrees on one of its three seed pairs, so Pairwise = (1 + 1 + 1/3 + 1/3) / 4."""
    result = seed_agreement([[1, 1, 1], [0, 0, 0], [1, 0, 1], [0, 0, 1]])
    assert (result.cases, result.seeds) == (4, 3)
    assert (result.agree, result.right, result.wrong) == (0.5, 0.25, 0.25)
    assert result.pairwise == pytest.approx(2 / 3)


def test_table24_reads_as_unanimous_right_plus_wrong_and_a_mean_over_ten_seed_pairs():
    """Seed 003 Table 24 (five seeds): Agree = Right + Wrong within rounding, and a case that is not
    unanimous agrees on 4 or 6 of its 10 seed pairs, so Pairwise lies in [A + 0.4 (1 - A), A + 0.6 (1 - A)]."""
    for agree, pairwise, right, wrong in TABLE24:
        assert agree == pytest.approx(right + wrong, abs=0.15)
        a = agree / 100
        assert 100 * (a + 0.4 * (1 - a)) - 0.15 <= pairwise <= 100 * (a + 0.6 * (1 - a)) + 0.15


@given(st.lists(st.lists(st.booleans(), min_size=5, max_size=5), min_size=1, max_size=50))
def test_pairwise_share_is_the_mean_over_every_pair_of_seeds(rows):
    grid = np.array(rows)
    result = seed_agreement(grid)
    pairs = list(itertools.combinations(range(5), 2))
    expected = np.mean([(grid[:, i] == grid[:, j]).mean() for i, j in pairs])
    assert result.pairwise == pytest.approx(expected)
    assert result.agree == pytest.approx(result.right + result.wrong)
    assert result.agree - 1e-12 <= result.pairwise <= result.agree + 0.6 * (1 - result.agree) + 1e-12


@pytest.mark.parametrize("outcomes", [[[1, 0], [1, np.nan]], [[1], [0]], [[1, 2], [0, 1]], [], [[]]])
def test_agreement_refuses_missing_runs_one_seed_and_non_binary_outcomes(outcomes):
    with pytest.raises(ValueError):
        seed_agreement(outcomes)
