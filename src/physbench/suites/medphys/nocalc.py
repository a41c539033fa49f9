"""The no-calculation checker (seed 000, "Checking"): flags a reported result outside the central
95% of 2,000 public reference answers of its generator and level (seeds 20,000-21,999)."""

from __future__ import annotations

from functools import cache

from physbench.core.items import Item
from physbench.suites.medphys.base import draw
from physbench.suites.medphys.generators import get_generator
from physbench.suites.medphys.reference import reference_of
from physbench.suites.medphys.scripted import MedphysScripted

BASELINE_SEEDS = range(20_000, 22_000)
TRIM = 50  # the range runs from the 51st smallest to the 51st largest of 2,000 answers


@cache
def reference_range(generator: str, level: int) -> tuple[float, float, float]:
    """(low, median, high) of the cell's public reference answers."""
    gen = get_generator(generator)
    spec = gen.level(level)
    values = sorted(spec.solve(draw(gen, level, seed)) for seed in BASELINE_SEEDS)
    return values[TRIM], values[len(values) // 2], values[-TRIM - 1]


class NocalcModel(MedphysScripted):
    """Answers checks by the range rule alone; answers calculations with the cell's median."""

    spec = "nocalc"

    def calculation(self, item: Item) -> float:
        return reference_range(item.meta["generator"], int(item.meta["level"]))[1]

    def check(self, item: Item) -> tuple[bool, float | None]:
        low, _, high = reference_range(item.meta["generator"], int(item.meta["level"]))
        shown = reference_of(item).shown_value
        return shown is None or not low <= shown <= high, None
