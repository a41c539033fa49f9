"""The no-calculation checker (seed 000, "Checking"): flags a reported result outside the central
95% of 2,000 public reference answers of its generator and level (seeds 20,000-21,999)."""

from __future__ import annotations

import asyncio
from typing import Any, Sequence

from physbench.core.items import Item, Message
from physbench.models.base import Completion
from physbench.suites.medphys.base import draw
from physbench.suites.medphys.generators import get_generator
from physbench.suites.medphys.reference import reference_of
from physbench.suites.medphys.scripted import MedphysScripted

BASELINE_SEEDS = range(20_000, 22_000)
TRIM = 50  # the range runs from the 51st smallest to the 51st largest of 2,000 answers


_RANGES: dict[tuple[str, int], tuple[float, float, float]] = {}  # by cell, computed once per process
CHUNK = 100  # answers solved between two turns of the event loop (a cell takes up to a second in all)


def _answers(generator: str, level: int, seeds: Sequence[int]) -> list[float]:
    gen = get_generator(generator)
    spec = gen.level(level)
    return [spec.solve(draw(gen, level, seed)) for seed in seeds]


def _range(values: list[float]) -> tuple[float, float, float]:
    values = sorted(values)
    return values[TRIM], values[len(values) // 2], values[-TRIM - 1]


def reference_range(generator: str, level: int) -> tuple[float, float, float]:
    """(low, median, high) of the cell's public reference answers."""
    key = (generator, int(level))
    if key not in _RANGES:
        _RANGES[key] = _range(_answers(generator, int(level), BASELINE_SEEDS))
    return _RANGES[key]


async def reference_range_soon(generator: str, level: int) -> tuple[float, float, float]:
    """The same, computed CHUNK answers at a time with the event loop's turn between: a run stays
    responsive (Ctrl-C is heard within milliseconds) while a cell's 2,000 answers are solved."""
    key = (generator, int(level))
    if key not in _RANGES:
        values: list[float] = []
        for start in range(0, len(BASELINE_SEEDS), CHUNK):
            values += _answers(generator, int(level), BASELINE_SEEDS[start: start + CHUNK])
            await asyncio.sleep(0)
        _RANGES.setdefault(key, _range(values))
    return _RANGES[key]


class NocalcModel(MedphysScripted):
    """Answers checks by the range rule alone; answers calculations with the cell's median."""

    spec = "nocalc"

    def __init__(self) -> None:
        self._solving: dict[tuple[str, int], asyncio.Future[Any]] = {}  # one computation per cell, shared

    async def generate(self, messages: Sequence[Message], *, item: Item | None = None, **params: Any) -> Completion:
        if item is not None and item.suite == "medphys":
            key = (item.meta["generator"], int(item.meta["level"]))
            if key not in _RANGES:
                solving = self._solving.get(key)
                if solving is None or solving.get_loop() is not asyncio.get_running_loop():
                    solving = self._solving[key] = asyncio.ensure_future(reference_range_soon(*key))
                await asyncio.shield(solving)
        return await super().generate(messages, item=item, **params)

    def calculation(self, item: Item) -> float:
        return reference_range(item.meta["generator"], int(item.meta["level"]))[1]

    def check(self, item: Item) -> tuple[bool, float | None]:
        low, _, high = reference_range(item.meta["generator"], int(item.meta["level"]))
        shown = reference_of(item).shown_value
        return shown is None or not low <= shown <= high, None
