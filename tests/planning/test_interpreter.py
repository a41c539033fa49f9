"""The interpreter system: one strict-JSON reply, then the controller; malformed replies are technical failures."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from physbench.suites.planning import interpreter as I
from physbench.suites.planning import tasks as T
from physbench.suites.planning.openkbp import load_shipped

P = load_shipped("pt_258")
TASKS = {t["kind"]: t for t in T.patient_tasks(P, {})[0]}


def test_a_plan_reply_with_flags_parses():
    d = I.parse_reply('{"action": "plan", "explanation": "fine", "flags": ["note conflicts with PTV_7000 D99"]}')
    assert d == {"action": "plan", "reason": None, "explanation": "fine", "flags": ["note conflicts with PTV_7000 D99"]}


def test_an_escalation_needs_a_known_reason_and_an_explanation():
    ok = I.parse_reply('{"action": "escalate", "reason": "infeasible", "explanation": "D99 78 Gy above the 77 Gy cap"}')
    assert ok["action"] == "escalate" and ok["reason"] == "infeasible"
    for bad in ('{"action": "escalate", "explanation": "x"}', '{"action": "escalate", "reason": "infeasible"}',
                '{"action": "escalate", "reason": "too hard", "explanation": "x"}'):
        assert "error" in I.parse_reply(bad), bad


def test_one_code_fence_is_tolerated_but_prose_duplicates_and_extra_fields_are_not():
    assert I.parse_reply('```json\n{"action": "plan", "flags": []}\n```')["action"] == "plan"
    for bad in ('Sure! {"action": "plan"}', '{"action": "plan", "action": "escalate"}', '{"action": "plan", "why": 1}',
                '{"action": "submit"}', '["plan"]', '{"action": "plan", "flags": "none"}', "", None, "x" * 30000):
        assert "error" in I.parse_reply(bad), bad


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.text(max_size=300), st.binary(max_size=50).map(lambda b: b.decode("latin-1")),
                 st.recursive(st.none() | st.booleans() | st.floats() | st.text(max_size=20),
                              lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=10), c, max_size=4),
                              max_leaves=20).map(json.dumps)))
def test_parsing_never_raises_on_hostile_replies(text):
    out = I.parse_reply(text)
    assert ("error" in out) != ("action" in out)


def test_an_escalation_ends_the_task_without_running_the_controller():
    def never():
        raise AssertionError("the controller must not run")

    term = I.decide({"action": "escalate", "reason": "missing_structure", "explanation": "no optic nerve", "flags": []}, never)
    assert term["outcome"] == "escalated" and T.decision_correct(TASKS["missing_structure"], term, "reason")
    assert I.decide({"error": "not a single JSON object"}, never)["outcome"] == "technical_failure"
    assert not T.decision_correct(TASKS["missing_structure"], I.decide({"error": "x"}, never))


def test_a_plan_decision_submits_the_controllers_plan_with_the_flags_in_its_note():
    term = I.decide({"action": "plan", "reason": None, "explanation": "", "flags": ["the note conflicts with the goals"]},
                    lambda: {"outcome": "submitted", "note": "all goals met", "hard_met": 6, "hard_total": 6})
    assert term["note"] == "all goals met; the note conflicts with the goals"
    assert T.decision_correct(TASKS["conflicting_note"], term)
    assert not T.decision_correct(TASKS["conflicting_note"], dict(term, note="all goals met"))


def test_the_oracle_reply_makes_the_proven_decision_under_every_policy():
    ctrl = {"outcome": "submitted", "note": "all goals met", "hard_met": 6, "hard_total": 6}
    for kind, task in TASKS.items():
        term = I.decide(I.parse_reply(I.oracle_reply(task)), lambda: dict(ctrl))
        assert all(T.decision_correct(task, term, p) for p in T.POLICIES), kind


def test_the_interpreter_reads_a_reduced_summary_without_overlaps_or_the_answer():
    msgs = I.interpreter_messages(TASKS["overlap"], P)
    assert [m["role"] for m in msgs] == ["system", "user"]
    payload = json.loads(msgs[1]["content"].split("\n", 1)[1].rsplit("\n\n", 1)[0])
    assert payload["goals"] == TASKS["overlap"]["goals"] and payload["case_id"] == "pt_258"
    assert set(payload["structures"][0]) == {"name", "volume_cc"}
    text = json.dumps(msgs)
    assert "certificate" not in text and "overlap_voxels" not in text and '"decision"' not in text
    agent = I.agent_messages(TASKS["overlap"])
    assert "get_case_summary" in agent[1]["content"] and "certificate" not in json.dumps(agent)
