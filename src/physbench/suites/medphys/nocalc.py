"""The no-calculation checker (seed 000, "Checking"): flags a reported result outside the central
95% of 2,000 public reference answers of its generator and level (seeds 20,000-21,999)."""

from __future__ import annotations

import json
from functools import cache
from typing import Any, Sequence

from physbench.core.items import Item, Message
from physbench.models.base import Completion
from physbench.suites.medphys.base import draw
from physbench.suites.medphys.generators import get_generator
from physbench.suites.medphys.scripted import boxed

BASELINE_SEEDS = range(20_000, 22_000)
TRIM = 50  # the range runs from the 51st smallest to the 51st largest of 2,000 answers


@cache
def reference_range(generator: str, level: int) -> tuple[float, float, float]:
    """(low, median, high) of the cell's public reference answers."""
    gen = get_generator(generator)
    spec = gen.level(level)
    values = sorted(spec.solve(draw(gen, level, seed)) for seed in BASELINE_SEEDS)
    return values[TRIM], values[len(values) // 2], values[-TRIM - 1]


class NocalcModel:
    """Answers checks by the range rule alone; answers calculations with the cell's median."""

    spec = "nocalc"

    def info(self) -> dict[str, Any]:
        return {"spec": self.spec, "kind": "scripted"}

    async def aclose(self) -> None:
        return None

    async def generate(self, messages: Sequence[Message], *, item: Item | None = None, **params: Any) -> Completion:
        if item is None or item.suite != "medphys":
            return Completion(text="", finish_reason="stop")
        low, median, high = reference_range(item.meta["generator"], int(item.meta["level"]))
        unit = item.reference.unit or ""
        if item.kind == "calculation":
            return Completion(text=f"Answer: {boxed(median, unit)}", finish_reason="stop")
        shown = item.reference.shown_value
        flagged = shown is None or not low <= shown <= high
        verdict: dict[str, Any] = {"verdict": "incorrect" if flagged else "correct"}
        if item.kind == "worksheet_check":
            verdict["first_error_step"] = None
        verdict["corrected_result"] = None
        return Completion(text="```json\n" + json.dumps(verdict) + "\n```", finish_reason="stop")
