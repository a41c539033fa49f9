"""Units of activity, time and absorbed dose as the nuclear-medicine and brachytherapy prompts
print them, converted to MBq, hours and mGy (second solvers for mird, decay and tg43)."""

from __future__ import annotations

import re

from physbench.suites.medphys.verify.independent.errors import PromptDefect
from physbench.suites.medphys.verify.independent.parse_listing import Bullet, matching, number

# hours per unit; 1 d = 24 h, 1 h = 60 min = 3600 s (SI-accepted definitions)
HOURS = {"s": 1 / 3600, "sec": 1 / 3600, "min": 1 / 60, "h": 1.0, "hr": 1.0, "d": 24.0,
         "day": 24.0, "days": 24.0}
# MBq per unit; 1 Ci = 3.7e10 Bq exactly (definition of the curie), so 1 mCi = 37 MBq
MBQ = {"Bq": 1e-6, "kBq": 1e-3, "MBq": 1.0, "GBq": 1e3, "TBq": 1e6,
       "µCi": 0.037, "μCi": 0.037, "uCi": 0.037, "mCi": 37.0, "Ci": 37_000.0}
_CURIE_UNITS = {"µCi": 1e-3, "μCi": 1e-3, "uCi": 1e-3, "mCi": 1.0, "Ci": 1e3}
# mGy per unit
MGY = {"µGy": 1e-3, "μGy": 1e-3, "uGy": 1e-3, "mGy": 1.0, "cGy": 10.0, "Gy": 1e3}

_COMPOUND_TIME = re.compile(r"\s*(\d+(?:\.\d+)?)\s*(d|h|min|s)\b")


def hours(value: float, unit: str, what: str) -> float:
    """A time in hours."""
    if unit not in HOURS:
        raise PromptDefect(f"{what}: unknown time unit {unit!r}")
    return value * HOURS[unit]


def compound_hours(text: str, what: str) -> float:
    """A time printed as a run of value-unit pairs ("3 h 20 min") in hours."""
    pos, total, seen = 0, 0.0, 0
    text = text.strip()
    while pos < len(text):
        match = _COMPOUND_TIME.match(text, pos)
        if match is None:
            raise PromptDefect(f"{what}: cannot read the time {text!r}")
        total += float(match.group(1)) * HOURS[match.group(2)]
        pos, seen = match.end(), seen + 1
    if seen == 0:
        raise PromptDefect(f"{what}: no time in {text!r}")
    return total


class ActivityUnits:
    """Activity conversion to MBq, taking the curie-becquerel factor from the prompt when printed."""

    def __init__(self, items: list[Bullet]) -> None:
        self.mbq_per_mci = MBQ["mCi"]
        stated = matching(items, r"1 mCi = (?P<v>.+) MBq")
        if len(stated) > 1:
            raise PromptDefect("the mCi-MBq conversion is stated more than once")
        if stated:
            self.mbq_per_mci = number(stated[0][0].group("v"), "mCi-MBq conversion")

    def mbq(self, value: float, unit: str, what: str) -> float:
        """``value unit`` in MBq."""
        if unit in _CURIE_UNITS:
            return value * _CURIE_UNITS[unit] * self.mbq_per_mci
        if unit in MBQ:
            return value * MBQ[unit]
        raise PromptDefect(f"{what}: unknown activity unit {unit!r}")

    def from_mbq(self, value_mbq: float, unit: str, what: str) -> float:
        """An activity in MBq expressed in ``unit``."""
        return value_mbq / self.mbq(1.0, unit, what)


def mgy(value: float, unit: str, what: str) -> float:
    """An absorbed dose in mGy."""
    if unit not in MGY:
        raise PromptDefect(f"{what}: unknown dose unit {unit!r}")
    return value * MGY[unit]
