"""verifiers (0.4, `verifiers.v1`) environments, one per suite, rewarded by physbench's own grader.

A physbench suite becomes a verifiers *taskset*: one task per item (its id, system and user turns),
a reward of 1.0 when the suite's `grade` passes the final reply and 0.0 otherwise, and the grade's
outcome and score as metrics. The bundled harness runs in-process and makes one chat call through
verifiers' interception endpoint, plus the item's formatting turn where it has one (research
challenges, as the `two-step` protocol does); the bundled env plays it in the local subprocess
runtime, since nothing here runs model-written code. The top-level modules `physbench_medphys` ...
`physbench_planning` export these under the ids `vf-eval` resolves (`vf-eval physbench-medphys`).
"""

from __future__ import annotations

import asyncio
import functools
import json
from collections.abc import Iterable
from typing import Any, ClassVar

import httpx
import verifiers.v1 as vf
from verifiers.v1.errors import MODEL_TRANSPORT_ERROR_EXIT_CODE
from verifiers.v1.types import content_text

from physbench.integrations.common import check_single_reply, chat_turns, format_turn, grade_reply, suite_items

SUITES = ("medphys", "clincalc", "research", "planning")


class PhysbenchData(vf.TaskData):
    """One item on the wire: enough to find it again (suite, split, options, id) and to ask it."""

    suite: str
    split: str = "dev"
    options: dict[str, str] = {}
    format_turn: str | None = None


class PhysbenchTask(vf.Task[PhysbenchData]):
    """One physbench item; its reward is the suite's grade of the final reply."""

    item: Any = None  # the physbench Item; looked up again when a task is rebuilt from wire data

    @property
    def key(self) -> str:
        return self.data.id or self.hash

    def physbench_item(self) -> Any:
        if self.item is None:
            d = self.data
            self.item = _items_by_id(d.suite, d.split, json.dumps(d.options, sort_keys=True))[d.id or ""]
        return self.item

    async def grade(self, trace: vf.Trace) -> Any:
        """The grade of this trace's final reply (computed once, shared by the metric and the reward)."""
        grades: dict[str, Any] = self.__dict__.setdefault("_grades", {})
        if trace.id not in grades:
            replies = trace.assistant_messages
            text = replies[-1].content if replies else ""
            finish = next((c.finish_reason for c in reversed(trace.calls) if c.error is None), None)
            grades[trace.id] = await asyncio.to_thread(grade_reply, self.data.suite, self.physbench_item(),
                                                       text, finish)
        return grades[trace.id]

    @vf.metric
    async def physbench(self, trace: vf.Trace) -> dict[str, float]:
        """The grade's score, and a 1.0 under `outcome_<name>` (correct, wrong, no_answer, ...); the
        outcome's name also goes to the trace's `info["physbench"]`."""
        g = await self.grade(trace)
        trace.info["physbench"] = {"outcome": g.outcome, "score": g.score, "passed": g.passed}
        return {"physbench_score": float(g.score), f"outcome_{g.outcome}": 1.0}

    @vf.reward(weight=1.0)
    async def correct(self, trace: vf.Trace) -> float:
        return 1.0 if (await self.grade(trace)).passed else 0.0


@functools.lru_cache(maxsize=8)
def _items_by_id(suite: str, split: str, options_json: str) -> dict[str, Any]:
    return {i.id: i for i in suite_items(suite, split, None, json.loads(options_json))}


def _task(suite: str, split: str, options: dict[str, str], item: Any, config: vf.TaskConfig) -> PhysbenchTask:
    turns = chat_turns(item)
    system = "\n\n".join(text for role, text in turns if role == "system") or None
    prompt = [vf.UserMessage(content=text) for role, text in turns if role == "user"]
    data = PhysbenchData(id=item.id, name=item.id, prompt=prompt, system_prompt=system, suite=suite, split=split,
                         options=options, format_turn=format_turn(item))
    task = PhysbenchTask(data, config)
    task.item = item
    return task


class PhysbenchConfig(vf.TasksetConfig):
    """Which items load, as `physbench eval SUITE --split --limit --option` would pick them."""

    split: str = "dev"
    limit: int | None = None

    def item_options(self) -> dict[str, str]:
        return {}


class MedphysConfig(PhysbenchConfig):
    benchmark_version: str | None = None

    def item_options(self) -> dict[str, str]:
        return {"benchmark_version": self.benchmark_version} if self.benchmark_version else {}


class ClincalcConfig(PhysbenchConfig):
    arm: str = "open-book"
    data: str | None = None

    def item_options(self) -> dict[str, str]:
        return {"arm": self.arm, **({"data": self.data} if self.data else {})}


class ResearchConfig(PhysbenchConfig):
    problems: str | None = None

    def item_options(self) -> dict[str, str]:
        return {"mode": "challenge", **({"problems": self.problems} if self.problems else {})}


class PlanningConfig(PhysbenchConfig):
    system: str = "interpreter"

    def item_options(self) -> dict[str, str]:
        return {"system": self.system}


class _SuiteTaskset:
    """The shared `load`: the suite's items as tasks (subclasses name the suite and its config)."""

    SUITE: ClassVar[str]
    config: PhysbenchConfig

    def load(self) -> Iterable[PhysbenchTask]:
        c, options = self.config, self.config.item_options()
        return [_task(self.SUITE, c.split, options, item, c.task)
                for item in suite_items(self.SUITE, c.split, c.limit, options)]


class MedphysTaskset(_SuiteTaskset, vf.Taskset[PhysbenchTask, MedphysConfig]):
    SUITE = "medphys"


class ClincalcTaskset(_SuiteTaskset, vf.Taskset[PhysbenchTask, ClincalcConfig]):
    SUITE = "clincalc"


class ResearchTaskset(_SuiteTaskset, vf.Taskset[PhysbenchTask, ResearchConfig]):
    SUITE = "research"


class PlanningTaskset(_SuiteTaskset, vf.Taskset[PhysbenchTask, PlanningConfig]):
    SUITE = "planning"


class PhysbenchHarnessConfig(vf.HarnessConfig):
    pass


class PhysbenchHarness(vf.Harness[PhysbenchHarnessConfig]):
    """One chat call through the interception endpoint, plus the formatting turn where the item has one."""

    APPENDS_SYSTEM_PROMPT = True
    EXECUTES_CODE = False
    NEEDS_CONTAINER = False

    async def launch(self, ctx: vf.ModelContext, trace: vf.Trace, runtime: vf.Runtime, endpoint: str,
                     secret: str, mcp_urls: dict[str, str], data: vf.TaskData) -> vf.ProgramResult:
        system, prompt = self.resolve_prompt(data)
        messages = [{"role": "system", "content": system}] if system else []
        if isinstance(prompt, str):
            messages.append({"role": "user", "content": prompt})
        else:
            messages += [{"role": m.role, "content": content_text(m.content)} for m in prompt or []]
        follow_up = getattr(data, "format_turn", None)
        async with httpx.AsyncClient(timeout=None) as http:
            for turn in (None, follow_up) if follow_up else (None,):
                if turn is not None:
                    messages.append({"role": "user", "content": turn})
                try:
                    r = await http.post(f"{endpoint.rstrip('/')}/chat/completions",
                                        headers={"Authorization": f"Bearer {secret}"},
                                        json={"model": ctx.model, "messages": messages})
                except httpx.HTTPError as exc:
                    return vf.ProgramResult(MODEL_TRANSPORT_ERROR_EXIT_CODE, "", f"{type(exc).__name__}: {exc}")
                if r.status_code >= 400:
                    return vf.ProgramResult(1, "", f"model call failed: HTTP {r.status_code}: {r.text[:500]}")
                reply = (r.json().get("choices") or [{}])[0].get("message") or {}
                messages.append({"role": "assistant", "content": reply.get("content") or ""})
        return vf.ProgramResult(0, "", "")


class PhysbenchEnvConfig(vf.EnvConfig):
    """One `agent` seat, in the local subprocess runtime by default (the harness runs no code)."""

    agent: vf.AgentConfig = vf.AgentConfig(runtime=vf.SubprocessConfig())


class PhysbenchEnv(vf.Env[PhysbenchEnvConfig]):
    """The single-agent episode: the agent answers the item once."""

    async def run(self, task: vf.Task, agents: vf.Agents) -> None:
        await agents.agent.run(task)


def load_environment(suite: str, **taskset_options: Any) -> vf.Env:
    """The verifiers environment of one suite (`taskset_options`: split, limit and the suite's own)."""
    if suite not in SUITES:
        raise ValueError(f"unknown suite {suite!r}; choose one of {', '.join(SUITES)}")
    config = vf.resolve_env_config({"taskset": {"id": f"physbench-{suite}", **taskset_options}})
    env = vf.load_environment(config)
    check_single_reply(suite, env.taskset.config.item_options())  # a program arm is refused now, not mid-run
    return env
