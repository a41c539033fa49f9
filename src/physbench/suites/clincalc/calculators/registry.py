"""The calculator registry: one validated function per MedCalc-Bench Verified calculator.

A calculator takes the row's Relevant Entities and returns the benchmark's answer type:
`decimal` (a float, scored inside the row's [Lower Limit, Upper Limit]), `score` (an integer,
or a half-point total for Wells' PE, scored by equality), `date` (a datetime.date) or
`gestational_age` (a (weeks, days) pair of ints).
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Union

from physbench.suites.clincalc import formula_version
from physbench.suites.clincalc.entities import Entities, EntityError

Answer = Union[float, int, dt.date, tuple]
KINDS = ("decimal", "score", "date", "gestational_age")


@dataclass(frozen=True)
class Calculator:
    """One calculator: its dataset id and name, how it is scored, and its function."""

    id: int
    name: str
    category: str          # the dataset's Category column
    output_type: str       # the dataset's Output Type column (not always how it is scored)
    kind: str              # how the benchmark scores it: one of KINDS
    fn: Callable[[Entities], Any]
    source: str            # document and version the function follows
    entities: tuple[str, ...] = field(default=())  # entity names the dataset uses for it

    def compute(self, entities: Mapping[str, Any] | Entities,
                formulas: formula_version.Version | None = None) -> Answer:
        """The answer for these Relevant Entities under a formula version ('benchmark', the default, or
        'clinical'; or a set of erratum ids); EntityError when they cannot be used."""
        e = entities if isinstance(entities, Entities) else Entities(entities)
        try:
            with formula_version.using(formulas):
                value = self.fn(e)
        except ZeroDivisionError:
            raise EntityError("the entities make the formula divide by zero") from None
        except (ValueError, OverflowError) as exc:
            if isinstance(exc, EntityError):
                raise
            raise EntityError(f"the formula cannot be evaluated: {exc}") from None
        return normalise(self.kind, value)


def normalise(kind: str, value: Any) -> Answer:
    """The answer in its kind's canonical Python type."""
    if kind == "decimal":
        x = float(value)
        if not math.isfinite(x):
            raise EntityError("the formula gives a non-finite value")
        return x
    if kind == "score":
        x = float(value)
        return int(x) if x == int(x) else x
    if kind == "date":
        if not isinstance(value, dt.date):
            raise TypeError("a date calculator must return a date")
        return value
    weeks, days = value
    return (int(weeks), int(days))


_REGISTRY: dict[int, Calculator] = {}


def calculator(id: int, name: str, *, category: str, output_type: str, kind: str, source: str,
               entities: tuple[str, ...] = ()) -> Callable[[Callable], Callable]:
    """Register the decorated function as calculator `id`."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}")

    def wrap(fn: Callable) -> Callable:
        if id in _REGISTRY:
            raise ValueError(f"calculator {id} registered twice")
        _REGISTRY[id] = Calculator(id, name, category, output_type, kind, fn, source, tuple(entities))
        return fn

    return wrap


def registry() -> dict[int, Calculator]:
    return _REGISTRY
