"""The data behind the response viewer: one row per stored response, filters, and a detail view.

Every response of every run given (repeats and later runs included) is listed with its model,
item, generator, level, kind and outcome; the detail holds the item's messages, the reference,
the grade, the value the grader read and, for a wrong calculation answer, the named error modes
whose answer it matches (seed 000 Section G). Values are returned as data, never as markup.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Mapping

from physbench.report.document import json_safe
from physbench.report.generic import CHECK_KINDS, passed, value_in_reference_unit
from physbench.report.medphys import level_of, planted_meta
from physbench.report.medphys_attribution import ModeAnswers

if TYPE_CHECKING:
    from physbench.report.loading import RunSet
    from physbench.runner.results import Result

FILTERS = ("model", "generator", "level", "kind", "outcome")
MAX_PAGE = 500
MAX_TEXT = 200_000  # characters of a response or message sent to the page; the rest is cut with a note
MAX_FILTER_VALUE = 200


@dataclass(frozen=True)
class Entry:
    """One response with the fields the list shows and filters on."""

    index: int
    model: str
    run_dir: str
    result: "Result"
    attributed: tuple[dict[str, Any], ...]
    facets: dict[str, str]


def facets_of(model: str, r: "Result") -> dict[str, str]:
    """The filter values of one response ("" where the item has none)."""
    level = level_of(r.item)
    generator = r.item.meta.get("generator")
    return {"model": model, "generator": "" if generator is None else str(generator),
            "level": "" if level is None else str(level), "kind": r.item.kind,
            "outcome": r.grade.outcome if r.grade else "ungraded"}


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.6g}" if math.isfinite(value) else str(value)
    return "" if value is None else str(value)


def answer_text(r: "Result") -> str:
    """What the grader read, in one short line: 'VALUE UNIT' or the verdict (and corrected result)."""
    g = r.grade
    if g is None:
        return ""
    if r.item.kind in CHECK_KINDS:
        if g.verdict is None:
            return "no verdict"
        parts = [g.verdict]
        if g.first_error_step is not None:
            parts.append(f"step {g.first_error_step}")
        if g.corrected_value is not None:
            parts.append(f"→ {_fmt(g.corrected_value)} {g.corrected_unit or ''}".rstrip())
        return ", ".join(parts)
    if g.value is None:
        return ""
    return f"{_fmt(g.value)} {g.unit or ''}".rstrip()


def _cut(text: str | None) -> dict[str, Any]:
    text = text or ""
    return {"text": text[:MAX_TEXT], "cut": max(0, len(text) - MAX_TEXT)}


class ResponseIndex:
    """All responses of a set of runs, in run order, with their attributions computed once."""

    def __init__(self, runset: "RunSet") -> None:
        answers = ModeAnswers()
        self.runs = [{"label": r.label, "run_dir": str(r.run_dir), "suite": r.suite, "split": r.manifest.split,
                      "model_spec": r.manifest.model_spec, "responses": len(r.results)} for r in runset.runs]
        self.entries: list[Entry] = []
        for run in runset.runs:
            for r in run.results:
                attributed: tuple[dict[str, Any], ...] = ()
                if r.item.kind == "calculation" and r.item.suite == "medphys" and not passed(r):
                    attributed = tuple({"generator": m.generator, "mode": m.mode, "description": m.description,
                                        "value": m.value}
                                       for m in answers.matches(r.item, value_in_reference_unit(r)))
                self.entries.append(Entry(len(self.entries), run.label, str(run.run_dir), r, attributed,
                                          facets_of(run.label, r)))

    def facets(self) -> dict[str, list[str]]:
        """The values each filter can take, in a stable order (levels numerically)."""
        values: dict[str, set[str]] = {f: set() for f in FILTERS}
        for e in self.entries:
            for name, value in e.facets.items():
                if value:
                    values[name].add(value)
        models = list(dict.fromkeys(e.model for e in self.entries))
        out = {name: sorted(vals) for name, vals in values.items()}
        out["model"] = models
        out["level"] = sorted(values["level"], key=lambda v: (len(v), v))
        return out

    def meta(self) -> dict[str, Any]:
        return {"runs": self.runs, "facets": self.facets(), "total": len(self.entries), "filters": list(FILTERS)}

    def query(self, filters: Mapping[str, str], offset: int = 0, limit: int = 100) -> dict[str, Any]:
        """Rows matching every given filter (exact values), a page of them from `offset`."""
        wanted = {k: v[:MAX_FILTER_VALUE] for k, v in filters.items() if k in FILTERS and v}
        matched = [e for e in self.entries if all(e.facets[k] == v for k, v in wanted.items())]
        offset = max(0, offset)
        limit = max(1, min(MAX_PAGE, limit))
        return {"total": len(self.entries), "matched": len(matched), "offset": offset,
                "rows": [self.row(e) for e in matched[offset: offset + limit]]}

    @staticmethod
    def row(e: Entry) -> dict[str, Any]:
        r, g = e.result, e.result.grade
        return json_safe({
            "id": e.index, **e.facets, "item": r.item.id, "repeat": r.repeat, "passed": passed(r),
            "answer": answer_text(r), "rel_error": g.rel_error if g else None,
            "planted": planted_meta(r.item).get("mode") if r.item.reference.planted else None,
            "attributed": [a["mode"] for a in e.attributed],
        })

    def detail(self, index: int) -> dict[str, Any] | None:
        if not 0 <= index < len(self.entries):
            return None
        e = self.entries[index]
        r = e.result
        item = r.item.to_dict()
        g = r.grade
        return json_safe({
            "id": e.index, **e.facets, "run_dir": e.run_dir, "item": r.item.id, "repeat": r.repeat,
            "messages": [{"role": m["role"], **_cut(m["content"])} for m in item["messages"]],
            "response": _cut(r.text), "finish_reason": r.finish_reason,
            "turns": [{k: (_cut(v) if isinstance(v, str) else v) for k, v in t.items()} for t in (r.turns or [])
                      if isinstance(t, dict)],
            "reference": item["reference"], "band": r.item.band, "meta": item["meta"],
            "grade": g.to_dict() if g else None,
            "parsed": {"answer": answer_text(r), "value": g.value if g else None, "unit": g.unit if g else None,
                       "in_reference_unit": value_in_reference_unit(r), "rel_error": g.rel_error if g else None},
            "attributed": list(e.attributed),
            "usage": r.usage, "latency_s": r.latency, "errors": r.errors,
        })
