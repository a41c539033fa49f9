"""Checking items: visible planted errors, alternation, splits, key handling and the commitment."""

from __future__ import annotations

import pytest

from physbench.core.errors import UserError
from physbench.suites.medphys.base import draw
from physbench.suites.medphys.checks import inputs_text
from physbench.suites.medphys.commit import commitment
from physbench.suites.medphys.generators import LEVELS, available_generators
from physbench.suites.medphys.planting import planted_error, planted_sheet, write_sheet
from physbench.suites.medphys.splits import DEV_SEEDS, dev_items, heldout_items, read_key, split_items, targeted_items
from physbench.suites.medphys.reference import reference_of

CHECKING = [g for g in available_generators() if g.checking]
CELLS = [(g, level) for g in CHECKING for level in LEVELS]
KEY_A = bytes(range(32))
KEY_B = bytes(range(1, 33))


@pytest.mark.parametrize("cell", CELLS, ids=lambda c: f"{c[0].name}-L{c[1]}")
def test_every_planted_error_is_visible(cell):
    """Own step's shown result changes, final result leaves the band; inputs never change."""
    gen, level = cell
    spec = gen.level(level)
    for seed in range(40):
        p = draw(gen, level, seed)
        error = planted_error(gen, level, seed, p)
        planted = planted_sheet(gen, level, p, error)
        correct = write_sheet(gen, level, p, variant=error.variant)
        ref = spec.solve(p)
        assert abs(planted.final - ref) > gen.band * abs(ref), (seed, error)
        own = planted.steps[error.step - 1]
        twin = next((s for s in correct.steps if s.key == own.key), None)
        assert twin is None or twin.result != own.result, (seed, error)
        # every step before the planted one is identical to the correct sheet's step of the same key
        for step in planted.steps[: error.step - 1]:
            same = next(s for s in correct.steps if s.key == step.key)
            assert same.render().split(". ", 1)[1] == step.render().split(". ", 1)[1]
        assert error.size == pytest.approx(planted.final / ref - 1)


def test_dev_split_alternates_correct_and_planted_checks():
    items = dev_items()
    checks = [i for i in items if i.kind != "calculation"]
    for item in checks:
        planted = item.meta["planted"] is not None
        assert planted == (item.meta["seed"] % 2 == 1) == reference_of(item).planted
        if item.kind == "worksheet_check":
            assert (reference_of(item).first_error_step is not None) == planted
    n_gen, n_check = len(available_generators()), len(CHECKING)
    kinds = [i.kind for i in items]
    assert kinds.count("calculation") == n_gen * len(LEVELS) * len(DEV_SEEDS)
    assert kinds.count("worksheet_check") == kinds.count("result_check") == n_check * len(LEVELS) * len(DEV_SEEDS)
    assert len({i.id for i in items}) == len(items)


def test_checking_prompts_carry_the_calculation_inputs_word_for_word():
    for item in dev_items():
        if item.kind == "calculation":
            continue
        gen = next(g for g in CHECKING if g.name == item.meta["generator"])
        p = draw(gen, item.meta["level"], item.meta["seed"])
        assert inputs_text(gen, item.meta["level"], p) in item.user
        assert f"±{gen.band * 100:g}%" in item.user
        if item.kind == "result_check":
            assert gen.level(item.meta["level"]).quantity(p) in item.user


def test_test_split_is_reproducible_from_the_key_and_changes_with_it():
    a, a2, b = heldout_items(KEY_A), heldout_items(KEY_A), heldout_items(KEY_B)
    assert [i.to_json() for i in a] == [i.to_json() for i in a2]
    assert {i.params_hash for i in a}.isdisjoint({i.params_hash for i in b})
    assert commitment(a) == commitment(a2) != commitment(b)
    n_check = len(CHECKING) * len(LEVELS) * 20
    assert sum(i.kind == "worksheet_check" for i in a) == n_check
    assert sum(i.kind == "calculation" for i in a) == len(available_generators()) * len(LEVELS) * 20


def test_test_split_shares_no_params_with_dev_and_hides_seed_and_key():
    dev = {i.params_hash for i in dev_items()}
    items = heldout_items(KEY_A)
    assert dev.isdisjoint({i.params_hash for i in items})
    for item in items:
        assert item.meta["seed"] is None
        assert KEY_A.hex()[:16] not in item.to_json()
        assert "/t-" in item.id


def test_key_file_accepts_raw_or_hex_and_rejects_anything_else(tmp_path):
    raw, hexed, bad = tmp_path / "raw", tmp_path / "hex", tmp_path / "bad"
    raw.write_bytes(KEY_A)
    hexed.write_text(KEY_A.hex() + "\n")
    bad.write_text("too short")
    assert read_key(raw) == read_key(hexed) == KEY_A
    with pytest.raises(UserError):
        read_key(bad)
    with pytest.raises(UserError):
        split_items("test")


def test_targeted_items_come_in_fives_with_the_named_error():
    gen = CHECKING[0]
    mode = planted_error(gen, 3, 1000, draw(gen, 3, 1000)).mode
    items = targeted_items(gen.name, 3, mode, n=2, start=1000)
    assert len(items) == 10
    kinds = [i.kind for i in items[:5]]
    assert kinds == ["calculation", "worksheet_check", "result_check", "worksheet_check", "result_check"]
    assert all(i.meta["planted"]["mode"] == mode for i in items[1:3])
    assert items[3].meta["planted"] is None and items[4].meta["planted"] is None


def test_exact_sheets_solve_unrounded_params_as_given():
    """A params file with more digits than the prompt prints is solved with those digits."""
    from physbench.suites.medphys import ssde

    p = ssde.SsdeFromDimensions("abdomen", 32, 12.04, 0.8, 250.0, 320.0)
    q = ssde.SsdeFromDimensions("abdomen", 32, 12.0, 0.8, 250.0, 320.0)
    assert ssde.GENERATOR.level(2).solve(p) / ssde.GENERATOR.level(2).solve(q) == pytest.approx(12.04 / 12.0)


def test_params_from_dict_rejects_non_numbers_inside_lists():
    from physbench.suites.medphys.base import params_from_dict, params_to_dict
    from physbench.suites.medphys.generators import get_generator

    spec = get_generator("tg51").level(3)
    data = params_to_dict(draw(get_generator("tg51"), 3, 0))
    list_field = next(k for k, v in data.items() if isinstance(v, list))
    data[list_field] = ["x"] * len(data[list_field])
    with pytest.raises(UserError):
        params_from_dict(spec.params, data)
