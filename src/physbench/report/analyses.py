"""Every analysis of a report, as JSON-ready data: generic ones for any suite, medphys ones for its runs.

A section without data in the given runs is left out with a one-line note (key -> reason), never
an error. The JSON of `physbench report --json` carries this under "models", "analyses", "notes".
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from physbench.report import generic, medphys
from physbench.report.medphys_attribution import ModeAnswers, attribution
from physbench.report.medphys_comparator import comparator, solved_rows
from physbench.report.medphys_formats import format_rows, quantity_rows

if TYPE_CHECKING:
    from physbench.report.loading import RunSet


def model_list(runset: "RunSet") -> list[dict[str, Any]]:
    return [{"label": r.label, "run_id": r.manifest.run_id, "run_dir": str(r.run_dir), "suite": r.suite,
             "split": r.manifest.split, "protocol": r.manifest.protocol, "model_spec": r.manifest.model_spec,
             "primary": r.primary, "run": r.ordinal, "repeats": sorted(r.repeats_present())} for r in runset.runs]


def _pairwise(runset: "RunSet", notes: dict[str, str]) -> dict[str, Any] | None:
    outcomes = {m.label: {k: generic.passed(r) for k, r in m.responses().items() if r.item.kind == "calculation"}
                for m in runset.models}
    outcomes = {label: v for label, v in outcomes.items() if v}
    if len(outcomes) < 2:
        notes["pairwise"] = (f"pairwise tests need calculation items from at least two models; "
                             f"these runs give {len(outcomes)}")
        return None
    result = generic.pairwise(outcomes)
    if not any(p["n"] for p in result["pairs"]):
        notes["pairwise"] = "the models share no calculation item, so no pair can be tested"
        return None
    return {"kind": "calculation", **result}


def _medphys(runset: "RunSet", notes: dict[str, str]) -> dict[str, Any] | None:
    models = medphys.medphys_models(runset.models)
    if not models:
        notes["medphys"] = "no medphys runs among those given: the MedPhysBench analyses are left out"
        return None
    out: dict[str, Any] = {}
    acc = medphys.accuracy(models)
    out["accuracy"] = acc if acc["overall"] else None
    if out["accuracy"] is None:
        notes["accuracy"] = "no graded calculation responses in the medphys runs"
    checks = medphys.checking(models)
    out["checking"] = checks or None
    if not checks:
        notes["checking"] = "no graded checking responses in the medphys runs"
    out["scores"] = medphys.scores(models, acc, checks)
    formats = format_rows(models)
    out["formats"] = formats or None
    if not formats:
        notes["formats"] = "no model answered both worksheet and result checks of the same draws"
    quantity = quantity_rows(models)
    out["quantity"] = quantity
    if quantity is None:
        notes["quantity"] = "no planted result check changes the reported quantity in these runs"
    kinds = medphys.kinds_and_sizes(models)
    out["kinds_sizes"] = kinds or None
    if not kinds:
        notes["kinds_sizes"] = "no graded responses to planted checking items in the medphys runs"
    attr = attribution(models, ModeAnswers())
    out["attribution"] = attr
    if attr is None:
        notes["attribution"] = "no wrong calculation answers to attribute"
    comp = comparator(models)
    out["comparator"] = comp or None
    solved = solved_rows(models)
    out["solved"] = solved or None
    if not comp and not solved:
        notes["comparator"] = "no check whose calculation item the same model answered"
    return out


def analyse(runset: "RunSet") -> dict[str, Any]:
    """{"models", "analyses", "notes"} for the runs of one report."""
    notes: dict[str, str] = {}
    analyses: dict[str, Any] = {"outcomes": generic.outcome_counts(runset.models)}
    analyses["pairwise"] = _pairwise(runset, notes)
    analyses["repeats"] = generic.repeat_rows(runset) or None
    analyses["consistency"] = generic.consistency_rows(runset) or None
    if analyses["repeats"] is None:
        notes["repeats"] = ("no repeated runs: give two runs of the same model, split and protocol, "
                            "or a run with --repeats 2 or more")
    analyses["medphys"] = _medphys(runset, notes)
    return {"models": model_list(runset), "analyses": analyses, "notes": notes}
