"""Obstetric dates from the last menstrual period: due date, conception date, gestational age."""

from __future__ import annotations

import datetime as dt

from physbench.suites.clincalc.calculators.registry import calculator
from physbench.suites.clincalc.entities import Entities, EntityError


@calculator(13, "Estimated Due Date", category="date", output_type="date", kind="date",
            source="Naegele's rule, LMP + 280 days, shifted by cycle length - 28 days (as MDCalc)",
            entities=("cycle length", "Last menstrual date"))
def due_date(e: Entities) -> dt.date:
    cycle = e.number("cycle length", 28)
    if cycle != int(cycle) or not 10 <= cycle <= 100:
        raise EntityError(f"cycle length must be a whole number of days, got {cycle:g}")
    return e.date("Last menstrual date") + dt.timedelta(days=280 + int(cycle) - 28)


@calculator(68, "Estimated Date of Conception", category="date", output_type="date", kind="date",
            source="conception date = LMP + 14 days (MDCalc)", entities=("Last menstrual date",))
def conception_date(e: Entities) -> dt.date:
    return e.date("Last menstrual date") + dt.timedelta(days=14)


@calculator(69, "Estimated Gestational Age", category="date", output_type="date", kind="gestational_age",
            source="gestational age = days since LMP, as whole weeks and remaining days (ACOG)",
            entities=("Current Date", "Last menstrual date"))
def gestational_age(e: Entities) -> tuple[int, int]:
    days = (e.date("Current Date") - e.date("Last menstrual date")).days
    if days < 0:
        raise EntityError("the current date is before the last menstrual period")
    return divmod(days, 7)
