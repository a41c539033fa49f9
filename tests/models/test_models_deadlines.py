"""The one-timer deadlines of a client's calls: a late call times out, other cancellations pass through."""

from __future__ import annotations

import asyncio

import pytest

from physbench.models.deadlines import Deadlines


async def _guarded(deadlines: Deadlines, wait_s: float) -> str:
    """A call shaped as OpenAIModel.generate makes it: 'timeout' when its own deadline cancelled it."""
    call = deadlines.enter()
    timed_out = False
    try:
        try:
            await asyncio.sleep(wait_s)
        finally:
            timed_out = deadlines.leave(call)
    except asyncio.CancelledError:
        if timed_out:
            return "timeout"
        raise
    return "done"


def test_only_the_calls_past_their_deadline_time_out():
    async def go():
        deadlines = Deadlines(0.2)
        slow = asyncio.create_task(_guarded(deadlines, 5.0))
        await asyncio.sleep(0.1)
        quick = [asyncio.create_task(_guarded(deadlines, 0.05)) for _ in range(3)]
        late = asyncio.create_task(_guarded(deadlines, 5.0))  # started 0.1 s after `slow`: expires later
        first = await slow
        late_pending = not late.done()
        return first, late_pending, await asyncio.gather(*quick), await late

    first, late_pending_when_first_expired, quick, late = asyncio.run(go())
    assert first == "timeout" and late == "timeout"
    assert late_pending_when_first_expired  # each call has its own deadline, not the oldest one's
    assert quick == ["done"] * 3


def test_a_deadline_fires_on_time_and_a_call_that_ends_first_is_left_alone():
    async def go():
        deadlines = Deadlines(0.3)
        loop = asyncio.get_running_loop()
        t0 = loop.time()
        assert await _guarded(deadlines, 0.01) == "done"
        outcome = await _guarded(deadlines, 5.0)
        return outcome, loop.time() - t0, dict(deadlines._calls)

    outcome, elapsed, left = asyncio.run(go())
    assert outcome == "timeout"
    assert 0.29 <= elapsed < 3.0  # the 0.3 s deadline, not the 5 s sleep
    assert left == {}


def test_a_cancellation_from_elsewhere_is_not_taken_for_a_timeout():
    async def go():
        deadlines = Deadlines(10.0)
        task = asyncio.create_task(_guarded(deadlines, 5.0))
        await asyncio.sleep(0.05)
        task.cancel()  # Ctrl-C or the run stopping
        with pytest.raises(asyncio.CancelledError):
            await task
        return dict(deadlines._calls)

    assert asyncio.run(go()) == {}


def test_a_cancellation_arriving_with_the_deadline_still_cancels():
    async def go():
        deadlines = Deadlines(0.1)
        inner = asyncio.create_task(_guarded(deadlines, 5.0))
        expire = deadlines._expire

        def expire_then_cancel() -> None:  # a second cancellation, from outside, in the same moment
            expire()
            inner.cancel()
        deadlines._expire = expire_then_cancel  # type: ignore[method-assign]
        with pytest.raises(asyncio.CancelledError):
            await inner

    asyncio.run(go())


def test_a_new_event_loop_starts_afresh():
    deadlines = Deadlines(0.2)
    assert asyncio.run(_guarded(deadlines, 5.0)) == "timeout"
    assert asyncio.run(_guarded(deadlines, 0.01)) == "done"
    assert asyncio.run(_guarded(deadlines, 5.0)) == "timeout"


def test_a_call_outside_a_task_is_refused():
    """A plain loop callback has no task to cancel, so it cannot be given a deadline."""
    deadlines = Deadlines(1.0)
    loop = asyncio.new_event_loop()
    errors: list[RuntimeError] = []

    def callback() -> None:
        try:
            deadlines.enter()
        except RuntimeError as exc:
            errors.append(exc)
        loop.stop()
    try:
        loop.call_soon(callback)
        loop.run_forever()
    finally:
        loop.close()
    assert len(errors) == 1 and "asyncio task" in str(errors[0])


def test_one_task_s_calls_one_after_another_each_get_their_own_deadline():
    """A worker retries in the same task after a timeout: calls are known by their task, so a
    timed-out call must leave nothing behind that touches the next one."""
    async def go():
        deadlines = Deadlines(0.15)
        outcomes = [await _guarded(deadlines, 5.0), await _guarded(deadlines, 0.01),
                    await _guarded(deadlines, 5.0), await _guarded(deadlines, 0.01)]
        return outcomes, dict(deadlines._calls), dict(deadlines._expired), asyncio.current_task().cancelling()

    outcomes, calls, expired, cancelling = asyncio.run(go())
    assert outcomes == ["timeout", "done", "timeout", "done"]
    assert calls == {} and expired == {} and cancelling == 0  # no cancellation left pending on the task


def test_calls_in_many_tasks_at_once_time_out_independently():
    async def go():
        deadlines = Deadlines(0.2)
        waits = [0.01, 5.0, 0.05, 5.0, 0.1, 5.0] * 10
        return await asyncio.gather(*(_guarded(deadlines, w) for w in waits)), waits

    outcomes, waits = asyncio.run(go())
    assert outcomes == ["timeout" if w > 1 else "done" for w in waits]
