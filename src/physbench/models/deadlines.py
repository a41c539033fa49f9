"""One timer for all of a client's calls in flight: a call that outlives its deadline is cancelled.

`asyncio.timeout` puts a timer on the loop's heap for every call and cancels it afterwards, a few
microseconds each at thousands of calls a second. A client's calls all share one timeout, so their
deadlines come in the order they start: they are kept in a dict in that order, and one timer
waits for the oldest. Cancelling works as in `asyncio.timeout`: the call that expired learns it
timed out, and a cancellation from elsewhere (Ctrl-C, SIGTERM, the run stopping) passes through.
"""

from __future__ import annotations

import asyncio
from typing import Any

Task = asyncio.Task[Any]  # a call in flight is known by its task


class Deadlines:
    """Deadlines of `timeout_s` from each call's start, watched by a single timer on the running loop.

    A task has at most one call in flight (a coroutine awaits one thing at a time; concurrent calls
    run in tasks of their own), so calls are known by their task.
    """

    def __init__(self, timeout_s: float) -> None:
        self.timeout_s = timeout_s
        self._calls: dict[Task, tuple[float, int]] = {}  # task -> (deadline, cancellations then), in start order
        self._expired: dict[Task, int] = {}  # task -> its cancellations at the start, for calls this cancelled
        self._loop: asyncio.AbstractEventLoop | None = None
        self._timer: asyncio.TimerHandle | None = None

    def enter(self) -> Task:
        """Start watching the current task's call (inside a running task); what `leave` is given."""
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # a new event loop (another asyncio.run): nothing carries over
            self.reset()
            self._loop = loop
        task = asyncio.current_task(loop)
        if task is None:
            raise RuntimeError("a model call must run inside an asyncio task")
        deadline = loop.time() + self.timeout_s
        self._calls[task] = (deadline, task.cancelling())
        if self._timer is None:
            self._timer = loop.call_at(deadline, self._expire)
        return task

    def leave(self, task: Task) -> bool:
        """Stop watching the task's call; True when it expired and the task's cancellation is this
        deadline's own (a CancelledError the caller sees then means a timeout), as `asyncio.timeout` decides."""
        if self._calls.pop(task, None) is not None or not self._expired:
            return False
        cancelling = self._expired.pop(task, None)
        return cancelling is not None and task.uncancel() <= cancelling

    def _expire(self) -> None:
        """Cancel every call past its deadline, then wait for the oldest one left."""
        self._timer = None
        assert self._loop is not None
        now = self._loop.time()
        due = []
        for task, (deadline, cancelling) in self._calls.items():
            if deadline > now:
                break
            due.append((task, cancelling))
        for task, cancelling in due:
            del self._calls[task]
            self._expired[task] = cancelling
            task.cancel()
        if self._calls:
            self._timer = self._loop.call_at(next(iter(self._calls.values()))[0], self._expire)

    def reset(self) -> None:
        """Forget every call and the timer (the loop they belong to has ended or is ending)."""
        if self._timer is not None:
            self._timer.cancel()
        self._timer = None
        self._calls.clear()
        self._expired.clear()
        self._loop = None
