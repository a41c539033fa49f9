"""Each protocol end to end: the OpenAI client against the loopback mock server, through the
runner's CallLedger, on scripted items of the fixture suite."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "runner"))
from fixture_suite import SUITE, protocol_item  # noqa: E402

from physbench.core.errors import UserError  # noqa: E402
from physbench.models.openai_compat import OpenAIModel  # noqa: E402
from physbench.protocols import check_model, get_protocol  # noqa: E402
from physbench.protocols.program import extract_program  # noqa: E402
from physbench.runner.mock_server import MockConfig, MockServer  # noqa: E402
from physbench.runner.retry import CallLedger, RetryPolicy  # noqa: E402


@pytest.fixture(scope="module")
def server():
    s = MockServer(MockConfig(record=True)).start()
    yield s
    s.stop()


def _run(server, protocol_name, item):
    async def go():
        model = OpenAIModel("mock", base_url=server.base_url)
        ledger = CallLedger(model, item, {"temperature": 0.0}, RetryPolicy(max_attempts=2, base_delay_s=0.01))
        try:
            return await get_protocol(protocol_name, SUITE).run(item, ledger), ledger
        finally:
            await model.aclose()
    return asyncio.run(go())


def test_two_step_grades_the_formatting_reply(server):
    item = protocol_item("p/two", ["Working: dose is two gray.", "\\boxed{2.0 Gy}"], {"format": "Box the answer."})
    answer, ledger = _run(server, "two-step", item)
    assert answer.text == "\\boxed{2.0 Gy}" and len(ledger.turns) == 2
    assert SUITE.grade(item, answer).passed


def test_checkpoints_oracle_inserts_the_expected_text_and_answers_each_step(server):
    steps = [{"id": "checkpoint-1", "ask": "Step one.", "expected": "ORACLE-ONE"},
             {"id": "checkpoint-2", "ask": "Step two."}]
    item = protocol_item("p/ck", ["one: 1 Gy", "two: 2 Gy"], {"steps": steps})
    answer, _ = _run(server, "checkpoints-oracle-multiturn", item)
    assert [s.step for s in answer.steps] == ["checkpoint-1", "checkpoint-2"]
    assert [s.text for s in answer.steps] == ["one: 1 Gy", "two: 2 Gy"]
    last = json.loads(server.bodies[-1])["messages"]
    assert "ORACLE-ONE" in [m for m in last if m["role"] == "user"][-1]["content"]  # before step two's ask
    assert [m["content"] for m in last if m["role"] == "assistant"] == ["one: 1 Gy"]
    self_answer, _ = _run(server, "checkpoints-self", protocol_item("p/ck2", ["a", "b"], {"steps": steps}))
    assert not any("ORACLE-ONE" in (m["content"] or "") for m in json.loads(server.bodies[-1])["messages"])
    assert [s.text for s in self_answer.steps] == ["a", "b"]


PROG = "```python\ndef solve():\n    return 2.0\n```"


def test_program_runs_the_code_and_repair_fixes_a_raising_program(server):
    item = protocol_item("p/prog", ["```python\ndef solve():\n    return 1/0\n```", PROG], {"program": {}})
    answer, _ = _run(server, "program", item)
    assert answer.outcome == "raised" and "ZeroDivisionError" in answer.detail["error"]
    fixed, ledger = _run(server, "program:repair=1", item)
    assert fixed.outcome is None and fixed.value == 2.0 and len(ledger.turns) == 2
    repair_prompt = json.loads(server.bodies[-1])["messages"][-1]["content"]
    assert "ZeroDivisionError" in repair_prompt


def test_program_without_code_is_no_program(server):
    answer, _ = _run(server, "program", protocol_item("p/np", ["just words"], {"program": {}}))
    assert answer.outcome == "no_program" and answer.value is None


def test_extract_program_reads_fenced_and_bare_code():
    assert extract_program(PROG) == "def solve():\n    return 2.0"
    assert extract_program("def solve():\n    return 3") == "def solve():\n    return 3"
    assert extract_program("the answer is 3") is None


def test_agent_runs_tools_logs_malformed_arguments_and_submits(server):
    script = [{"content": None, "tool_calls": [{"id": "c1", "name": "add", "arguments": '{"a": 1, "b": '}]},
              {"content": None, "tool_calls": [{"id": "c2", "name": "add", "arguments": {"a": 1, "b": 1}}]},
              {"content": None, "tool_calls": [{"id": "c3", "name": "submit", "arguments": {"value": 2.0}}]}]
    answer, ledger = _run(server, "agent", protocol_item("p/agent", script, {}))
    log = answer.detail["tool_log"]
    assert [e["name"] for e in log] == ["add", "add", "submit"]
    assert log[0]["error"] and "malformed" in log[0]["result"]["error"]
    assert log[1]["result"] == {"sum": 2.0}
    assert answer.detail["result"] == {"submitted": 2.0} and answer.outcome is None
    sent = json.loads(server.bodies[-1])
    assert sent["tools"][0]["function"]["name"] == "add"
    assert any(m["role"] == "tool" and m["tool_call_id"] == "c2" for m in sent["messages"])


def test_agent_stops_at_the_tool_call_budget_and_without_a_decision(server):
    loop = [{"content": None, "tool_calls": [{"id": "c", "name": "add", "arguments": {"a": 1, "b": 1}}]}]
    answer, _ = _run(server, "agent", protocol_item("p/loop", loop, {}))
    assert answer.outcome == "budget_exhausted" and len(answer.detail["tool_log"]) == 5
    quiet, _ = _run(server, "agent", protocol_item("p/quiet", ["I give up"], {}))
    assert quiet.outcome == "no_decision"


def test_the_registry_names_known_protocols_and_refuses_tools_without_support():
    with pytest.raises(UserError, match="known protocols: .*program"):
        get_protocol("nonesuch")
    with pytest.raises(UserError, match="key=value"):
        get_protocol("program:vote")
    assert get_protocol("program:vote=5").vote == 5

    class NoTools:
        spec, supports_tools = "local", False
    with pytest.raises(UserError, match="cannot"):
        check_model(get_protocol("agent", SUITE), NoTools())


def test_replay_model_answers_each_call_of_an_attempt_and_carries_tool_calls(tmp_path):
    from physbench.models.scripted import ReplayModel

    path = tmp_path / "r.jsonl"
    script = [{"content": "", "tool_calls": [{"id": "a", "name": "submit", "arguments": '{"value": 2'}]},
              {"content": "", "tool_calls": [{"id": "b", "name": "submit", "arguments": {"value": 2.0}}]}]
    path.write_text(json.dumps({"id": "p/r", "responses": script}) + "\n")
    item = protocol_item("p/r", ["unused"], {})

    async def go():
        model = ReplayModel(str(path))
        ledger = CallLedger(model, item, {}, RetryPolicy(max_attempts=1))
        return await get_protocol("agent", SUITE).run(item, ledger)
    answer = asyncio.run(go())
    assert [e["error"] is not None for e in answer.detail["tool_log"]] == [True, False]
    assert answer.detail["result"] == {"submitted": 2.0}


def test_program_vote_takes_a_value_returned_twice_and_abstains_when_nothing_runs(server):
    one = "```python\ndef solve():\n    return 1.0\n```"
    from physbench.protocols.program import Program

    class Cycle:
        """An Ask that replays a fixed list of replies, one per call, recording the temperatures."""
        def __init__(self, texts):
            self.texts, self.temps = list(texts), []

        async def __call__(self, messages, **kw):
            from physbench.models.base import Completion
            self.temps.append(kw.get("temperature"))
            return Completion(self.texts.pop(0), finish_reason="stop")
    item = protocol_item("p/vote", ["x"], {"program": {}})
    ask = Cycle([one, PROG, "no code", PROG, one])
    answer = asyncio.run(Program(vote=5).run(item, ask))
    assert answer.value == 1.0 and set(ask.temps) == {0.7}  # 1.0 and 2.0 both twice: the tie goes to the first sample
    assert answer.detail["vote"]["counts"] == {"1.0": 2, "2.0": 2}
    first = asyncio.run(Program(vote=3).run(item, Cycle([one, PROG, "no code"])))
    assert first.value == 1.0  # no value twice: the first computed one
    none = asyncio.run(Program(vote=2).run(item, Cycle(["a", "b"])))
    assert none.outcome == "abstained" and none.value is None
