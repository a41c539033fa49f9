"""How challenges and checkpoints are asked (issue 37 item 4): two-step by default, CritPt's oracle
carryover (each checkpoint on its own after the earlier ones and their expert answers), the
multi-turn form under its own name, self carryover without a repeated question, a user's wording."""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace

import pytest

from physbench.core.errors import UserError
from physbench.protocols import get_protocol
from physbench.runner.evaluate import EvalConfig, resolve
from physbench.suites.research.extract import extract_code
from physbench.suites.research.suite import SUITE


def _ask_log():
    calls: list[tuple[str, list]] = []

    async def ask(messages, *, label="", **_):
        calls.append((label, list(messages)))
        return SimpleNamespace(text=f"reply to {label}", finish_reason="stop", usage={}, latency=0.0)

    return ask, calls


def _run(protocol: str, mode: str, **options):
    [item] = [i for i in SUITE.items(mode=mode, problems="critpt-example", **options)]
    ask, calls = _ask_log()
    answer = asyncio.run(get_protocol(protocol, SUITE).run(item, ask))
    return item, answer, calls


def test_the_default_protocol_for_challenges_is_two_step_and_for_checkpoints_their_own():
    assert resolve(EvalConfig(suite="research"), SUITE)[0].protocol == "two-step"
    assert resolve(EvalConfig(suite="research", item_options=(("mode", "checkpoints-oracle"),)), SUITE)[0].protocol \
        == "checkpoints-oracle"


def test_oracle_carryover_asks_each_checkpoint_alone_after_the_earlier_ones_and_their_expert_answers():
    item, answer, calls = _run("checkpoints-oracle", "checkpoints-oracle")
    p, steps = SUITE.steps_of(item)
    solves = [m for label, m in calls if label.endswith(":solve")]
    assert [s.step for s in answer.steps] == ["checkpoint-1", "checkpoint-2", "checkpoint-3"]
    for i, messages in enumerate(solves):
        assert [m.role for m in messages] == ["system", "user"]  # no earlier reply of the model
        prompt = messages[1].content
        assert prompt.startswith(p.setup) and prompt.count(steps[i].question) == 1
        for j, earlier in enumerate(steps):
            assert (earlier.question in prompt) == (j <= i)
            assert (earlier.answer_text in prompt) == (j < i)  # expert answers of earlier steps only


def test_the_multiturn_form_keeps_one_conversation_with_the_expert_answer_at_the_head_of_the_next_turn():
    item, _, calls = _run("checkpoints-oracle-multiturn", "checkpoints-oracle-multiturn")
    _, steps = SUITE.steps_of(item)
    last = [m for label, m in calls if label == "checkpoint-3:solve"][0]
    assert [m.role for m in last] == ["system", "user", "assistant", "user", "assistant", "user"]
    assert last[-1].content.startswith("Expert answer to this checkpoint:") and steps[1].answer_text in last[-1].content


def test_self_carryover_sends_the_first_question_once():
    item, _, calls = _run("checkpoints-self", "checkpoints-self")
    _, steps = SUITE.steps_of(item)
    first = calls[0][1]
    users = [m.content for m in first if m.role == "user"]
    assert len(users) == 1 and users[0].count(steps[0].question) == 1
    assert not any(s.answer_text in m.content for s in steps for label, ms in calls for m in ms)


def test_a_prompts_file_replaces_the_wording_and_is_recorded(tmp_path):
    f = tmp_path / "wording.json"
    f.write_text(json.dumps({"system": "SYS-WORDING", "format": "FILL IT\n{template}",
                             "carryover": "KNOWN: {answer}"}))
    [item] = SUITE.items(mode="checkpoints-oracle", problems="critpt-example", prompts=str(f))
    assert item.messages[0].content == "SYS-WORDING" and len(item.params["prompts_sha256"]) == 64
    steps = item.protocol_data["steps"]
    assert steps[0]["format"].startswith("FILL IT\nimport sympy") and "KNOWN: " in steps[1]["alone"]
    [plain] = SUITE.items(mode="checkpoints-oracle", problems="critpt-example")
    assert plain.params_hash != item.params_hash


@pytest.mark.parametrize("content, why", [("[1]", "not a JSON object"), ('{"colour": "x"}', "unknown key"),
                                          ('{"format": "no slot"}', "{template}")])
def test_a_bad_prompts_file_is_one_line(tmp_path, content, why):
    f = tmp_path / "w.json"
    f.write_text(content)
    with pytest.raises(UserError, match="--prompts") as err:
        list(SUITE.items(problems="critpt-example", prompts=str(f)))
    assert why in str(err.value) and "\n" not in str(err.value)


def test_unfenced_code_followed_by_prose_is_extracted_without_the_prose():
    reply = ("Solution Code\nimport sympy as sp\n\ndef answer(p):\n    F = 1 - p\n    return F\n"
             "Explanation\nThe fidelity falls linearly; F = 1 at p = 0.")
    code = extract_code(reply)
    assert code is not None and "Explanation" not in code and code.rstrip().endswith("return F")
