"""Cohen's kappa, repeated runs and consistency over runs."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from stats_seed_tables import TABLE14, agrees

from physbench.stats import cohen_kappa, consistency, repeat_runs


def test_kappa_textbook_example():
    """Two raters, 50 items: 20 yes/yes, 5 yes/no, 10 no/yes, 15 no/no -> p_o = 0.70, p_e = 0.50, kappa = 0.40."""
    first = ["yes"] * 25 + ["no"] * 25
    second = ["yes"] * 20 + ["no"] * 5 + ["yes"] * 10 + ["no"] * 15
    assert cohen_kappa(first, second) == pytest.approx(0.40, abs=1e-12)


def _runs(n, rate2, failed_again, failed_first):
    """Rebuild the two runs' pass/fail vectors from the counts that Table 14 prints."""
    pass_second = round(float(rate2) / 100 * n)
    only_second = failed_first - failed_again
    both = pass_second - only_second
    only_first = n - failed_first - both
    first = [True] * both + [True] * only_first + [False] * only_second + [False] * failed_again
    second = [True] * both + [False] * only_first + [True] * only_second + [False] * failed_again
    return first, second


def test_repeat_runs_reproduce_table14():
    """Seed 000 Table 14: accuracy in each run, exact McNemar p, Cohen's kappa, failed again."""
    for model, (n, rate1, rate2, p, kappa, failed_again, failed_first) in TABLE14.items():
        result = repeat_runs(*_runs(n, rate2, failed_again, failed_first))
        assert result.n == n and result.failed_first == failed_first and result.failed_again == failed_again
        assert agrees(100 * result.first_rate, rate1) and agrees(100 * result.second_rate, rate2), model
        assert agrees(result.pvalue, p), (model, result.pvalue, p)
        assert agrees(result.kappa, kappa), (model, result.kappa, kappa)


def test_kappa_is_undefined_when_both_raters_never_vary():
    assert math.isnan(cohen_kappa([True] * 5, [True] * 5))
    assert cohen_kappa([True, False], [True, False]) == pytest.approx(1.0)
    with pytest.raises(ValueError):
        cohen_kappa([True], [True, False])
    with pytest.raises(ValueError):
        cohen_kappa([], [])


def test_consistency_counts_items_solved_in_at_least_k_of_n_runs():
    """Seed 002 Sec. 4.3: consistently solved means correct in at least four of five runs."""
    outcomes = [
        [1, 1, 1, 1, 0],   # 4 of 5: consistent
        [1, 1, 1, 0, 0],   # 3 of 5: not
        [1, 1, 1, 1, 1],
        [0, 0, 0, 0, 0],
    ]
    result = consistency(outcomes, k=4)
    assert (result.solved, result.items, result.runs) == (2, 4, 5)
    assert result.share == 0.5 and result.mean_accuracy == pytest.approx(12 / 20)
    with pytest.raises(ValueError):
        consistency(outcomes, k=6)
    with pytest.raises(ValueError):
        consistency([[1, 2]], k=1)
    with pytest.raises(ValueError):
        consistency([], k=1)


@given(st.lists(st.lists(st.booleans(), min_size=5, max_size=5), min_size=1, max_size=40))
def test_consistency_falls_as_k_rises_and_is_bounded_by_mean_accuracy_ends(grid):
    shares = [consistency(grid, k).share for k in range(1, 6)]
    assert all(a >= b for a, b in zip(shares, shares[1:]))
    mean = consistency(grid, 1).mean_accuracy
    assert shares[-1] <= mean <= shares[0]


@given(st.lists(st.tuples(st.booleans(), st.booleans()), min_size=1, max_size=80))
def test_kappa_is_symmetric_and_at_most_one(pairs):
    first, second = [a for a, _ in pairs], [b for _, b in pairs]
    k = cohen_kappa(first, second)
    if not math.isnan(k):
        assert k <= 1.0 + 1e-12 and k == pytest.approx(cohen_kappa(second, first))
