"""The data behind the response viewer: one row per stored response, filters, and a detail view.

Every response of every run given (repeats and later runs included) is listed with its model,
item, kind, outcome and the filters its suite adds (medphys: generator, level); the detail holds
the item's messages, the reference, the grade, the structured answer (steps, value, tool log) and
the blocks its suite adds (medphys: the parsed value and the named error modes a wrong answer
matches, seed 000 Section G). Values are returned as data, never as markup; floats are rounded to
four significant figures for reading.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Mapping

from physbench.grading.types import OUTCOMES, outcome_meaning
from physbench.report.document import json_safe
from physbench.report.generic import passed
from physbench.report.registry import SuiteReport, reports_for

if TYPE_CHECKING:
    from physbench.report.loading import RunSet
    from physbench.runner.results import Result

BASE_FILTERS = ("model", "kind", "outcome")
MAX_PAGE = 500
MAX_TEXT = 200_000  # characters of a response or message sent to the page; the rest is cut with a note
MAX_FILTER_VALUE = 200
MAX_ANSWER = 120  # characters of the one-line answer of a suite without its own reader
SIGNIFICANT = 4  # figures a number is shown to: enough to compare with a band of 0.5%, no float noise


def rounded(obj: Any, digits: int = SIGNIFICANT) -> Any:
    """`obj` with every float rounded to `digits` significant figures (integers and text untouched)."""
    if isinstance(obj, float):
        return float(f"{obj:.{digits}g}") if math.isfinite(obj) else obj
    if isinstance(obj, dict):
        return {k: rounded(v, digits) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [rounded(v, digits) for v in obj]
    return obj


@dataclass(frozen=True)
class Entry:
    """One response with the fields the list shows and filters on."""

    index: int
    model: str
    run_dir: str
    result: "Result"
    columns: dict[str, Any]
    facets: dict[str, Any]  # a tuple: several values (see facets_of)


def _first_line(text: str | None) -> str:
    line = next((ln.strip() for ln in reversed((text or "").splitlines()) if ln.strip()), "")
    return line if len(line) <= MAX_ANSWER else line[: MAX_ANSWER - 1] + "…"


def _cut(text: str | None) -> dict[str, Any]:
    text = text or ""
    return {"text": text[:MAX_TEXT], "cut": max(0, len(text) - MAX_TEXT)}


class ResponseIndex:
    """All responses of a set of runs, in run order, with their suites' columns computed once."""

    def __init__(self, runset: "RunSet") -> None:
        self.reports: dict[str, SuiteReport] = {rep.suite: rep for rep in reports_for([r.suite for r in runset.runs])}
        facets = [f for rep in self.reports.values() for f in rep.facets]
        self.filters = ("model", *dict.fromkeys(f for f in facets if f not in BASE_FILTERS), "kind", "outcome")
        self.columns = list(dict.fromkeys(c for rep in self.reports.values() for c in rep.columns))
        self.runs = [{"label": r.label, "full_label": r.full_label, "run_dir": str(r.run_dir), "suite": r.suite,
                      "split": r.manifest.split, "model_spec": r.manifest.model_spec, "responses": len(r.results)}
                     for r in runset.runs]
        self._completion = {str(r.run_dir) for r in runset.runs  # runs of the local model prompted as a completion
                            if (r.manifest.model_info or {}).get("prompting") == "few-shot completion"}
        self.entries: list[Entry] = []
        for run in runset.runs:
            for r in run.results:
                rep = self.reports.get(r.item.suite)
                columns = dict(rep.row(r)) if rep is not None and rep.row is not None else {}
                self.entries.append(Entry(len(self.entries), run.label, str(run.run_dir), r, columns,
                                          self.facets_of(run.label, r)))

    def facets_of(self, model: str, r: "Result") -> dict[str, Any]:
        """The filter values of one response ("" where the item has none)."""
        rep = self.reports.get(r.item.suite)
        extra = rep.facet_values(r) if rep is not None and rep.facet_values is not None else {}
        out: dict[str, Any] = {f: "" for f in self.filters}
        # a list value: the response matches each of its values (a checkpoint attempt answers several steps)
        out.update({k: tuple(map(str, v)) if isinstance(v, (list, tuple)) else str(v) for k, v in extra.items()
                    if k in out})
        out.update({"model": model, "kind": r.item.kind, "outcome": r.grade.outcome if r.grade else "ungraded"})
        return out

    def answer_text(self, r: "Result") -> str:
        rep = self.reports.get(r.item.suite)
        if rep is not None and rep.answer_text is not None:
            return rep.answer_text(r)
        return _first_line(r.text)

    def facets(self) -> dict[str, list[str]]:
        """The values each filter can take, in a stable order (numbers numerically)."""
        values: dict[str, set[str]] = {f: set() for f in self.filters}
        for e in self.entries:
            for name, value in e.facets.items():
                values[name].update(value if isinstance(value, tuple) else (value,) if value else ())
        out = {name: sorted(vals, key=lambda v: (len(v), v) if v.isdigit() else (0, v)) for name, vals in values.items()}
        out["model"] = list(dict.fromkeys(e.model for e in self.entries))
        return out

    def meta(self) -> dict[str, Any]:
        suite_outcomes = {o: text for rep in self.reports.values() for o, text in rep.outcomes.items()}
        names = dict.fromkeys([*OUTCOMES, *self.facets()["outcome"]])
        return {"runs": self.runs, "facets": self.facets(), "total": len(self.entries), "filters": list(self.filters),
                "columns": [list(c) for c in self.columns],
                "outcomes": {o: outcome_meaning(o, suite_outcomes) for o in names}, "legend": self.legend()}

    def legend(self) -> list[dict[str, Any]]:
        """Each suite's outcomes with their meanings: those its report defines, else the shared ones,
        and any other outcome its responses hold."""
        seen: dict[str, dict[str, None]] = {}
        for e in self.entries:
            seen.setdefault(e.result.item.suite, {})[e.facets["outcome"]] = None
        out = []
        for suite, outcomes in seen.items():
            rep = self.reports.get(suite)
            own = dict(rep.outcomes) if rep is not None else {}
            names = dict.fromkeys([*(own or OUTCOMES), *outcomes])
            out.append({"suite": suite, "outcomes": {o: outcome_meaning(o, own) for o in names}})
        return out

    def query(self, filters: Mapping[str, str], offset: int = 0, limit: int = 100) -> dict[str, Any]:
        """Rows matching every given filter (exact values), a page of them from `offset`."""
        wanted = {k: v[:MAX_FILTER_VALUE] for k, v in filters.items() if k in self.filters and v}
        matched = [e for e in self.entries if all(e.facets[k] == v or isinstance(e.facets[k], tuple)
                                                  and v in e.facets[k] for k, v in wanted.items())]
        offset = max(0, offset)
        limit = max(1, min(MAX_PAGE, limit))
        return {"total": len(self.entries), "matched": len(matched), "offset": offset,
                "rows": [self.row(e) for e in matched[offset: offset + limit]]}

    def row(self, e: Entry) -> dict[str, Any]:
        r, g = e.result, e.result.grade
        return rounded(json_safe({
            "id": e.index, **e.facets, "item": r.item.id, "repeat": r.repeat, "passed": passed(r),
            "answer": self.answer_text(r), "rel_error": g.rel_error if g else None, **e.columns,
        }))

    def detail(self, index: int) -> dict[str, Any] | None:
        if not 0 <= index < len(self.entries):
            return None
        e = self.entries[index]
        r = e.result
        item = r.item.to_dict()
        g = r.grade
        rep = self.reports.get(r.item.suite)
        extra = dict(rep.detail(r)) if rep is not None and rep.detail is not None else {}
        return rounded(json_safe({
            "id": e.index, **e.facets, "run_dir": e.run_dir, "item": r.item.id, "repeat": r.repeat,
            "messages": [{"role": m["role"], **_cut(m.get("content"))} for m in item["messages"]],
            "response": _cut(r.text), "finish_reason": r.finish_reason,
            "turns": [{k: (_cut(v) if isinstance(v, str) else v) for k, v in t.items()} for t in (r.turns or [])
                      if isinstance(t, dict)],
            "answer": _answer_data(r), "reference": item["reference"], "meta": item["meta"],
            "grade": g.to_dict() if g else None, "parsed": {"answer": self.answer_text(r)},
            "usage": r.usage, "latency_s": r.latency, "errors": r.errors, "blocks": [],
            "completion_prompt": self.completion_prompt(e), **extra,
        }))

    def completion_prompt(self, e: Entry) -> dict[str, Any] | None:
        """The completion text a run of the local model gave for this item's first turn (models/local.py
        builds it the same way from the suite), or None for any other model."""
        if e.run_dir not in self._completion:
            return None
        from physbench.core.registry import get_suite

        try:
            shots = get_suite(e.result.item.suite).completion_prompt(e.result.item)
        except Exception:  # a suite without one, or one that cannot build it: the chat form was sent
            return None
        return _cut(getattr(shots, "text", None))


def _answer_data(r: "Result") -> Any:
    """The structured part of the answer (steps, value, outcome, detail such as a tool log), cut to size."""
    data = r.answer
    if not data:
        return None
    text = json.dumps(data, default=str)
    return data if len(text) <= MAX_TEXT else {"cut": len(text), "text": text[:MAX_TEXT]}
