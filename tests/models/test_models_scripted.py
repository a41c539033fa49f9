"""Scripted models: oracle answers in the expected formats and scores 100%; replay and constant."""

from __future__ import annotations

import asyncio
import json

import pytest
from hypothesis import given, strategies as st

import fixture_suite
from physbench.core import Item, Message, UserError, get_suite
from physbench.suites.medphys.grade import grade_item
from physbench.models import ModelError, make_model
from physbench.models.scripted import ReplayModel
from physbench.suites.medphys.scripted import oracle_answer, plain_number
from physbench.runner.evaluate import EvalConfig, evaluate
from physbench.suites.medphys.reference import reference_of


@pytest.mark.parametrize("value, text", [(1.018, "1.018"), (307.7, "307.7"), (17273.0, "17273"),
                                         (0.0004521, "0.0004521"), (3.2e-5, "3.2 \\times 10^{-5}"),
                                         (6.02214076e23, "6.02214 \\times 10^{23}"),
                                         (-2.5, "-2.5"), (0.0, "0"), (1 / 3, "0.333333")])
def test_plain_number_writes_six_significant_figures_without_e_notation(value, text):
    assert plain_number(value) == text


@given(st.floats(min_value=1e-12, max_value=1e15, allow_nan=False) | st.floats(min_value=-1e15, max_value=-1e-12))
def test_oracle_calculation_answers_pass_the_real_grader(value):
    item = Item(id="x", suite="t", kind="calculation", messages=(Message("user", "q"),),
                reference={"value": value, "unit": "cGy/MU", "band": 0.005})
    grade = grade_item(item, oracle_answer(item), "stop")
    assert grade.passed, (oracle_answer(item), grade)


def test_oracle_check_answers_are_fenced_json_and_result_checks_omit_the_step(suite):
    by_kind = {i.kind + str(reference_of(i).planted): i for i in suite.items("dev")}
    ws = json.loads(oracle_answer(by_kind["worksheet_checkTrue"]).strip("`").removeprefix("json"))
    assert ws == {"verdict": "incorrect", "first_error_step": 3, "corrected_result": "1.018 cGy/MU"}
    ok = json.loads(oracle_answer(by_kind["worksheet_checkFalse"]).strip("`").removeprefix("json"))
    assert ok == {"verdict": "correct", "first_error_step": None, "corrected_result": None}
    rc = json.loads(oracle_answer(by_kind["result_checkTrue"]).strip("`").removeprefix("json"))
    assert "first_error_step" not in rc and rc["verdict"] == "incorrect"


@pytest.fixture
def suite():
    return fixture_suite.SUITE


def test_oracle_scores_every_fixture_item(tmp_path):
    result = evaluate(EvalConfig(suite="fixture", model="oracle", run_dir=str(tmp_path / "r"), quiet=True))
    assert result.summary["n_correct"] == result.summary["n_done"] == 12


def test_oracle_scores_every_medphys_dev_item_that_has_a_reference(tmp_path):
    try:
        get_suite("medphys")
    except Exception as exc:  # the medphys suite is built elsewhere; this runs once it registers
        pytest.skip(f"medphys suite not available: {exc}")
    result = evaluate(EvalConfig(suite="medphys", model="oracle", run_dir=str(tmp_path / "r"), quiet=True))
    s = result.summary
    assert s["n_done"] + s["n_errors"] == s["n_items"] and s["n_done"] > 0
    assert s["n_correct"] == s["n_done"], s["outcomes"]


def test_oracle_declines_an_item_without_reference():
    item = Item(id="x", suite="medphys", kind="calculation", messages=(Message("user", "q"),),
                reference={"band": 0.01})
    with pytest.raises(ModelError) as err:
        asyncio.run(make_model("oracle").generate(item.messages, item=item))
    assert not err.value.retryable


def test_constant_gives_its_text_to_every_item(suite):
    model = make_model("constant:\\boxed{1 cGy/MU}")
    items = list(suite.items("dev"))[:3]
    assert {asyncio.run(model.generate(i.messages, item=i)).text for i in items} == {"\\boxed{1 cGy/MU}"}
    with pytest.raises(UserError):
        make_model("constant:")


def _write(path, rows):
    path.write_text("\n".join(r if isinstance(r, str) else json.dumps(r) for r in rows) + "\n")
    return str(path)


def test_replay_grades_prepared_responses_and_records_missing_ones_as_errors(tmp_path, suite):
    items = list(suite.items("dev"))
    rows = [{"id": items[0].id, "response": "\\boxed{1.018 cGy/MU}"},
            {"id": items[1].id, "response": "\\boxed{999 MU}", "finish_reason": "stop",
             "usage": {"prompt_tokens": 7, "completion_tokens": 3}},
            {"id": items[2].id, "response": "\\boxed{54.2", "finish_reason": "length"}]
    path = _write(tmp_path / "replay.jsonl", rows)
    result = evaluate(EvalConfig(suite="fixture", model=f"replay:{path}", run_dir=str(tmp_path / "r"), quiet=True))
    s = result.summary
    assert (s["n_done"], s["n_correct"], s["n_errors"]) == (3, 1, 9)
    assert s["outcomes"]["truncated"] == 1 and s["outcomes"]["wrong"] == 1
    assert s["tokens"]["prompt"] == 7
    assert s["errors"][0]["error"].startswith("replay file has no response for item")


def test_replay_keys_by_repeat_when_given(tmp_path, suite):
    item = list(suite.items("dev"))[0]
    path = _write(tmp_path / "r.jsonl", [{"id": item.id, "repeat": 0, "response": "a"},
                                         {"id": item.id, "repeat": 1, "response": "b"}])
    model = ReplayModel(path)
    assert asyncio.run(model.generate(item.messages, item=item, repeat=1)).text == "b"
    with pytest.raises(ModelError):
        asyncio.run(model.generate(item.messages, item=item, repeat=2))


@pytest.mark.parametrize("line, message", [
    ("not json", "line 1: not valid JSON"), ("[1]", "line 1: expected a JSON object"),
    ('{"response": "x"}', 'needs a string "id"'), ('{"id": "a"}', 'needs a string "response"'),
    ('{"id": "a", "response": "x", "repeat": -1}', "non-negative integer"),
    ('{"id": "a", "response": "x", "usage": {"prompt_tokens": "7"}}', "integers"),
])
def test_a_malformed_replay_file_is_one_clear_error(tmp_path, line, message):
    path = tmp_path / "bad.jsonl"
    path.write_text(line + "\n")
    with pytest.raises(UserError, match=message):
        ReplayModel(str(path))


def test_replay_refuses_a_duplicate_and_a_missing_file(tmp_path):
    path = _write(tmp_path / "d.jsonl", [{"id": "a", "response": "x"}, {"id": "a", "response": "y"}])
    with pytest.raises(UserError, match="line 2: a second response"):
        ReplayModel(path)
    with pytest.raises(UserError, match="cannot read replay file"):
        ReplayModel(str(tmp_path / "missing.jsonl"))
