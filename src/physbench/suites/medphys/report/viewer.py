"""What `physbench view` shows of a medphys response: its generator and level, the value or verdict
the grader read, the planted mode, and the named error modes a wrong answer matches (seed 000 Section G)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Mapping

from physbench.report.generic import passed, value_in_reference_unit
from physbench.suites.medphys.reference import reference_of
from physbench.suites.medphys.report.analyses import CHECK_KINDS, level_of, planted_meta
from physbench.suites.medphys.report.attribution import ModeAnswers

if TYPE_CHECKING:
    from physbench.runner.results import Result

COLUMNS = (("planted", "planted"), ("attributed", "attributed to"))
_ANSWERS = ModeAnswers()  # error-mode answers per item, shared by every index of this process


def facet_values(r: "Result") -> dict[str, str]:
    level, generator = level_of(r.item), r.item.meta.get("generator")
    return {"generator": "" if generator is None else str(generator), "level": "" if level is None else str(level)}


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


def attributed(r: "Result") -> list[dict[str, Any]]:
    """The named error modes a wrong calculation answer lies within the band of, closest first."""
    if r.item.kind != "calculation" or passed(r):
        return []
    return [{"generator": m.generator, "mode": m.mode, "description": m.description, "value": m.value}
            for m in _ANSWERS.matches(r.item, value_in_reference_unit(r))]


def row(r: "Result") -> dict[str, Any]:
    """The list's extra columns: the planted mode of a check and the modes a wrong answer matches."""
    planted = planted_meta(r.item).get("mode") if reference_of(r.item).planted else None
    return {"planted": planted, "attributed": [a["mode"] for a in attributed(r)]}


def detail(r: "Result") -> dict[str, Any]:
    """The detail panel's medphys blocks: the reference, the parsed value and the attributed modes."""
    g, ref = r.grade, reference_of(r.item)
    parsed = {"answer": answer_text(r), "value": g.value if g else None, "unit": g.unit if g else None,
              "in_reference_unit": value_in_reference_unit(r), "rel_error": g.rel_error if g else None}
    modes = attributed(r)
    reference = [["value", ref.value], ["unit", ref.unit], ["band", ref.band]]
    if r.item.kind in CHECK_KINDS:
        reference += [["planted error", ref.planted], ["first error step", ref.first_error_step],
                      ["colleague's result", ref.shown_value], ["planted mode", planted_meta(r.item).get("mode")]]
    empty = ("no named error mode matches this answer within the band"
             if r.item.kind == "calculation" and not passed(r) else "–")
    blocks: list[Mapping[str, Any]] = [
        {"title": "Reference", "fields": reference},
        {"title": "Parsed value", "fields": [["read", parsed["answer"]], ["value", parsed["value"]],
                                              ["unit", parsed["unit"]], ["in reference unit", parsed["in_reference_unit"]],
                                              ["relative error", parsed["rel_error"]]]},
        {"title": "Attributed error mode", "empty": empty,
         "items": [f"{a['generator']} · {a['mode']}: {a['description']} (answer {a['value']:.6g})" for a in modes]},
    ]
    return {"band": ref.band, "parsed": parsed, "attributed": modes, "blocks": blocks}
