"""The full report: runs read, analysed, laid out as sections, with figures; then Markdown, HTML or JSON.

Everything is computed in memory before anything is written, so a failure leaves no half report.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from physbench.report.analyses import analyse
from physbench.report.loading import RunSet, load_runs
from physbench.report.sections_generic import (
    outcomes_section, pairwise_section, repeats_section, run_detail_sections, runs_section,
)
from physbench.report.sections_medphys import (
    accuracy_section, attribution_section, checking_section, comparator_section, formats_section,
    kinds_sizes_section, quantity_section, scores_section,
)
from physbench.report.tables import Section


@dataclass
class Report:
    """What `physbench report` writes: the JSON document, its sections, and figures as PNG bytes."""

    doc: dict[str, Any]
    sections: list[Section]
    figures: dict[str, bytes]


def sections_of(doc: Mapping[str, Any]) -> list[Section]:
    """The report's sections in reading order; a section without data carries its one-line note."""
    a, notes = doc["analyses"], doc["notes"]
    out = [runs_section(doc["runs"], doc["models"])]
    med = a.get("medphys")
    if med is None:
        out.append(Section("medphys", "MedPhysBench analyses", note=notes.get("medphys")))
    else:
        out += [scores_section(med), accuracy_section(med.get("accuracy"), notes.get("accuracy"))]
    out.append(pairwise_section(a.get("pairwise"), notes.get("pairwise")))
    if med is not None:
        out += [
            checking_section(med, notes.get("checking")),
            formats_section(med.get("formats"), notes.get("formats")),
            quantity_section(med.get("quantity"), notes.get("quantity")),
            kinds_sizes_section(med.get("kinds_sizes"), notes.get("kinds_sizes")),
            attribution_section(med.get("attribution"), notes.get("attribution")),
            comparator_section(med.get("comparator"), med.get("solved"), med.get("checking"), notes.get("comparator")),
        ]
    out.append(repeats_section(a.get("repeats"), a.get("consistency"), notes.get("repeats")))
    out.append(outcomes_section(a.get("outcomes") or []))
    out += run_detail_sections(doc["runs"], doc["models"])
    return out


def build_report(runset: RunSet, *, figures: bool = True) -> Report:
    """Analyse the runs and lay the report out (figures only when asked: they cost a second or so)."""
    from physbench.report.figures import make_figures

    doc: dict[str, Any] = {"runs": [r.summary for r in runset.runs], **analyse(runset)}
    return Report(doc, sections_of(doc), make_figures(doc["analyses"]) if figures else {})


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
