"""Every medphys generator keeps the shared contract: deterministic plausible draws, JSON-safe params,
finite answers, error modes that compute at every level they claim, consistent worksheets."""

from __future__ import annotations

import json
import math

import pytest

from physbench.core.hashing import params_hash
from physbench.suites.medphys.base import CATEGORIES, draw, params_from_dict, params_to_dict
from physbench.suites.medphys.generators import LEVELS, available_generators
from physbench.suites.medphys.items import calculation_item
from physbench.suites.medphys.worksheet import Sheet

# seed 000, Table 6: named error modes per generator (97 in all)
MODE_COUNTS = {"tg51": 16, "mu": 14, "tg43": 11, "bed": 8, "ssde": 9, "hvl": 7, "decay": 7, "mird": 9,
               "ncrp151": 10, "ncrp147": 6}
# seed 000, Table 5: bands
BANDS = {"tg51": 0.005, "tg43": 0.02, "decay": 0.02}

GENERATORS = available_generators()
CELLS = [(g, level) for g in GENERATORS for level in LEVELS]
DRAWS = 60


def _cell_id(cell):
    return f"{cell[0].name}-L{cell[1]}"


@pytest.mark.parametrize("gen", GENERATORS, ids=lambda g: g.name)
def test_generator_has_its_table6_modes_and_table5_band(gen):
    assert len(gen.error_modes) == MODE_COUNTS[gen.name]
    assert len({m.name for m in gen.error_modes}) == len(gen.error_modes)
    assert gen.band == BANDS.get(gen.name, 0.01)
    assert set(gen.levels) == set(LEVELS)
    for m in gen.error_modes:
        assert m.category in CATEGORIES and m.levels and set(m.levels) <= set(LEVELS)


@pytest.mark.parametrize("cell", CELLS, ids=_cell_id)
def test_draws_are_deterministic_plausible_and_json_safe(cell):
    gen, level = cell
    spec = gen.level(level)
    for seed in range(DRAWS):
        p = draw(gen, level, seed)
        assert draw(gen, level, seed) == p
        assert spec.violations(p) == []
        data = params_to_dict(p)
        again = params_from_dict(spec.params, json.loads(json.dumps(data)))
        assert again == p and params_hash(params_to_dict(again)) == params_hash(data)
        value = spec.solve(p)
        assert math.isfinite(value) and value != 0


@pytest.mark.parametrize("cell", CELLS, ids=_cell_id)
def test_every_error_mode_computes_at_each_level_it_claims(cell):
    gen, level = cell
    modes = gen.modes_at(level)
    assert modes, "every level has at least one error mode"
    moved = {m.name: 0 for m in modes}
    for seed in range(DRAWS):
        p = draw(gen, level, seed)
        ref = gen.level(level).solve(p)
        for m in modes:
            wrong = m.answer(level, p)
            assert math.isfinite(wrong), (m.name, seed)
            if abs(wrong - ref) > 1e-9 * abs(ref):
                moved[m.name] += 1
    assert all(moved.values()), f"modes that never change the answer: {[k for k, v in moved.items() if not v]}"


@pytest.mark.parametrize("cell", CELLS, ids=_cell_id)
def test_items_regenerate_byte_for_byte(cell):
    gen, level = cell
    for seed in range(5):
        item = calculation_item(gen.name, level, seed)
        assert item.to_json() == calculation_item(gen.name, level, seed).to_json()
        assert item.to_json() == json.dumps(item.to_dict(), sort_keys=True, ensure_ascii=False)


CHECK_CELLS = [c for c in CELLS if c[0].checking]


@pytest.mark.parametrize("cell", CHECK_CELLS, ids=_cell_id)
def test_correct_worksheets_end_inside_the_band_in_every_layout(cell):
    gen, level = cell
    spec = gen.level(level)
    assert spec.worksheet is not None
    for seed in range(DRAWS):
        p = draw(gen, level, seed)
        ref = spec.solve(p)
        assert float(spec.worksheet(p, Sheet())) == pytest.approx(ref, rel=1e-12)
        for variant in (None, 0, 1, 2, 3):
            sheet = Sheet(display=True, variant=variant)
            final = spec.worksheet(p, sheet)
            assert abs(final - ref) <= 0.5 * gen.band * abs(ref), (seed, variant, final, ref)
            assert [s.number for s in sheet.steps] == list(range(1, len(sheet.steps) + 1))
            assert len({s.key for s in sheet.steps}) == len(sheet.steps), "step keys are unique"
            assert sheet.steps[-1].value == float(final)
