"""How an answer is printed: each decimal calculator's unit (as its question asks for it) and a rounding
to 2 decimals (4 significant digits below 1), scores as integers, dates as MM/DD/YYYY."""

from __future__ import annotations

import datetime as dt
import math
from typing import Any

# the unit of each decimal calculator's answer, from the benchmark's question text ("" : unitless)
UNITS: dict[int, str] = {
    2: "mL/min", 3: "mL/min/1.73 m²", 5: "mm Hg", 6: "kg/m²", 7: "mg/dL", 9: "mL/min/1.73 m²", 10: "kg",
    11: "msec", 19: "", 22: "mL/hr", 23: "", 24: "mg", 26: "mEq/L", 30: "mOsm/kg", 31: "", 38: "L",
    39: "mEq/L", 40: "%", 44: "mg/dL", 46: "%", 49: "MME/day", 56: "msec", 57: "msec", 58: "msec", 59: "msec",
    60: "m²", 61: "kg", 62: "kg", 63: "mEq/L", 64: "", 65: "mEq/L", 66: "mEq/L", 67: "",
}


def rounded(x: float) -> str:
    """2 decimals, or 4 significant digits for a magnitude below 1 (0.0033, not 0.00)."""
    if x == 0 or not math.isfinite(x):
        return f"{x:g}"
    if abs(x) >= 1:
        return f"{x:.2f}"
    return f"{x:.{max(2, 3 - int(math.floor(math.log10(abs(x)))))}f}"


def answer_text(calc_id: int, kind: str, value: Any) -> str:
    """The answer as a person reads it: '20.53 kg/m²', '3', '12/02/2000', '34 weeks, 3 days'."""
    if kind == "date" and isinstance(value, dt.date):
        return value.strftime("%m/%d/%Y")
    if kind == "gestational_age":
        weeks, days = value
        return f"{weeks} weeks, {days} days"
    if kind == "score":
        return f"{value:g}"
    unit = UNITS.get(calc_id, "")
    return f"{rounded(float(value))} {unit}".strip()
