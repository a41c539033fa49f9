"""Harness work off the event loop (issue 34 item 5): a pooled harness runs in a worker process,
one state per attempt, and the loop keeps turning while a tool call is in progress."""

from __future__ import annotations

import asyncio
import os

import pytest

from physbench.suites.planning import suite as S
from physbench.suites.planning.pool import HarnessPool, PooledHarness


@pytest.mark.slow
def test_pooled_harnesses_keep_one_state_per_attempt_and_never_block_the_loop():
    task = next(t for t in S.shipped_tasks() if t["id"] == "planning/missing_structure/pt_278")
    pool = HarnessPool(1)

    async def go():
        a, b = PooledHarness(task, pool), PooledHarness(task, pool)
        ticks = 0

        async def ticker():
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        beat = asyncio.create_task(ticker())
        summary = await a.acall("get_case_summary", {})  # loads the case in the worker: seconds
        beat.cancel()
        assert "structures" in summary and ticks >= 5  # the loop ran while the worker worked
        await a.acall("escalate", {"reason": "missing_structure", "explanation": "no optic nerve contour"})
        await b.acall("get_case_summary", {})
        ra, rb = await a.aresult(), await b.aresult()
        await a.aclose()
        await b.aclose()
        return a.finished, b.finished, ra, rb

    try:
        fa, fb, ra, rb = asyncio.run(go())
    finally:
        pool.shutdown()
    assert fa and not fb
    assert ra["outcome"] == "escalated" and ra["tool_calls"] == 2
    assert rb["outcome"] == "no_decision" and rb["tool_calls"] == 1


def test_a_worker_that_dies_is_an_error_result_not_a_crash():
    task = next(t for t in S.shipped_tasks() if t["id"] == "planning/missing_structure/pt_278")
    pool = HarnessPool(1)

    async def go():
        h = PooledHarness(task, pool)
        await pool.run("open", h.key, None)  # a state-less open: the worker's fault comes back
        return h

    try:
        with pytest.raises(Exception):
            asyncio.run(go())
        h = PooledHarness(task, pool)
        asyncio.run(h._open())
        os.kill(pool._procs[0].process.pid, 9)
        pool._procs[0].process.join(5)
        out = asyncio.run(h.acall("get_case_summary", {}))
        assert out["error"] == "internal_error"
        assert asyncio.run(h.aresult())["outcome"] == "worker_lost"
    finally:
        pool.shutdown()
