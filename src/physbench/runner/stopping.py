"""Ctrl-C during a run: the run stops cleanly, stores what was answered and says how to resume."""

from __future__ import annotations

import asyncio
import signal
import sys
from typing import Any


class Stopper:
    """Ctrl-C while a run's store is open: the first one cancels the run's task (the run then stores
    what was answered, prints its summary and exits 130); no KeyboardInterrupt is ever raised in the
    middle of a write, so a further Ctrl-C while the run winds down changes nothing."""

    def __init__(self) -> None:
        self.requested = False
        self.on_stop: list[Any] = []  # called at the first Ctrl-C (a grading process's sink cuts its queue)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task[Any] | None = None
        self._previous: Any = None
        self._installed = False

    def __call__(self, signum: int, frame: Any) -> None:
        first = not self.requested
        self.requested = True
        if self._loop is not None and self._task is not None and not self._task.done():
            self._loop.call_soon_threadsafe(self._task.cancel)
        if first:
            for call in self.on_stop:
                call()
            print("physbench: stopping: storing what was answered (the run resumes where it stopped)",
                  file=sys.stderr, flush=True)

    def attach(self, loop: asyncio.AbstractEventLoop, task: asyncio.Task[Any] | None) -> None:
        self._loop, self._task = loop, task

    def detach(self) -> None:
        self._loop = self._task = None

    def install(self) -> None:
        try:
            self._previous = signal.signal(signal.SIGINT, self)
            self._installed = True
        except ValueError:  # not the main thread: Ctrl-C is not ours to handle
            pass

    def restore(self) -> None:
        if self._installed:
            signal.signal(signal.SIGINT, self._previous)
            self._installed = False
