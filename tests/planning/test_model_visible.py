"""What a model sees of a planning task (issue 33 item 4): messages, tool specifications and every
tool result under a scripted agent carry an opaque task token, never the item id, the family, or
a field of the reference; the family names' counts do not depend on the task's family."""

from __future__ import annotations

import asyncio
import json
import re

import pytest

from physbench.core.items import ToolCall
from physbench.models.base import Completion
from physbench.protocols.agent import Agent
from physbench.suites.planning import suite as S
from physbench.suites.planning.tasks import FAMILIES, task_token

PATIENT = "pt_258"  # a development patient with all six families
FAMILY_WORDS = {f: re.compile(f.replace("_", r"[_ /-]?"), re.I) for f in FAMILIES}
REFERENCE_WORDS = ("planning/", "certificate", "escalation_reasons", "note_conflicts", "witness", "weights_b64",
                   "influence_hash", "min_margin", "published_cord_gy", "structure_list", "flag_and_submit",
                   '"decision"', '"family"', '"kind": "feasible', "proven")


def _script() -> list[list[tuple[str, object]]]:
    """Every tool once (and an unknown one, a malformed call, a call after the end), then submit."""
    organ = {"structure": "SpinalCord", "metric": "D0.1cc"}
    return [[("get_case_summary", {})],
            [("set_objectives", {"objectives": [{"structure": "PTV_7000", "term": "min_dose", "level": 70,
                                                 "priority": 10}, {"structure": "Nowhere", "term": "max_dose",
                                                                   "level": 5, "priority": 1}]})],
            [("set_objectives", {"objectives": [{"structure": "PTV_7000", "term": "min_dose", "level": 70,
                                                 "priority": 10}]})],
            [("optimize", {"objective_id": "obj_2"})],
            [("get_metrics", {"plan_id": "plan_1", "metrics": [organ, {"structure": "OpticNrv_L", "metric": "Dmax"}]}),
             ("get_dvh", {"plan_id": "plan_1", "structure": "SpinalCord", "n_points": 5})],
            [("normalize", {"plan_id": "plan_1", "structure": "PTV_7000", "metric": "D99", "value": 66.5}),
             ("compare_to_goals", {"plan_id": "plan_2"}), ("guess_family", {}), ("optimize", "{broken")],
            [("submit", {"plan_id": "plan_2", "note": "done"}), ("escalate", {"reason": "other"})]]


def _seen_by_model(item) -> str:
    """Everything the agent protocol sends the model over one scripted attempt, as one text."""
    script, sent = _script(), []

    async def ask(conversation, *, tools=None, label="", **_):
        sent.append(json.dumps([[m.role, m.content, m.name] for m in conversation]))
        sent.append(json.dumps([t.to_openai() for t in tools or ()]))
        turn = script.pop(0) if script else []
        calls = [ToolCall.from_dict({"id": f"c{i}", "name": n, "arguments": a if isinstance(a, str) else json.dumps(a)})
                 for i, (n, a) in enumerate(turn)]
        return Completion(text="", finish_reason="tool_calls" if calls else "stop", tool_calls=tuple(calls))

    answer = asyncio.run(Agent(S.SUITE).run(item, ask))
    assert answer.detail["result"]["outcome"] == "submitted"  # the script reached its end
    last = answer.detail["tool_log"]
    sent.append(json.dumps([c["result"] for c in last]))
    return "\n".join(sent)


@pytest.mark.slow
def test_no_task_family_or_reference_reaches_the_model(fast_suite):
    items = [i for i in fast_suite.items("dev", system="agent") if i.params["patient"] == PATIENT]
    assert sorted(i.kind for i in items) == sorted(FAMILIES)
    counts = {}
    for item in items:
        text = _seen_by_model(item)
        assert item.id not in text and task_token(S.task_of(item)) in text
        for word in REFERENCE_WORDS:
            assert word not in text, (item.kind, word)
        counts[item.kind] = {f: len(w.findall(text)) for f, w in FAMILY_WORDS.items()}
    # a family name may appear (an escalation reason, a summary field) but equally often in every task
    assert len({json.dumps(c, sort_keys=True) for c in counts.values()}) == 1, counts


def test_task_tokens_are_opaque_distinct_and_stable():
    tasks = S.shipped_tasks()
    tokens = [task_token(t) for t in tasks]
    assert len(set(tokens)) == len(tasks)
    assert all(re.fullmatch(r"case-[0-9a-f]{12}", k) for k in tokens)
    for t in tasks:
        fields = S.item_fields(t, "agent")
        shown = json.dumps(fields["messages"])
        assert t["id"] not in shown and "planning/" not in shown and task_token(t) in shown
    assert task_token(tasks[0]) == task_token(json.loads(json.dumps(tasks[0])))
