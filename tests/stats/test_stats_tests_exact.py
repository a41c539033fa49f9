"""Exact McNemar, Holm's adjustment and the exact conditional test across strata."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.stats import fisher_exact, hypergeom
from statsmodels.stats.multitest import multipletests
from stats_seed_tables import TABLE11, TABLE12, TABLE14, agrees

from physbench.stats import holm, mcnemar_exact, stratified_exact_test


def test_mcnemar_with_no_pairs_on_one_side_is_twice_a_half_to_the_power_of_the_other():
    """Seed brief: b = 0, c = 50 -> 2 * 0.5**50 (two-sided exact binomial test of the discordant pairs)."""
    assert mcnemar_exact(0, 50) == pytest.approx(2 * 0.5**50, rel=1e-12)
    assert mcnemar_exact(0, 0) == 1.0
    assert mcnemar_exact(3, 3) == 1.0


def test_table12_holm_adjusted_mcnemar_p_values():
    """Seed 000 Table 12: worksheet against result on the same items, 24 exact McNemar tests, Holm over all 24."""
    raw, printed = [], []
    for model, (dws, dres, dp, fws, fres, fp) in TABLE12.items():
        raw += [mcnemar_exact(dws, dres), mcnemar_exact(fws, fres)]
        printed += [(model, "detection", dp), (model, "false alarms", fp)]
    for adjusted, (model, what, p) in zip(holm(raw), printed):
        assert agrees(adjusted, p), (model, what, adjusted, p)


def test_table11_holm_p_values_for_the_pairs_not_separated():
    """Seed 000 Table 11: the 15 model pairs that Holm over 66 calculation comparisons did not separate.
    The other 51 pairs were separated (adjusted p < 0.05), so they rank first and only their count
    matters for these 15; they stand in here as p = 1e-9."""
    raw = [mcnemar_exact(b, c) for *_, b, c, _ in TABLE11]
    adjusted = holm([1e-9] * 51 + raw)[51:]
    for p, (first, second, *_, printed) in zip(adjusted, TABLE11):
        assert agrees(p, printed), (first, second, p, printed)


def test_table14_repeat_run_mcnemar_p_values():
    """Seed 000 Table 14: run 1 against run 2 of the same items; the discordant counts follow from the
    printed n, accuracies and failures."""
    for model, (n, rate1, rate2, p, _, failed_again, failed_first) in TABLE14.items():
        pass_first = n - failed_first
        pass_second = round(float(rate2) / 100 * n)
        only_second = failed_first - failed_again          # failed in run 1, passed in run 2
        only_first = pass_first - (pass_second - only_second)
        assert agrees(mcnemar_exact(only_first, only_second), p), model


def test_holm_matches_the_step_down_definition():
    """Holm (1979): sorted p_(i) times (m - i + 1), made monotone, capped at 1, in input order."""
    p = [0.01, 0.04, 0.03, 0.005]
    assert holm(p) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([]) == []
    with pytest.raises(ValueError):
        holm([0.1, 1.5])
    with pytest.raises(ValueError):
        holm([float("nan")])


def test_holm_agrees_with_statsmodels():
    rng = np.random.default_rng(3)
    for size in (1, 2, 5, 24, 66):
        p = rng.random(size) ** 3
        assert holm(p) == pytest.approx(list(multipletests(p, method="holm")[1]), abs=1e-15)


@given(st.lists(st.floats(0.0, 1.0), min_size=1, max_size=30))
def test_holm_never_lowers_a_p_value_and_keeps_their_order(p):
    adjusted = holm(p)
    assert all(raw <= adj <= 1.0 for raw, adj in zip(p, adjusted))
    for (r1, a1), (r2, a2) in itertools.combinations(zip(p, adjusted), 2):
        if r1 < r2:
            assert a1 <= a2


@given(st.integers(0, 60), st.integers(0, 60))
def test_mcnemar_is_symmetric_and_grows_less_significant_as_the_split_evens_out(b, c):
    p = mcnemar_exact(b, c)
    assert 0.0 < p <= 1.0 and p == mcnemar_exact(c, b)
    if b < c - 1:
        assert mcnemar_exact(b + 1, c - 1) >= p


RABBITS = [  # R's datasets::Rabbits (penicillin level strata): rows delay none / 1.5 h, columns cured / died
    [[0, 6], [0, 5]], [[3, 3], [0, 6]], [[6, 0], [2, 4]], [[5, 1], [6, 0]], [[2, 0], [5, 0]],
]


def test_stratified_exact_test_reproduces_the_rabbits_example():
    """R documentation of `mantelhaen.test(Rabbits, exact = TRUE)`: S = 16, two-sided p = 0.03994;
    two of the five strata have a zero margin and carry no information."""
    result = stratified_exact_test(RABBITS, alternative="two-sided")
    assert result.statistic == 16 and result.informative == 3
    assert result.pvalue == pytest.approx(0.03994, abs=5e-6)


def test_one_stratum_is_fishers_exact_test():
    for table in ([[3, 1], [1, 3]], [[7, 2], [3, 9]], [[0, 5], [4, 1]]):
        for alternative in ("greater", "less", "two-sided"):
            expected = fisher_exact(table, alternative=alternative).pvalue
            assert stratified_exact_test([table], alternative).pvalue == pytest.approx(expected, rel=1e-9)


def _brute_force_greater(strata):
    """P(S >= observed) by enumerating every joint outcome of the strata (independent of the convolution)."""
    supports = []
    for (a, b), (c, d) in strata:
        total, row1, col1 = a + b + c + d, a + b, a + c
        ks = range(max(0, row1 + col1 - total), min(row1, col1) + 1)
        if len(ks) == 1:                       # margins fix the cell (an empty stratum included)
            supports.append([(ks[0], 1.0)])
        else:
            supports.append([(k, hypergeom.pmf(k, total, col1, row1)) for k in ks])
    observed = sum(t[0][0] for t in strata)
    return sum(math.prod(p for _, p in combo) for combo in itertools.product(*supports)
               if sum(k for k, _ in combo) >= observed)


small_stratum = st.tuples(*(st.integers(0, 6) for _ in range(4))).map(lambda t: [[t[0], t[1]], [t[2], t[3]]])


@given(st.lists(small_stratum, min_size=1, max_size=4))
def test_stratified_exact_test_matches_brute_force_enumeration(strata):
    got = stratified_exact_test(strata, "greater")
    assert got.pvalue == pytest.approx(min(1.0, _brute_force_greater(strata)), rel=1e-9, abs=1e-12)
    assert 0.0 <= got.pvalue <= 1.0


@given(st.lists(small_stratum, min_size=1, max_size=4))
def test_one_sided_p_falls_when_exposed_events_rise(strata):
    """Moving one exposed non-event to an event (and one unexposed event to a non-event, keeping every
    margin) cannot make the 'greater' p larger."""
    (a, b), (c, d) = strata[0]
    if b == 0 or c == 0:
        return
    shifted = [[[a + 1, b - 1], [c - 1, d + 1]]] + strata[1:]
    assert stratified_exact_test(shifted).pvalue <= stratified_exact_test(strata).pvalue + 1e-12


def test_stratified_test_rejects_malformed_strata():
    with pytest.raises(ValueError):
        stratified_exact_test([[[1, 2, 3], [4, 5, 6]]])
    with pytest.raises(ValueError):
        stratified_exact_test([[[1, -2], [3, 4]]])
    with pytest.raises(ValueError):
        stratified_exact_test([[[1, 2], [3, 4]]], alternative="bigger")  # type: ignore[arg-type]
    assert stratified_exact_test([]).pvalue == 1.0
