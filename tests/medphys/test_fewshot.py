"""Completion prompts for base checkpoints (issue 16): worked examples of the same generator, level
and kind, answered by the reference solver, drawn outside every split, then the item's answer slot."""

from __future__ import annotations

import json

import pytest

from physbench.suites.medphys.fewshot import CALC_PREFIX, CHECK_PREFIX, EXAMPLE_SEEDS, completion_prompt
from physbench.suites.medphys.splits import DEV_SEEDS
from physbench.suites.medphys.suite import SUITE

ITEMS = list(SUITE.items("dev", limit=30))


@pytest.mark.parametrize("kind", ["calculation", "worksheet_check", "result_check"])
def test_the_prompt_holds_two_solved_examples_and_ends_at_the_open_answer(kind):
    item = next(i for i in ITEMS if i.kind == kind)
    cp = completion_prompt(item)
    question = item.messages[-1].content.strip()
    assert cp.text.endswith(f"{question}\n\nAnswer: {cp.prefix}")
    assert cp.prefix == (CALC_PREFIX if kind == "calculation" else CHECK_PREFIX)
    assert cp.text.count("Question:\n") == 3
    assert question not in cp.text[: -len(question) - 20]  # the item is not among its own examples


def test_check_examples_show_one_clean_and_one_planted_verdict():
    item = next(i for i in ITEMS if i.kind == "worksheet_check")
    answers = [part.split("```json\n", 1)[1].split("\n```", 1)[0]
               for part in completion_prompt(item).text.split("Answer: ")[1:-1]]
    assert sorted(json.loads(a)["verdict"] for a in answers) == ["correct", "incorrect"]


def test_examples_come_from_draws_outside_the_dev_split():
    assert not set(EXAMPLE_SEEDS) & set(DEV_SEEDS) and min(EXAMPLE_SEEDS) > 1000


def test_a_reply_closes_the_answer_the_grader_reads():
    item = next(i for i in ITEMS if i.kind == "calculation")
    cp = completion_prompt(item)
    reply = cp.reply(" 147.3 cGy")
    assert reply == "\\boxed{147.3 cGy}"
    from physbench.protocols.base import Answer

    assert SUITE.grade(item, Answer(reply, "stop")).outcome in ("correct", "wrong")
