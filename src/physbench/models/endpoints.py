"""Several OpenAI-compatible endpoints serving one model (e.g. vLLM replicas), used as one model.

Each request goes to the endpoint in rotation with the fewest requests in flight, never more than
`concurrency` at once per endpoint. A server fault (refused or dropped connection, timeout, 5xx)
takes that endpoint out of rotation for a cool-down that doubles with each fault in a row, and the
request is tried at once on another endpoint. When the cool-down ends, one real request probes the
endpoint: an answer brings it back, a fault sends it out for longer. Other failures (429, 401/403,
a malformed reply) go back to the runner's retry policy unchanged, so 401/403 is still not retried.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Sequence

from physbench.core.errors import UserError
from physbench.models.base import Completion, ModelError

if TYPE_CHECKING:
    from physbench.core.items import Item, Message
    from physbench.core.tools import ToolSpec
    from physbench.models.openai_compat import OpenAIModel

COOL_DOWN_S = 2.0  # the first time out of rotation; doubled per fault in a row
MAX_COOL_DOWN_S = 60.0


@dataclass
class Endpoint:
    """One server of the pool and what this session has seen of it."""

    model: "OpenAIModel"
    limit: int
    in_flight: int = 0
    requests: int = 0
    failures: int = 0
    faults_in_a_row: int = 0
    down_until: float = 0.0  # 0: in rotation; else out until this monotonic time, then probed
    last_error: str | None = None

    @property
    def url(self) -> str:
        return self.model.base_url

    def usable(self, now: float) -> bool:
        """Free to take a request now: in rotation with a free slot, or due a probe with none in flight."""
        if self.down_until == 0.0:
            return self.in_flight < self.limit
        return now >= self.down_until and self.in_flight == 0

    def counts(self) -> dict[str, Any]:
        return {"url": self.url, "requests": self.requests, "failures": self.failures,
                "in_rotation": self.down_until == 0.0, "last_error": self.last_error}


class EndpointPool:
    """`openai/NAME` over several base URLs: one Model whose requests are spread over the endpoints."""

    def __init__(self, models: Sequence["OpenAIModel"], *, concurrency: int, cool_down_s: float = COOL_DOWN_S,
                 max_cool_down_s: float = MAX_COOL_DOWN_S, clock: Callable[[], float] = time.monotonic) -> None:
        if len(models) < 2:
            raise ValueError("an endpoint pool needs at least two endpoints")
        urls = [m.base_url for m in models]
        for url in urls:
            if urls.count(url) > 1:
                raise UserError(f"--base-url {url!r} is given twice")
        self.endpoints = [Endpoint(m, concurrency) for m in models]
        self.spec = models[0].spec
        self.name = models[0].name
        self.base_url = ", ".join(sorted(urls))  # the run's identity: the same set in any order resumes
        self.total_concurrency = concurrency * len(models)  # workers the runner keeps busy
        self.cool_down_s, self.max_cool_down_s, self.clock = cool_down_s, max_cool_down_s, clock
        self._waiters: list[asyncio.Future[None]] = []  # requests waiting for a free endpoint

    async def generate(self, messages: Sequence["Message"], *, item: "Item | None" = None,
                       tools: "Sequence[ToolSpec] | None" = None, tool_choice: Any = None,
                       **params: Any) -> Completion:
        tried: set[int] = set()
        while True:
            endpoint = await self._acquire(tried)
            try:
                completion = await endpoint.model.generate(messages, item=item, tools=tools,
                                                           tool_choice=tool_choice, **params)
            except ModelError as exc:
                self._failed(endpoint, exc)
                if not exc.endpoint_fault:
                    raise
                tried.add(id(endpoint))
                continue
            except BaseException:
                self._release(endpoint)
                raise
            self._answered(endpoint)
            return completion

    async def _acquire(self, tried: set[int]) -> Endpoint:
        """The endpoint for the next try of a request (waiting for a free slot), counted as in flight.

        A retryable ModelError when every endpoint has faulted on this request already; it says
        when the first of them is due back, which the runner's backoff honours.
        """
        while True:
            now = self.clock()
            candidates = [e for e in self.endpoints if id(e) not in tried]
            if not candidates:
                raise self._none_left(now)
            ready = [e for e in candidates if e.usable(now)]
            if ready:
                endpoint = min(ready, key=lambda e: e.in_flight)
                endpoint.in_flight += 1
                endpoint.requests += 1
                return endpoint
            due = [e.down_until - now for e in candidates if e.down_until > now]
            waiter = asyncio.get_running_loop().create_future()  # woken when a slot frees
            self._waiters.append(waiter)
            try:
                await asyncio.wait_for(waiter, timeout=min(due) if due else None)
            except asyncio.TimeoutError:
                pass  # a cool-down has ended: look again
            finally:
                if waiter in self._waiters:
                    self._waiters.remove(waiter)

    def _none_left(self, now: float) -> ModelError:
        back = min(max(0.0, e.down_until - now) for e in self.endpoints)
        last = self.endpoints[0].last_error
        for e in self.endpoints:
            if e.down_until and e.last_error:
                last = e.last_error
        return ModelError(f"every endpoint failed this request (last: {last}); the first is due back in "
                          f"{back:.1f} s", retryable=True, retry_after=back)

    def _release(self, endpoint: Endpoint) -> None:
        """One request fewer in flight on `endpoint`; every waiting request looks again."""
        endpoint.in_flight -= 1
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)

    def _answered(self, endpoint: Endpoint) -> None:
        endpoint.faults_in_a_row = 0
        endpoint.down_until = 0.0  # an answer (a probe's, or a late one) brings the endpoint back
        self._release(endpoint)

    def _failed(self, endpoint: Endpoint, exc: ModelError) -> None:
        endpoint.failures += 1
        endpoint.last_error = str(exc)[:200]
        now = self.clock()
        if exc.endpoint_fault and not now < endpoint.down_until:  # requests in flight when it went out add nothing
            endpoint.faults_in_a_row += 1
            wait = min(self.max_cool_down_s, self.cool_down_s * 2 ** (endpoint.faults_in_a_row - 1))
            endpoint.down_until = now + wait
        self._release(endpoint)

    def counts(self) -> list[dict[str, Any]]:
        """Requests and failures of each endpoint in this session, and whether it ended in rotation."""
        return [e.counts() for e in self.endpoints]

    def info(self) -> dict[str, Any]:
        info = self.endpoints[0].model.info()
        info.update(kind="openai-pool", base_url=self.base_url, per_endpoint_concurrency=self.endpoints[0].limit,
                    endpoints=[{"url": e.url, "requests": 0, "failures": 0, "in_rotation": True, "last_error": None}
                               for e in self.endpoints])
        return info

    async def aclose(self) -> None:
        for endpoint in self.endpoints:
            await endpoint.model.aclose()


def merge_counts(stored: Sequence[dict[str, Any]], session: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per-endpoint counts over every session of a run: requests and failures add up, the latest
    session says whether the endpoint ended in rotation and what its last error was."""
    before = {e.get("url"): e for e in stored}
    out = []
    for now in session:
        old = before.get(now["url"], {})
        out.append({"url": now["url"], "requests": int(old.get("requests", 0)) + now["requests"],
                    "failures": int(old.get("failures", 0)) + now["failures"], "in_rotation": now["in_rotation"],
                    "last_error": now["last_error"] or (old.get("last_error") if now["requests"] == 0 else None)})
    return out


def failing(endpoints: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The endpoints to name as failing: out of rotation at the end, or not one request answered."""
    return [e for e in endpoints if e["failures"] and (not e["in_rotation"] or e["failures"] >= e["requests"])]
