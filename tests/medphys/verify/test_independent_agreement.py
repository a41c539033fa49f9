"""The two implementations agree: every generated item's reference equals the answer that the
independent solver computes from the prompt text alone (bound 1e-6 relative, seed 000 § 4.1)."""

from __future__ import annotations

import pytest

from physbench.grading import convert
from physbench.suites.medphys.generators import GENERATOR_NAMES, LEVELS
from physbench.suites.medphys.items import calculation_item
from physbench.suites.medphys.verify.independent import solve_prompt
from physbench.suites.medphys.reference import reference_of

CELLS = [(g, level) for g in GENERATOR_NAMES for level in LEVELS]


def _max_rel_diff(generator: str, level: int, seeds: range) -> float:
    worst = 0.0
    for seed in seeds:
        item = calculation_item(generator, level, seed)
        value, unit = solve_prompt(generator, level, item.user)
        converted = convert(value, unit, reference_of(item).unit or "")
        assert converted is not None, (seed, unit, reference_of(item).unit)
        worst = max(worst, abs(converted / reference_of(item).value - 1.0))
    return worst


@pytest.mark.parametrize("cell", CELLS, ids=lambda c: f"{c[0]}-L{c[1]}")
def test_independent_solver_agrees_with_the_reference(cell):
    assert _max_rel_diff(*cell, range(40)) <= 1e-6


@pytest.mark.slow
@pytest.mark.parametrize("cell", CELLS, ids=lambda c: f"{c[0]}-L{c[1]}")
def test_independent_solver_agrees_on_2000_public_seeds(cell):
    assert _max_rel_diff(*cell, range(2000)) <= 1e-6
