"""Paired differences (Newcombe's paired score interval), MOVER and the change in Youden's J."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import multinomial
from stats_seed_tables import STRONGEST_CHECKERS, TABLE9, TABLE12

from physbench.stats import Estimate, PairedCounts, delta_youden, mover_diff, newcombe_diff, newcombe_paired_diff, wilson
from physbench.stats.paired import paired_bounds


def test_paired_interval_reproduces_the_published_cavo_example():
    """Fagerland, Lydersen & Laake (2017), Statistical Analysis of Contingency Tables, ch. 8, complete
    response before and after consolidation therapy (Cavo et al. 2012), table [[59, 6], [16, 80]]:
    Newcombe square-and-add estimate -0.0621 (95% CI -0.1186 to -0.0046), as the book's companion R
    package (contingencytables) prints it."""
    d, lo, hi = newcombe_paired_diff(PairedCounts(59, 6, 16, 80))
    assert (d, lo, hi) == pytest.approx((-0.0621, -0.1186, -0.0046), abs=5e-5)


def test_paired_interval_without_correlation_is_square_and_add_of_the_marginal_wilson_intervals():
    """Newcombe 1998 (17:2635), method 10: with a*d - b*c in [0, n/2] the correlation term is zero and
    the limits combine the two marginal Wilson intervals exactly as for independent samples."""
    a, b, c, e = 10, 5, 3, 2          # a*e - b*c = 5 <= n/2 = 10
    n = a + b + c + e
    p1, p2 = (a + b) / n, (a + c) / n
    l1, u1 = wilson(a + b, n)
    l2, u2 = wilson(a + c, n)
    expected_lo = (p1 - p2) - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    expected_hi = (p1 - p2) + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    assert newcombe_paired_diff((a, b, c, e)) == pytest.approx((p1 - p2, expected_lo, expected_hi), abs=1e-12)


def test_positive_correlation_narrows_the_paired_interval():
    """Strongly concordant pairs (a*d - b*c >> n/2) give a narrower interval than ignoring the pairing."""
    table = (40, 6, 2, 40)
    n = sum(table)
    _, plo, phi = newcombe_paired_diff(table)
    _, ilo, ihi = newcombe_diff(46, n, 42, n)
    assert phi - plo < 0.8 * (ihi - ilo)


def test_counts_from_outcomes():
    counts = PairedCounts.from_outcomes([True, True, False, False, True], [True, False, True, False, True])
    assert counts == PairedCounts(both=2, first_only=1, second_only=1, neither=1) and counts.n == 5
    with pytest.raises(ValueError):
        PairedCounts.from_outcomes([True], [True, False])
    with pytest.raises(ValueError):
        PairedCounts.from_outcomes([None], [True])


def test_newcombe_independent_interval_is_mover_applied_to_wilson_intervals():
    """Newcombe's hybrid score interval is MOVER (Zou & Donner 2008) with Wilson limits; checking one
    against the other checks the MOVER combination."""
    for k1, n1, k2, n2 in [(56, 70, 48, 80), (5, 56, 0, 29), (9, 10, 3, 10)]:
        first = Estimate(k1 / n1, *wilson(k1, n1))
        second = Estimate(k2 / n2, *wilson(k2, n2))
        assert mover_diff(first, second) == pytest.approx(newcombe_diff(k1, n1, k2, n2), abs=1e-12)


def test_mover_refuses_an_estimate_outside_its_interval():
    with pytest.raises(ValueError):
        mover_diff((0.5, 0.6, 0.7), (0.1, 0.0, 0.2))
    with pytest.raises(ValueError):
        mover_diff((0.5, 0.4, math.nan), (0.1, 0.0, 0.2))


def _format_tables(model):
    """The seed's paired tables for one model, first = result check, second = worksheet check."""
    rows = {(m, f): (n, det_k, fa_k) for m, f, n, det_k, fa_k, *_ in TABLE9}
    n, det_ws, fa_ws = rows[model, "worksheet"]
    _, det_res, fa_res = rows[model, "result"]
    det_ws_only, det_res_only, _, fa_ws_only, fa_res_only, _ = TABLE12[model]
    det_both, fa_both = det_ws - det_ws_only, fa_ws - fa_ws_only
    assert det_both + det_res_only == det_res and fa_both + fa_res_only == fa_res  # the tables agree
    detection = PairedCounts(det_both, det_res_only, det_ws_only, n - det_both - det_res_only - det_ws_only)
    false_alarms = PairedCounts(fa_both, fa_res_only, fa_ws_only, n - fa_both - fa_res_only - fa_ws_only)
    return n, detection, false_alarms, (det_res - fa_res) / n - (det_ws - fa_ws) / n


def test_delta_j_intervals_reproduce_the_seeds_findings():
    """Seed 000 'Checking': the paired 95% intervals for Delta J = J_result - J_worksheet lie below zero
    for Claude Sonnet 5.5, gpt-oss-20b and Mistral Large 3, above zero for Gemma 3 27B and include
    zero for the other three of those seven models; adjusted for the twelve models (Bonferroni) only
    gpt-oss-20b and Mistral Large 3 exclude zero."""
    below, above, spans, below_adj, above_adj = set(), set(), set(), set(), set()
    for model in TABLE12:
        n, detection, false_alarms, expected = _format_tables(model)
        d, lo, hi = delta_youden(detection, false_alarms)
        assert d == pytest.approx(expected, abs=1e-12)
        assert lo <= d <= hi
        _, alo, ahi = delta_youden(detection, false_alarms, comparisons=12)
        assert alo < lo and ahi > hi
        if model in STRONGEST_CHECKERS:
            continue
        (below if hi < 0 else above if lo > 0 else spans).add(model)
        if ahi < 0:
            below_adj.add(model)
        if alo > 0:
            above_adj.add(model)
    assert below == {"Claude Sonnet 5.5", "gpt-oss-20b", "Mistral Large 3"}
    assert above == {"Gemma 3 27B"}
    assert spans == {"GPT-6 Luna", "DeepSeek V4 Pro", "gpt-oss-120b"}
    assert below_adj == {"gpt-oss-20b", "Mistral Large 3"} and not above_adj


cells = st.tuples(*(st.integers(0, 80) for _ in range(4))).filter(lambda t: sum(t) > 0)


@given(cells)
def test_paired_interval_contains_the_difference_and_mirrors_when_conditions_swap(table):
    a, b, c, e = table
    d, lo, hi = newcombe_paired_diff(table)
    assert -1.0 <= lo <= d <= hi <= 1.0
    assert newcombe_paired_diff((a, c, b, e)) == pytest.approx((-d, -hi, -lo), abs=1e-12)


@given(cells, cells)
def test_delta_j_contains_its_estimate_and_widens_with_bonferroni(det, fa):
    d, lo, hi = delta_youden(det, fa)
    assert lo <= d <= hi
    _, alo, ahi = delta_youden(det, fa, comparisons=5)
    assert alo <= lo and ahi >= hi


def _all_tables(n):
    return np.array([(a, b, c, n - a - b - c) for a in range(n + 1) for b in range(n + 1 - a) for c in range(n + 1 - a - b)])


probabilities = st.tuples(*(st.floats(0.01, 1.0) for _ in range(4))).map(lambda x: np.array(x) / sum(x))


@settings(max_examples=25, deadline=None)
@given(n=st.integers(10, 30), p=probabilities)
def test_paired_interval_coverage_stays_near_nominal(n, p):
    """Exact coverage over every paired table of n items. Method 10 is near nominal (Newcombe 1998,
    17:2635); a 3,000-point scan of this range found none below 0.91, so under 0.90 is a bug."""
    tables = _all_tables(n)
    d, lo, hi = paired_bounds(*tables.T, alpha=0.05)
    for i in range(0, len(tables), max(1, len(tables) // 5)):   # vectorised limits = public function
        assert newcombe_paired_diff(tuple(int(v) for v in tables[i])) == pytest.approx((d[i], lo[i], hi[i]), abs=1e-12)
    truth = p[1] - p[2]
    assert multinomial.pmf(tables, n, p)[(lo <= truth) & (truth <= hi)].sum() >= 0.90


@settings(max_examples=8, deadline=None)
@given(n=st.integers(8, 14), p=probabilities, q=probabilities)
def test_delta_j_coverage_stays_near_nominal(n, p, q):
    """Exact coverage of the MOVER interval for Delta J over all pairs of paired tables (planted and
    correct items, n each)."""
    tables = _all_tables(n)
    d1, l1, u1 = paired_bounds(*tables.T, alpha=0.05)
    d = d1[:, None] - d1[None, :]
    lo = d - np.sqrt((d1 - l1)[:, None] ** 2 + (u1 - d1)[None, :] ** 2)
    hi = d + np.sqrt((u1 - d1)[:, None] ** 2 + (d1 - l1)[None, :] ** 2)
    i, j = len(tables) // 3, len(tables) // 2
    assert delta_youden(tuple(tables[i]), tuple(tables[j])) == pytest.approx((d[i, j], lo[i, j], hi[i, j]), abs=1e-12)
    truth = (p[1] - p[2]) - (q[1] - q[2])
    weight = multinomial.pmf(tables, n, p)[:, None] * multinomial.pmf(tables, n, q)[None, :]
    assert weight[(lo <= truth) & (truth <= hi)].sum() >= 0.90
