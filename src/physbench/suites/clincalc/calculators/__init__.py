"""All 55 MedCalc-Bench Verified calculators, registered on import.

    from physbench.suites.clincalc.calculators import compute, get, CALCULATORS
    compute(6, {"weight": [68.0, "kg"], "height": [182.0, "cm"]})   # 20.528...
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from physbench.suites.clincalc.calculators import (  # noqa: F401  (registration)
    acid_base, apache, body, critical, dates, dosing, hepatic, infection, labs, qtc, renal, risk, thrombosis,
)
from physbench.suites.clincalc.calculators.registry import KINDS, Answer, Calculator, normalise, registry
from physbench.suites.clincalc.entities import Entities, EntityError

CALCULATORS: dict[int, Calculator] = dict(sorted(registry().items()))


class UnknownCalculator(KeyError):
    """No calculator with that id."""


def get(calc_id: int) -> Calculator:
    try:
        return CALCULATORS[int(calc_id)]
    except (KeyError, ValueError, TypeError):
        raise UnknownCalculator(calc_id) from None


def compute(calc_id: int, entities: Mapping[str, Any] | Entities, formulas: Any = None) -> Answer:
    """The library's answer for calculator `calc_id` from these Relevant Entities, under a formula
    version ('benchmark' by default, 'clinical', or a set of erratum ids)."""
    return get(calc_id).compute(entities, formulas)


def ids(subset: Iterable[int] | None = None) -> list[int]:
    return sorted(CALCULATORS if subset is None else set(CALCULATORS) & {int(i) for i in subset})


__all__ = ["CALCULATORS", "KINDS", "Answer", "Calculator", "Entities", "EntityError", "UnknownCalculator",
           "compute", "get", "ids", "normalise"]
