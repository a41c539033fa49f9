"""Analyses that fit any suite: outcomes, pairwise McNemar-Holm with letters, repeated runs, consistency.

Seed 000 "Statistics": exact McNemar tests on shared items with Holm's adjustment within a family,
compact letters for models the tests do not separate (Table 11); Table 14 compares two runs of the
same items; seed 002 counts an item as consistently solved when enough of its runs are correct.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from physbench.grading.types import OUTCOMES
from physbench.report.summary import accuracy_cell
from physbench.stats import cohen_kappa, consistency, holm, letters_from_pvalues, mcnemar_exact

if TYPE_CHECKING:
    from physbench.report.loading import RunData, RunSet
    from physbench.report.registry import SuiteReport
    from physbench.runner.results import Result

ALPHA = 0.05


# --- reading one response ---------------------------------------------------------------------

def passed(r: "Result") -> bool:
    return bool(r.grade and r.grade.passed)


def graded(r: "Result") -> bool:
    """The response has a verdict: `ungraded` ones (answer not known here) enter no comparison."""
    return r.grade is not None and r.grade.outcome != "ungraded"


def flagged(r: "Result") -> bool:
    """The check judged the colleague's work incorrect (no verdict counts as not flagged, seed 000 Table 14)."""
    return bool(r.grade and r.grade.flagged)


def value_in_reference_unit(r: "Result") -> float | None:
    """The answer converted to the reference unit by the grader (None when it read none)."""
    if r.grade is None:
        return None
    v = r.grade.detail.get("converted") if isinstance(r.grade.detail, Mapping) else None
    if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v):
        return float(v)
    return None


def within(a: float, b: float, band: float) -> bool:
    """a lies within the relative band of b."""
    return abs(a - b) <= band * abs(b) * (1 + 1e-9)


def finite_or_none(x: float | None) -> float | None:
    return None if x is None or not math.isfinite(x) else float(x)


# --- outcomes ---------------------------------------------------------------------------------

def outcome_counts(models: Sequence["RunData"]) -> list[dict[str, Any]]:
    """Per model and kind: how many responses ended in each outcome (seed 000 "Outcomes")."""
    rows = []
    for run in models:
        by_kind: dict[str, Counter[str]] = {}
        for r in run.responses().values():
            by_kind.setdefault(r.item.kind, Counter())[r.grade.outcome if r.grade else "ungraded"] += 1
        for kind in sorted(by_kind):
            counts = by_kind[kind]
            rows.append({"model": run.label, "kind": kind, "n": sum(counts.values()),
                         "outcomes": {**{o: counts.get(o, 0) for o in OUTCOMES},
                                      **{o: n for o, n in sorted(counts.items()) if o not in OUTCOMES}}})
    return rows


# --- pairwise McNemar-Holm and letters --------------------------------------------------------

def pairwise(outcomes: Mapping[str, Mapping[str, bool]], alpha: float = ALPHA) -> dict[str, Any]:
    """Exact McNemar test of every pair of models on their shared items, Holm over all pairs, letters.

    `outcomes`: model -> item id -> passed. Models are ordered by accuracy (best first) so that the
    leader gets the letter a; pairs without shared items are left out of the Holm family and are
    not separated.
    """
    acc = {m: (sum(v.values()) / len(v) if v else 0.0) for m, v in outcomes.items()}
    order = sorted(outcomes, key=lambda m: -acc[m])
    pairs = []
    for i, first in enumerate(order):
        for second in order[i + 1:]:
            shared = sorted(set(outcomes[first]) & set(outcomes[second]))
            b = sum(1 for k in shared if outcomes[first][k] and not outcomes[second][k])
            c = sum(1 for k in shared if outcomes[second][k] and not outcomes[first][k])
            pairs.append({"first": first, "second": second, "n": len(shared), "first_only": b, "second_only": c,
                          "p": mcnemar_exact(b, c) if shared else None, "p_holm": None})
    untested = [[p["first"], p["second"]] for p in pairs if not p["n"]]  # no paired test without shared items
    pairs = [p for p in pairs if p["n"]]
    tested = [p for p in pairs if p["p"] is not None]
    for p, adj in zip(tested, holm([p["p"] for p in tested])):
        p["p_holm"] = adj
    letters = letters_from_pvalues(order, {(p["first"], p["second"]): p["p_holm"] for p in tested}, alpha) \
        if order else {}
    models = []
    for m in order:
        cell = accuracy_cell(m, len(outcomes[m]), sum(outcomes[m].values()))
        models.append({"model": m, "n": cell["n"], "n_correct": cell["n_correct"], "accuracy": cell["accuracy"],
                       "ci_low": cell["ci_low"], "ci_high": cell["ci_high"], "letters": letters.get(m, "")})
    # "untested" only when some pair shares no item: the stored reports of other runs stay as they were
    return {"alpha": alpha, "models": models, "pairs": pairs, **({"untested": untested} if untested else {})}


# --- repeated runs ----------------------------------------------------------------------------

def _comparisons(runset: "RunSet") -> list[tuple[str, dict[str, "Result"], dict[str, "Result"]]]:
    """(name, first responses, second responses): later runs of a condition, and repeats within a run."""
    out = []
    for first, later in runset.repeated():
        out.append((f"{first.label} vs run {later.ordinal}", first.responses(), later.responses()))
    for run in runset.runs:
        reps = run.repeats_present()
        if len(reps) >= 2:
            out.append((f"{run.label}: repeat {reps[0] + 1} vs {reps[1] + 1}", run.responses(reps[0]),
                        run.responses(reps[1])))
    return out


def _kappa(a: list[bool], b: list[bool]) -> float | None:
    if not a:
        return None
    return finite_or_none(cohen_kappa(a, b))


def repeat_rows(runset: "RunSet", reports: Sequence["SuiteReport"] = ()) -> list[dict[str, Any]]:
    """Seed 000 Table 14 for every repeated run, one row per kind of item.

    n: items answered in both; run 1/2: share passed; p: exact McNemar (Holm over the rows of the
    same kind); kappa on pass/fail; failed again: of the items failed first; same value: of those,
    both wrong answers the same by the suite's `same_answer` (for its `same_answer_kinds`);
    flagged kappa: on the verdict, for the suite's `verdict_kinds`.
    """
    by_suite = {rep.suite: rep for rep in reports}
    rows: list[dict[str, Any]] = []
    for name, first, second in _comparisons(runset):
        shared = sorted(k for k in set(first) & set(second) if graded(first[k]) and graded(second[k]))
        kinds = sorted({first[k].item.kind for k in shared})
        for kind in kinds:
            ids = [k for k in shared if first[k].item.kind == kind]
            a = [passed(first[k]) for k in ids]
            b = [passed(second[k]) for k in ids]
            both_failed = [k for k in ids if not passed(first[k]) and not passed(second[k])]
            rep = by_suite.get(first[ids[0]].item.suite)
            same = None
            if rep is not None and rep.same_answer is not None and kind in rep.same_answer_kinds:
                same = sum(1 for k in both_failed if rep.same_answer(first[k], second[k]))
            verdicts = rep is not None and rep.flagged is not None and kind in rep.verdict_kinds
            b_only = sum(1 for x, y in zip(a, b) if x and not y)
            c_only = sum(1 for x, y in zip(a, b) if y and not x)
            rows.append({
                "comparison": name, "kind": kind, "n": len(ids),
                "first_rate": sum(a) / len(ids), "second_rate": sum(b) / len(ids),
                "p": mcnemar_exact(b_only, c_only), "p_holm": None, "kappa": _kappa(a, b),
                "failed_first": len(ids) - sum(a), "failed_again": len(both_failed), "same_value": same,
                "flagged_kappa": _kappa([rep.flagged(first[k]) for k in ids], [rep.flagged(second[k]) for k in ids])
                if verdicts and rep is not None and rep.flagged is not None else None,
            })
    for kind in {r["kind"] for r in rows}:
        family = [r for r in rows if r["kind"] == kind]
        for r, adj in zip(family, holm([r["p"] for r in family])):
            r["p_holm"] = adj
    return rows


def consistency_ks(n: int) -> list[int]:
    """Which k to show for n runs: every k up to 10 runs, else 1, a majority, 80% and all."""
    if n <= 10:
        return list(range(1, n + 1))
    return sorted({1, n // 2 + 1, math.ceil(0.8 * n), n})


def consistency_rows(runset: "RunSet") -> list[dict[str, Any]]:
    """Items solved in at least k of n runs (seed 002), for conditions answered more than once.

    The runs of a condition are its repeats within one run and its later runs; only items answered
    in every one of them count.
    """
    groups: dict[tuple[str, str, str, str, str], list[dict[str, "Result"]]] = {}
    labels: dict[tuple[str, str, str, str, str], str] = {}
    for run in runset.runs:
        key = run.condition
        labels.setdefault(key, run.label)
        groups.setdefault(key, []).extend(run.responses(rep) for rep in run.repeats_present())
    rows = []
    for key, answers in groups.items():
        if len(answers) < 2:
            continue
        shared = {k for k in set(answers[0]).intersection(*answers[1:]) if all(graded(a[k]) for a in answers)}
        for kind in sorted({answers[0][k].item.kind for k in shared}):
            ids = sorted(k for k in shared if answers[0][k].item.kind == kind)
            grid = [[passed(a[k]) for a in answers] for k in ids]
            n = len(answers)
            solved = {k: consistency(grid, k).solved for k in consistency_ks(n)}
            rows.append({"model": labels[key], "kind": kind, "runs": n, "items": len(ids),
                         "mean_accuracy": consistency(grid, 1).mean_accuracy,
                         "solved_at_least": {str(k): v for k, v in solved.items()}})
    return rows
