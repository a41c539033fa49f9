"""Share of real alarms at a hypothetical error rate, with the seed's conservative bounds."""

from __future__ import annotations

import math

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from stats_seed_tables import STRONGEST_CHECKERS, TABLE9, agrees

from physbench.stats import alarm_share, real_alarms


def test_table9_real_alarm_share_and_lower_bound_at_one_percent():
    """Seed 000 Table 9, 'Real (%)': share of alarms pointing at a real error if 1% of checked
    calculations were wrong, with its conservative one-sided 95% lower bound in parentheses."""
    for model, fmt, n, det_k, fa_k, *printed in TABLE9:
        share, lower, _ = real_alarms(0.01, det_k, n, fa_k, n)
        assert agrees(100 * share, printed[9]) and agrees(100 * lower, printed[10]), (model, fmt, share, lower)


def test_sonnet_worksheet_bounds_from_the_text():
    """Seed 000 Section I: Claude Sonnet 5.5's worksheet checks, 33% with bounds 15% and 71% (Section F)."""
    share, lower, upper = real_alarms(0.01, 149, 150, 3, 150)
    assert agrees(100 * share, "33") and agrees(100 * lower, "15") and agrees(100 * upper, "71")


def test_result_check_upper_bounds_of_the_other_seven_models_are_at_most_14_percent():
    """Seed 000 'Checking': for the seven models other than the strongest checkers the result-check
    point estimates are at most 9% and their conservative upper bounds at most 14%."""
    rows = [r for r in TABLE9 if r[1] == "result" and r[0] not in STRONGEST_CHECKERS]
    results = [real_alarms(0.01, det_k, n, fa_k, n) for _, _, n, det_k, fa_k, *_ in rows]
    assert len(results) == 7
    assert round(100 * max(r.share for r in results)) == 9
    assert round(100 * max(r.upper for r in results)) == 14


def test_no_false_alarms_means_every_alarm_is_real_and_no_alarms_is_undefined():
    assert real_alarms(0.01, 148, 150, 0, 150).share == 1.0
    assert math.isnan(alarm_share(0.01, 0.0, 0.0))
    with pytest.raises(ValueError):
        real_alarms(0.0, 1, 2, 1, 2)
    with pytest.raises(ValueError):
        alarm_share(1.5, 0.5, 0.5)


@given(st.integers(1, 200), st.integers(1, 200), st.floats(0.001, 0.5), st.data())
def test_share_lies_between_its_bounds_and_rises_with_detection_and_prevalence(det_n, fa_n, pi, data):
    det_k, fa_k = data.draw(st.integers(0, det_n)), data.draw(st.integers(0, fa_n))
    assume(det_k + fa_k > 0)
    share, lower, upper = real_alarms(pi, det_k, det_n, fa_k, fa_n)
    assert 0.0 <= lower <= share <= upper <= 1.0
    if det_k < det_n:
        assert real_alarms(pi, det_k + 1, det_n, fa_k, fa_n).share >= share
    if fa_k < fa_n:
        assert real_alarms(pi, det_k, det_n, fa_k + 1, fa_n).share <= share
    assert real_alarms(min(0.99, pi * 1.5), det_k, det_n, fa_k, fa_n).share >= share
