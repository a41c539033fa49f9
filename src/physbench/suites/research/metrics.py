"""Metrics of 002_* section 4 as pure functions over per-run correctness.

`runs` maps (model, problem, step) to the list of per-repeat booleans (five by default).
Average accuracy (Table 3) is the mean over repeats of the fraction of cells solved; the
consistently-solved rate counts a cell solved when at least 4 of 5 runs are correct; the grid
(Table 4) is the k/n count per cell.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Hashable, Mapping, Sequence

Cell = tuple[Hashable, Hashable, Hashable]          # (model, problem, step)


def average_accuracy(runs: Mapping[Cell, Sequence[bool]]) -> dict[Hashable, float]:
    """Per model: the mean over all (problem, step) cells and repeats of correctness."""
    total: dict[Hashable, list[int]] = defaultdict(lambda: [0, 0])
    for (model, _, _), results in runs.items():
        total[model][0] += sum(bool(r) for r in results)
        total[model][1] += len(results)
    return {m: (ok / n if n else 0.0) for m, (ok, n) in total.items()}


def consistently_solved_rate(runs: Mapping[Cell, Sequence[bool]], at_least: int = 4,
                             of: int = 5) -> dict[Hashable, float]:
    """Per model: the share of cells solved in at least `at_least` of `of` runs (fewer runs count as misses)."""
    cells: dict[Hashable, list[int]] = defaultdict(lambda: [0, 0])
    for (model, _, _), results in runs.items():
        solved = sum(bool(r) for r in list(results)[:of])
        cells[model][0] += solved >= at_least
        cells[model][1] += 1
    return {m: ok / n for m, (ok, n) in cells.items()}


def grid(runs: Mapping[Cell, Sequence[bool]]) -> dict[Hashable, dict[tuple[Hashable, Hashable], str]]:
    """Per model, per (problem, step): 'k/n' (Table 4)."""
    out: dict[Hashable, dict[tuple[Hashable, Hashable], str]] = defaultdict(dict)
    for (model, problem, step), results in sorted(runs.items(), key=lambda kv: tuple(map(str, kv[0]))):
        out[model][(problem, step)] = f"{sum(bool(r) for r in results)}/{len(results)}"
    return dict(out)
