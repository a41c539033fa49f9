"""Decision accuracy of a run: Tables S10 and S14 through physbench.stats.weighting."""

from __future__ import annotations

import pytest

pytest.importorskip("physbench.stats.weighting")

from physbench.suites.planning import summary as M  # noqa: E402

ALL = {"primary": True, "reason": True, "hard_goals": True}
NONE = {"primary": False, "reason": False, "hard_goals": False}


def row(patient, family, correct=ALL, **kw):
    return {"patient": patient, "family": family, "correct": correct, "technical_failure": False, **kw}


# patient A: every scored family right; patient B: missing structure right, overlap wrong (a technical failure)
ROWS = [row("A", "missing_structure"), row("A", "coverage_cap", dict(ALL, reason=False)), row("A", "overlap"),
        row("A", "feasible_control", dict(ALL, hard_goals=False)), row("B", "missing_structure"),
        row("B", "overlap", NONE, technical_failure=True, failure={"kind": "format"}),
        row("A", "routine"), row("B", "conflicting_note", NONE)]


def test_table_s10_weightings_of_a_worked_example():
    """Table S10's definitions: primary = mean over patients of each patient's family mean,
    (1 + 1/2) / 2 = 75 %; equal family = mean of the family rates (1, 1, 1/2, 1) = 87.5 %;
    equal task = 5 of 6 tasks = 83.33 %. Routine and conflicting note are not scored."""
    s10 = M.table_s10([r for r in ROWS if r["family"] in M.SCORED], n_boot=500)
    assert s10["primary"]["value"] == 75.0 and s10["equal_family"]["value"] == 87.5
    assert s10["equal_task"]["value"] == pytest.approx(83.33, abs=0.01)
    assert s10["families"]["overlap"] == {"value": 50.0, "lo": 0.0, "hi": 100.0, "patients": 2}
    assert s10["patients"] == 2 and s10["tasks"] == 6
    assert s10["primary"]["lo"] <= 75.0 <= s10["primary"]["hi"]


def test_table_s14_policies_take_credit_away_where_the_reason_or_the_hard_goals_fail():
    """A: 4 families, 3 right under either alternative (3/4); B: 1/2 -> (0.75 + 0.5) / 2 = 62.5 %."""
    s14 = M.table_s14([r for r in ROWS if r["family"] in M.SCORED], n_boot=200)
    assert s14["primary"]["value"] == 75.0 and s14["reason"]["value"] == 62.5 and s14["hard_goals"]["value"] == 62.5


def test_the_run_summary_keys_decision_accuracy_by_family_and_counts_technical_failures():
    out = M.summarize(ROWS, n_boot=200)
    assert out["decision_accuracy"] == {"routine": 100.0, "conflicting_note": 0.0, "missing_structure": 100.0,
                                        "coverage_cap": 100.0, "overlap": 50.0, "feasible_control": 100.0}
    assert out["technical_failures"] == {"count": 1, "of": 8, "attempts": [
        {"patient": "B", "family": "overlap", "failure": "format", "primary": True}]}
    assert set(out) == {"decision_accuracy", "technical_failures", "table_s10", "table_s14", "dose"}


def test_repetitions_are_averaged_within_a_task_before_weighting():
    rows = [row("A", "overlap"), row("A", "overlap", NONE), row("B", "overlap")]
    assert M.table_s10(rows, n_boot=100)["primary"]["value"] == 75.0
    assert M.per_family(rows)["overlap"] == 75.0


def test_the_difference_of_two_systems_is_paired_on_the_same_tasks():
    worse = [dict(r, correct=NONE) if r["family"] == "overlap" else r for r in ROWS if r["family"] in M.SCORED]
    d = M.difference([r for r in ROWS if r["family"] in M.SCORED], worse, n_boot=300)
    assert d["table_s10"]["families"]["overlap"]["value"] == 50.0 and d["table_s10"]["primary"]["value"] == 12.5
    assert set(d["table_s14"]) == {"primary", "reason", "hard_goals"}
    with pytest.raises(ValueError):
        M.difference(worse, worse[:-1], n_boot=10)


def test_bad_rows_are_refused_with_a_clear_error():
    with pytest.raises(ValueError):
        M.table_s10([{"family": "overlap"}])
    with pytest.raises(ValueError):
        M.table_s10([])
    with pytest.raises(ValueError):
        M.task_table(ROWS, "lenient")
