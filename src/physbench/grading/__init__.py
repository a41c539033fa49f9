"""Judge-free grading: answer extraction, units, numeric comparison, checking verdicts."""

from physbench.grading.types import OUTCOMES, Grade

__all__ = ["OUTCOMES", "Grade"]
