"""The clincalc report (003_*): accuracy per arm with the seed SD (Tables 1, 3), paired gaps with
calculator-cluster and case intervals, permutation and McNemar p, ICC and effective n (Tables 2, 7),
the program outcome taxonomy (Table 8), right / wrong / none on the covered, uncovered and full sets
(Table 14), agreement across seeds (Table 24), per-calculator accuracy, and the audit-group tables
(Tables 12-13: each gap without the flagged calculators; accuracy when replaced by a guideline, with
another concern, with no issue identified). `audit_groups` keeps the pooled counts per group."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from physbench.report.breakdown import accuracy_by, accuracy_section
from physbench.report.registry import SuiteReport

if TYPE_CHECKING:
    from physbench.report.loading import RunData
    from physbench.report.tables import Section
    from physbench.runner.results import Result


def _audit_group(r: "Result") -> Iterable[tuple[str, bool]]:
    from physbench.suites.clincalc.formula_audit import audit_group

    yield audit_group(int(r.item.reference["calc_id"])), bool(r.grade and r.grade.passed)


def _category(r: "Result") -> Iterable[tuple[str, bool]]:
    yield str(r.item.meta.get("category") or "?"), bool(r.grade and r.grade.passed)


def _scorings(r: "Result") -> Iterable[tuple[str, bool]]:
    """Each text reply's verdict under physbench's scoring and under the official script's."""
    detail = r.grade.detail if r.grade is not None else {}
    for name in ("physbench", "official"):
        if isinstance(detail.get(name), bool):
            yield name, detail[name]


def analyse(models: Sequence["RunData"], notes: dict[str, str]) -> dict[str, Any] | None:
    groups = accuracy_by(models, _audit_group)
    if not groups:
        notes["clincalc"] = "no graded clincalc responses"
        return None
    return {**analyse_arms(models), "audit_groups": groups, "categories": accuracy_by(models, _category),
            "scorings": accuracy_by(models, _scorings)}


def analyse_arms(runs: Sequence["RunData"]) -> dict[str, Any]:
    """Every clincalc table's data for these runs (one arm of one model each)."""
    from physbench.suites.clincalc.calculators import CALCULATORS
    from physbench.suites.clincalc.report_audit import audit_accuracy_rows, audit_gap_rows
    from physbench.suites.clincalc.report_stats import (accuracy_rows, agreement_rows, arm_runs, calculator_rows,
                                                        gap_rows, ladder, outcome_sets, program_outcomes)

    arms = [arm_runs(r) for r in runs if r.results]
    known = [a for a in arms if all(c in CALCULATORS for c in a.calculators)]  # the audit tables need the ids
    return {"arms": accuracy_rows(arms), "ladder": ladder(arms), "gaps": gap_rows(arms),
            "audit_gaps": audit_gap_rows(known), "audit_accuracy": audit_accuracy_rows(known),
            "outcome_sets": outcome_sets(arms), "program_outcomes": program_outcomes(arms),
            "agreement": agreement_rows(arms), "calculators": calculator_rows(arms)}


def sections(analyses: Mapping[str, Any], notes: Mapping[str, str]) -> list["Section"]:
    from physbench.suites.clincalc.report_sections import stat_sections

    a = analyses
    note = notes.get("clincalc", "no clincalc runs")
    return [*stat_sections(a, note),
            accuracy_section("clincalc-category", "Accuracy by category", "The dataset's Category column.",
                             "category", a.get("categories"), note),
            accuracy_section("clincalc-scoring", "Accuracy under physbench's and the official scoring",
                             "Text replies scored both ways: physbench's reading (the final answer, exact "
                             "integer scores) and the official MedCalc-Bench script's (last number, rounded "
                             "integers, percent divided by 100; official_scoring.py). The option scoring=official "
                             "makes the official verdict the pass mark.", "scoring", a.get("scorings"), note)]


def answer_text(r: "Result") -> str:
    detail = r.grade.detail if r.grade is not None else {}
    return f"{detail.get('answer')!r} (gold {r.item.reference.get('ground_truth')})"[:300]


REPORT = SuiteReport(suite="clincalc", analyse=analyse, sections=sections, answer_text=answer_text,
                     facets=("arm",), facet_values=lambda r: {"arm": str(r.item.params.get("arm", ""))},
                     outcomes={"no_program": "no program in the reply", "rejected": "the sandbox refused the program",
                               "raised": "the program raised", "bad_kind": "the program returned the wrong kind of value",
                               "unreadable": "the returned value could not be read as an answer",
                               "abstained": "no answer: no program ran, or the library could not use the variables"})
