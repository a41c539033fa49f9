"""How a model is asked: a protocol turns one item into one final answer through one or more calls.

The runner hands the protocol an `Ask` function that calls the model with retries and keeps the
accounting (tokens, latency, attempts, errors); the protocol only decides what to send.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Sequence
from typing import Protocol as _Interface

if TYPE_CHECKING:
    from physbench.core.items import Item, Message
    from physbench.models.base import Completion

Ask = Callable[[Sequence["Message"]], Awaitable["Completion"]]


@dataclass(frozen=True)
class Turn:
    """One model call inside a protocol: what came back and why it stopped."""

    text: str
    finish_reason: str | None
    usage: dict[str, int] = field(default_factory=dict)
    latency: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "finish_reason": self.finish_reason, "usage": self.usage,
                "latency": self.latency}


@dataclass(frozen=True)
class Answer:
    """The protocol's result: the text the grader reads, its finish reason, and every turn.

    A protocol of more than one call lists each call's `Turn`; a one-call protocol may leave
    `turns` empty, since the attempt's record already holds that call's text, usage and latency.
    """

    text: str
    finish_reason: str | None
    turns: tuple[Turn, ...] = ()


class Protocol(_Interface):
    """A way of asking: `direct`, later `two-step`, `checkpoints`, `program`, `agent`.

    A protocol whose whole run is one call with the item's own messages, answered by that call's
    text, may say so with a true class attribute `one_call`: the runner then makes that call
    itself (same retries and accounting) and skips `run`, which must still do the same thing.
    """

    name: str

    async def run(self, item: "Item", ask: Ask) -> Answer:
        ...
