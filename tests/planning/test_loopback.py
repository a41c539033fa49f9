"""The interpreter system end to end against the loopback OpenAI-compatible mock (127.0.0.1):
scripted strict-JSON replies, malformed ones counted as technical failures with no credit."""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace

import pytest

from physbench.core.items import Message
from physbench.models.base import ModelError
from physbench.models.openai_compat import OpenAIModel
from physbench.suites.planning import suite as S

ESCALATE = json.dumps({"action": "escalate", "reason": "infeasible", "explanation": "D99 78 Gy exceeds the 77 Gy cap"})


def ask(server, fields):
    """One interpreter call through the real client; (text, finish_reason), or ("", "error") on a fault."""
    async def go():
        model = OpenAIModel("mock-interpreter", base_url=server.base_url, timeout_s=5.0)
        try:
            c = await model.generate(tuple(Message(m["role"], m["content"]) for m in fields["messages"]))
            return c.text, c.finish_reason
        except ModelError:
            return "", "error"
        finally:
            await model.aclose()

    return asyncio.run(go())


def grade(fields, text, finish):
    item = SimpleNamespace(id=fields["id"], kind=fields["kind"], params=fields["params"], reference=fields["reference"],
                           meta=fields["meta"])
    return S.SUITE.grade(item, SimpleNamespace(text=text, finish_reason=finish, outcome=None, detail={}))


@pytest.mark.parametrize("tid", ["planning/coverage_cap/pt_258", "planning/overlap/pt_306"])
def test_a_strict_json_escalation_from_the_mock_is_a_correct_decision(mock_server, tid):
    fields = S.item_fields(next(t for t in S.shipped_tasks() if t["id"] == tid), "interpreter")
    g = grade(fields, *ask(mock_server(reply=ESCALATE, record=True), fields))
    assert g.outcome == "correct" and g.detail["correct"]["reason"] and not g.detail["technical_failure"]


@pytest.mark.parametrize("reply, faults", [
    ("Escalate: the coverage goal is above the cap.", []),                        # prose, not JSON
    ('{"action": "escalate", "reason": "infeasible"}', []),                      # no explanation
    (ESCALATE, [{"match": "mock-interpreter", "sequence": ["length"]}]),          # cut at the token limit
    (ESCALATE, [{"match": "mock-interpreter", "sequence": ["malformed"]}]),       # broken response body
    (ESCALATE, [{"match": "mock-interpreter", "sequence": ["empty"]}]),           # no content
])
def test_malformed_replies_are_technical_failures_with_no_credit(mock_server, reply, faults):
    fields = S.item_fields(next(t for t in S.shipped_tasks() if t["id"] == "planning/coverage_cap/pt_258"), "interpreter")
    g = grade(fields, *ask(mock_server(reply=reply, faults=faults), fields))
    assert g.outcome == "technical_failure" and g.score == 0.0 and not g.passed
