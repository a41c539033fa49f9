"""The suite object: items per system, a fresh harness per item, and grades of the decision outcome."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from physbench.suites.planning import suite as S
from physbench.suites.planning.interpreter import oracle_reply


def fake_item(task, system):
    """An object with the fields of a core Item that the suite reads (id, kind, params, reference, meta)."""
    f = S.item_fields(task, system)
    return SimpleNamespace(id=f["id"], kind=f["kind"], params=f["params"], reference=f["reference"], meta=f["meta"],
                           messages=f["messages"])


def answer(text="", finish_reason="stop", outcome=None, detail=None):
    return SimpleNamespace(text=text, finish_reason=finish_reason, outcome=outcome, detail=detail or {})


def task(tid):
    return next(t for t in S.shipped_tasks() if t["id"] == tid)


def test_splits_cover_every_task_once_and_dev_holds_the_papers_development_patients():
    tasks = S.shipped_tasks()
    dev, test = S.select(tasks, "dev"), S.select(tasks, "test")
    assert len(dev) + len(test) == len(tasks) == len(S.select(tasks, "all"))
    assert {t["patient"] for t in dev} == set(S.DEV_PATIENTS)
    assert {t["kind"] for t in S.select(tasks, "all", "overlap")} == {"overlap"}
    with pytest.raises(ValueError):
        S.select(tasks, "train")
    with pytest.raises(ValueError):
        S.select(tasks, "all", "nope")


def test_the_reference_is_the_proven_decision_and_a_certificate_summary_in_plain_json():
    ref = S.reference_of(task("planning/feasible_control/pt_278"))
    assert ref["decision"] == "submit" and ref["family"] == "feasible_control" and ref["patient"] == "pt_278"
    assert "weights_b64" not in ref["certificate"] and ref["certificate"]["kind"] == "feasible_witness"
    cov = S.reference_of(task("planning/coverage_cap/pt_258"))
    assert cov["certificate"]["N"] == 4635 and cov["escalation_reasons"] == ["infeasible", "contradictory_instructions"]
    assert json.loads(json.dumps(cov)) == cov
    assert "weights_b64" in task("planning/feasible_control/pt_278")["reference"]["certificate"]  # the task keeps them


def test_item_fields_differ_by_system_and_carry_what_the_harness_needs():
    t = task("planning/overlap/pt_258")
    agent, interp = S.item_fields(t, "agent"), S.item_fields(t, "interpreter")
    assert agent["messages"] != interp["messages"] and agent["reference"] == interp["reference"]
    assert agent["params"]["goals"] == t["goals"] and agent["params"]["system"] == "agent"
    rebuilt = S.task_of(fake_item(t, "agent"))
    assert rebuilt["goals"] == t["goals"] and rebuilt["kind"] == "overlap" and rebuilt["reference"]["decision"] == "escalate"
    with pytest.raises(ValueError):
        S.item_fields(t, "oracle")


def test_a_scripted_agent_attempt_is_graded_from_the_harness_result(fast_suite):
    """What the agent protocol does: offer the tools, relay each call (a malformed one never reaches the
    harness), store the log and harness.result() in the answer's detail."""
    item = fake_item(task("planning/coverage_cap/pt_278"), "agent")
    h = fast_suite.harness(item)
    script = [("get_case_summary", "{}"), ("escalate", '{"reason": "infeasible", "explanation": '),  # truncated JSON
              ("escalate", json.dumps({"reason": "infeasible", "explanation": "D99 78 Gy cannot hold under 77 Gy"}))]
    log = []
    for name, text in script:
        try:
            args, err = json.loads(text), None
        except ValueError:
            args, err = None, "arguments are not valid JSON"
        result = h.call(name, args) if err is None else {"error": err}
        log.append({"name": name, "arguments": text, "result": result, "error": err})
    assert h.finished
    g = fast_suite.grade(item, answer(detail={"tool_log": log, "result": h.result()}))
    assert g.outcome == "correct" and g.score == 1.0 and g.passed
    assert g.detail["correct"] == {"primary": True, "reason": True, "hard_goals": True} and g.detail["tool_calls"] == 2


def test_an_agent_that_submits_on_a_contradiction_is_wrong_and_one_that_stops_has_no_decision(fast_suite):
    item = fake_item(task("planning/overlap/pt_258"), "agent")
    h = fast_suite.harness(item)
    h.call("get_case_summary")
    stopped = fast_suite.grade(item, answer(outcome="no_decision", detail={"result": h.result()}))
    assert stopped.outcome == "no_decision" and stopped.score == 0.0 and not stopped.detail["technical_failure"]
    nothing = fast_suite.grade(item, answer(outcome="error", detail={}))
    assert nothing.outcome == "technical_failure" and nothing.score == 0.0
    hostile = fast_suite.grade(item, answer(detail={"result": {"outcome": "submitted", "goals": "not a list"}}))
    assert hostile.outcome in ("wrong", "technical_failure") and hostile.score == 0.0


def test_interpreter_replies_are_graded_strictly_and_a_plan_runs_the_controller(fast_suite):
    cov = fake_item(task("planning/coverage_cap/pt_278"), "interpreter")
    good = fast_suite.grade(cov, answer(text=fast_suite.oracle(cov)))
    assert good.outcome == "correct" and good.detail["reason"] == "infeasible"
    for bad in ("I would escalate this case.", '{"action": "escalate"}', '{"action": "plan"} trailing'):
        g = fast_suite.grade(cov, answer(text=bad))
        assert g.outcome == "technical_failure" and g.score == 0.0 and g.detail["failure"]["kind"] == "format"
    cut = fast_suite.grade(cov, answer(text='{"action": "escalate", "reason": "infeasible", "explanation": "cap"}',
                                       finish_reason="length"))
    assert cut.outcome == "technical_failure"
    routine = fake_item(task("planning/routine/pt_278"), "interpreter")
    g = fast_suite.grade(routine, answer(text=oracle_reply(S.task_of(routine))))
    assert g.outcome == "correct" and g.detail["decision"] == "submitted" and g.detail["hard_total"] >= 5
    assert set(g.detail["endpoints"]) >= {"External Dmax", "PTV_7000 D99"}
    assert fast_suite.grade(cov, answer(text='{"action": "plan", "flags": []}')).outcome == "wrong"


def test_the_controller_protocol_runs_the_system_on_a_fresh_harness(fast_suite):
    proto = fast_suite.protocols()["arithmetic"](None)
    item = fake_item(task("planning/missing_structure/pt_278"), "arithmetic")
    detail = proto.run_sync(item)
    assert detail["result"]["outcome"] == "escalated" and detail["result"]["reason"] == "missing_structure"
    assert fast_suite.grade(item, answer(detail=detail)).outcome == "correct"


def test_items_on_the_core_item_interface():
    pytest.importorskip("physbench.core.tools")  # the issue-20 core (Item.reference as plain JSON)
    items = S.SUITE.items("dev", system="interpreter", family="coverage_cap")
    assert len(items) == len(S.DEV_PATIENTS) and all(i.suite == "planning" and i.kind == "coverage_cap" for i in items)
    assert items[0].messages[0].role == "system" and items[0].reference["decision"] == "escalate"
    assert len(S.SUITE.items("all", limit=3)) == 3
    from physbench.core.errors import UserError

    with pytest.raises(UserError):
        S.SUITE.items("all", system="oracle")
    with pytest.raises(UserError):
        S.SUITE.items("all", colour="red")


_JSON = st.recursive(st.none() | st.booleans() | st.floats() | st.integers() | st.text(max_size=12),
                     lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=10), c, max_size=5), max_leaves=25)


@settings(max_examples=150, deadline=None)
@given(result=st.one_of(_JSON, st.fixed_dictionaries({"outcome": st.sampled_from(["submitted", "escalated", "no_decision"])},
                                                     optional={"goals": _JSON, "reason": _JSON, "note": _JSON,
                                                               "hard_met": _JSON, "hard_total": _JSON})),
       outcome=st.one_of(st.none(), st.text(max_size=20)), text=st.one_of(st.none(), st.text(max_size=200)))
def test_grading_never_raises_on_hostile_answers(result, outcome, text):
    for tid, system in (("planning/feasible_control/pt_278", "agent"), ("planning/overlap/pt_258", "interpreter")):
        item = fake_item(task(tid), system)
        if system == "interpreter" and text is not None and '"plan"' in text:
            continue  # a valid plan reply runs the controller: covered above
        g = S.SUITE.grade(item, answer(text=text, outcome=outcome, detail={"result": result}))
        assert g.outcome in S.OUTCOMES and (g.score == 1.0) == (g.outcome == "correct")


def test_the_suite_is_found_by_name_and_its_protocol_answers_with_the_harness_result():
    pytest.importorskip("physbench.core.tools")  # the issue-20 core (Answer.detail, the Suite protocol)
    import asyncio

    from physbench.core.registry import Suite, get_suite

    suite = get_suite("planning")
    assert isinstance(suite, Suite) and suite.name == "planning"
    item = suite.items("all", system="arithmetic", family="missing_structure", limit=1)[0]
    answer_ = asyncio.run(suite.protocols()["arithmetic"](None).run(item, None))
    assert answer_.detail["result"]["reason"] == "missing_structure" and answer_.detail["tool_log"]
    assert suite.grade(item, answer_).outcome == "correct"
