"""During a run: every request to an endpoint model is watched, so that a failing endpoint is seen
as it fails. The first error of each kind is printed when it happens, and when every one of the
last `window` requests has failed (no answer between them) the run is stopped with that reason
rather than left to grind through its retries. A 429 (rate limit) neither counts nor resets.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Callable, Sequence

from physbench.models.base import Completion, ModelError

if TYPE_CHECKING:
    from physbench.core.items import Item, Message
    from physbench.core.tools import ToolSpec

MIN_WINDOW = 16  # failed requests in a row that stop a run, at the least (2 x the workers when more)


def error_kind(text: str) -> str:
    """The kind of a model error's text: `HTTP 503`, `timeout`, `connection error (ClientConnectorError)`..."""
    m = re.match(r"(HTTP \d{3}|timeout|connection error \(\w+|every endpoint failed|malformed JSON|[^:(]{1,40})", text)
    kind = m.group(1) if m else text[:40]
    return kind + ")" if kind.startswith("connection error (") else kind


class RequestWatch:
    """Counts answered and failed requests; `say` prints a line, `stop` is called once on a trip."""

    def __init__(self, window: int, say: Callable[[str], None], stop: Callable[[], None] | None = None) -> None:
        self.window, self.say, self.stop = max(MIN_WINDOW, window), say, stop
        self.failed_in_a_row = 0
        self.seen: set[str] = set()
        self.reason: str | None = None  # set when the run was stopped

    def answered(self) -> None:
        self.failed_in_a_row = 0

    def failed(self, exc: ModelError) -> None:
        text = " ".join(str(exc).split())[:240]
        kind = error_kind(text)
        if kind == "HTTP 429":
            return
        if kind not in self.seen:
            self.seen.add(kind)
            self.say(f"physbench: a request failed: {text} (the first error of this kind; the run goes on)")
        self.failed_in_a_row += 1
        if self.reason is None and self.failed_in_a_row >= self.window:
            self.reason = f"every one of the last {self.window} requests failed (the latest: {text})"
            if self.stop is not None:
                self.stop()


class WatchedModel:
    """An endpoint model whose requests report to a RequestWatch; anything else is the model's own."""

    def __init__(self, model: Any, watch: RequestWatch) -> None:
        self._model, self.watch = model, watch

    def __getattr__(self, name: str) -> Any:
        return getattr(self._model, name)

    async def generate(self, messages: Sequence["Message"], *, item: "Item | None" = None,
                       tools: "Sequence[ToolSpec] | None" = None, tool_choice: Any = None,
                       **params: Any) -> Completion:
        try:
            reply = await self._model.generate(messages, item=item, tools=tools, tool_choice=tool_choice, **params)
        except ModelError as exc:
            self.watch.failed(exc)
            raise
        self.watch.answered()
        return reply  # type: ignore[no-any-return]


class WatchedFetchingModel(WatchedModel):
    """The same, for a model whose replies may be fetched unread (see runner/engine.py)."""

    async def fetch(self, messages: Sequence["Message"], *, item: "Item | None" = None,
                    **params: Any) -> tuple[bytes, float]:
        try:
            got = await self._model.fetch(messages, item=item, **params)
        except ModelError as exc:
            self.watch.failed(exc)
            raise
        self.watch.answered()
        return got  # type: ignore[no-any-return]


def watched(model: Any, watch: RequestWatch) -> Any:
    """`model` reporting to `watch` (fetching, too, when the model can fetch)."""
    return (WatchedFetchingModel if callable(getattr(model, "fetch", None)) else WatchedModel)(model, watch)
