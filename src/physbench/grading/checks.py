"""Grading a checking response (worksheet check, result check): verdict, localisation, corrected value.

MedPhysBench ("Grading"; "Evaluation setup", Outcomes): a correct calculation scores 1 when
judged correct; a planted error scores 1 in a worksheet check when judged incorrect and the
first wrong step is named, in a result check when judged incorrect. A response without a
verdict is a miss on a planted error and neither a false alarm nor an acceptance on a correct
calculation. Detection, false alarm, localisation and the corrected value are kept apart.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from physbench.grading import outcomes
from physbench.grading.calculation import grade_text_answer, prepare
from physbench.grading.types import Grade
from physbench.grading.verdict import CheckReading, read_verdict

CHECK_KINDS = ("worksheet_check", "result_check")


@dataclass(frozen=True)
class CheckKey:
    """What a check is graded against: the correct result, whether an error was planted and, for
    worksheets, the planted error's step. Any object with these attributes will do; `planted`
    None is not a check key (grading it is a programming error)."""

    value: float | None
    unit: str | None
    planted: bool | None = None
    first_error_step: int | None = None


def _score(reading: CheckReading, planted: bool, kind: str, planted_step: int | None) -> float:
    if not planted:
        return 1.0 if reading.verdict == "correct" else 0.0
    if reading.verdict != "incorrect":
        return 0.0
    if kind == "worksheet_check":
        return 1.0 if reading.first_error_step is not None and reading.first_error_step == planted_step else 0.0
    return 1.0


def grade_check(text: str, reference: Any, band: float, kind: str, *,
                finish_reason: str | None = None) -> Grade:
    """Grade one response to a worksheet or result check. Never raises on model text."""
    if kind not in CHECK_KINDS:
        raise ValueError(f"kind must be one of {CHECK_KINDS}, got {kind!r}")
    if getattr(reference, "planted", None) is None:
        raise ValueError("a check needs a reference with `planted` set")
    planted = bool(reference.planted)
    if planted and kind == "worksheet_check" and reference.first_error_step is None:
        raise ValueError("a planted worksheet check needs reference.first_error_step")
    text, target, band, detail = prepare(text, reference, band, finish_reason)
    detail.update(kind=kind, planted=planted)
    reading = read_verdict(text)
    if reading is None or reading.verdict is None:
        # no verdict: a miss on a planted error; neither alarm nor acceptance on a correct one
        detail.update(detected=False if planted else None, false_alarm=None, accepted=None)
        localized = False if planted and kind == "worksheet_check" else None
        if reading is not None:
            detail["object"] = reading.raw
        return Grade(score=0.0, passed=False, outcome=outcomes.no_verdict_outcome(text, finish_reason),
                     localized=localized, detail=detail)

    flagged = reading.verdict == "incorrect"
    score = _score(reading, planted, kind, reference.first_error_step)
    localized = None
    if planted and kind == "worksheet_check":
        localized = flagged and reading.first_error_step == reference.first_error_step
    detail.update(detected=flagged if planted else None, false_alarm=flagged if not planted else None,
                  accepted=(not flagged) if not planted else None, object=reading.raw)

    corrected_value = corrected_unit = corrected_passed = None
    if reading.corrected is not None:
        answer, judged = grade_text_answer(reading.corrected, target, band)
        if answer is not None and judged is not None:
            corrected_value = answer.value
            corrected_unit = answer.unit if answer.value is not None else None
            corrected_passed = judged.outcome == "correct"
            detail["corrected"] = {"outcome": judged.outcome, "rel_error": judged.rel_error,
                                   "reason": judged.reason}
        else:
            corrected_passed = False
            detail["corrected"] = {"outcome": "no_answer", "rel_error": None, "reason": "no number"}
    passed = score == 1.0
    return Grade(score=score, passed=passed, outcome="correct" if passed else "wrong",
                 verdict=reading.verdict, flagged=flagged, first_error_step=reading.first_error_step,
                 localized=localized, corrected_value=corrected_value, corrected_unit=corrected_unit,
                 corrected_passed=corrected_passed, detail=detail)
