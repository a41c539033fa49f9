"""The harness: JSON tools, the 3-optimization and 15-call budgets, and hostile arguments."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from physbench.suites.planning.harness import PlanningHarness
from physbench.suites.planning.optimizer import SolverConfig
from physbench.suites.planning.tasks import patient_tasks
from physbench.suites.planning.tools import ESCALATION_REASONS, TOOL_DEFINITIONS, TOOL_NAMES, openai_tools

FAST = SolverConfig(max_iter=40)


@pytest.fixture
def harness(case_for):
    case = case_for("pt_278")
    task = patient_tasks(case.patient, {})[0][0]
    return PlanningHarness(task, case, solver=FAST)


def test_every_tool_has_a_name_a_description_and_an_object_schema():
    assert TOOL_NAMES == ("get_case_summary", "set_objectives", "optimize", "get_metrics", "get_dvh", "normalize",
                          "compare_to_goals", "submit", "escalate")
    for t in TOOL_DEFINITIONS:
        assert t["description"] and t["parameters"]["type"] == "object"
        json.dumps(t)
    assert openai_tools()[0]["type"] == "function"
    esc = next(t for t in TOOL_DEFINITIONS if t["name"] == "escalate")
    assert esc["parameters"]["properties"]["reason"]["enum"] == list(ESCALATION_REASONS)


def test_the_summary_states_goals_rules_overlaps_and_budget(harness):
    s = harness.call("get_case_summary")
    names = [x["name"] for x in s["structures"]]
    assert names[0] == "External" and "PTV_7000" in names
    cord = next(x for x in s["structures"] if x["name"] == "SpinalCord")
    assert set(cord["overlap_voxels_with_targets"]) == set(s["prescriptions"])
    assert s["budget"] == {"optimize_total": 3, "optimize_remaining": 3, "tool_calls_made": 1, "tool_calls_max": 15}
    assert any("115 percent" in r for r in s["rules"]) and s["goals"][0]["structure"] == "External"
    json.dumps(s)


def test_optimize_normalize_compare_and_submit_round_trip(harness):
    obj = harness.call("set_objectives", {"objectives": [{"structure": "PTV_7000", "term": "min_dose", "level": 70, "priority": 10}]})
    assert obj["valid"]
    plan = harness.call("optimize", json.dumps({"objective_id": obj["objective_id"]}))
    assert plan["plan_id"] == "plan_1" and plan["hard_total"] >= 5 and plan["solver"]["w_max"] <= 15
    norm = harness.call("normalize", {"plan_id": "plan_1", "structure": "PTV_7000", "metric": "D99", "value": 66.5})
    d99 = next(g for g in norm["goals"] if g["structure"] == "PTV_7000")
    assert d99["achieved"] == pytest.approx(66.5, abs=1e-3)
    dvh = harness.call("get_dvh", {"plan_id": norm["plan_id"], "structure": "SpinalCord", "n_points": 10})
    assert len(dvh["dose_gy"]) == 10 and dvh["volume_fraction"][0] == 1.0
    m = harness.call("get_metrics", {"plan_id": "plan_2", "metrics": [{"structure": "PTV_7000", "metric": "D99"},
                                                                       {"structure": "Nope", "metric": "Dmax"}]})
    assert m["values"][0]["value"] == pytest.approx(66.5, abs=1e-3) and m["values"][1]["value"] is None
    assert harness.call("submit", {"plan_id": "plan_2", "note": "ok"}) == {"status": "submitted", "plan_id": "plan_2"}
    term = harness.terminal
    assert term["outcome"] == "submitted" and term["optimize_calls"] == 1 and term["weights_b64"]
    assert harness.call("compare_to_goals", {"plan_id": "plan_1"})["error"] == "task_over"
    json.dumps(term)


def test_the_fourth_optimization_and_the_sixteenth_call_are_refused(harness):
    obj = harness.call("set_objectives", {"objectives": [{"structure": "PTV_7000", "term": "min_dose", "level": 70, "priority": 1}]})
    for _ in range(3):
        assert "plan_id" in harness.call("optimize", {"objective_id": obj["objective_id"]})
    refused = harness.call("optimize", {"objective_id": obj["objective_id"]})
    assert refused["error"] == "optimize_budget" and "budget" in refused["detail"] and harness.optimize_calls == 3
    while harness.tool_calls < 15:
        harness.call("compare_to_goals", {"plan_id": "plan_1"})
    assert harness.call("compare_to_goals", {"plan_id": "plan_1"})["error"] == "tool_budget"
    assert harness.call("escalate", {"reason": "other"})["error"] == "tool_budget" and harness.terminal is None


def test_an_absent_structure_makes_the_objective_invalid_and_escalation_ends_the_task(harness):
    r = harness.call("set_objectives", {"objectives": [{"structure": "OpticNrv_L", "term": "max_dose", "level": 54, "priority": 1}]})
    assert r["valid"] is False and "OpticNrv_L" in r["problems"][0]
    assert harness.call("escalate", {"reason": "bogus"})["error"] == "invalid_arguments"
    assert harness.call("escalate", {"reason": "missing_structure", "explanation": "no optic nerve"})["status"] == "escalated"
    assert harness.terminal["reason"] == "missing_structure"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(list(TOOL_NAMES) + ["rm -rf", ""]),
       args=st.one_of(st.text(max_size=80), st.dictionaries(st.text(max_size=8), st.one_of(
           st.integers(), st.floats(allow_nan=True), st.text(max_size=10), st.lists(st.integers(), max_size=3)), max_size=4)))
def test_hostile_calls_never_raise_and_answer_json(harness, name, args):
    if name == "optimize":
        return  # a valid optimize needs a registered objective; arbitrary ones are refused below
    out = harness.call(name, args)
    json.dumps(out)
    assert isinstance(out, dict)


def test_the_harness_follows_the_core_harness_interface(harness):
    """CORE-INTERFACE: tools as ToolSpec with JSON-schema parameters, limits, finished, result()."""
    from physbench.suites.planning.tools import ToolSpec

    assert [t.name for t in harness.tools] == list(TOOL_NAMES)
    for t in harness.tools:
        assert isinstance(t, ToolSpec) and t.parameters["type"] == "object"
        assert t.to_openai()["function"]["parameters"] == dict(t.parameters)
    assert harness.limits["tool_calls"] == 15 and harness.limits["optimizations"] == 3
    assert not harness.finished and harness.result()["outcome"] == "no_decision"
    harness.call("escalate", {"reason": "infeasible", "explanation": "test"})
    assert harness.finished
    res = harness.result()
    assert res["outcome"] == "escalated" and res["reason"] == "infeasible" and res["family"] == "routine"
    assert res["patient"] == "pt_278" and res["log"][-1]["tool"] == "escalate"
    json.dumps(res)


def test_a_fault_inside_a_tool_comes_back_as_an_error_not_an_exception(harness, monkeypatch):
    def broken(**_):
        raise RuntimeError("solver blew up")

    monkeypatch.setattr(harness, "compare_to_goals", broken)
    out = harness.call("compare_to_goals", {"plan_id": "plan_1"})
    assert out["error"] == "internal_error" and "RuntimeError" in out["detail"]
    assert harness.call(17, None)["error"] == "unknown_tool"  # a name that is not text


def test_a_read_only_mapping_of_arguments_is_accepted(harness):
    from types import MappingProxyType

    out = harness.call("escalate", MappingProxyType({"reason": "other", "explanation": "mapping"}))
    assert out == {"status": "escalated", "reason": "other"}


def test_a_call_budget_spent_without_a_decision_is_reported_in_the_result(harness):
    while harness.tool_calls < 15:
        harness.call("get_case_summary")
    assert harness.call("submit", {"plan_id": "plan_1"})["error"] == "tool_budget"
    res = harness.result()
    assert res["outcome"] == "no_decision" and res["budget_exhausted"] and res["refused_calls"] == 1
