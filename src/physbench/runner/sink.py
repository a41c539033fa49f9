"""Where answered attempts go: graded and stored, in this process or in a forked one.

At high throughput the grader and SQLite cost as much CPU as the HTTP client, so by default a
forked grading process takes them off the event loop's core. It is forked with the items (they
are never sent), before the model and store are made, and warms its grader up at once; it stores
the items table itself, before its first attempt row. The runner sends answered attempts down a
non-blocking pipe (runner/pipe.py) within 5 ms; the child (SCHED_BATCH, so a batch that wakes
it does not take the core from the event loop) grades each batch and commits it in one
transaction. If the runner is killed, the child still commits everything it has received, then exits.
Batches travel as `marshal` data (plain types only, about twice as cheap as pickle for the
sender); a batch holding anything else (a model's exotic extras) goes as pickle.
"""

from __future__ import annotations

import asyncio
import marshal
import multiprocessing
import os
import pickle
import signal
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, Protocol

from physbench.core import caches
from physbench.protocols.base import Answer
from physbench.runner.pipe import FrameReceiver, FrameSender, PipeClosed, make_pipe
from physbench.runner.records import AttemptRecord
from physbench.runner.store import RowWriter

if TYPE_CHECKING:
    from physbench.core.items import Item
    from physbench.runner.store import RunStore

INLINE_ENV = "PHYSBENCH_GRADE_INLINE"  # set to 1 to grade in the runner's own process
BATCH_WAIT_S = 0.005  # an answered attempt reaches the grading process within this long...
BATCH_MAX = 256  # ...or at once when this many are waiting


_MARSHAL, _PICKLE = b"M", b"P"


def encode_batch(batch: list[tuple[Any, ...]]) -> bytes:
    """A batch of wire tuples as bytes: marshal when every value is a plain type, else pickle."""
    try:
        return _MARSHAL + marshal.dumps(batch)
    except ValueError:  # e.g. a str or dict subclass somewhere in a model's extras
        return _PICKLE + pickle.dumps(batch, protocol=pickle.HIGHEST_PROTOCOL)


def decode_batch(data: bytes) -> list[tuple[Any, ...]]:
    tag, payload = data[:1], memoryview(data)[1:]
    if tag == _MARSHAL:
        return marshal.loads(payload)  # type: ignore[no-any-return]
    if tag == _PICKLE:
        return pickle.loads(payload)  # type: ignore[no-any-return]
    raise ValueError(f"unknown batch encoding {tag!r}")


class Sink(Protocol):
    def submit(self, attempt: AttemptRecord) -> None: ...
    def close(self) -> int: ...


class InlineSink:
    """Grades in the event loop's process and hands the rows to the store's group commit."""

    def __init__(self, suite: Any, store: "RunStore") -> None:
        self.suite, self.store = suite, store
        self.submitted = 0

    def submit(self, attempt: AttemptRecord) -> None:
        self.store.record(attempt.grade_with(self.suite))
        self.submitted += 1

    def close(self) -> int:
        """Commit what is queued; the number of attempts handed in."""
        self.store.flush()
        return self.submitted


WARM_UP_TEXT = "The answer is \\boxed{1}."  # a reply that takes the grader down its usual path
WARM_UP_KINDS = 4  # item kinds graded once at warm-up, at most


def warm_up(suite: Any, items: Mapping[str, "Item"]) -> None:
    """Import the grader and run it once per item kind (its imports, regexes and caches load now,
    while the runner's first requests are in flight, not when the first answers are waiting)."""
    kinds: set[str] = set()
    for item in items.values():
        if item.kind in kinds:
            continue
        kinds.add(item.kind)
        try:
            suite.grade(item, Answer(WARM_UP_TEXT, "stop"))
        except Exception:  # a grader that fails here fails again, recorded, on a real answer
            pass
        if len(kinds) >= WARM_UP_KINDS:
            break


def _batch_scheduling() -> None:
    """Ask the kernel not to let this process preempt the runner when a batch wakes it (SCHED_BATCH,
    same priority otherwise): the event loop keeps its core and the batch waits for a free moment."""
    setter, policy = getattr(os, "sched_setscheduler", None), getattr(os, "SCHED_BATCH", None)
    if setter is None or policy is None:
        return
    try:
        setter(0, policy, os.sched_param(0))
    except OSError:
        pass


def _child(read_fd: int, write_fd: int, suite: Any, run_dir: Any, items: Mapping[str, "Item"]) -> None:
    """The grading process: warm up, then receive batches, grade and commit each; stop at the
    sentinel or when the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the runner decides when to stop, and tells us
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    _batch_scheduling()
    os.close(write_fd)  # our copy of the sending end: without closing it we would never see EOF
    receiver = FrameReceiver(read_fd)
    warm_up(suite, items)
    for item in items.values():  # each item's JSON for the items table, made while the runner sets up
        item.to_json()
    writer: RowWriter | None = None  # opened at the first batch: the runner may fork before the store exists
    try:
        while True:
            data = receiver.receive()
            if data is None:  # the runner is gone: what we received is committed already
                break
            if not data:  # the runner's end-of-run sentinel
                break
            rows = [AttemptRecord.from_wire(wire, items).grade_with(suite).row() for wire in decode_batch(data)]
            if writer is None:  # the items go in before the first attempt row, here rather than in the runner
                writer = RowWriter(run_dir)
                writer.write_items(items.values())
            writer.write(rows)
    finally:
        if writer is not None:
            writer.close()
        receiver.close()
        caches.run_exit_hooks()  # a forked process skips atexit: save what the grader learned (unit table)


class ProcessSink:
    """Sends answered attempts to a forked grading process in batches (at most 5 ms or 256 attempts).

    It may be started before the run's store is open (`store=None`, the child then warms up while
    the runner makes its model and store); the store is handed over with `use_store()`, or
    `abandon()` ends the child when the run stops before its first attempt.
    """

    def __init__(self, suite: Any, run_dir: Path, items: Mapping[str, "Item"], store: "RunStore | None" = None) -> None:
        if store is not None:
            store.detach()  # no SQLite connection may cross a fork
        ctx = multiprocessing.get_context("fork")
        read_fd, write_fd = make_pipe()
        self._process = ctx.Process(target=_child, args=(read_fd, write_fd, suite, run_dir, items),
                                    name="physbench-grader", daemon=False)
        try:
            self._process.start()
        finally:
            os.close(read_fd)
        self._sender = FrameSender(write_fd)
        self.store = store
        self._batch: list[tuple[Any, ...]] = []
        self._scheduled = False
        self._failure: Exception | None = None
        self.submitted = 0
        self.settled = store is not None  # whoever holds it now closes it (or abandons it)

    def use_store(self, store: "RunStore") -> None:
        """The store this run's rows go to (opened after the fork: it keeps its connection)."""
        self.store = store
        self.settled = True

    def abandon(self) -> None:
        """End a child that was never sent an attempt (the run stopped before it began)."""
        self.settled = True
        try:
            self._sender.close()
        except PipeClosed:
            pass
        self._process.join()

    def submit(self, attempt: AttemptRecord) -> None:
        if self._failure is not None:
            raise self._failure
        self._batch.append(attempt.wire())
        self.submitted += 1
        if len(self._batch) >= BATCH_MAX:
            self._scheduled_send()
            return
        if self._scheduled:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self._send()
            return
        self._scheduled = True
        loop.call_later(BATCH_WAIT_S, self._scheduled_send)

    def _scheduled_send(self) -> None:
        try:
            self._send()
        except RuntimeError as exc:  # raised again at the next submit() or at close()
            self._failure = exc

    def _send(self) -> None:
        self._scheduled = False
        if self._batch:
            batch, self._batch = self._batch, []
            try:
                self._sender.send(encode_batch(batch))
            except PipeClosed:
                raise RuntimeError("the grading process has stopped; re-run the same command to resume") from None

    def close(self) -> int:
        """Send what is left, wait for the child to commit it, reattach the store."""
        try:
            self._send()
        except RuntimeError as exc:
            self._failure = self._failure or exc
        try:
            self._sender.close()
        except PipeClosed as exc:
            self._failure = self._failure or RuntimeError(str(exc))
        finally:
            self._process.join()
            if self.store is not None:
                self.store.attach()
        if self._process.exitcode != 0 or self._failure is not None:
            raise RuntimeError(f"the grading process failed (exit code {self._process.exitcode}); "
                               "re-run the same command to resume")
        return self.submitted


def forking() -> bool:
    """Whether grading goes to a forked process by default (not when PHYSBENCH_GRADE_INLINE is set)."""
    return os.environ.get(INLINE_ENV, "") in ("", "0") and hasattr(os, "fork")


def make_sink(suite: Any, store: "RunStore", items: Mapping[str, "Item"], *, inline: bool | None = None) -> Sink:
    """A forked grading process where the platform can fork, unless inline grading is asked for."""
    if inline is None:
        inline = not forking()
    return InlineSink(suite, store) if inline else ProcessSink(suite, store.run_dir, items, store)
