"""One timer for all of a client's calls in flight: a call that outlives its deadline is cancelled.

`asyncio.timeout` puts a timer on the loop's heap for every call and cancels it afterwards, a few
microseconds each at thousands of calls a second. A client's calls all share one timeout, so their
deadlines come in the order they start: they are kept in a dict in that order, and one timer
waits for the oldest. Cancelling works as in `asyncio.timeout`: the call that expired learns it
timed out, and a cancellation from elsewhere (Ctrl-C, SIGTERM, the run stopping) passes through.
"""

from __future__ import annotations

import asyncio


class Call:
    """One call in flight: its task, deadline, and the task's pending cancellations when it began."""

    __slots__ = ("task", "deadline", "cancelling", "expired")

    def __init__(self, task: "asyncio.Task[object]", deadline: float) -> None:
        self.task, self.deadline, self.cancelling, self.expired = task, deadline, task.cancelling(), False


class Deadlines:
    """Deadlines of `timeout_s` from each call's start, watched by a single timer on the running loop."""

    def __init__(self, timeout_s: float) -> None:
        self.timeout_s = timeout_s
        self._calls: dict[Call, None] = {}  # in start order, which is deadline order
        self._loop: asyncio.AbstractEventLoop | None = None
        self._timer: asyncio.TimerHandle | None = None

    def enter(self) -> Call:
        """Start watching the current task's call (inside a running task)."""
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # a new event loop (another asyncio.run): nothing carries over
            self.reset()
            self._loop = loop
        task = asyncio.current_task(loop)
        if task is None:
            raise RuntimeError("a model call must run inside an asyncio task")
        call = Call(task, loop.time() + self.timeout_s)
        self._calls[call] = None
        if self._timer is None:
            self._timer = loop.call_at(call.deadline, self._expire)
        return call

    def leave(self, call: Call) -> bool:
        """Stop watching `call`; True when it expired and the task's cancellation is this deadline's
        own (a CancelledError the caller sees then means a timeout), as `asyncio.timeout` decides."""
        if not call.expired:
            self._calls.pop(call, None)  # gone already if the client was reset meanwhile
            return False
        return call.task.uncancel() <= call.cancelling

    def _expire(self) -> None:
        """Cancel every call past its deadline, then wait for the oldest one left."""
        self._timer = None
        assert self._loop is not None
        now = self._loop.time()
        due = []
        for call in self._calls:
            if call.deadline > now:
                break
            due.append(call)
        for call in due:
            del self._calls[call]
            call.expired = True
            call.task.cancel()
        if self._calls:
            self._timer = self._loop.call_at(next(iter(self._calls)).deadline, self._expire)

    def reset(self) -> None:
        """Forget every call and the timer (the loop they belong to has ended or is ending)."""
        if self._timer is not None:
            self._timer.cancel()
        self._timer = None
        self._calls.clear()
        self._loop = None
