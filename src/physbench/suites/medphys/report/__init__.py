"""The MedPhysBench report: its analyses, sections, figures and viewer fields (seed 000 "Results",
"Checking", Tables 2, 6, 9, 12, 15, 17-22, 24, Section F), registered with the generic report."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from physbench.report.generic import flagged, value_in_reference_unit, within
from physbench.report.registry import SuiteReport
from physbench.suites.medphys.reference import reference_of
from physbench.suites.medphys.report import analyses as med
from physbench.suites.medphys.report import sections as sec
from physbench.suites.medphys.report import sections_tests as tests_sec
from physbench.suites.medphys.report.attribution import ModeAnswers, attribution
from physbench.suites.medphys.report.comparator import comparator, solved_rows
from physbench.suites.medphys.report.detectability import detectability_rows
from physbench.suites.medphys.report.figures import CAPTIONS, medphys_figures
from physbench.suites.medphys.report.formats import format_rows, quantity_rows
from physbench.suites.medphys.report.targeted import targeted_rows
from physbench.suites.medphys.report.viewer import COLUMNS, answer_text, detail, facet_values, row

if TYPE_CHECKING:
    from physbench.report.loading import RunData
    from physbench.runner.results import Result


def analyse(models: Sequence["RunData"], notes: dict[str, str]) -> dict[str, Any]:
    """Every MedPhysBench analysis of the primary medphys runs; a part without data gets a note."""
    out: dict[str, Any] = {}
    acc = med.accuracy(models)
    out["accuracy"] = acc if acc["overall"] else None
    if out["accuracy"] is None:
        notes["accuracy"] = "no graded calculation responses in the medphys runs"
    checks = med.checking(models)
    out["checking"] = checks or None
    if not checks:
        notes["checking"] = "no graded checking responses in the medphys runs"
    out["scores"] = med.scores(models, acc, checks)
    formats = format_rows(models)
    out["formats"] = formats or None
    if not formats:
        notes["formats"] = "no model answered both worksheet and result checks of the same draws"
    quantity = quantity_rows(models)
    out["quantity"] = quantity
    if quantity is None:
        notes["quantity"] = "no planted result check changes the reported quantity in these runs"
    kinds = med.kinds_and_sizes(models)
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
    out["letters"] = med.calculation_letters(models) or None
    targeted = targeted_rows(models)
    out["targeted"] = targeted or None
    if not targeted:
        notes["targeted"] = "no targeted-test run (eval medphys --split targeted:GEN:LEVEL:MODE:N:START)"
    detect = detectability_rows(models)
    out["detectability"] = detect or None
    if not detect:
        notes["detectability"] = "no calculation items with named error modes in the medphys runs"
    return out


def lead_sections(m: Any, notes: Any) -> list[Any]:
    return [sec.scores_section(m), sec.accuracy_section(m.get("accuracy"), notes.get("accuracy"))]


def sections(m: Any, notes: Any) -> list[Any]:
    return [
        sec.checking_section(m, notes.get("checking")),
        sec.formats_section(m.get("formats"), notes.get("formats")),
        sec.quantity_section(m.get("quantity"), notes.get("quantity")),
        sec.kinds_sizes_section(m.get("kinds_sizes"), notes.get("kinds_sizes")),
        sec.attribution_section(m.get("attribution"), notes.get("attribution")),
        sec.comparator_section(m.get("comparator"), m.get("solved"), m.get("checking"), notes.get("comparator")),
        tests_sec.targeted_section(m.get("targeted"), notes.get("targeted")),
        tests_sec.detectability_section(m.get("detectability"), notes.get("detectability")),
    ]


def same_answer(first: "Result", second: "Result") -> bool:
    """Two wrong calculation answers agree within the item's band (seed 000 Table 14, "same value")."""
    v1, v2 = value_in_reference_unit(first), value_in_reference_unit(second)
    return v1 is not None and v2 is not None and within(v2, v1, reference_of(first.item).band)


REPORT = SuiteReport(
    suite="medphys", analyse=analyse, lead_sections=lead_sections, sections=sections, figures=medphys_figures,
    captions=CAPTIONS, pairwise_kinds=("calculation",), same_answer=same_answer, same_answer_kinds=("calculation",),
    flagged=flagged, verdict_kinds=med.CHECK_KINDS, facets=("generator", "level"), facet_values=facet_values,
    answer_text=answer_text, columns=COLUMNS, row=row, detail=detail, breaks_down_groups=True,
)
