"""Error-mode detectability (seed 000, Table 6 and Figure 5): for every named mode at every level where
it applies, the share of draws whose erroneous answer falls outside the band.

The share is taken over the draws on which the mode applies and changes the answer: an occupancy
factor cannot be omitted from an item with T = 1, nor a mu-based slip made on an item that prints
the HVL, so such draws say nothing about what the grader can see. How often a mode applies is
reported beside it (`applicability`).
"""

from __future__ import annotations

import statistics
from typing import Any, Sequence

from physbench.suites.medphys.base import Generator, draw

DETECT_SEEDS_START = 50_000
NO_CHANGE = 1e-9  # a relative change below this is floating-point noise: the mode changed nothing


def detectability(gen: Generator, level: int, n: int = 500) -> list[dict[str, Any]]:
    """One row per mode of `gen` at `level`, over `n` public draws (seeds 50,000+)."""
    spec = gen.level(level)
    modes = gen.modes_at(level)
    outside = {m.name: 0 for m in modes}
    effects: dict[str, list[float]] = {m.name: [] for m in modes}
    for seed in range(DETECT_SEEDS_START, DETECT_SEEDS_START + n):
        p = draw(gen, level, seed)
        ref = spec.solve(p)
        for m in modes:
            effect = abs(m.answer(level, p) / ref - 1.0)
            if effect <= NO_CHANGE:
                continue
            effects[m.name].append(effect)
            outside[m.name] += effect > gen.band
    rows = []
    for m in modes:
        k = len(effects[m.name])
        rows.append({"generator": gen.name, "level": level, "mode": m.name, "category": m.category,
                     "band": gen.band, "draws": n, "applicable": k, "applicability": k / n,
                     "detected": outside[m.name] / k if k else None, "detected_all_draws": outside[m.name] / n,
                     "median_effect": statistics.median(effects[m.name]) if k else None})
    return rows


def _span(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    shares = [r["detected"] for r in rows]
    return {"n": len(rows), "min_detected": min(shares, default=None), "max_detected": max(shares, default=None)}


def size_groups(rows: Sequence[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The seed's summary of Table 6 by the size of the error relative to the band: the combinations
    whose median effect is at least twice the band, between one and two bands, and below the band."""
    measured = [r for r in rows if r["detected"] is not None]
    big = [r for r in measured if r["median_effect"] >= 2.0 * r["band"]]
    mid = [r for r in measured if r["band"] <= r["median_effect"] < 2.0 * r["band"]]
    small = [r for r in measured if r["median_effect"] < r["band"]]
    return {"at_least_twice_band": _span(big), "one_to_two_bands": _span(mid), "below_band": _span(small),
            "never_applicable": {"n": len(rows) - len(measured)}}
