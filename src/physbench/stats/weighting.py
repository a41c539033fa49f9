"""Weighted aggregates of per-task accuracy over patients and task families, with patient-bootstrap intervals.

Seed 001 (Table S10, Fig. 2, Fig. S5): a task is one patient x one task family; a patient is
eligible for the families whose certificate holds, and a system's repetitions of a task are
averaged first. Three weightings of the same task accuracies:

- primary, patient-weighted: each patient's accuracy over the families it is eligible for, then
  the mean over patients (patients weighted equally);
- equal family: each family's rate (the mean over its eligible patients), then the mean over families;
- equal task: the mean over every eligible patient-family task.

Intervals are 95% percentile intervals from resampling patients with replacement (the patient is
the unit; all of its tasks and repetitions travel together). A draw in which a family has no
eligible patient leaves that family's rate, and the equal-family aggregate, undefined; such draws
are left out of that interval and `n_boot` counts the draws it rests on. Differences between two
systems (Table S10's last row, Table S14) are paired: the same patient draws for both.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Hashable, NamedTuple, Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

from physbench.stats import _checks

_CHUNK_CELLS = 2_000_000  # draws x patients held in memory at once


class BootEstimate(NamedTuple):
    """A point estimate with its percentile interval and the number of bootstrap draws behind it."""

    value: float
    lo: float
    hi: float
    n_boot: int


class FamilyAccuracy(NamedTuple):
    """One family's patient-mean accuracy with its patient-bootstrap interval and eligible patients."""

    value: float
    lo: float
    hi: float
    patients: int
    n_boot: int


class DecisionAccuracy(NamedTuple):
    """The three weightings of seed 001 Table S10 and the per-family rates (or their paired differences)."""

    primary: BootEstimate
    equal_family: BootEstimate
    equal_task: BootEstimate
    families: dict[Hashable, FamilyAccuracy]
    patients: int
    tasks: int


@dataclass(frozen=True, eq=False)
class TaskTable:
    """Patients x families table of task accuracy (repetitions averaged); NaN where a patient is not eligible."""

    patients: tuple[Hashable, ...]
    families: tuple[Hashable, ...]
    accuracy: NDArray[np.float64]
    attempts: NDArray[np.int64]

    @classmethod
    def from_rows(
        cls, patients: Sequence[Hashable], families: Sequence[Hashable], correct: Sequence[float] | ArrayLike
    ) -> "TaskTable":
        """One row per attempt: its patient, its task family, and its credit (True/False, 1/0, or a share in [0, 1])."""
        p_labels, f_labels = list(patients), list(families)
        try:
            credit = np.asarray(correct, dtype=float).ravel()
        except (TypeError, ValueError) as exc:
            raise ValueError(f"correct must be True/False, 1/0 or shares in [0, 1]: {exc}") from None
        if not (len(p_labels) == len(f_labels) == credit.size):
            raise ValueError(f"need one patient, family and credit per attempt: {len(p_labels)}, {len(f_labels)}, {credit.size}")
        if credit.size == 0:
            raise ValueError("no attempts: an aggregate of nothing is undefined")
        if not (np.isfinite(credit).all() and ((credit >= 0) & (credit <= 1)).all()):
            raise ValueError("correct must be True/False, 1/0 or shares in [0, 1]")
        p_index, p_order = _number(p_labels, "patient")
        f_index, f_order = _number(f_labels, "family")
        shape = (len(p_order), len(f_order))
        sums = np.zeros(shape)
        attempts = np.zeros(shape, dtype=np.int64)
        np.add.at(sums, (p_index, f_index), credit)
        np.add.at(attempts, (p_index, f_index), 1)
        with np.errstate(invalid="ignore", divide="ignore"):
            accuracy = np.where(attempts > 0, sums / np.maximum(attempts, 1), np.nan)
        return cls(tuple(p_order), tuple(f_order), accuracy, attempts)

    @property
    def eligible(self) -> NDArray[np.bool_]:
        return self.attempts > 0


def decision_accuracy(
    table: TaskTable, *, n_boot: int = 10_000, alpha: float = 0.05, seed: int | np.random.Generator = 0
) -> DecisionAccuracy:
    """Patient-weighted, equal-family and equal-task accuracy and each family's rate, with patient-bootstrap intervals (seed 001 Table S10)."""
    return _summarise(table.accuracy, table.eligible, table.families, n_boot, alpha, seed)


def decision_accuracy_difference(
    first: TaskTable, second: TaskTable, *, n_boot: int = 10_000, alpha: float = 0.05,
    seed: int | np.random.Generator = 0,
) -> DecisionAccuracy:
    """First minus second system on the same tasks, every weighting, with paired patient-bootstrap intervals (seed 001 Table S10, Fig. S5)."""
    if set(first.patients) != set(second.patients) or set(first.families) != set(second.families):
        raise ValueError("the two systems must be scored on the same patients and task families")
    rows = [second.patients.index(p) for p in first.patients]
    cols = [second.families.index(f) for f in first.families]
    other = second.accuracy[np.ix_(rows, cols)]
    if not np.array_equal(first.eligible, ~np.isnan(other)):
        raise ValueError("the two systems must be scored on the same tasks (patient-family pairs)")
    return _summarise(first.accuracy - other, first.eligible, first.families, n_boot, alpha, seed)


def _summarise(
    accuracy: NDArray[np.float64], eligible: NDArray[np.bool_], families: tuple[Hashable, ...],
    n_boot: int, alpha: float, seed: int | np.random.Generator,
) -> DecisionAccuracy:
    n_boot = _checks.count(n_boot, "n_boot")
    if n_boot < 1:
        raise ValueError("n_boot must be at least 1")
    a = _checks.alpha(alpha)
    rng = _checks.generator(seed)
    patients = accuracy.shape[0]
    credit = np.where(eligible, accuracy, 0.0)
    share = eligible.astype(float)
    per_patient = credit.sum(axis=1) / share.sum(axis=1)

    point = _aggregates(np.ones((1, patients)), per_patient, credit, share)
    draws = [np.empty((n_boot,) + p.shape[1:]) for p in point]
    chunk = max(1, _CHUNK_CELLS // patients)
    for start in range(0, n_boot, chunk):
        size = min(chunk, n_boot - start)
        picks = rng.integers(0, patients, size=(size, patients))
        offsets = (np.arange(size)[:, None] * patients + picks).ravel()
        counts = np.bincount(offsets, minlength=size * patients).reshape(size, patients).astype(float)
        for out, part in zip(draws, _aggregates(counts, per_patient, credit, share)):
            out[start:start + size] = part
    primary, equal_family, equal_task = (_interval(float(p[0]), d, a) for p, d in zip(point[:3], draws[:3]))
    per_family = {}
    for j, family in enumerate(families):
        value, lo, hi, used = _interval(float(point[3][0, j]), draws[3][:, j], a)
        per_family[family] = FamilyAccuracy(value, lo, hi, int(eligible[:, j].sum()), used)
    return DecisionAccuracy(primary, equal_family, equal_task, per_family, patients, int(eligible.sum()))


def _aggregates(
    counts: NDArray[np.float64], per_patient: NDArray[np.float64], credit: NDArray[np.float64],
    share: NDArray[np.float64],
) -> tuple[NDArray[np.float64], ...]:
    """The aggregates of patient samples given as how often each patient is drawn (one row per sample)."""
    primary = counts @ per_patient / counts.sum(axis=1)
    family_credit, family_tasks = counts @ credit, counts @ share
    with np.errstate(invalid="ignore", divide="ignore"):
        family = np.where(family_tasks > 0, family_credit / np.where(family_tasks > 0, family_tasks, 1.0), np.nan)
    equal_family = family.mean(axis=1)               # NaN when a family has no eligible patient in the sample
    equal_task = family_credit.sum(axis=1) / family_tasks.sum(axis=1)
    return primary, equal_family, equal_task, family


def _interval(value: float, draws: NDArray[np.float64], alpha: float) -> BootEstimate:
    defined = draws[np.isfinite(draws)]
    if defined.size == 0:
        return BootEstimate(value, math.nan, math.nan, 0)
    lo, hi = np.quantile(defined, [alpha / 2, 1 - alpha / 2])
    return BootEstimate(value, float(lo), float(hi), int(defined.size))


def _number(labels: list[Hashable], what: str) -> tuple[NDArray[np.intp], list[Hashable]]:
    """Number labels in order of first appearance."""
    index: dict[Hashable, int] = {}
    try:
        codes = np.array([index.setdefault(label, len(index)) for label in labels], dtype=np.intp)
    except TypeError:
        raise ValueError(f"{what} labels must be hashable (names or numbers)") from None
    return codes, list(index)
