"""Retries with exponential backoff and jitter, and the per-attempt accounting of model calls.

Transient faults (429, 5xx, 408/409, timeouts, dropped connections, malformed bodies) are retried;
a server's Retry-After is honoured. Anything else fails the attempt at once.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Sequence

from physbench.models.base import Completion, ModelError

if TYPE_CHECKING:
    from physbench.core.items import Item, Message
    from physbench.models.base import Model


@dataclass(frozen=True)
class RetryPolicy:
    """At most `max_attempts` tries per call; waits grow as base x 2^n up to `max_delay_s`."""

    max_attempts: int = 6
    base_delay_s: float = 1.0
    max_delay_s: float = 60.0
    max_retry_after_s: float = 600.0

    def delay(self, failures: int, retry_after: float | None, rng: Callable[[], float] = random.random) -> float:
        """Seconds to wait after the `failures`-th failure ("equal jitter": half fixed, half random).

        A Retry-After from the server is a floor, capped so one header cannot stall a run for good.
        """
        cap = min(self.max_delay_s, self.base_delay_s * 2 ** (failures - 1))
        wait = cap / 2 + rng() * cap / 2
        if retry_after is not None:
            wait = max(wait, min(retry_after, self.max_retry_after_s))
        return wait


class AttemptFailed(Exception):
    """Every try of a model call failed; `errors` lists each failure in order."""

    def __init__(self, errors: list[str]) -> None:
        super().__init__(errors[-1] if errors else "model call failed")
        self.errors = errors


@dataclass
class CallLedger:
    """The `Ask` the runner gives a protocol: calls the model with retries and sums the accounting."""

    model: "Model"
    item: "Item"
    params: dict[str, Any]
    policy: RetryPolicy
    sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep
    calls: int = 0
    tries: int = 0
    errors: list[str] = field(default_factory=list)
    usage: dict[str, int] = field(default_factory=dict)
    latency: float = 0.0
    cost: float | None = None
    extras: list[Any] = field(default_factory=list)

    async def __call__(self, messages: Sequence["Message"]) -> Completion:
        self.calls += 1
        failures = 0
        while True:
            self.tries += 1
            try:
                completion = await self.model.generate(messages, item=self.item, **self.params)
            except ModelError as exc:
                failures += 1
                self.errors.append(str(exc))
                if not exc.retryable or failures >= self.policy.max_attempts:
                    raise AttemptFailed(list(self.errors)) from None
                await self.sleep(self.policy.delay(failures, exc.retry_after))
                continue
            self._account(completion)
            return completion

    def _account(self, completion: Completion) -> None:
        for key, value in completion.usage.items():
            self.usage[key] = self.usage.get(key, 0) + int(value)
        self.latency += completion.latency
        if completion.cost is not None:
            self.cost = (self.cost or 0.0) + completion.cost
        if completion.extras:
            self.extras.append(dict(completion.extras))
