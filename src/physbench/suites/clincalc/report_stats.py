"""The statistics of the clincalc report (003_* Tables 1-3, 7, 8, 14, 24; 12-13 in report_audit), as JSON-ready data.

A run is one arm of one model; its repeats are the seeds (003_*: five, 42-46, fixing the case order
and the worked example). Each run becomes a cases x seeds table of right (1) / wrong (0), NaN where
a seed has no graded answer. Paired gaps compare two runs on their shared cases and seeds; the
family of a comparison (for Holm) is the model: runs of one model spec, with the runs that call no
model (the gold-solve library) joining every family. A gap is the run given first minus the later one.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable, Sequence

import numpy as np

from physbench.grading.types import FAILED
from physbench.stats import (
    holm, icc_oneway, mcnemar_exact, paired_case_bootstrap, paired_cluster_bootstrap, paired_sign_flip, seed_accuracy,
    seed_agreement,
)

if TYPE_CHECKING:
    from physbench.report.loading import RunData
    from physbench.runner.results import Result

N_BOOT = 10_000          # 003_*: 10,000 draws, percentile 95% intervals
N_PERM = 10_000
STAT_SEED = 0
NO_MODEL_PROTOCOLS = ("gold-library", "gold-solve-library")   # arms that call no model join every family
# 003_* Tables 8 and 14: why a row has no valid answer
NO_OUTPUT = ("no_program", "abstained", "no_answer", FAILED)  # FAILED: no reply from the model after its retries
EXECUTOR_FAILURE = ("rejected", "raised", "blocked", "stopped_short", "truncated")
UNREADABLE = ("bad_kind", "unreadable", "unparsable", "format_error")
PROGRAM_OUTCOMES = ("no_program", "rejected", "raised", "bad_kind", "unreadable")


@dataclass
class ArmRuns:
    """One run as the clincalc tables read it: its cases x seeds correctness and outcomes."""

    label: str
    arm: str
    model: str
    cases: list[str]                 # item ids, in row order
    seeds: list[int]                 # repeat indices present
    right: np.ndarray                # cases x seeds, 1 / 0 / NaN
    outcomes: list[list[str | None]]  # cases x seeds, None where no graded answer
    calculators: list[int]           # per case
    kinds: list[str]                 # per case

    @property
    def calls_model(self) -> bool:
        return not self.arm.startswith(NO_MODEL_PROTOCOLS)


def _row_number(item_id: str) -> tuple[int, str]:
    tail = item_id.rsplit("/", 1)[-1]
    return (int(tail), item_id) if tail.isdigit() else (math.inf, item_id)  # type: ignore[return-value]


def arm_name(run: "RunData") -> str:
    """The arm a run measures: a model-free protocol by its name, else the item's arm (with its protocol)."""
    protocol = run.manifest.protocol
    if protocol.startswith(NO_MODEL_PROTOCOLS):
        return protocol
    arms = {str(r.item.params.get("arm", "")) for r in run.results}
    arm = "/".join(sorted(a for a in arms if a)) or "?"
    return arm if protocol in ("direct", arm) else f"{arm} ({protocol})"


def arm_runs(run: "RunData") -> ArmRuns:
    """The run as a cases x seeds table."""
    by_case: dict[str, dict[int, "Result"]] = {}
    for r in run.results:
        held = by_case.setdefault(r.item.id, {})
        held.setdefault(r.repeat, r)
    cases = sorted(by_case, key=_row_number)
    seeds = sorted({s for held in by_case.values() for s in held})
    right = np.full((len(cases), len(seeds)), np.nan)
    outcomes: list[list[str | None]] = []
    for i, case in enumerate(cases):
        line: list[str | None] = []
        for j, s in enumerate(seeds):
            r = by_case[case].get(s)
            if r is not None and r.grade is not None:
                right[i, j] = 1.0 if r.grade.passed else 0.0
                line.append(str(r.grade.outcome))
            else:
                line.append(None)
        outcomes.append(line)
    first = [next(iter(by_case[c].values())).item for c in cases]
    return ArmRuns(run.label, arm_name(run), run.manifest.model_spec, cases, seeds, right, outcomes,
                   [int(it.reference.get("calc_id", 0)) for it in first], [str(it.kind) for it in first])


def finite(x: float) -> float | None:
    """x, or None for NaN and infinities (JSON has neither)."""
    return float(x) if math.isfinite(x) else None


def accuracy_rows(arms: Sequence[ArmRuns]) -> list[dict[str, Any]]:
    """Table 1 / 3: mean accuracy over seeds with the seed standard deviation, per arm."""
    out = []
    for a in arms:
        acc = seed_accuracy(a.right)
        out.append({"run": a.label, "arm": a.arm, "model": a.model, "cases": len(a.cases), "seeds": acc.seeds,
                    "accuracy": acc.mean, "seed_sd": finite(acc.sd), "per_seed": list(acc.per_seed)})
    return out


def base_arm(arm: str) -> str:
    """The registry name behind a run's arm label ('program-solve (program)' -> 'program-solve')."""
    from physbench.suites.clincalc.arms import canonical

    head = arm.split(" (", 1)[0]
    return canonical(head) or head


def _ladder_rank(arm: str) -> tuple[int, str]:
    from physbench.suites.clincalc.arms import LADDER

    order = list(LADDER)
    base = base_arm(arm)
    return (order.index(base) if base in LADDER else len(order), arm)


def ladder(arms: Sequence[ArmRuns]) -> dict[str, Any]:
    """Table 3: one row per arm in the paper's ladder order, one column per model (family); each cell the
    mean accuracy over seeds and the seed SD. Model-free runs fill every column. A cell over fewer cases
    than the column's largest run is marked `subset` (the paper's covered-440 cells)."""
    from physbench.suites.clincalc.arms import LADDER

    columns = list(dict.fromkeys(a.model for a in arms if a.calls_model)) or (["no model"] if arms else [])
    rows: dict[str, dict[str, Any]] = {}
    for a, acc in zip(arms, accuracy_rows(arms)):
        for column in ([a.model] if a.calls_model else columns):
            key = a.arm
            if column in rows.get(key, {}).get("cells", {}):  # a second run of one arm and model
                key = f"{a.arm} [{a.label}]"
            row = rows.setdefault(key, {"arm": key, "name": LADDER.get(base_arm(a.arm), a.arm), "cells": {}})
            row["cells"][column] = {k: acc[k] for k in ("run", "cases", "seeds", "accuracy", "seed_sd")}
    for column in columns:
        cells = [r["cells"][column] for r in rows.values() if column in r["cells"]]
        most = max((c["cases"] for c in cells), default=0)
        for c in cells:
            c["subset"] = c["cases"] < most
    ordered = sorted(rows.values(), key=lambda r: _ladder_rank(r["arm"]))
    return {"columns": columns, "rows": ordered}


def aligned(a: ArmRuns, b: ArmRuns) -> tuple[np.ndarray, np.ndarray, list[int]] | None:
    """Both tables on the cases and seeds they share (None when they share fewer than two cases)."""
    where_b = {c: i for i, c in enumerate(b.cases)}
    shared = [i for i, c in enumerate(a.cases) if c in where_b]
    seeds = [s for s in a.seeds if s in b.seeds]
    if len(shared) < 2 or not seeds:
        return None
    ja, jb = [a.seeds.index(s) for s in seeds], [b.seeds.index(s) for s in seeds]
    first = a.right[np.ix_(shared, ja)]
    second = b.right[np.ix_([where_b[a.cases[i]] for i in shared], jb)]
    both = ~(np.isnan(first) | np.isnan(second))
    keep = both.any(axis=1)
    if keep.sum() < 2:
        return None
    first, second = np.where(both, first, np.nan)[keep], np.where(both, second, np.nan)[keep]
    return first, second, [a.calculators[i] for i, k in zip(shared, keep) if k]


def families(arms: Sequence[ArmRuns]) -> dict[str, list[int]]:
    """Model spec -> indices of its runs, model-free runs joining every family (all of them when no run calls a model)."""
    free = [i for i, a in enumerate(arms) if not a.calls_model]
    models = list(dict.fromkeys(a.model for a in arms if a.calls_model))
    if not models:
        return {"no model": free} if len(free) > 1 else {}
    return {m: sorted([i for i, a in enumerate(arms) if a.calls_model and a.model == m] + free) for m in models}


def gap_row(a: ArmRuns, b: ArmRuns, family: str) -> dict[str, Any] | None:
    """Table 2 / 7: one paired gap A - B with its cluster and case intervals, permutation and McNemar p, ICC, n_eff.

    McNemar's exact test counts the discordant case-seed pairs (seeds pooled); the permutation p and
    the ICC use the seed-averaged per-case gaps, as `physbench.stats.paired_gaps` does.
    """
    pair = aligned(a, b)
    if pair is None:
        return None
    first, second, calcs = pair
    if len(set(calcs)) < 2:
        return None
    cluster = paired_cluster_bootstrap(first, second, calcs, n_boot=N_BOOT, seed=STAT_SEED)
    case = paired_case_bootstrap(first, second, n_boot=N_BOOT, seed=STAT_SEED)
    test = paired_sign_flip(first, second, n_perm=N_PERM, seed=STAT_SEED)
    icc = n_eff = None
    if len(set(calcs)) < len(calcs):  # the ICC needs a calculator with two cases or more
        fit = icc_oneway(np.nanmean(first - second, axis=1), calcs)
        icc, n_eff = finite(fit.icc), finite(fit.n_eff)
    both = ~(np.isnan(first) | np.isnan(second))
    only_a = int(((first == 1) & (second == 0) & both).sum())
    only_b = int(((first == 0) & (second == 1) & both).sum())
    return {"family": family, "first": a.label, "second": b.label, "first_arm": a.arm, "second_arm": b.arm,
            "cases": cluster.cases, "seeds": int(first.shape[1]), "clusters": cluster.clusters, "gap": cluster.gap,
            "cluster_ci": [cluster.lo, cluster.hi], "case_ci": [case.lo, case.hi],
            "permutation_p": test.pvalue, "mcnemar_p": mcnemar_exact(only_a, only_b),
            "discordant": [only_a, only_b], "icc": icc, "n_eff": n_eff,
            "n_boot": N_BOOT}


def gap_rows(arms: Sequence[ArmRuns]) -> list[dict[str, Any]]:
    """Every pair within each family, with permutation and McNemar p Holm-adjusted within the family."""
    out = []
    for family, members in families(arms).items():
        rows = [row for i, x in enumerate(members) for y in members[i + 1:]
                if (row := gap_row(arms[x], arms[y], family)) is not None]
        for key in ("permutation_p", "mcnemar_p"):
            for row, p in zip(rows, holm([r[key] for r in rows])):
                row[f"{key}_holm"] = p
        out += rows
    return out


def covered_calculators(arms: Sequence[ArmRuns]) -> set[int] | None:
    """Calculators the library answers in this report's model-free runs (None when there is none: all covered)."""
    free = [a for a in arms if not a.calls_model]
    if not free:
        return None
    return {calc for a in free for calc, line in zip(a.calculators, a.outcomes)
            if any(o is not None and o != "abstained" for o in line)}


def _shares(outcomes: Iterable[str]) -> dict[str, Any]:
    counts = Counter(outcomes)
    n = sum(counts.values())
    none = {"no_output": sum(counts[o] for o in NO_OUTPUT), "executor_failure": sum(counts[o] for o in EXECUTOR_FAILURE),
            "unreadable": sum(counts[o] for o in UNREADABLE)}
    right = counts["correct"]
    wrong = n - right - sum(none.values())
    return {"rows": n, "right": right / n if n else None, "wrong": wrong / n if n else None,
            "none": sum(none.values()) / n if n else None,
            **{k: (v / n if n else None) for k, v in none.items()}}


def outcome_sets(arms: Sequence[ArmRuns]) -> list[dict[str, Any]]:
    """Table 14: right, wrong and no-answer shares on the covered, uncovered and full sets, seeds pooled."""
    covered = covered_calculators(arms)
    out = []
    for a in arms:
        for name, keep in (("covered", lambda c: covered is None or c in covered),
                           ("uncovered", lambda c: covered is not None and c not in covered),
                           ("full", lambda c: True)):
            rows = [o for calc, line in zip(a.calculators, a.outcomes) if keep(calc) for o in line if o is not None]
            out.append({"run": a.label, "arm": a.arm, "set": name, **_shares(rows)})
    return out


def program_outcomes(arms: Sequence[ArmRuns]) -> list[dict[str, Any]]:
    """Table 8: every case-seed row under the outcome taxonomy, accuracy on attempted rows and on date cases."""
    out = []
    for a in arms:
        rows = [(kind, o) for kind, line in zip(a.kinds, a.outcomes) for o in line if o is not None]
        counts = Counter(o for _, o in rows)
        attempted = [o for _, o in rows if o not in PROGRAM_OUTCOMES and o not in ("abstained", FAILED)]
        dates = [o for kind, o in rows if kind == "date"]
        out.append({"run": a.label, "arm": a.arm, "seeds": len(a.seeds), "rows": len(rows),
                    "accuracy": counts["correct"] / len(rows) if rows else None,
                    "attempted_accuracy": attempted.count("correct") / len(attempted) if attempted else None,
                    "date_accuracy": dates.count("correct") / len(dates) if dates else None,
                    "counts": {o: counts[o] for o in ("correct", "wrong", "abstained", *PROGRAM_OUTCOMES)}})
    return out


def agreement_rows(arms: Sequence[ArmRuns]) -> list[dict[str, Any]]:
    """Table 24: agreement across seeds on the cases every seed graded (runs with two seeds or more)."""
    out = []
    for a in arms:
        complete = a.right[~np.isnan(a.right).any(axis=1)]
        if a.right.shape[1] < 2 or complete.shape[0] == 0:
            continue
        acc, agree = seed_accuracy(complete), seed_agreement(complete)
        out.append({"run": a.label, "arm": a.arm, "cases": agree.cases, "seeds": agree.seeds, "accuracy": acc.mean,
                    "seed_sd": finite(acc.sd), "agree": agree.agree, "pairwise": agree.pairwise,
                    "right": agree.right, "wrong": agree.wrong})
    return out


def calculator_rows(arms: Sequence[ArmRuns]) -> list[dict[str, Any]]:
    """Accuracy per calculator and run, case-seeds pooled."""
    from physbench.suites.clincalc.calculators import CALCULATORS

    out = []
    for a in arms:
        for calc in sorted(set(a.calculators)):
            cells = a.right[[i for i, c in enumerate(a.calculators) if c == calc]]
            cells = cells[~np.isnan(cells)]
            name = CALCULATORS[calc].name if calc in CALCULATORS else str(calc)
            out.append({"run": a.label, "calculator": calc, "name": name, "n": int(cells.size),
                        "accuracy": float(cells.mean()) if cells.size else None})
    return out
