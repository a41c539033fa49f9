"""Every analysis of a report, as JSON-ready data: generic ones for any suite, then each suite's own.

A section without data in the given runs is left out with a one-line note (key -> reason), never
an error. The JSON of `physbench report --json` carries this under "models", "analyses", "notes";
a suite's analyses sit under its name (its `SuiteReport.analyse` of its own runs).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from physbench.report import generic
from physbench.report.registry import reports_for

if TYPE_CHECKING:
    from physbench.report.loading import RunSet
    from physbench.report.registry import SuiteReport


def model_list(runset: "RunSet") -> list[dict[str, Any]]:
    return [{"label": r.label, "full_label": r.full_label, "run_id": r.manifest.run_id, "run_dir": str(r.run_dir), "suite": r.suite,
             "split": r.manifest.split, "protocol": r.manifest.protocol, "model_spec": r.manifest.model_spec,
             "primary": r.primary, "run": r.ordinal, "repeats": sorted(r.repeats_present())} for r in runset.runs]


def pairwise_kinds(reports: Sequence["SuiteReport"]) -> tuple[str, ...] | None:
    """The kinds compared between models: those the suites name, or every kind when none does."""
    kinds = [k for rep in reports for k in (rep.pairwise_kinds or ())]
    return tuple(dict.fromkeys(kinds)) or None


def _pairwise(runset: "RunSet", reports: Sequence["SuiteReport"], notes: dict[str, str]) -> dict[str, Any] | None:
    kinds = pairwise_kinds(reports)
    words = " or ".join(kinds) if kinds else "graded"
    outcomes = {m.label: {k: generic.passed(r) for k, r in m.responses().items()
                          if (kinds is None or r.item.kind in kinds) and generic.graded(r)}
                for m in runset.models}
    outcomes = {label: v for label, v in outcomes.items() if v}
    if len(outcomes) < 2:
        notes["pairwise"] = (f"pairwise tests need {words} items from at least two models; "
                             f"these runs give {len(outcomes)}")
        return None
    result = generic.pairwise(outcomes)
    if not any(p["n"] for p in result["pairs"]):
        notes["pairwise"] = f"the models share no {words} item, so no pair can be tested"
        return None
    return {"kind": ", ".join(kinds) if kinds else "all", **result}


def analyse(runset: "RunSet") -> dict[str, Any]:
    """{"models", "analyses", "notes"} for the runs of one report."""
    reports = reports_for([r.suite for r in runset.runs])
    notes: dict[str, str] = {}
    analyses: dict[str, Any] = {"outcomes": generic.outcome_counts(runset.models)}
    analyses["pairwise"] = _pairwise(runset, reports, notes)
    analyses["repeats"] = generic.repeat_rows(runset, reports) or None
    analyses["consistency"] = generic.consistency_rows(runset) or None
    if analyses["repeats"] is None:
        notes["repeats"] = ("no repeated runs: give two runs of the same model, split and protocol, "
                            "or a run with --repeats 2 or more")
    for rep in reports:
        if rep.analyse is not None:
            analyses[rep.suite] = rep.analyse(runset.suite_models(rep.suite), notes)
    return {"models": model_list(runset), "analyses": analyses, "notes": notes}
