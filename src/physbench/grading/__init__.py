"""Judge-free grading: answer extraction, units, numeric comparison, checking verdicts.

`grade_calculation` and `grade_check` never raise on model text; every parse is
bounded in size and time. Units come from the project's own pint definitions (`units.txt`).
The names below are imported on first use, so that code needing only `grading.types` (the
runner, the store) does not load pint and numpy.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from physbench.grading.calculation import grade_calculation
    from physbench.grading.checks import CHECK_KINDS, CheckKey, grade_check
    from physbench.grading.quantity import convert, parse_quantity
    from physbench.grading.types import OUTCOMES, Grade

_HOMES = {"grade_calculation": "calculation", "CHECK_KINDS": "checks", "CheckKey": "checks",
          "grade_check": "checks", "convert": "quantity", "parse_quantity": "quantity",
          "OUTCOMES": "types", "Grade": "types"}

__all__ = sorted(_HOMES)


def __getattr__(name: str) -> Any:
    """A public name from its module, imported now (PEP 562)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value
