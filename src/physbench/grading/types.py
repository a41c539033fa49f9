"""The grade: what the grader says about one response (shared by every suite)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal, Mapping

Outcome = Literal[
    "correct", "wrong", "format_error", "no_answer", "blocked", "stopped_short", "truncated", "unparsable",
]

# Every outcome a grader gives, with the one line the report and the viewer show for it. The order
# is the order of the report's columns.
OUTCOME_MEANINGS: dict[str, str] = {
    "correct": "the answer passed: within the band, or the right verdict",
    "wrong": "a readable answer that failed: outside the band, or the wrong verdict",
    "format_error": "an answer in a form the grader refuses: a range, alternatives, a missing or invalid unit",
    "no_answer": "a reply of 400 characters or more in which nothing reads as an answer",
    "blocked": "the provider stopped the reply or put a policy notice in its place",
    # MedPhysBench, "Evaluation setup": the paper calls this outcome "interrupted"; renamed here so that
    # it is not confused with a run stopped by Ctrl-C ("interrupted: re-run the same command to resume")
    "stopped_short": "under 400 characters and no answer tried: no boxed value, answer line or verdict field",
    "truncated": "the model hit its token limit before giving an answer",
    "unparsable": "a check's verdict field the grader cannot read, or 400+ characters with no verdict",
}
OUTCOMES: tuple[str, ...] = tuple(OUTCOME_MEANINGS)
# not a grader's outcome: an attempt that ended without a model reply after its retries (a technical
# failure), read back from a run as a no-credit grade (runner/results.py `RunReader.attempts`)
FAILED = "failed"
FAILED_MEANING = "no reply from the model after its retries (a technical failure): no credit"
# names older run stores hold, and the outcome each now reads as
RENAMED_OUTCOMES: dict[str, str] = {"interrupted": "stopped_short"}


def outcome_meaning(outcome: str, suite_outcomes: Mapping[str, str] | None = None) -> str:
    """The one-line meaning of an outcome: the shared table, then the suites' own definitions."""
    if outcome == "ungraded":
        return "a response stored without a grade"
    if outcome == FAILED:
        return FAILED_MEANING
    return OUTCOME_MEANINGS.get(outcome) or (suite_outcomes or {}).get(outcome) or \
        "an outcome of the suite's own grader"


@dataclass(frozen=True)
class Grade:
    """One graded response.

    Calculation: `value`/`unit` are what was read, `rel_error` is against the reference after
    conversion to the reference unit. Checks: `verdict` is "correct", "incorrect" or None,
    `flagged` is True when the colleague's work was judged incorrect, `localized` when the
    named first error step is the planted one, `corrected_*` grade the proposed value like a
    calculation answer.
    """

    score: float
    passed: bool
    outcome: str
    value: float | None = None
    unit: str | None = None
    rel_error: float | None = None
    verdict: str | None = None
    flagged: bool | None = None
    first_error_step: int | None = None
    localized: bool | None = None
    corrected_value: float | None = None
    corrected_unit: str | None = None
    corrected_passed: bool | None = None
    detail: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Grade":
        names = cls.__dataclass_fields__.keys()
        fields = {k: v for k, v in d.items() if k in names}
        if fields.get("outcome") in RENAMED_OUTCOMES:  # a store written before the rename
            fields["outcome"] = RENAMED_OUTCOMES[fields["outcome"]]
        return cls(**fields)


_BLANK = {name: f.default for name, f in Grade.__dataclass_fields__.items() if name != "detail"}


def calculation_grade(score: float, passed: bool, outcome: str, value: float | None, unit: str | None,
                      rel_error: float | None, detail: dict[str, Any]) -> Grade:
    """The same object as Grade(score=..., ..., detail=...), built without the frozen dataclass's
    setattr per field: a calculation is graded tens of thousands of times a second, and the
    generic constructor is then a tenth of the time. A test checks both give equal grades."""
    grade = object.__new__(Grade)
    fields = grade.__dict__
    fields.update(_BLANK)
    fields.update(score=score, passed=passed, outcome=outcome, value=value, unit=unit, rel_error=rel_error,
                  detail=detail)
    return grade
