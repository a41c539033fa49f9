"""The medphys suite as the runner sees it: splits, short runs, and its scripted models."""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from physbench.models.factory import make_model
from physbench.suites.medphys.base import params_from_dict
from physbench.suites.medphys.generators import get_generator
from physbench.suites.medphys.suite import SUITE
from physbench.suites.medphys.reference import reference_of
from physbench.protocols.base import Answer

DEV = SUITE.items("dev")


def _answer(model, item) -> Answer:
    completion = asyncio.run(model.generate(item.messages, item=item))
    return Answer(completion.text, completion.finish_reason)


def test_a_limited_run_holds_every_kind_with_planted_and_clean_checks():
    """`--limit 30` keeps each kind's share of the split (15 calculations, 15 checks of both kinds,
    planted and clean) and spreads over the cells; 60 items reach every generator and level."""
    items = SUITE.items("dev", limit=30)
    assert len(items) == 30 and len({i.id for i in items}) == 30
    strata = {(i.kind, i.meta["planted"] is not None) for i in items}
    assert strata == {("calculation", False), ("worksheet_check", False), ("worksheet_check", True),
                      ("result_check", False), ("result_check", True)}
    assert sum(i.kind == "calculation" for i in items) == 15
    assert len({i.meta["group"] for i in items}) >= 25
    assert len({i.meta["group"] for i in SUITE.items("dev", limit=60)}) == 30


def test_a_limit_of_half_the_test_split_is_its_stratified_half():
    key = bytes(range(32))
    half = SUITE.items("test-half", key=key)
    kinds = [i.kind for i in half]
    assert (kinds.count("calculation"), kinds.count("worksheet_check"), kinds.count("result_check")) == (300, 150, 150)
    assert {i.id for i in SUITE.items("test", key=key, limit=600)} == {i.id for i in half}


def test_a_limit_keeps_every_draw_of_a_small_split_in_order_of_its_strata():
    items = SUITE.items("dev", limit=5)
    assert {i.kind for i in items} == {"calculation", "worksheet_check", "result_check"}
    assert SUITE.items("dev", limit=10_000) == SUITE.items("dev")


def test_oracle_scores_every_dev_item_including_checks():
    oracle = make_model("oracle", SUITE)
    for item in DEV:
        grade = SUITE.grade(item, _answer(oracle, item))
        assert grade.passed, (item.id, grade.outcome)
        if item.kind != "calculation":
            assert grade.flagged == reference_of(item).planted


def test_mode_model_answers_with_the_named_error_where_it_applies():
    model = make_model("mode:isocentric_isq_omitted", SUITE)
    gen = get_generator("mu")
    for item in DEV:
        grade = SUITE.grade(item, _answer(model, item))
        if item.kind == "calculation" and item.meta["group"] == "mu/L3":
            p = params_from_dict(gen.level(3).params, item.params)
            wrong = gen.mode("isocentric_isq_omitted").answer(3, p)
            assert not grade.passed and grade.value == pytest.approx(wrong, rel=1e-5)
        elif item.kind == "calculation":
            assert grade.passed


def test_unknown_mode_model_is_a_user_error():
    from physbench.core.errors import UserError

    with pytest.raises(UserError):
        make_model("mode:no_such_mode", SUITE)


def test_nocalc_flags_only_results_outside_the_central_95_percent():
    """Seed 000 "Checking": on the dev split the no-calculation checker catches some planted errors
    and raises about 5% false alarms (the seed's test-split figures were 37% and 5%)."""
    from physbench.suites.medphys.nocalc import reference_range

    model = make_model("nocalc", SUITE)
    counts = {(True, True): 0, (True, False): 0, (False, True): 0, (False, False): 0}
    for item in DEV:
        if item.kind != "result_check":
            continue
        low, _, high = reference_range(item.meta["generator"], item.meta["level"])
        grade = SUITE.grade(item, _answer(model, item))
        assert grade.flagged == (not low <= reference_of(item).shown_value <= high)
        counts[(bool(reference_of(item).planted), bool(grade.flagged))] += 1
    detection = counts[(True, True)] / (counts[(True, True)] + counts[(True, False)])
    false_alarm = counts[(False, True)] / (counts[(False, True)] + counts[(False, False)])
    assert 0.1 < detection < 0.7 and false_alarm < 0.15


@settings(max_examples=12, deadline=None)
@given(st.integers(min_value=0, max_value=650))
def test_a_limit_gives_that_many_distinct_items_of_the_split(limit):
    items = SUITE.items("dev", limit=limit)
    ids = [i.id for i in items]
    assert len(ids) == min(limit, len(DEV)) == len(set(ids)) and set(ids) <= {i.id for i in DEV}
