"""Reports owned by suites: each suite registers its analyses, sections, figures and viewer fields.

A suite object may carry a `report` attribute holding a `SuiteReport`; the generic report finds
it through the suite registry, so `report/` names no suite. Everything a suite gives is optional:
a suite with no `report` gets the generic sections only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

if TYPE_CHECKING:
    from physbench.report.loading import RunData
    from physbench.report.tables import Section
    from physbench.runner.results import Result


@dataclass(frozen=True)
class SuiteReport:
    """What a suite adds to `physbench report` and `physbench view`.

    - `analyse(models, notes)`: the suite's analyses of its primary runs as JSON-ready data (or None
      when there is nothing to show); it may add one-line notes (key -> reason) for left-out parts.
    - `lead_sections` / `sections`: the suite's report sections, before and after the generic
      pairwise comparison; each gets the suite's analyses and the notes.
    - `figures(analyses)`: PNG bytes by key, with `captions` by key.
    - `pairwise_kinds`: the kinds of item compared between models (None: every kind).
    - `same_answer(first, second)`: whether two failed responses gave the same wrong answer (the
      repeated-run table), for the kinds in `same_answer_kinds`.
    - `flagged(r)`: whether a checking response judged the work incorrect, for `verdict_kinds`.
    - `facets`: the viewer's extra filters; `facet_values(r)` gives a response's values.
    - `answer_text(r)`: what the grader read, in one line; `columns` ((key, title) pairs) with
      `row(r)` giving their values: the viewer list's extra columns; `detail(r)`: extra fields of
      the viewer's detail panel (plain JSON; a `blocks` list of {title, fields | items, empty} is
      drawn as panels).
    - `outcomes`: definitions of the suite's own outcome names, shown in the report and viewer.
    - `breaks_down_groups`: the suite's sections already give accuracy by item group, so the
      per-run details leave their by-group table out rather than repeat it.
    """

    suite: str
    analyse: Callable[[Sequence["RunData"], dict[str, str]], Any] | None = None
    lead_sections: Callable[[Mapping[str, Any], Mapping[str, str]], list["Section"]] | None = None
    sections: Callable[[Mapping[str, Any], Mapping[str, str]], list["Section"]] | None = None
    figures: Callable[[Mapping[str, Any]], dict[str, bytes]] | None = None
    captions: Mapping[str, str] = field(default_factory=dict)
    pairwise_kinds: tuple[str, ...] | None = None
    same_answer: Callable[["Result", "Result"], bool] | None = None
    same_answer_kinds: tuple[str, ...] = ()
    flagged: Callable[["Result"], bool] | None = None
    verdict_kinds: tuple[str, ...] = ()
    facets: tuple[str, ...] = ()
    facet_values: Callable[["Result"], Mapping[str, str]] | None = None
    answer_text: Callable[["Result"], str] | None = None
    columns: tuple[tuple[str, str], ...] = ()
    row: Callable[["Result"], Mapping[str, Any]] | None = None
    detail: Callable[["Result"], Mapping[str, Any]] | None = None
    outcomes: Mapping[str, str] = field(default_factory=dict)
    breaks_down_groups: bool = False


def suite_report(name: str) -> SuiteReport | None:
    """The report part of suite `name`, or None when the suite has none (or is not installed)."""
    from physbench.core.errors import UserError
    from physbench.core.registry import get_suite

    try:
        suite = get_suite(name)
    except UserError:
        return None
    report = getattr(suite, "report", None)
    return report if isinstance(report, SuiteReport) else None


def reports_for(suites: Sequence[str]) -> list[SuiteReport]:
    """The suite reports of the given suites, in the order given, each once."""
    out = []
    for name in dict.fromkeys(suites):
        rep = suite_report(name)
        if rep is not None:
            out.append(rep)
    return out
