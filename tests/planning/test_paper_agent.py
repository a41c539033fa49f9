"""The agent as OpenGray ran it (protocol opengray-agent, issue 34 item 3): the case summary in the
first message, one nudge, malformed calls free of the budget, the best plan submitted at the call
cap, and the loop's and the harness's call counts equal."""

from __future__ import annotations

import asyncio
import json

from physbench.core.items import ToolCall
from physbench.models.base import Completion
from physbench.suites.planning import paper_agent as P
from physbench.suites.planning import suite as S


def _item(suite, tid):
    return next(i for i in suite.items("dev", system="agent") if i.id == tid)


def _drive(suite, item, script):
    seen = []

    async def ask(conversation, *, tools=None, label="", **_):
        seen.append([(m.role, m.content) for m in conversation])
        turn = script.pop(0) if script else []
        if isinstance(turn, str):
            return Completion(text=turn, finish_reason="stop")
        calls = tuple(ToolCall.from_dict({"id": f"c{len(seen)}_{i}", "name": n,
                                          "arguments": a if isinstance(a, str) else json.dumps(a)})
                      for i, (n, a) in enumerate(turn))
        return Completion(text="", finish_reason="tool_calls", tool_calls=calls)

    return asyncio.run(P.PaperAgent(suite).run(item, ask)), seen


def test_the_best_plan_is_submitted_at_the_cap_and_malformed_calls_are_free(fast_suite):
    item = _item(fast_suite, "planning/routine/pt_258")
    objective = {"objectives": [{"structure": "PTV_7000", "term": "min_dose", "level": 70, "priority": 10}]}
    script = [[("set_objectives", objective)], [("optimize", {"objective_id": "obj_1"})],
              [("optimize", "{not json")]] + [[("compare_to_goals", {"plan_id": "plan_1"})]] * 20
    answer, seen = _drive(fast_suite, item, script)
    first_user = seen[0][1][1]
    assert "case-" in first_user and '"structures"' in first_user  # the summary is in the first message
    result, log = answer.detail["result"], answer.detail["tool_log"]
    assert result["outcome"] == "submitted" and result["plan_id"] == "plan_1"
    assert answer.detail["auto_ended"] == "the tool-call cap was reached"
    assert answer.detail["protocol_tool_calls"] == result["tool_calls"] == 15  # both count the same calls
    bad = [c for c in log if c["error"] is not None]
    assert len(bad) == 1 and bad[0]["result"]["error"] == "invalid_json"  # answered, not counted


def test_one_nudge_then_an_escalation_when_the_model_stops(fast_suite):
    item = _item(fast_suite, "planning/overlap/pt_258")
    answer, seen = _drive(fast_suite, item, ["I think this case is fine.", "Still thinking."])
    assert len(seen) == 2 and seen[1][-1] == ("user", P.NUDGE)
    result = answer.detail["result"]
    assert result["outcome"] == "escalated" and result["reason"] == "other"
    assert answer.detail["auto_ended"] == "the model stopped calling tools"
    assert fast_suite.grade(item, answer).outcome == "correct"  # escalate is the proven decision here


def test_the_agent_system_runs_the_papers_loop_by_default():
    assert S.PROTOCOL_OF["agent"] == "opengray-agent" and S.SUITE.default_item_options("agent") == {"system": "agent"}
    assert "opengray-agent" in S.SUITE.protocols()
