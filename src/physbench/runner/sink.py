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
from multiprocessing.connection import wait
from typing import TYPE_CHECKING, Any, Callable, Mapping, Protocol

from physbench.core import caches
from physbench.protocols.base import Answer
from physbench.runner.pipe import FrameReceiver, FrameSender, PipeClosed, make_pipe
from physbench.runner.progress import attempt_tokens
from physbench.runner.records import FETCHED, AttemptRecord
from physbench.runner.store import RowWriter

if TYPE_CHECKING:
    from physbench.core.items import Item
    from physbench.runner.store import RunStore

STOP_SIGNAL = signal.SIGUSR1  # the runner asks the grading process to stop after its current batch
INLINE_ENV = "PHYSBENCH_GRADE_INLINE"  # set to 1 to grade in the runner's own process
BATCH_WAIT_S = 0.005  # an answered attempt reaches the grading process within this long...
BATCH_MAX = 256  # ...or at once when this many are waiting


_MARSHAL, _PICKLE = b"M", b"P"
STOPPED = "the grading process has stopped; re-run the same command to resume"
Verdict = tuple[int, int, list[tuple[Any, ...]]]  # (fetched attempts read, their tokens, those to retry)
OnVerdict = Callable[[int, int, list[tuple[Any, ...]]], None]  # called with a Verdict's three parts


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


def grade_batch(wires: list[tuple[Any, ...]], items: Mapping[str, "Item"],
                suite: Any) -> tuple[list[Any], Verdict | None]:
    """The store rows of one batch, and the verdict on its fetched attempts, if any: how many were
    read, their tokens, and (item id, repeat, started, error, retryable) of each whose reply was
    malformed, which is not stored: the runner retries it."""
    rows, retry = [], []
    fetched = tokens = 0
    for wire in wires:
        record = AttemptRecord.from_wire(wire, items)
        if record.status == FETCHED:
            fetched += 1
            failure = record.read_body()
            if failure is not None:
                retry.append((record.item.id, record.repeat, record.started_at, *failure))
                continue
            tokens += attempt_tokens(record.usage)
        rows.append(record.grade_with(suite).row())
    return rows, ((fetched, tokens, retry) if fetched else None)


def _child(read_fd: int, write_fd: int, reply_read: int, reply_write: int, suite: Any, run_dir: Any,
           items: Mapping[str, "Item"]) -> None:
    """The grading process: warm up, then receive batches, grade and commit each (answering with
    a verdict when it held fetched attempts); stop at the sentinel or when the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the runner decides when to stop, and tells us
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    stop = []  # STOP_SIGNAL (a Ctrl-C in the runner): end after the batch being graded
    signal.signal(STOP_SIGNAL, lambda signum, frame: stop.append(signum))
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {STOP_SIGNAL})  # blocked since the fork (see ProcessSink)
    _batch_scheduling()
    os.close(write_fd)  # our copy of the sending end: without closing it we would never see EOF
    os.close(reply_read)  # nor would a write to a runner that has gone fail rather than block
    receiver, replies = FrameReceiver(read_fd), FrameSender(reply_write)
    warm_up(suite, items)
    for item in items.values():  # each item's JSON for the items table, made while the runner sets up
        item.to_json()
    writer: RowWriter | None = None  # opened at the first batch: the runner may fork before the store exists
    try:
        while True:
            data = None if stop else receiver.receive()
            if data is None or stop:  # the runner is gone or stopping: what was graded is committed
                break
            if not data:  # the runner's end-of-run sentinel
                break
            rows, verdict = grade_batch(decode_batch(data), items, suite)
            if writer is None:  # the items go in before the first attempt row, here rather than in the runner
                writer = RowWriter(run_dir)
                writer.write_items(items.values())
            writer.write(rows)
            if verdict is not None:  # after the commit: what the runner hears of is stored
                try:
                    replies.send(marshal.dumps(verdict))
                except PipeClosed:  # the runner is gone; keep committing what arrives
                    pass
    finally:
        if writer is not None:
            writer.close()
        receiver.close()
        try:
            replies.close(sentinel=False)
        except PipeClosed:
            pass
        caches.run_exit_hooks()  # a forked process skips atexit: save what the grader learned (unit table)


class ProcessSink:
    """Sends answered attempts to a forked grading process in batches (at most 5 ms or 256 attempts).

    It takes fetched attempts too (`defers`): their replies are read there, and each batch holding
    any is answered with a verdict, handed to the callback given to `watch()`.

    It may be started before the run's store is open (`store=None`, the child then warms up while
    the runner makes its model and store); the store is handed over with `use_store()`, or
    `abandon()` ends the child when the run stops before its first attempt.
    """

    defers = True  # fetched attempts may be submitted (see runner/engine.py)

    def __init__(self, suite: Any, run_dir: Path, items: Mapping[str, "Item"], store: "RunStore | None" = None) -> None:
        if store is not None:
            store.detach()  # no SQLite connection may cross a fork
        ctx = multiprocessing.get_context("fork")
        read_fd, write_fd = make_pipe()
        reply_read, reply_write = os.pipe()  # the verdicts on fetched attempts, coming back
        self._process = ctx.Process(target=_child, name="physbench-grader", daemon=False,
                                    args=(read_fd, write_fd, reply_read, reply_write, suite, run_dir, items))
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, {STOP_SIGNAL})  # until the child has its handler
        try:
            self._process.start()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
            os.close(read_fd)
            os.close(reply_write)
        self._sender = FrameSender(write_fd)
        os.set_blocking(reply_read, False)
        self._replies = FrameReceiver(reply_read)
        self._on_verdict: OnVerdict | None = None
        self._watching: asyncio.AbstractEventLoop | None = None
        self.store = store
        self._batch: list[tuple[Any, ...]] = []
        self._scheduled = False
        self._failure: Exception | None = None
        self._cut = False
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
        self._replies.close()

    @property
    def failure(self) -> Exception | None:
        """Why attempts can no longer be handed on (the grading process has stopped), if they cannot."""
        return self._failure

    def watch(self, on_verdict: OnVerdict) -> None:
        """Hand each verdict on fetched attempts to `on_verdict(read, tokens, retry)` in the running
        loop (see `grade_batch`). If the grading process stops, `failure` is set and it is called
        once with nothing, so that a runner waiting for verdicts hears of it."""
        self._on_verdict = on_verdict
        self._watching = asyncio.get_running_loop()
        self._watching.add_reader(self._replies.fd, self._on_replies)

    def unwatch(self) -> None:
        if self._watching is not None and not self._watching.is_closed():
            self._watching.remove_reader(self._replies.fd)
        self._watching = None

    def _on_replies(self) -> None:
        assert self._on_verdict is not None
        frames = self._replies.ready()
        if frames is None:  # the grading process has ended in mid-run
            self.unwatch()
            self._failure = self._failure or RuntimeError(STOPPED)
            self._on_verdict(0, 0, [])
            return
        for frame in frames:
            self._on_verdict(*marshal.loads(frame))

    def cut(self) -> None:
        """The run is being stopped (Ctrl-C): what has not begun its way to the grading process is
        dropped (not stored, so a resumed run asks for it again); the rest is graded and stored."""
        self._cut = True
        self._batch = []
        self._sender.cut()
        if self._process.pid is not None:
            try:  # and the grading process ends after the batch it is grading (what it has not, a resume asks for)
                os.kill(self._process.pid, STOP_SIGNAL)
            except OSError:
                pass

    def flush(self) -> None:
        """Send the waiting attempts now rather than when the batch's 5 ms are up."""
        self._scheduled_send()

    def submit(self, attempt: AttemptRecord) -> None:
        if self._failure is not None:
            raise self._failure
        if self._cut:
            return
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
                raise RuntimeError(STOPPED) from None

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
            self._await_exit()
            if self.store is not None:
                self.store.attach()
        if self._cut and self._process.exitcode == 0:
            return self.submitted  # it stopped when asked: its closed pipe is no failure
        if self._process.exitcode != 0 or self._failure is not None:
            raise RuntimeError(f"the grading process failed (exit code {self._process.exitcode}); "
                               "re-run the same command to resume")
        return self.submitted

    def _await_exit(self) -> None:
        """Wait for the grading process to end, reading and dropping any verdict it still sends
        (nobody waits for one now), so that it never blocks on a full pipe."""
        self.unwatch()
        replies, sentinel = self._replies, self._process.sentinel
        while sentinel not in wait([sentinel, replies.fd]):
            if replies.ready() is None:  # its end is closed: it is exiting
                break
        self._process.join()
        replies.close()


def forking() -> bool:
    """Whether grading goes to a forked process by default (not when PHYSBENCH_GRADE_INLINE is set)."""
    return os.environ.get(INLINE_ENV, "") in ("", "0") and hasattr(os, "fork")


def make_sink(suite: Any, store: "RunStore", items: Mapping[str, "Item"], *, inline: bool | None = None) -> Sink:
    """A forked grading process where the platform can fork, unless inline grading is asked for."""
    if inline is None:
        inline = not forking()
    return InlineSink(suite, store) if inline else ProcessSink(suite, store.run_dir, items, store)
