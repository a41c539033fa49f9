"""The model interface: one async `generate(messages, **params) -> Completion` for every kind of model."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping, Protocol, Sequence, runtime_checkable

if TYPE_CHECKING:
    from physbench.core.items import Item, Message, ToolCall
    from physbench.core.tools import ToolSpec


@dataclass(frozen=True, slots=True)
class Completion:
    """One model response.

    `usage` holds `prompt_tokens`, `completion_tokens` and `total_tokens` when the model reports
    them; `latency` is seconds for the call that succeeded; `raw` is the provider's own record
    (a JSON-like dict, or None); `cost` is in USD when a price table was given. `extras` is the
    part of `raw` worth keeping beside the text (e.g. a `reasoning_content`), stored with the run.
    `tool_calls` are the calls the model asked for (a malformed one carries its `error`). Usage
    may also hold `cached_tokens` (prompt tokens served from a cache) and `reasoning_tokens`
    (part of the completion tokens) when the endpoint reports them.
    """

    text: str
    usage: Mapping[str, int] = field(default_factory=dict)
    finish_reason: str | None = None
    latency: float = 0.0
    raw: Any = None
    cost: float | None = None
    extras: Mapping[str, Any] | None = None
    tool_calls: tuple["ToolCall", ...] = ()


class ModelError(Exception):
    """A call that produced no usable completion.

    `retryable` marks transient faults (429, 5xx, timeouts, dropped connections, malformed bodies);
    `retry_after` is the server's requested wait in seconds, when it sent one. `endpoint_fault`
    marks a failure of the server itself (refused or dropped connection, timeout, 5xx), which an
    endpoint pool answers by taking that server out of rotation.
    """

    def __init__(self, message: str, *, retryable: bool, retry_after: float | None = None,
                 endpoint_fault: bool = False) -> None:
        super().__init__(message)
        self.retryable = retryable
        self.retry_after = retry_after
        self.endpoint_fault = endpoint_fault


@runtime_checkable
class Model(Protocol):
    """What the runner needs from a model.

    `spec` is the string the user gave (`openai/NAME`, `local`, `oracle`...). Scripted models read
    the `item` keyword; real models ignore it. `tools` (ToolSpec definitions) and `tool_choice`
    are passed only when a protocol offers tools; a model that cannot call tools says so with a
    false `supports_tools` attribute. A model with a true `attempt_aware` attribute also gets
    `repeat=`, one with a true `turn_aware` attribute `label=` and `call=` (the turn's name and
    index within the attempt). `info()` describes the model for the run manifest (never secrets).
    """

    spec: str

    async def generate(self, messages: Sequence["Message"], *, item: "Item | None" = None,
                       tools: "Sequence[ToolSpec] | None" = None, tool_choice: Any = None,
                       **params: Any) -> Completion:
        ...

    def info(self) -> dict[str, Any]:
        ...

    async def aclose(self) -> None:
        ...


MAX_TOKENS = 10**12  # one call's token count: a server reporting more (10**30) is clamped here


def token_count(value: int) -> int:
    """A reported token count clamped to 0..MAX_TOKENS (a hostile server's count never overflows a store)."""
    return min(max(int(value), 0), MAX_TOKENS)


def usage_dict(prompt_tokens: int | None, completion_tokens: int | None) -> dict[str, int]:
    """A usage mapping with the three standard counts (each clamped, see token_count); missing counts are left out."""
    out: dict[str, int] = {}
    if prompt_tokens is not None:
        out["prompt_tokens"] = token_count(prompt_tokens)
    if completion_tokens is not None:
        out["completion_tokens"] = token_count(completion_tokens)
    if prompt_tokens is not None and completion_tokens is not None:
        out["total_tokens"] = out["prompt_tokens"] + out["completion_tokens"]
    return out


def attempt_seed(base: int, item_id: str, repeat: int) -> int:
    """A sampling seed fixed by (base seed, item, repeat): reruns reproduce, repeats differ."""
    digest = hashlib.sha256(f"{base}\0{item_id}\0{repeat}".encode()).digest()
    return int.from_bytes(digest[:4], "little") & 0x7FFFFFFF
