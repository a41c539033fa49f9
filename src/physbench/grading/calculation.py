"""Grading a calculation answer: read the quantity, convert it to the reference unit, apply the band.

MedPhysBench ("Grading", "Grading details"): a response passes when its answer, converted to
the reference unit, lies inside the relative band. A dimensional reference needs a unit; a
range, alternatives or an invalid unit are format errors; an answer in another dimension
(Sv for a Gy reference) is wrong. Responses without a gradable answer are labelled blocked,
truncated or stopped short (the seed's "interrupted") as the seed's Outcomes paragraph describes.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from typing import Any, NamedTuple

from physbench.grading import outcomes
from physbench.grading.alternatives import Stated, hedged_after
from physbench.grading.extract import MAX_RESPONSE, Candidate, find_answer
from physbench.grading.normalize import MAX_ANSWER, after_last_relation, clean
from physbench.grading.quantity import Reading, parse_quantity, parse_unit, read_quantity
from physbench.grading.types import Grade, calculation_grade
from physbench.grading.units import conversion_factor, dimensionless, scan_unit

_LEADING_WORD = re.compile(r"\s*([^\W\d_]{1,24})")
_TRIVIAL_AFTER = " \t$.,;:!)]}*"  # what commonly follows a box and says nothing ("$.", "}$")
_BAND_SLACK = 1e-9  # relative slack so that a value exactly on the band edge passes despite rounding


class Target(NamedTuple):
    """A reference answer ready for comparison: value in the unit `expr`."""

    value: float
    unit: str
    expr: str
    dimensional: bool


@lru_cache(maxsize=1024)
def _reference_unit(unit: str) -> tuple[str, str, float, bool]:
    """(pint expression, shown unit, count factor, dimensional) of a reference unit."""
    parsed = parse_unit(unit)
    if parsed is None:
        raise ValueError(f"reference unit {unit!r} is not a unit this grader knows")
    return parsed.expr, parsed.shown, parsed.factor, not dimensionless(parsed.expr)


def _target(value: float, unit: str) -> Target:
    if not math.isfinite(value):
        raise ValueError(f"reference value must be finite, got {value!r}")
    expr, shown, factor, dimensional = _reference_unit(unit)
    return Target(value * factor, shown, expr, dimensional)


@lru_cache(maxsize=1024)
def _target_from_text(text: str) -> Target:
    q = parse_quantity(text)
    if q is None:
        raise ValueError(f"reference {text!r} is not one 'VALUE UNIT' quantity")
    return _target(*q)


def resolve_reference(reference: Any) -> Target:
    """A reference given as "1.018 cGy/MU", (value, unit), or any object with `value` and `unit`
    attributes (a suite's own reference type)."""
    if isinstance(reference, str):
        return _target_from_text(reference.strip())
    if isinstance(reference, tuple) and len(reference) == 2:
        return _target(float(reference[0]), reference[1] or "")
    if hasattr(reference, "value") and hasattr(reference, "unit"):
        if reference.value is None:
            raise ValueError("reference has no value")
        return _target(float(reference.value), reference.unit or "")
    raise TypeError(f"reference must be a string, (value, unit) or have value and unit, got {type(reference).__name__}")


def check_band(band: float) -> float:
    """The relative tolerance as a float fraction (0.005 = 0.5%)."""
    band = float(band)
    if not math.isfinite(band) or band < 0:
        raise ValueError(f"band must be a finite fraction >= 0, got {band!r}")
    return band


def _outside_box(reading: Reading, candidate: Candidate) -> Reading:
    """What follows a box on its line: a bare boxed number takes the unit written right after it
    (`\\boxed{317} MU`); arithmetic on the box or a hedged second value makes it a format error."""
    if reading.error or reading.stated is None or not candidate.after.strip(_TRIVIAL_AFTER):
        return reading
    s = clean(candidate.after).lstrip(" }$)]")
    if not reading.unit:
        unit = scan_unit(s, 0)
        if unit.expr and not unit.invalid:
            value = None if reading.value is None else reading.value * unit.factor
            stated = Stated(reading.stated.text, unit, value)
            reading = Reading(value, unit.shown, unit.expr, None, f"{reading.text} {s[: unit.end]}".strip(),
                              "", stated)
            s = s[unit.end:]
    why = hedged_after(s, reading.stated) if s else None
    if why is None or reading.stated is None:
        return reading
    return reading._replace(error=why)


class Comparison(NamedTuple):
    """How a reading compares with a target."""

    outcome: str              # correct, wrong or format_error
    rel_error: float | None
    converted: float | None   # the value in the reference unit
    reason: str | None


def judge(reading: Reading, target: Target, band: float) -> Comparison:
    """Compare one reading with the target: pass when |value - reference| <= band * |reference|
    after conversion to the reference unit (for a reference of exactly 0, |value| <= band)."""
    if reading.error is not None or reading.value is None:
        return Comparison("format_error", None, None, reading.error or "no value")
    if not reading.expr and target.dimensional:
        word = _LEADING_WORD.match(reading.rest)
        unknown = f" ({word.group(1)!r} is not a unit this grader knows)" if word else ""
        return Comparison("format_error", None, None, "a bare number where the reference has a unit" + unknown)
    factor = conversion_factor(reading.expr, target.expr)
    if factor is None:
        return Comparison("wrong", None, None, f"unit {reading.unit or 'none'!r} cannot be converted to "
                                            f"{target.unit or 'a pure number'!r}")
    converted = reading.value * factor
    if not math.isfinite(converted):
        return Comparison("wrong", None, None, "value out of range")
    if target.value == 0.0:  # no relative error exists; the band is then an absolute tolerance
        ok = abs(converted) <= band
        return Comparison("correct" if ok else "wrong", None, converted, None)
    rel = abs(converted - target.value) / abs(target.value)
    if not math.isfinite(rel):
        return Comparison("wrong", None, converted, "value out of range")
    ok = rel <= band * (1.0 + _BAND_SLACK) + 1e-15
    return Comparison("correct" if ok else "wrong", rel, converted, None)


def _no_answer_grade(outcome: str, detail: dict[str, Any]) -> Grade:
    return Grade(score=0.0, passed=False, outcome=outcome, detail=detail)


def grade_text_answer(answer: str, target: Target, band: float) -> tuple[Reading | None, Comparison | None]:
    """Grade one short answer string (a checking response's corrected result) like a calculation."""
    reading = read_quantity(after_last_relation(answer[:MAX_ANSWER]))
    if reading is None:
        return None, None
    return reading, judge(reading, target, band)


def prepare(text: Any, reference: Any, band: float,
            finish_reason: str | None) -> tuple[str, Target, float, dict[str, Any]]:
    """The response as bounded text, the resolved reference and band, and the detail to fill."""
    target = resolve_reference(reference)
    band = check_band(band)
    if not isinstance(text, str):
        text = "" if text is None else str(text)
    if len(text) > MAX_RESPONSE:
        text = text[-MAX_RESPONSE:]
    detail: dict[str, Any] = {"reference": {"value": target.value, "unit": target.unit}, "band": band}
    if finish_reason:
        detail["finish_reason"] = finish_reason
    return text, target, band, detail


def grade_calculation(text: str, reference: Any, band: float, *,
                      finish_reason: str | None = None) -> Grade:
    """Grade one response to a calculation item. Never raises on model text.

    A boxed answer or an answer line is graded whatever the finish reason. Without one: a
    provider's stop or policy notice is "blocked", a token-limit stop "truncated" (a cut-off
    text's last number is no answer); otherwise the last equation or number is graded, and a
    response under 400 characters that does not pass is "stopped_short" (the paper's "interrupted").
    """
    text, target, band, detail = prepare(text, reference, band, finish_reason)
    candidate = find_answer(text)
    strong = candidate is not None and (candidate.source == "boxed" or candidate.source == "answer_line")
    if not strong:  # without a boxed answer or answer line, a stop or notice is the outcome
        if outcomes.blocked_by_reason(finish_reason) or outcomes.policy_notice(text):
            return _no_answer_grade("blocked", detail)
        if outcomes.truncated(finish_reason):  # a cut-off text's last number is not an answer
            return _no_answer_grade("truncated", detail)
    reading = read_quantity(candidate.text) if candidate is not None else None
    if candidate is None or reading is None:
        return _no_answer_grade("stopped_short" if outcomes.short(text) else "no_answer", detail)

    if candidate.source == "boxed" and candidate.after:
        reading = _outside_box(reading, candidate)
    if candidate.joined and reading.error is None:
        reading = reading._replace(error="a range or alternatives")
    comparison = judge(reading, target, band)
    detail["source"] = candidate.source
    detail["answer"] = reading.text[:200]
    if comparison.reason:
        detail["reason"] = comparison.reason
    if comparison.converted is not None:
        detail["converted"] = comparison.converted
    outcome = comparison.outcome
    if outcome != "correct" and not strong and outcomes.short(text):
        outcome = "stopped_short"  # under 400 characters with no boxed answer or answer line
    passed = outcome == "correct"
    return calculation_grade(1.0 if passed else 0.0, passed, outcome, reading.value,
                             reading.unit if reading.value is not None else None, comparison.rel_error, detail)
