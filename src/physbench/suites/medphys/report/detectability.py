"""What the final-answer grader can see of each named error on the items of these runs (seed 000
Figure 5 and Table 6, measured here on the runs' calculation items rather than on 500 fresh draws).

For every error mode at every level the runs reach: on how many calculation items the mode applies and
changes the answer, the share of those whose erroneous answer falls outside the band, and the median
size of the error relative to the reference. The rule is `physbench medphys verify`'s (verify/detect.py).
"""

from __future__ import annotations

import math
import statistics
from typing import TYPE_CHECKING, Any, Sequence

from physbench.suites.medphys.reference import reference_of
from physbench.suites.medphys.report.analyses import generator_of, level_of, of_kind
from physbench.suites.medphys.verify.detect import NO_CHANGE

if TYPE_CHECKING:
    from physbench.core.items import Item
    from physbench.report.loading import RunData


def _effects(item: "Item") -> dict[tuple[str, str, int, str, float], float]:
    """(generator, mode, level, category, band) -> |mode answer / reference - 1| for one calculation item."""
    from physbench.suites.medphys.base import params_from_dict
    from physbench.suites.medphys.generators import get_generator

    level, ref = level_of(item), reference_of(item).value
    if level is None or not isinstance(ref, (int, float)) or ref == 0:
        return {}
    try:
        gen = get_generator(generator_of(item))
        params = params_from_dict(gen.level(level).params, item.params)
    except Exception:  # an item from another version of the generators: nothing to measure
        return {}
    out = {}
    for mode in gen.modes_at(level):
        try:
            effect = abs(float(mode.answer(level, params)) / float(ref) - 1.0)
        except (ArithmeticError, ValueError):
            continue
        if math.isfinite(effect):
            out[(gen.name, mode.name, level, mode.category, gen.band)] = effect
    return out


def detectability_rows(models: Sequence["RunData"]) -> list[dict[str, Any]]:
    """One row per (generator, level, mode) over the distinct calculation items of the runs."""
    items = {k: r.item for run in models for k, r in of_kind(run, "calculation").items()}
    effects: dict[tuple[str, str, int, str, float], list[float]] = {}
    seen: dict[tuple[str, str, int, str, float], int] = {}
    for item in items.values():
        for key, effect in _effects(item).items():
            seen[key] = seen.get(key, 0) + 1
            if effect > NO_CHANGE:
                effects.setdefault(key, []).append(effect)
    rows = []
    for key in sorted(seen):
        gen, mode, level, category, band = key
        changed = effects.get(key, [])
        rows.append({"generator": gen, "mode": mode, "level": level, "category": category, "band": band,
                     "items": seen[key], "applicable": len(changed),
                     "detected": sum(e > band for e in changed) / len(changed) if changed else None,
                     "median_effect": statistics.median(changed) if changed else None})
    return rows
