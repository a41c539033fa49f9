"""`--limit N` builds only the chosen draws, and chooses exactly what selecting from the whole split would."""

from __future__ import annotations

import pytest

from physbench.suites.medphys import splits
from physbench.suites.medphys.selection import stratified, stratified_indices
from physbench.suites.medphys.splits import split_items

KEY = bytes(range(32))
LIMITS = (1, 2, 5, 13, 30, 61, 150, 299, 599, 600, 601)


@pytest.mark.parametrize("version", ["1.0", "1.1"])
def test_a_limited_dev_split_is_the_stratified_choice_from_the_whole_split(version):
    whole = split_items("dev", benchmark_version=version)
    for limit in LIMITS:
        lazy = split_items("dev", benchmark_version=version, limit=limit)
        chosen = stratified(whole, limit)
        assert [i.id for i in lazy] == [i.id for i in chosen], limit
        assert [i.to_json() for i in lazy] == [i.to_json() for i in chosen], limit


@pytest.mark.parametrize("version", ["1.0", "1.1"])
def test_a_limited_test_split_is_the_stratified_choice_from_the_whole_split(version):
    whole = split_items("test", key=KEY, benchmark_version=version)
    for limit in (1, 7, 45, 600, 1199):
        lazy = split_items("test", key=KEY, benchmark_version=version, limit=limit)
        assert [i.to_json() for i in lazy] == [i.to_json() for i in stratified(whole, limit)], limit


def test_a_limit_of_one_generates_one_draw(monkeypatch):
    calls = []
    real = splits.draw_items

    def counting(*args, **kwargs):
        calls.append(args[:3])
        return real(*args, **kwargs)

    monkeypatch.setattr(splits, "draw_items", counting)
    monkeypatch.setenv("PHYSBENCH_CACHE", "0")  # count what a build generates, not what a cache holds
    assert len(split_items("dev", limit=1)) == 1
    assert len(calls) == 1
    calls.clear()
    items = split_items("dev", limit=30)
    assert len(items) == 30 and len(calls) == len({(i.meta["generator"], i.meta["level"], i.meta["seed"])
                                                   for i in items}) < 30


def test_a_limited_test_split_derives_only_the_secret_seeds_it_needs(monkeypatch):
    depths = []
    real = splits.heldout_draws

    def counting(key, gen, level, per_cell=splits.TEST_PER_CELL, legacy=False):
        depths.append(per_cell)
        return real(key, gen, level, per_cell, legacy)

    monkeypatch.setattr(splits, "heldout_draws", counting)
    split_items("test", key=KEY, limit=3)
    assert depths and max(depths) == 1 and len(depths) <= 3


def test_a_targeted_split_with_a_limit_is_a_stratified_choice_of_its_items():
    name = "targeted:mu:3:isocentric_isq_omitted:4:1000"
    whole = split_items(name)
    assert [i.id for i in split_items(name, limit=7)] == [i.id for i in stratified(whole, 7)]


def test_the_stratified_choice_spreads_over_strata_and_cells():
    labels = [((0, False), "a")] * 4 + [((0, False), "b")] * 4 + [((1, True), "a")] * 2
    picked = stratified_indices(labels, 5)
    assert len(picked) == len(set(picked)) == 5
    assert sum(labels[i][0] == (1, True) for i in picked) == 1  # 5 x 2/10 = one from the small stratum
    assert {labels[i][1] for i in picked[:2]} == {"a", "b"}  # both cells before either gives a second
