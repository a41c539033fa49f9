"""Concurrent planning-agent attempts against the loopback mock: harness workers vs the event loop.

N scripted agent attempts (case summary, objectives, two optimizations, goal table, submit) run
at once through the `agent` protocol and the real OpenAI-compatible client against the loopback
mock (127.0.0.1; each reply delayed by --delay-s, a model's latency). Each configuration gets a
fresh pool: 0 workers (every harness on the event loop: the behaviour before issue 34), 1 worker,
2 workers. A request misses its deadline when its reply is read more than --deadline-s after it
was sent (the mock answers in --delay-s, so a miss means the loop was stalled). Printed: wall
seconds per configuration (after an untimed warm-up that loads the dose influence in every
worker), missed deadlines, the CPU the workers obtained, and the ratio 1 worker / 2 workers (issue
34 asks >= 1.7x on 2 cores; on a machine busy with other work the workers get fewer cores than
they are, which the CPU line shows).

    PYTHONPATH=src .venv/bin/python benchmarks/planning_agents.py [--attempts 6] [--patient pt_278]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import time
from typing import Any

from physbench.core.items import Item, Message
from physbench.models.base import Completion, ModelError
from physbench.models.openai_compat import OpenAIModel
from physbench.protocols.agent import Agent
from physbench.runner.mock_server import MockConfig, MockServer
from physbench.suites.planning import suite as S
from physbench.suites.planning.goals import Goal
from physbench.suites.planning.pool import HarnessPool, PooledHarness
from physbench.suites.planning.templates import goal_terms


def script(task: dict[str, Any], copy: int = 0) -> list[dict[str, Any]]:
    """The scripted agent's turns: one tool call each. Each copy's priorities differ in the fourth
    decimal, so no attempt reuses another's optimization (solve_cache.py) and each does its own work."""
    goals = [Goal.from_dict(g) for g in task["goals"]]
    rx = S.case_for(task["patient"]).patient.targets
    terms = [{"structure": t.structure, "term": t.term, "level": round(t.level, 3),
              "priority": round(t.priority * (1.0 + 1e-4 * copy), 6)} for t in goal_terms(goals, rx)]
    steps: list[tuple[str, dict[str, Any]]] = [
        ("get_case_summary", {}), ("set_objectives", {"objectives": terms}), ("optimize", {"objective_id": "obj_1"}),
        ("optimize", {"objective_id": "obj_1"}), ("compare_to_goals", {"plan_id": "plan_2"}),
        ("submit", {"plan_id": "plan_2", "note": "scripted"})]
    return [{"tool_calls": [{"id": f"c{k}", "name": n, "arguments": a}]} for k, (n, a) in enumerate(steps)]


def item_for(task: dict[str, Any], copy: int) -> Item:
    f = S.item_fields(task, "agent")
    msgs = [dict(m) for m in f["messages"]]
    msgs[-1]["content"] += "\nmock-script: " + json.dumps(script(task, copy))
    return Item(id=f"{f['id']}#{copy}", suite="planning", kind=f["kind"], messages=tuple(Message(**m) for m in msgs),
                reference=f["reference"], params=f["params"], meta=f["meta"])


class _Suite:
    def __init__(self, pool: HarnessPool) -> None:
        self.pool = pool

    def harness(self, item: Item) -> PooledHarness:
        return PooledHarness(S.task_of(item), self.pool)


async def run_all(items: list[Item], pool: HarnessPool, base_url: str, deadline_s: float) -> dict[str, Any]:
    model = OpenAIModel("mock-agent", base_url=base_url, timeout_s=30.0)
    late: list[float] = []
    calls = 0

    async def ask(messages, *, tools=None, label="", **_):
        nonlocal calls
        t0 = time.perf_counter()
        try:
            c = await model.generate(tuple(messages), tools=tools)
        except ModelError:  # the client's own timeout fired: the loop was stalled past it
            c = Completion(text="", finish_reason="error")
        took = time.perf_counter() - t0
        calls += 1
        if took > deadline_s:
            late.append(took)
        return c

    agent = Agent(_Suite(pool))
    t0 = time.perf_counter()
    answers = await asyncio.gather(*(agent.run(i, ask) for i in items))
    wall = time.perf_counter() - t0
    await model.aclose()
    submitted = sum(a.detail["result"].get("outcome") == "submitted" for a in answers)
    return {"wall_s": wall, "calls": calls, "late": late, "submitted": submitted}


def worker_cpu(pool: HarnessPool) -> float:
    """CPU seconds the pool's worker processes have used (Linux /proc): a busy machine shows here
    as fewer cores obtained than workers started."""
    total = 0.0
    for w in pool._procs:
        try:
            fields = open(f"/proc/{w.process.pid}/stat").read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            pass
    return total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--attempts", type=int, default=6)
    ap.add_argument("--patient", default="pt_278")
    ap.add_argument("--delay-s", type=float, default=0.05)
    ap.add_argument("--deadline-s", type=float, default=1.0)
    ap.add_argument("--skip-inline", action="store_true", help="leave out the 0-worker (event loop) run")
    ap.add_argument("--rounds", type=int, default=1, help="runs of 1 and 2 workers, interleaved; medians compared")
    args = ap.parse_args()
    task = next(t for t in S.shipped_tasks() if t["id"] == f"planning/routine/{args.patient}")
    S.case_for(args.patient).influence  # build or load the cached influence once, before any worker
    items = [item_for(task, k) for k in range(args.attempts)]
    server = MockServer(MockConfig(reply="no script", delay_s=args.delay_s)).start()
    walls: dict[int, list[float]] = {1: [], 2: []}
    try:
        order = ([] if args.skip_inline else [0]) + [1, 2] * max(1, args.rounds)
        for workers in order:
            pool = HarnessPool(workers)
            if workers:
                asyncio.run(run_all([item_for(task, 99 + k) for k in range(workers)], pool, server.base_url, 1e9))
            c0 = worker_cpu(pool)
            r = asyncio.run(run_all(items, pool, server.base_url, args.deadline_s))
            cpu = worker_cpu(pool) - c0
            pool.shutdown()
            walls.setdefault(workers, []).append(r["wall_s"])
            print(f"workers {workers}: {r['wall_s']:7.2f} s wall, {r['submitted']}/{len(items)} submitted, "
                  f"{r['calls']} model calls, {len(r['late'])} past the {args.deadline_s:g} s deadline"
                  + (f" (worst {max(r['late']):.2f} s)" if r["late"] else "")
                  + (f"; workers used {cpu:.1f} CPU s ({cpu / r['wall_s']:.2f} cores on average)" if workers else ""),
                  flush=True)
    finally:
        server.stop()
    one, two = statistics.median(walls[1]), statistics.median(walls[2])
    print(f"speed-up 2 workers vs 1 (median of {len(walls[2])}): {one / two:.2f}x (issue 34: >= 1.7x, "
          "no deadline missed with workers)")


if __name__ == "__main__":
    main()
