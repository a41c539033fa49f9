"""The full report: runs read, analysed, laid out as sections, with figures; then Markdown, HTML or JSON.

Everything is computed in memory before anything is written, so a failure leaves no half report.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from physbench.report.analyses import analyse
from physbench.report.loading import RunSet, load_runs
from physbench.report.registry import SuiteReport, reports_for
from physbench.report.sections_generic import (
    outcomes_section, pairwise_section, repeats_section, run_detail_sections, runs_section,
)
from physbench.report.tables import Section
from physbench.report.verdict import verdict_rows, verdict_section


@dataclass
class Report:
    """What `physbench report` writes: the JSON document, its sections, and figures as PNG bytes."""

    doc: dict[str, Any]
    sections: list[Section]
    figures: dict[str, bytes]
    captions: dict[str, str]


def suite_reports(doc: Mapping[str, Any]) -> list[SuiteReport]:
    """The reports of the suites whose runs the document holds, in run order."""
    return reports_for([m["suite"] for m in doc["models"]])


def sections_of(doc: Mapping[str, Any]) -> list[Section]:
    """The report's sections in reading order; a section without data carries its one-line note.

    The verdict and the runs first; then each suite's lead sections (its headline numbers); the generic pairwise
    comparison; each suite's other sections; repeated runs, outcomes, and the runs in detail.
    """
    a, notes = doc["analyses"], doc["notes"]
    reports = [(rep, a.get(rep.suite)) for rep in suite_reports(doc)]
    suite_outcomes = {o: text for rep, _ in reports for o, text in rep.outcomes.items()}
    grouped = {rep.suite for rep, data in reports if data is not None and rep.breaks_down_groups}
    out = [verdict_section(a.get("verdict")), runs_section(doc["runs"], doc["models"])]
    if len([1 for _, data in reports if data is not None]) > 1:  # several suites: each under its own part
        out += [pairwise_section(a.get("pairwise"), notes.get("pairwise")),
                repeats_section(a.get("repeats"), a.get("consistency"), notes.get("repeats")),
                outcomes_section(a.get("outcomes") or [], suite_outcomes)]
        for rep, data in reports:
            out += _suite_part(rep, data, notes)
        return _distinct_titles(out + run_detail_sections(doc["runs"], doc["models"], grouped))
    for rep, data in reports:
        if data is not None and rep.lead_sections is not None:
            out += rep.lead_sections(data, notes)
    out.append(pairwise_section(a.get("pairwise"), notes.get("pairwise")))
    for rep, data in reports:
        if data is not None and rep.sections is not None:
            out += rep.sections(data, notes)
    out.append(repeats_section(a.get("repeats"), a.get("consistency"), notes.get("repeats")))
    out.append(outcomes_section(a.get("outcomes") or [], suite_outcomes))
    out += run_detail_sections(doc["runs"], doc["models"], grouped)
    return _distinct_titles(out)


def _suite_part(rep: SuiteReport, data: Any, notes: Mapping[str, str]) -> list[Section]:
    """A suite's sections under one heading of their own (a report on runs of several suites)."""
    if data is None:
        return []
    inner = (rep.lead_sections(data, notes) if rep.lead_sections else []) + \
        (rep.sections(data, notes) if rep.sections else [])
    for section in inner:
        section.level = 3
    head = Section(f"part-{rep.suite}", f"{rep.suite} suite",
                   f"The sections below are computed from the {rep.suite} runs only.")
    return [head, *inner]


def _distinct_titles(sections: list[Section]) -> list[Section]:
    """No two sections share a title: a later one with a title already used names its suite (from
    its key, e.g. clincalc-outcomes) or its place."""
    seen: set[str] = set()
    for n, section in enumerate(sections, start=1):
        if section.title in seen:
            owner = section.key.split("-", 1)[0] if "-" in section.key else ""
            section.title = f"{section.title} ({owner})" if owner and f"{section.title} ({owner})" not in seen \
                else f"{section.title} ({n})"
        seen.add(section.title)
    return sections


def build_report(runset: RunSet, *, figures: bool = True) -> Report:
    """Analyse the runs and lay the report out (figures only when asked: they cost a second or so)."""
    from physbench.report.figures import captions, make_figures

    doc: dict[str, Any] = {"runs": [r.summary for r in runset.runs], **analyse(runset)}
    doc["analyses"]["verdict"] = verdict_rows(runset.models)
    reports = suite_reports(doc)
    return Report(doc, sections_of(doc), make_figures(doc["analyses"], reports) if figures else {}, captions(reports))


def json_safe(obj: Any) -> Any:
    """`obj` with every NaN or infinity as None and tuples as lists, so that it dumps as strict JSON."""
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {str(k): json_safe(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [json_safe(v) for v in obj]
    return obj


def report_for(run_dirs: Sequence[str], *, figures: bool = True) -> Report:
    return build_report(load_runs(run_dirs), figures=figures)
