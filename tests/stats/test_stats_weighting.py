"""Patient-weighted, equal-family and equal-task decision accuracy with patient-bootstrap intervals (seed 001)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from physbench.stats import TaskTable, decision_accuracy, decision_accuracy_difference

FAMILIES = ("missing_structure", "coverage_cap", "overlap", "feasible_control")


def test_three_weightings_worked_by_hand():
    """P1: missing 1, coverage 0, feasible 1; P2: missing 1, coverage twice (1 then 0); P3: missing 0.
    Primary: (2/3 + 3/4 + 0) / 3; equal family: (2/3 + 1/4 + 1) / 3; equal task: (1+0+1+1+0.5+0) / 6."""
    table = TaskTable.from_rows(
        ["P1", "P1", "P1", "P2", "P2", "P2", "P3"],
        ["missing", "coverage", "feasible", "missing", "coverage", "coverage", "missing"],
        [True, False, True, True, True, False, False],
    )
    result = decision_accuracy(table, n_boot=200)
    assert result.primary.value == pytest.approx((2 / 3 + 3 / 4) / 3)
    assert result.equal_family.value == pytest.approx((2 / 3 + 1 / 4 + 1) / 3)
    assert result.equal_task.value == pytest.approx(3.5 / 6)
    assert (result.patients, result.tasks) == (3, 6)
    assert result.families["coverage"].value == 0.25 and result.families["coverage"].patients == 2
    assert table.attempts.sum() == 7


def _table_s10_runs(overlap_credit, coverage_credit=None):
    """30 patients: missing structure for all, coverage/cap for 29, overlap for 10, feasible control for
    25 (the counts of seed 001 Table S10), two runs per task; `*_credit` lists each patient's two runs."""
    patients, families, correct = [], [], []
    for p in range(30):
        eligible = {"missing_structure": True, "coverage_cap": p < 29, "overlap": p < 10, "feasible_control": p >= 5}
        for family, ok in eligible.items():
            if not ok:
                continue
            runs = (1, 1)
            if family == "overlap":
                runs = overlap_credit[p]
            elif family == "coverage_cap" and coverage_credit is not None:
                runs = coverage_credit[p]
            for run in runs:
                patients.append(f"pt_{p}")
                families.append(family)
                correct.append(run)
    return TaskTable.from_rows(patients, families, correct)


def test_table_s10_equal_family_and_equal_task_weightings():
    """Seed 001 Table S10: interpreter + controller 100 / 100 / 50 / 100 -> equal family 87.5, equal
    task 94.7 (89 of 94 tasks); full agent 100 / 96.6 / 25 / 100 -> 80.4 and 91.0; their differences
    7.11 and 3.72 points. The primary weighting needs each patient's eligible families, which the
    paper does not list, so it is checked by hand above rather than against the table."""
    interpreter = _table_s10_runs([(1, 1)] * 5 + [(0, 0)] * 5)
    agent = _table_s10_runs([(1, 0)] * 5 + [(0, 0)] * 5, coverage_credit=[(0, 0)] + [(1, 1)] * 28)
    first, second = decision_accuracy(interpreter, n_boot=500), decision_accuracy(agent, n_boot=500)
    assert first.tasks == 94 and [first.families[f].patients for f in FAMILIES] == [30, 29, 10, 25]
    assert round(100 * first.equal_family.value, 1) == 87.5 and round(100 * first.equal_task.value, 1) == 94.7
    assert round(100 * second.families["coverage_cap"].value, 1) == 96.6
    assert round(100 * second.equal_family.value, 1) == 80.4 and round(100 * second.equal_task.value, 1) == 91.0
    diff = decision_accuracy_difference(interpreter, agent, n_boot=500)
    assert round(100 * diff.equal_family.value, 2) == 7.11 and round(100 * diff.equal_task.value, 2) == 3.72
    assert diff.primary.value == pytest.approx(first.primary.value - second.primary.value)


def test_the_patient_is_the_resampling_unit():
    """Patient A is right on three families, patient B wrong on three. Drawing two patients gives
    means 0, 1/2, 1 with chances 1/4, 1/2, 1/4, so every weighting's interval is exactly [0, 1].
    Resampling the six tasks one by one would give means in steps of 1/6 and end near [1/6, 5/6]."""
    table = TaskTable.from_rows(["A"] * 3 + ["B"] * 3, ["f1", "f2", "f3"] * 2, [1, 1, 1, 0, 0, 0])
    result = decision_accuracy(table, n_boot=10_000, seed=3)
    for estimate in (result.primary, result.equal_family, result.equal_task):
        assert (estimate.value, estimate.lo, estimate.hi) == (0.5, 0.0, 1.0)
        assert estimate.n_boot == 10_000


def test_draws_without_an_eligible_patient_are_left_out_of_that_family():
    """Family 'rare' has one eligible patient out of three: a draw misses it with chance (2/3)^3 = 0.296,
    and its interval (and the equal-family one) rests on the other draws."""
    table = TaskTable.from_rows(["A", "B", "C", "A"], ["common"] * 3 + ["rare"], [1, 0, 1, 1])
    result = decision_accuracy(table, n_boot=20_000, seed=1)
    used = result.families["rare"].n_boot
    assert used == result.equal_family.n_boot and result.primary.n_boot == 20_000
    assert used / 20_000 == pytest.approx(1 - (2 / 3) ** 3, abs=0.01)
    assert result.families["rare"][:3] == (1.0, 1.0, 1.0)


def test_patient_bootstrap_covers_the_true_accuracy_about_95_percent_of_the_time():
    """40 patients, four families with true accuracies 0.9, 0.6, 0.3, 0.8, every patient eligible: all
    three weightings estimate 0.65; 250 simulated evaluations with 1,000 draws each."""
    rng = np.random.default_rng(11)
    rates = np.array([0.9, 0.6, 0.3, 0.8])
    hits = np.zeros(3)
    patients = np.repeat(np.arange(40), 4)
    families = np.tile(np.arange(4), 40)
    for rep in range(250):
        correct = rng.random(160) < rates[families]
        result = decision_accuracy(TaskTable.from_rows(patients.tolist(), families.tolist(), correct),
                                   n_boot=1000, seed=rep)
        hits += [e.lo <= 0.65 <= e.hi for e in (result.primary, result.equal_family, result.equal_task)]
    assert ((0.88 <= hits / 250) & (hits / 250 <= 0.99)).all(), hits / 250


def test_identical_systems_differ_by_exactly_zero():
    table = _table_s10_runs([(1, 0)] * 10)
    diff = decision_accuracy_difference(table, table, n_boot=300)
    for estimate in (diff.primary, diff.equal_family, diff.equal_task):
        assert (estimate.value, estimate.lo, estimate.hi) == (0.0, 0.0, 0.0)


def test_difference_needs_the_same_tasks_and_aligns_patients_by_name():
    first = TaskTable.from_rows(["A", "B", "B"], ["f", "f", "g"], [1, 0, 1])
    reordered = TaskTable.from_rows(["B", "B", "A"], ["g", "f", "f"], [1, 0, 0])
    diff = decision_accuracy_difference(first, reordered, n_boot=100)
    assert diff.equal_task.value == pytest.approx(1 / 3) and diff.families["f"].value == pytest.approx(0.5)
    with pytest.raises(ValueError, match="same tasks"):
        decision_accuracy_difference(first, TaskTable.from_rows(["A", "B", "A"], ["f", "f", "g"], [1, 0, 1]))
    with pytest.raises(ValueError, match="same patients"):
        decision_accuracy_difference(first, TaskTable.from_rows(["A", "C"], ["f", "f"], [1, 0]))


@pytest.mark.parametrize(
    "patients, families, correct",
    [([], [], []), (["A"], ["f"], [1.5]), (["A", "B"], ["f"], [1, 0]), (["A"], ["f"], [math.nan]),
     ([["unhashable"]], ["f"], [1]), (["A"], ["f"], ["yes"])],
)
def test_bad_rows_raise_one_clear_value_error(patients, families, correct):
    with pytest.raises(ValueError):
        TaskTable.from_rows(patients, families, correct)


def test_bad_bootstrap_settings_are_refused():
    table = TaskTable.from_rows(["A", "B"], ["f", "f"], [1, 0])
    for kwargs in ({"n_boot": 0}, {"alpha": 0.0}, {"seed": "x"}):
        with pytest.raises(ValueError):
            decision_accuracy(table, **kwargs)
