"""The grade: what the grader says about one response (shared by every suite)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

Outcome = Literal[
    "correct",       # passed
    "wrong",         # a gradable answer that fails
    "format_error",  # a range, alternatives, an invalid or missing unit where one is needed
    "no_answer",     # nothing that reads as an answer
    "blocked",       # a provider's policy notice instead of an answer
    "interrupted",   # under 400 characters and no answer, answer line or verdict
    "truncated",     # the model hit its token limit (finish_reason "length")
    "unparsable",    # a checking response without a readable verdict
]
OUTCOMES: tuple[str, ...] = (
    "correct", "wrong", "format_error", "no_answer", "blocked", "interrupted", "truncated", "unparsable",
)


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
        return cls(**{k: v for k, v in d.items() if k in names})


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
