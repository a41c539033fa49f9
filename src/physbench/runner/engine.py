"""The scheduler: attempts of (item, repeat) run by a fixed pool of workers, each handed on when done.

A worker asks the model through the protocol, then passes the answered attempt to the sink, which
grades and commits it within milliseconds; a killed run loses only what was in flight, and a
resumed run asks for exactly those attempts again.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterator, Sequence

from physbench.models.base import attempt_seed
from physbench.runner.progress import NoProgress, Progress, Tally
from physbench.runner.records import AttemptRecord
from physbench.runner.retry import AttemptFailed, CallLedger, RetryPolicy

if TYPE_CHECKING:
    from physbench.core.items import Item
    from physbench.models.base import Model
    from physbench.protocols.base import Protocol
    from physbench.runner.sink import Sink


@dataclass
class Engine:
    """Runs attempts against one model with one protocol and hands each to the sink."""

    model: "Model"
    protocol: "Protocol"
    sink: "Sink"
    sampling: dict[str, Any]
    policy: RetryPolicy = RetryPolicy()
    seed: int | None = None

    def _params(self, item: "Item", repeat: int) -> dict[str, Any]:
        params = {k: v for k, v in self.sampling.items() if v is not None}
        if self.seed is not None:
            params["seed"] = attempt_seed(self.seed, item.id, repeat)
        if getattr(self.model, "attempt_aware", False):
            params["repeat"] = repeat
        return params

    async def attempt(self, item: "Item", repeat: int) -> AttemptRecord:
        """One attempt: ask through the protocol (with retries), record what came back."""
        started = time.time()
        ledger = CallLedger(self.model, item, self._params(item, repeat), self.policy)
        record = AttemptRecord(item=item, repeat=repeat, status="error", started_at=started, finished_at=started)
        try:
            answer = await self.protocol.run(item, ledger)
        except AttemptFailed:
            pass  # the ledger holds every error
        except Exception as exc:  # a model or protocol bug must not stop the run
            ledger.errors.append(f"{type(exc).__name__}: {str(exc)[:300]}")
        else:
            record.status, record.text, record.finish_reason = "answered", answer.text, answer.finish_reason
            if len(answer.turns) > 1:
                record.turns = [t.to_dict() for t in answer.turns]
        record.finished_at = time.time()
        record.usage, record.cost, record.latency = ledger.usage, ledger.cost, ledger.latency
        record.model_calls, record.tries, record.errors = ledger.calls, ledger.tries, ledger.errors
        record.raw = ledger.extras or None
        return record

    async def run(self, work: Sequence[tuple["Item", int]], *, concurrency: int, tally: Tally,
                  progress: Progress | None = None) -> Tally:
        """Run every (item, repeat) in `work` with at most `concurrency` in flight."""
        progress = progress or NoProgress()
        pending: Iterator[tuple[Item, int]] = iter(work)
        limit = getattr(self.model, "max_concurrency", None) or concurrency
        workers = max(1, min(concurrency, limit, len(work)))

        async def worker() -> None:
            for item, repeat in pending:  # one shared iterator: each attempt is taken once
                record = await self.attempt(item, repeat)
                self.sink.submit(record)
                if record.status == "error":
                    tally.errors += 1
                else:
                    tally.done += 1
                tally.tokens += record.usage.get("total_tokens", 0)
                progress.update(tally)

        progress.update(tally)
        tasks = [asyncio.create_task(worker()) for _ in range(workers)]
        try:
            await asyncio.gather(*tasks)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        return tally
