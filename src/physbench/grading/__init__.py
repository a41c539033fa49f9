"""Judge-free grading: answer extraction, units, numeric comparison, checking verdicts.

`grade_calculation` and `grade_check` never raise on model text; every parse is
bounded in size and time. Units come from the project's own pint definitions (`units.txt`).
"""

from physbench.grading.calculation import grade_calculation
from physbench.grading.checks import CHECK_KINDS, CheckKey, grade_check
from physbench.grading.quantity import convert, parse_quantity
from physbench.grading.types import OUTCOMES, Grade

__all__ = ["CHECK_KINDS", "OUTCOMES", "CheckKey", "Grade", "convert", "grade_calculation", "grade_check",
           "parse_quantity"]
