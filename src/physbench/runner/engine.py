"""The scheduler: attempts of (item, repeat) run by a fixed pool of workers, each handed on when done.

A worker asks the model through the protocol, then passes the answered attempt to the sink, which
grades and commits it within milliseconds; a killed run loses only what was in flight, and a
resumed run asks for exactly those attempts again. With a forked grading process, a one-call
attempt's reply goes there unread, and its JSON is parsed there rather than on the event loop.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from dataclasses import astuple, dataclass
from typing import TYPE_CHECKING, Any, Iterator, Sequence

from physbench.models.base import ModelError, attempt_seed
from physbench.runner.progress import NoProgress, Progress, Tally, attempt_tokens
from physbench.runner.records import FETCHED, AttemptRecord, bug_text
from physbench.runner.retry import AttemptFailed, CallLedger, RetryPolicy

if TYPE_CHECKING:
    from physbench.core.items import Item
    from physbench.models.base import Model
    from physbench.protocols.base import Protocol
    from physbench.runner.sink import Sink


YIELD_EVERY_S = 0.05  # the longest a worker runs attempts without handing the event loop a turn


@dataclass
class Engine:
    """Runs attempts against one model with one protocol and hands each to the sink."""

    model: "Model"
    protocol: "Protocol"
    sink: "Sink"
    sampling: dict[str, Any]
    policy: RetryPolicy = RetryPolicy()
    seed: int | None = None
    seeds: tuple[int, ...] | None = None  # a suite's declared seed per repeat, sent as given (no --seed)

    def __post_init__(self) -> None:
        self._sampling = {k: v for k, v in self.sampling.items() if v is not None}
        self._attempt_aware = bool(getattr(self.model, "attempt_aware", False))
        self._turn_aware = bool(getattr(self.model, "turn_aware", False))
        self._same_params = (self.seed is None and self.seeds is None and not self._attempt_aware
                             and not self._turn_aware)
        self._one_call = getattr(self.protocol, "one_call", False) is True  # see protocols/base.py
        # a one-call attempt's reply may be read in the grading process, off the event loop
        self._fetching = (self._one_call and callable(getattr(self.model, "fetch", None))
                          and getattr(self.sink, "defers", False) is True)
        price = getattr(self.model, "price", None)
        self._price = None if price is None else astuple(price)

    def _params(self, item: "Item", repeat: int) -> dict[str, Any]:
        """The model's keyword parameters for one attempt (one shared dict when no attempt changes them)."""
        if self._same_params:
            return self._sampling  # read only: passed on as keywords
        params = dict(self._sampling)
        if self.seed is not None:
            params["seed"] = attempt_seed(self.seed, item.id, repeat)
        elif self.seeds is not None:
            params["seed"] = self.seeds[repeat]
        if self._attempt_aware:
            params["repeat"] = repeat
        if self._turn_aware:
            params["label"], params["call"] = "", 0
        return params

    async def attempt(self, item: "Item", repeat: int) -> AttemptRecord:
        """One attempt: ask through the protocol (with retries), record what came back."""
        if self._one_call:
            return await self._one_call_attempt(item, repeat)
        started = time.time()
        ledger = CallLedger(self.model, item, self._params(item, repeat), self.policy, repeat=repeat)
        status, text, finish, data = "error", None, None, None
        try:
            answer = await self.protocol.run(item, ledger)
            text, finish, data = answer.text, answer.finish_reason, answer.data()
            status = "answered"
        except AttemptFailed:
            pass  # the ledger holds every error
        except Exception as exc:  # a model or protocol bug must not stop the run
            ledger.errors.append(bug_text(exc))
        turns = [t.to_dict() for t in ledger.turns] if len(ledger.turns) > 1 or status == "error" and ledger.turns \
            or any(t.tool_calls for t in ledger.turns) else None
        record = _record(item, repeat, status, started, text, finish, ledger, turns)
        record.answer = data
        return record

    async def _one_call_attempt(self, item: "Item", repeat: int) -> AttemptRecord:
        """A one-call protocol's attempt, run here: the first try goes straight to the model.

        A ledger (retries and sums) is made only when that try fails, so the usual answered-first-
        time attempt costs one coroutine and no ledger; what is recorded is the same either way.
        """
        started = time.time()
        params = self._params(item, repeat)
        try:
            reply = await self.model.generate(item.messages, item=item, **params)
            # answered at the first try: the sums are this call's own figures (as account())
            usage = {k: int(v) for k, v in reply.usage.items()}
            latency, cost, extras = reply.latency, reply.cost, reply.extras
            return AttemptRecord(item, repeat, "answered", started, time.time(), reply.text, reply.finish_reason,
                                 usage, cost, latency, 1, 1, [], None, [dict(extras)] if extras else None)
        except ModelError as exc:
            return await self._after_failure(item, repeat, params, started, exc)
        except Exception as exc:  # a model bug must not stop the run
            return self._bugged(item, repeat, params, started, exc)

    async def _fetched_attempt(self, item: "Item", repeat: int) -> AttemptRecord:
        """A one-call attempt whose reply is handed on unread: the grading process reads it (as
        `generate` would) and sends a malformed one back to be retried (see `run`)."""
        started = time.time()
        params = self._params(item, repeat)
        try:
            body, latency = await self.model.fetch(item.messages, item=item, **params)  # type: ignore[attr-defined]
        except ModelError as exc:
            return await self._after_failure(item, repeat, params, started, exc)
        except Exception as exc:  # a model bug must not stop the run
            return self._bugged(item, repeat, params, started, exc)
        return AttemptRecord(item, repeat, FETCHED, started, time.time(), latency=latency, model_calls=1, tries=1,
                             body=body, price=self._price)

    async def _after_failure(self, item: "Item", repeat: int, params: dict[str, Any], started: float,
                             failure: ModelError) -> AttemptRecord:
        """The rest of a one-call attempt whose first try failed: the retries, through a ledger."""
        ledger = self._after_first_try(item, params, repeat)
        try:
            reply = await ledger.retry(item.messages, failure)
            ledger.account(reply)
        except AttemptFailed:  # the ledger holds every error
            return _record(item, repeat, "error", started, None, None, ledger, None)
        except Exception as exc:  # a model bug must not stop the run
            ledger.errors.append(bug_text(exc))
            return _record(item, repeat, "error", started, None, None, ledger, None)
        return _record(item, repeat, "answered", started, reply.text, reply.finish_reason, ledger, None)

    def _bugged(self, item: "Item", repeat: int, params: dict[str, Any], started: float,
                exc: Exception) -> AttemptRecord:
        """A one-call attempt whose first try raised something other than a ModelError: an error row."""
        ledger = self._after_first_try(item, params, repeat)
        ledger.errors.append(bug_text(exc))
        return _record(item, repeat, "error", started, None, None, ledger, None)

    def _after_first_try(self, item: "Item", params: dict[str, Any], repeat: int) -> CallLedger:
        """The ledger of a one-call attempt whose first try has been made."""
        ledger = CallLedger(self.model, item, params, self.policy, repeat=repeat)
        ledger.calls = ledger.tries = 1
        return ledger

    async def run(self, work: Sequence[tuple["Item", int]], *, concurrency: int, tally: Tally,
                  progress: Progress | None = None) -> Tally:
        """Run every (item, repeat) in `work` with at most `concurrency` in flight.

        With fetched attempts, the run ends only when the grading process has read every reply
        it was handed; a malformed one comes back and is retried here, as if its call had failed.
        """
        progress = progress or NoProgress()
        pending: Iterator[tuple[Item, int]] = iter(work)
        limit = getattr(self.model, "max_concurrency", None) or concurrency
        workers = max(1, min(concurrency, limit, len(work)))
        attempt = self._fetched_attempt if self._fetching else self._one_call_attempt if self._one_call \
            else self.attempt  # one coroutine fewer per attempt
        submit, update = self.sink.submit, progress.update
        verdicts = _Verdicts(tally, progress, {item.id: item for item, _ in work}) if self._fetching else None
        busy = workers

        def hand_on(record: AttemptRecord) -> None:
            submit(record)
            if record.status == "error":
                tally.errors += 1
            else:
                tally.done += 1
            tally.tokens += attempt_tokens(record.usage)
            update(tally)

        yielded = time.monotonic()

        async def worker() -> None:
            nonlocal busy, yielded
            for item, repeat in pending:  # one shared iterator: each attempt is taken once
                record = await attempt(item, repeat)
                if verdicts is not None and record.status == FETCHED:
                    verdicts.unread += 1
                hand_on(record)
                if time.monotonic() - yielded > YIELD_EVERY_S:  # a model that answers without waiting
                    yielded = time.monotonic()  # (scripted) must still let Ctrl-C and the sink's timers in
                    await asyncio.sleep(0)
            if verdicts is None:
                return
            busy -= 1
            if busy == 0:  # the last replies go to the grading process now, not in 5 ms
                self.sink.flush()  # type: ignore[attr-defined]
            while True:  # then retry what comes back, until every reply has been read
                if verdicts.retry:
                    item, repeat, started, error, retryable = verdicts.retry.popleft()
                    failure = ModelError(error, retryable=retryable)
                    hand_on(await self._after_failure(item, repeat, self._params(item, repeat), started, failure))
                    continue
                stopped = self.sink.failure  # type: ignore[attr-defined]
                if stopped is not None:
                    raise stopped
                if verdicts.unread == 0:
                    return
                await verdicts.wait()

        progress.update(tally)
        if verdicts is not None:
            self.sink.watch(verdicts.receive)  # type: ignore[attr-defined]
        tasks = [asyncio.create_task(worker()) for _ in range(workers)]
        try:
            await asyncio.gather(*tasks)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            if verdicts is not None:
                self.sink.unwatch()  # type: ignore[attr-defined]
        return tally


class _Verdicts:
    """What the grading process has said of the fetched attempts: how many it has still to read,
    and those to retry (their replies were malformed); workers wait here for news."""

    def __init__(self, tally: Tally, progress: Progress, items: dict[str, "Item"]) -> None:
        self.tally, self.progress, self.items = tally, progress, items
        self.unread = 0
        self.retry: deque[tuple["Item", int, float, str, bool]] = deque()
        self._news = asyncio.Event()

    def receive(self, read: int, tokens: int, retry: list[tuple[Any, ...]]) -> None:
        self.unread -= read
        self.tally.tokens += tokens
        for item_id, repeat, started, error, retryable in retry:
            self.retry.append((self.items[item_id], repeat, started, error, retryable))
            self.tally.done -= 1  # it was counted when handed on; its retry is counted again
        self.progress.update(self.tally)
        news, self._news = self._news, asyncio.Event()
        news.set()  # wakes every worker waiting now

    async def wait(self) -> None:
        await self._news.wait()


def _record(item: "Item", repeat: int, status: str, started: float, text: str | None, finish: str | None,
            ledger: CallLedger, turns: list[dict[str, Any]] | None) -> AttemptRecord:
    return AttemptRecord(item, repeat, status, started, time.time(), text, finish, ledger.usage, ledger.cost,
                         ledger.latency, ledger.calls, ledger.tries, ledger.errors, turns, ledger.extras or None)
