"""Calculation items generated per second on one core, over all 30 medphys cells.

Baseline in the same process: drawing the same parameter sets without solving, prompting or
building items, so the ratio shows what the item path costs on this machine whatever its speed.
Run: .venv/bin/python benchmarks/generation.py [--per-cell N]
"""

from __future__ import annotations

import argparse
import time

from physbench.suites.medphys.base import draw
from physbench.suites.medphys.generators import GENERATOR_NAMES, LEVELS, get_generator
from physbench.suites.medphys.items import calculation_item


def rate(fn, cells, per_cell: int, start: int) -> tuple[float, dict]:  # type: ignore[no-untyped-def]
    per = {}
    total_t = 0.0
    for name, level in cells:
        t0 = time.perf_counter()
        for seed in range(start, start + per_cell):
            fn(name, level, seed)
        dt = time.perf_counter() - t0
        per[(name, level)] = per_cell / dt
        total_t += dt
    return per_cell * len(cells) / total_t, per


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--per-cell", type=int, default=1000)
    args = parser.parse_args()
    cells = [(g, level) for g in GENERATOR_NAMES for level in LEVELS]
    for g in GENERATOR_NAMES:  # import and warm up every generator
        calculation_item(g, 1, 0)
    start = 100_000  # seeds no cache has seen
    base, _ = rate(lambda g, lv, s: draw(get_generator(g), lv, s), cells, args.per_cell, start)
    items, per = rate(calculation_item, cells, args.per_cell, start + args.per_cell)
    slowest = sorted(per.items(), key=lambda kv: kv[1])[:5]
    print(f"cells: {len(cells)}, items per cell: {args.per_cell}")
    print(f"baseline (draw parameters only): {base:,.0f} draws/s")
    print(f"calculation items (draw + solve + prompt + item): {items:,.0f} items/s  (target >= 5,000)")
    print(f"ratio items/baseline: {items / base:.2f}")
    print("slowest cells: " + ", ".join(f"{g} L{lv} {r:,.0f}/s" for (g, lv), r in slowest))


if __name__ == "__main__":
    main()
