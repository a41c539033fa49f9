"""Tolerance bands derived from the items (seed 000, "Tolerance bands", Table 5).

For each cell: perturb every decimal-valued scalar input by a random factor within ±0.05% (integers,
tables and lists unchanged), record each item's largest relative answer change over 20 perturbations,
take the 99th percentile, add the rounding of the requested final precision, and pick the tightest
of {0.2, 0.5, 1, 2, 5}% that covers the sum.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from physbench.suites.medphys.base import Generator, draw

CANDIDATES = (0.002, 0.005, 0.01, 0.02, 0.05)
PERTURBATION = 0.0005
BAND_SEEDS_START = 70_000


def final_rounding(prompt: str) -> float:
    """Worst relative rounding of the precision the prompt asks for (3 s.f. -> 0.5%, 4 s.f. -> 0.05%)."""
    for word, figures in (("four significant", 4), ("three significant", 3), ("five significant", 5)):
        if word in prompt:
            return 0.5 * 10.0 ** (1 - figures)
    raise ValueError("the prompt states no precision")


def perturbed(p: Any, rng: random.Random) -> Any:
    """`p` with every float scalar multiplied by a factor within ±0.05%."""
    changes = {}
    for f in dataclasses.fields(p):
        value = getattr(p, f.name)
        if isinstance(value, float):
            changes[f.name] = value * (1.0 + rng.uniform(-PERTURBATION, PERTURBATION))
    return dataclasses.replace(p, **changes)


def percentile(values: list[float], q: float) -> float:
    """Linear-interpolation percentile (q in 0..100)."""
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100
    lo = int(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


def derive_band(gen: Generator, level: int, n_items: int = 300, n_perturbations: int = 20) -> dict[str, float]:
    """Input sensitivity (99th percentile), final rounding, their sum and the derived band."""
    spec = gen.level(level)
    rng = random.Random(f"bands/{gen.name}/{level}")
    worst = []
    rounding = 0.0
    for seed in range(BAND_SEEDS_START, BAND_SEEDS_START + n_items):
        p = draw(gen, level, seed)
        ref = spec.solve(p)
        rounding = max(rounding, final_rounding(spec.prompt(p)))
        worst.append(max(abs(spec.solve(perturbed(p, rng)) / ref - 1.0) for _ in range(n_perturbations)))
    sensitivity = percentile(worst, 99)
    total = sensitivity + rounding
    band = next((c for c in CANDIDATES if c >= total - 1e-12), CANDIDATES[-1])
    return {"input_rounding": sensitivity, "final_rounding": rounding, "total": total, "derived": band}
