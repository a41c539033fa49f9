"""The planning report (001_*): decision accuracy by task family with exact intervals, and Tables
S10 and S14 (patient-weighted accuracy with patient-bootstrap intervals) from the graded attempts."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from physbench.report.breakdown import accuracy_by, accuracy_section
from physbench.report.registry import SuiteReport
from physbench.report.tables import Section, Table

if TYPE_CHECKING:
    from physbench.report.loading import RunData
    from physbench.runner.results import Result

N_BOOT = 2_000  # fewer draws than `planning run` (10,000): a report rebuilds them for every model


def _family(r: "Result") -> Iterable[tuple[str, bool]]:
    detail = r.grade.detail if r.grade is not None else {}
    yield str(detail.get("family") or r.item.params.get("family") or "?"), bool(r.grade and r.grade.passed)


def analyse(models: Sequence["RunData"], notes: dict[str, str]) -> dict[str, Any] | None:
    from physbench.suites.planning.summary import table_s10
    from physbench.suites.planning.tasks import SCORED

    families = accuracy_by(models, _family)
    if not families:
        notes["planning"] = "no graded planning responses"
        return None
    s10 = []
    for run in models:
        rows = [r.grade.detail for r in run.results if r.grade is not None and r.grade.detail.get("family") in SCORED]
        if rows:
            s10.append({"model": run.label, **table_s10(rows, n_boot=N_BOOT)})
    return {"families": families, "table_s10": s10}


def _estimate(e: Mapping[str, Any]) -> str:
    return "–" if e.get("value") is None else f"{e['value']:g} ({e['lo']:g}–{e['hi']:g})"


def sections(analyses: Mapping[str, Any], notes: Mapping[str, str]) -> list[Section]:
    a = analyses
    note = notes.get("planning", "no planning runs")
    out = [accuracy_section("planning-families", "Decision accuracy by task family", "A submit or escalate "
                            "decision is correct when it is the proven one for the task.", "family",
                            a.get("families"), note)]
    if a.get("table_s10"):
        rows = [[t["model"], _estimate(t["primary"]), _estimate(t["equal_family"]), _estimate(t["equal_task"])]
                for t in a["table_s10"]]
        out.append(Section("planning-s10", "Patient-weighted decision accuracy (Table S10)",
                           f"Scored families only; 95% patient-bootstrap intervals ({N_BOOT} draws).",
                           [Table("Decision accuracy %", ["model", "primary", "equal family", "equal task"], rows)]))
    return out


REPORT = SuiteReport(suite="planning", analyse=analyse, sections=sections,
                     facets=("family",), facet_values=lambda r: {"family": str(r.item.params.get("family", ""))})
