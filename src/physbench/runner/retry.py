"""Retries with exponential backoff and jitter, and the per-attempt accounting of model calls.

Transient faults (429, 5xx, 408/409, timeouts, dropped connections, malformed bodies) are retried;
a server's Retry-After is honoured. Anything else fails the attempt at once.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Sequence

from physbench.models.base import Completion, ModelError
from physbench.protocols.base import Turn

if TYPE_CHECKING:
    from physbench.core.items import Item, Message
    from physbench.core.tools import ToolSpec
    from physbench.models.base import Model


@dataclass(frozen=True)
class RetryPolicy:
    """At most `max_attempts` tries per call; waits grow as base x 2^n up to `max_delay_s`."""

    max_attempts: int = 6
    base_delay_s: float = 1.0
    max_delay_s: float = 60.0
    max_retry_after_s: float = 120.0  # `--max-retry-after`

    def delay(self, failures: int, retry_after: float | None, rng: Callable[[], float] = random.random) -> float:
        """Seconds to wait after the `failures`-th failure ("equal jitter": half fixed, half random).

        A Retry-After from the server is a floor, capped so one header cannot stall a run for good.
        """
        cap = min(self.max_delay_s, self.base_delay_s * 2 ** (failures - 1))
        wait = cap / 2 + rng() * cap / 2
        if retry_after is not None:
            wait = max(wait, min(retry_after, self.max_retry_after_s))
        return wait


DEFAULT_MAX_ATTEMPTS = 6  # tries per call when neither the user nor the suite says otherwise


@dataclass(frozen=True)
class DeclaredRetries:
    """The retry policy a suite declares after its paper (a suite's `retry_policy` attribute).

    `max_attempts` tries per model call (1: no retries, as OpenGray Table S16); with 1, a re-run
    of the same command does not ask again for an attempt that ended without a reply either: it
    stays a technical failure, no credit (OpenGray Table S8). `source` names the table.
    """

    max_attempts: int = DEFAULT_MAX_ATTEMPTS
    source: str = ""


def declared_retries(suite: Any) -> DeclaredRetries | None:
    """The suite's declared retry policy, if it declares one."""
    policy = getattr(suite, "retry_policy", None)
    return policy if isinstance(policy, DeclaredRetries) else None


class AttemptFailed(Exception):
    """Every try of a model call failed; `errors` lists each failure in order."""

    def __init__(self, errors: list[str]) -> None:
        super().__init__(errors[-1] if errors else "model call failed")
        self.errors = errors


class CallLedger:
    """The `Ask` the runner gives a protocol: calls the model with retries and sums the accounting.

    Every answered call is also kept as a `Turn` (text, finish reason, usage, latency, tool calls,
    the protocol's label for it), so a multi-turn attempt stores each of its turns. Keyword
    parameters of a call override the run's sampling for that call only. `repeat` is the attempt's
    repeat index (0-based), for a protocol whose prompt depends on it (a seed-chosen worked example);
    it is never sent to the model. A plain class with slots: one is made per attempt, so it is kept
    cheap to build and to read.
    """

    __slots__ = ("model", "item", "params", "policy", "sleep", "calls", "tries", "errors", "usage", "latency",
                 "cost", "extras", "turns", "repeat", "_turn_aware")

    def __init__(self, model: "Model", item: "Item", params: dict[str, Any], policy: RetryPolicy,
                 sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep, repeat: int = 0) -> None:
        self.model, self.item, self.params, self.policy, self.sleep = model, item, params, policy, sleep
        self.repeat = repeat
        self.calls = self.tries = 0
        self.errors: list[str] = []
        self.usage: dict[str, int] = {}
        self.latency = 0.0
        self.cost: float | None = None
        self.extras: list[Any] = []
        self.turns: list[Turn] = []
        self._turn_aware = bool(getattr(model, "turn_aware", False))

    async def __call__(self, messages: Sequence["Message"], *, tools: Sequence["ToolSpec"] | None = None,
                       tool_choice: Any = None, label: str = "", **overrides: Any) -> Completion:
        params = self._call_params(tools, tool_choice, label, overrides)
        self.calls += 1
        self.tries += 1
        try:
            completion = await self.model.generate(messages, item=self.item, **params)
        except ModelError as exc:
            completion = await self.retry(messages, exc, params)
        self.account(completion)
        self.turns.append(Turn(completion.text, completion.finish_reason, dict(completion.usage), completion.latency,
                               label, tuple(c.to_dict() for c in completion.tool_calls)))
        return completion

    def _call_params(self, tools: Any, tool_choice: Any, label: str, overrides: dict[str, Any]) -> dict[str, Any]:
        """The keyword parameters of one model call: the run's, this call's overrides, tools, turn."""
        if not (tools or tool_choice is not None or overrides or self._turn_aware):
            return self.params
        params = {**self.params, **{k: v for k, v in overrides.items() if v is not None}}
        if tools:
            params["tools"] = tools
            if tool_choice is not None:
                params["tool_choice"] = tool_choice
        if self._turn_aware:
            params["label"], params["call"] = label, self.calls
        return params

    async def retry(self, messages: Sequence["Message"], failure: ModelError,
                    params: dict[str, Any] | None = None) -> Completion:
        """The rest of a call whose latest try failed: wait, try again, until an answer or the policy says stop.

        Every failure is recorded; AttemptFailed (with all of them) when a failure is permanent or
        the tries are used up. The answer is returned unaccounted (see `account`).
        """
        failures = 0
        while True:
            failures += 1
            self.errors.append(str(failure))
            if not failure.retryable or failures >= self.policy.max_attempts:
                raise AttemptFailed(list(self.errors)) from None
            await self.sleep(self.policy.delay(failures, failure.retry_after))
            self.tries += 1
            try:
                return await self.model.generate(messages, item=self.item, **(self.params if params is None else params))
            except ModelError as exc:
                failure = exc

    def account(self, completion: Completion) -> None:
        """Add one answered call's tokens, latency, cost and extras to the attempt's totals."""
        usage = self.usage
        for key, value in completion.usage.items():
            usage[key] = usage.get(key, 0) + int(value)
        self.latency += completion.latency
        if completion.cost is not None:
            self.cost = (self.cost or 0.0) + completion.cost
        if completion.extras:
            self.extras.append(dict(completion.extras))
