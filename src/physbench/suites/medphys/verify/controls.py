"""Acceptance tests and negative controls of the grader (seed 000, "Acceptance tests and negative
controls"): the reference is accepted; answers moved to 0.9 of the band are accepted and to 1.1 of
the band rejected; the same value in an equivalent unit is accepted; the reference value in an
incompatible unit is rejected; and the best constant answer scores little."""

from __future__ import annotations

import bisect
import math
from typing import Any

from physbench.core.items import Item
from physbench.grading import grade_calculation
from physbench.suites.medphys.base import Generator, draw
from physbench.suites.medphys.reference import reference_of

# how each control is named in print (its JSON key keeps the underscores; "0_9" is 0.9 of the band)
CONTROL_LABELS: dict[str, str] = {
    "reference_accepted": "reference accepted",
    "inside_0_9_accepted": "inside 0.9 x band accepted",
    "outside_1_1_rejected": "outside 1.1 x band rejected",
    "equivalent_unit_accepted": "equivalent unit accepted",
    "incompatible_unit_rejected": "incompatible unit rejected",
}


def control_label(key: str) -> str:
    """The printed name of a control's JSON key (a key without a label reads with spaces)."""
    return CONTROL_LABELS.get(key, key.replace("_", " "))


# an equivalent spelling of each answer unit and the factor from the unit to it
EQUIVALENT: dict[str, tuple[str, float]] = {
    "cGy": ("Gy", 0.01), "Gy": ("cGy", 100.0), "mGy": ("Gy", 1e-3), "cGy/MU": ("Gy/MU", 0.01),
    "mGy cm": ("mGy mm", 10.0), "cm": ("mm", 10.0), "mm": ("cm", 0.1), "MBq h": ("MBq s", 3600.0),
    "MBq": ("GBq", 1e-3), "GBq": ("MBq", 1e3), "mCi": ("MBq", 37.0), "h": ("min", 60.0), "d": ("h", 24.0),
    "min": ("s", 60.0), "mSv": ("Sv", 1e-3), "Sv": ("mSv", 1e3),
}
# a unit of another dimension for each answer unit (gray-family answers get sievert-family units)
INCOMPATIBLE: dict[str, str] = {
    "cGy": "cSv", "Gy": "Sv", "mGy": "mSv", "cGy/MU": "cSv/MU", "mGy cm": "mSv cm", "cm": "cGy", "mm": "mGy",
    "MBq h": "MBq", "MBq": "MBq h", "GBq": "Gy", "mCi": "mGy", "h": "cm", "d": "cm", "min": "cm", "mSv": "mGy",
    "Sv": "Gy", "MU": "cGy", "": "cm",
}


def boxed(value: float, unit: str) -> str:
    return f"The result is \\boxed{{{value:.10g} {unit}}}".replace(" }", "}")


def item_controls(item: Item) -> dict[str, bool | None]:
    """Which controls one calculation item passes (None: the control does not apply to its unit)."""
    ref = reference_of(item)
    value, unit, band = float(ref.value), ref.unit or "", ref.band  # type: ignore[arg-type]
    ref = (value, unit)

    def passes(text: str) -> bool:
        return grade_calculation(text, ref, band).passed

    out: dict[str, bool | None] = {
        "reference_accepted": passes(boxed(value, unit)),
        "inside_0_9_accepted": passes(boxed(value * (1 + 0.9 * band), unit)) and passes(boxed(value * (1 - 0.9 * band), unit)),
        "outside_1_1_rejected": not passes(boxed(value * (1 + 1.1 * band), unit))
        and not passes(boxed(value * (1 - 1.1 * band), unit)),
        "equivalent_unit_accepted": None,
        "incompatible_unit_rejected": not passes(boxed(value, INCOMPATIBLE.get(unit, "cm"))),
    }
    if unit in EQUIVALENT:
        other, factor = EQUIVALENT[unit]
        out["equivalent_unit_accepted"] = passes(boxed(value * factor, other))
    return out


def best_constant(references: list[float], band: float) -> tuple[float, int]:
    """The constant answer that falls inside the band of the most references, and that count."""
    ordered = sorted(references)
    best, count = ordered[0], 0
    for c in ordered:  # an optimal constant can be moved onto the edge of some reference's band
        for candidate in (c * (1 - band), c, c * (1 + band)):
            lo = bisect.bisect_left(ordered, candidate / (1 + band) if candidate > 0 else candidate / (1 - band))
            hi = bisect.bisect_right(ordered, candidate / (1 - band) if candidate > 0 else candidate / (1 + band))
            if hi - lo > count:
                best, count = candidate, hi - lo
    return best, count


def constant_answer(gen: Generator, level: int, n: int = 500, start: int = 60_000) -> dict[str, Any]:
    """Fit the best constant on `n` draws and score it on `n` others."""
    spec = gen.level(level)
    train = [spec.solve(draw(gen, level, s)) for s in range(start, start + n)]
    test = [spec.solve(draw(gen, level, s)) for s in range(start + n, start + 2 * n)]
    c, _ = best_constant(train, gen.band)
    passed = sum(abs(c / r - 1.0) <= gen.band for r in test if r != 0 and math.isfinite(r))
    return {"generator": gen.name, "level": level, "constant": c, "pass_rate": passed / n}
