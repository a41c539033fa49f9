"""Benchmark versions medphys@1.0 (the paper's items) and medphys@1.1 (the default): ids, metadata,
layouts, the v1.1 corrections, and the paper's targeted design of 11 against 10 steps."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from physbench.core.errors import UserError
from physbench.suites.medphys import ncrp151
from physbench.suites.medphys.base import draw
from physbench.suites.medphys.generators import get_generator
from physbench.suites.medphys.planting import write_sheet
from physbench.suites.medphys.splits import dev_items, split_items, targeted_items
from physbench.suites.medphys.suite import SUITE
from physbench.suites.medphys.versions import get_version
from physbench.suites.medphys.reference import reference_of

V10 = dev_items("1.0")
V11 = dev_items()


def test_version_names_and_unknown_versions():
    assert get_version(None).name == get_version("medphys@1.1").name == get_version("v1.1").name == "1.1"
    assert get_version("1.0").label == "medphys@1.0"
    with pytest.raises(UserError):
        get_version("2.0")


def test_every_item_records_its_version_and_the_two_versions_never_share_an_id():
    assert {i.meta["benchmark_version"] for i in V10} == {"1.0"}
    assert {i.meta["benchmark_version"] for i in V11} == {"1.1"}
    assert all(i.id.startswith("medphys@1.0/") for i in V10)
    assert all(i.id.startswith("medphys/") for i in V11)
    assert not {i.id for i in V10} & {i.id for i in V11}
    assert [i.id.replace("medphys@1.0/", "medphys/") for i in V10] == [i.id for i in V11]


def test_the_default_version_keeps_the_ids_of_earlier_releases():
    assert V11[0].id == "medphys/tg51/L1/calc/0"
    assert [i.id for i in SUITE.items("dev")] == [i.id for i in V11]
    assert [i.id for i in SUITE.items("dev", benchmark_version="1.0")] == [i.id for i in V10]


def test_version_10_worksheets_have_the_fixed_layout_and_11_varies_it():
    def canonical(item, legacy):
        gen = get_generator(item.meta["generator"])
        p = draw(gen, item.meta["level"], item.meta["seed"], legacy)
        return write_sheet(gen, item.meta["level"], p).render()

    clean10 = [i for i in V10 if i.kind == "worksheet_check" and i.meta["planted"] is None]
    clean11 = [i for i in V11 if i.kind == "worksheet_check" and i.meta["planted"] is None]
    assert all(canonical(i, True) in i.user for i in clean10)
    assert sum(canonical(i, False) not in i.user for i in clean11) > len(clean11) // 2


def test_result_checks_name_the_quantity_only_in_version_11():
    """Seed 000 Sec. 5: v1.0 result checks showed the number alone; v1.1 states the quantity."""
    r10 = [i for i in V10 if i.kind == "result_check"]
    r11 = [i for i in V11 if i.kind == "result_check"]
    assert all("The colleague's reported result:" in i.user for i in r10)
    assert all(f"The colleague's result for {i.meta['quantity']}:" in i.user for i in r11)


def test_version_10_ncrp151_items_state_the_thicker_component_rule_and_leave_u_unstated():
    """Seed 000 Sec. 4.2: the v1.0 items took the TVL of the component needing the thicker barrier and
    left U for patient scatter unstated; the reference followed that rule."""
    for item in (i for i in V10 if i.meta["group"] == "ncrp151/L3" and i.kind == "calculation"):
        assert "use the TVL of the component that needs the thicker barrier" in item.user
        assert "U = 1" not in item.user
        assert item.params["hvl_rule"] == "thicker"
    calc10 = [i for i in V10 if i.meta["group"] == "ncrp151/L3" and i.kind == "calculation"]
    calc11 = [i for i in V11 if i.meta["group"] == "ncrp151/L3" and i.kind == "calculation"]
    differ = [a for a, b in zip(calc10, calc11) if abs(reference_of(a).value / reference_of(b).value - 1) > 0.01]
    assert 0 < len(differ) < len(calc10)  # only where scatter governs within one TVL


def test_the_thicker_rule_adds_the_hvl_of_the_scatter_tvl_when_scatter_governs():
    p = ncrp151.SecondaryBarrier(6, 400.0, 4, 5, "a corridor", False, 0.02, 4.0, 1.0, 1e-3, 1600.0, 30, 2.77e-3,
                                 34.0, 29.0, 26.0, hvl_rule="thicker", use_factor_stated=False)
    _, t_l, _, t_s = ncrp151.components_l3(p)
    assert t_s > t_l and t_s - t_l < 26.0
    assert ncrp151.GENERATOR.level(3).solve(p) == pytest.approx(t_s + 0.301 * 26.0)


def test_version_10_mu_prompt_does_not_name_4a_over_p_and_11_does():
    mu10 = [i for i in V10 if i.meta["group"] == "mu/L3" and i.kind == "calculation"]
    mu11 = [i for i in V11 if i.meta["group"] == "mu/L3" and i.kind == "calculation"]
    assert all("4A/P" not in i.user for i in mu10)
    assert all("4A/P (4 × area / perimeter)" in i.user for i in mu11)
    assert [reference_of(i).value for i in mu10] == [reference_of(i).value for i in mu11]


def test_version_10_targeted_test_has_11_steps_against_10():
    """Seed 000, "Structural cues": in the targeted test every correct worksheet has 11 steps and every
    planted one 10 (the omitted isocentric correction removes its step)."""
    items = targeted_items("mu", 3, "isocentric_isq_omitted", 20, 1000, version="1.0")
    sheets = [i for i in items if i.kind == "worksheet_check"]
    assert Counter((i.id.endswith("/planted"), i.meta["n_steps"]) for i in sheets) == {(True, 10): 20,
                                                                                       (False, 11): 20}
    varied = targeted_items("mu", 3, "isocentric_isq_omitted", 20, 1000)
    assert len({i.meta["n_steps"] for i in varied if i.kind == "worksheet_check"}) > 2


def test_targeted_twins_share_one_pair_id():
    items = targeted_items("mu", 3, "isocentric_isq_omitted", 3, 1000)
    pairs = Counter(i.meta["pair_id"] for i in items if i.kind != "calculation")
    assert len(pairs) == 3 and set(pairs.values()) == {4}


def test_the_test_split_of_each_version_is_built_from_the_same_secret_draws():
    key = bytes(range(32))
    t10 = split_items("test-half", key=key, benchmark_version="1.0")
    t11 = split_items("test-half", key=key)
    assert [i.id.replace("medphys@1.0/", "medphys/") for i in t10] == [i.id for i in t11]


def test_unknown_split_options_are_refused_by_the_splits_but_ignored_by_the_suite():
    with pytest.raises(UserError):
        split_items("dev", colour="blue")
    assert len(SUITE.items("dev", limit=3, colour="blue")) == 3


def test_the_oracle_passes_every_version_10_item():
    import asyncio

    from physbench.models.factory import make_model
    from physbench.protocols.base import Answer

    oracle = make_model("oracle", SUITE)
    for item in V10:
        completion = asyncio.run(oracle.generate(item.messages, item=item))
        grade = SUITE.grade(item, Answer(completion.text, completion.finish_reason))
        assert grade.passed, (item.id, grade.outcome)


@given(st.text(max_size=20))
def test_a_version_name_is_known_or_a_user_error(text):
    try:
        v = get_version(text)
    except UserError:
        return
    assert v.name in ("1.0", "1.1")
