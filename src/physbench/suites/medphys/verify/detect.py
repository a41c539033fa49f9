"""Error-mode detectability (seed 000, Table 6): the share of draws whose erroneous answer falls
outside the band, for every named mode at every level where it applies."""

from __future__ import annotations

import statistics
from typing import Any

from physbench.suites.medphys.base import Generator, draw

DETECT_SEEDS_START = 50_000


def detectability(gen: Generator, level: int, n: int = 500) -> list[dict[str, Any]]:
    spec = gen.level(level)
    modes = gen.modes_at(level)
    outside = {m.name: 0 for m in modes}
    effects: dict[str, list[float]] = {m.name: [] for m in modes}
    for seed in range(DETECT_SEEDS_START, DETECT_SEEDS_START + n):
        p = draw(gen, level, seed)
        ref = spec.solve(p)
        for m in modes:
            effect = abs(m.answer(level, p) / ref - 1.0)
            effects[m.name].append(effect)
            outside[m.name] += effect > gen.band
    return [{"generator": gen.name, "level": level, "mode": m.name, "category": m.category,
             "detected": outside[m.name] / n, "median_effect": statistics.median(effects[m.name])} for m in modes]
