"""Inspect AI tasks, one per suite, scored by physbench's own grader (`inspect eval physbench/medphys`).

Each sample is one physbench item (its id, system and user messages); the solver generates one
reply, or for an item with a formatting turn (`protocol_data["format"]`: research challenges) the
solution turn and then the formatting turn, as the `two-step` protocol does; the scorer hands the
reply to the suite's `grade`, so a score here equals the one `physbench eval` gives the same reply.
Multi-step, program and agent protocols stay with `physbench eval`.
"""

from __future__ import annotations

from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageSystem, ChatMessageUser
from inspect_ai.scorer import CORRECT, INCORRECT, Score, Target, accuracy, scorer, stderr
from inspect_ai.solver import Generate, TaskState, solver

from physbench.integrations.common import chat_turns, format_turn, grade_reply, suite_items


def _sample(item: Any) -> Sample:
    messages = [ChatMessageSystem(content=text) if role == "system" else ChatMessageUser(content=text)
                for role, text in chat_turns(item)]
    return Sample(input=messages, id=item.id, metadata={"kind": item.kind})


@solver
def physbench_turns(items: dict[str, Any]):
    """One generation, plus the item's formatting turn where it has one (the two-step protocol)."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        state = await generate(state)
        item = items.get(str(state.sample_id))
        fmt = format_turn(item) if item is not None else None
        if fmt:
            state.messages.append(ChatMessageUser(content=fmt))
            state = await generate(state)
        return state

    return solve


@scorer(metrics=[accuracy(), stderr()])
def physbench_grade(items: dict[str, Any], suite_name: str):
    """The suite's own grade of the final reply; its outcome is the explanation."""

    async def score(state: TaskState, target: Target) -> Score:
        item = items[str(state.sample_id)]
        text = state.output.completion if state.output is not None else ""
        finish = str(state.output.stop_reason) if state.output is not None else None
        grade = grade_reply(suite_name, item, text, finish)
        return Score(value=CORRECT if grade.passed else INCORRECT, answer=text[-500:], explanation=grade.outcome,
                     metadata={"score": grade.score, "outcome": grade.outcome})

    return score


def suite_task(suite: str, split: str = "dev", limit: int | None = None, **options: str) -> Task:
    """The Inspect task of one suite's items (options as `physbench eval --option`)."""
    items = suite_items(suite, split, limit, options)
    by_id = {i.id: i for i in items}
    return Task(dataset=MemoryDataset([_sample(i) for i in items], name=f"physbench-{suite}"),
                solver=physbench_turns(by_id), scorer=physbench_grade(by_id, suite))


@task
def medphys(split: str = "dev", limit: int | None = None, benchmark_version: str | None = None) -> Task:
    options = {"benchmark_version": benchmark_version} if benchmark_version else {}
    return suite_task("medphys", split, limit, **options)


@task
def clincalc(arm: str = "open-book", data: str | None = None, limit: int | None = None) -> Task:
    return suite_task("clincalc", "dev", limit, arm=arm, **({"data": data} if data else {}))


@task
def research(problems: str | None = None, limit: int | None = None) -> Task:
    return suite_task("research", "dev", limit, mode="challenge", **({"problems": problems} if problems else {}))


@task
def planning(system: str = "interpreter", limit: int | None = None) -> Task:
    return suite_task("planning", "dev", limit, system=system)


__all__ = ["clincalc", "medphys", "planning", "research", "suite_task"]
