"""How a model is asked: a protocol turns one item into one final answer through one or more calls.

The runner hands the protocol an `Ask` that calls the model with retries and keeps the accounting
(tokens, latency, tries, errors, and a `Turn` for every call); the protocol only decides what to
send. What it returns, an `Answer`, is what the suite's grader reads: the final text, and where
the protocol has more to say, per-step answers, a program's value, or an outcome of its own
(`no_program`, `budget_exhausted`...).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping, Sequence
from typing import Protocol as _Interface

if TYPE_CHECKING:
    from physbench.core.items import Item, Message
    from physbench.core.tools import ToolSpec
    from physbench.models.base import Completion


# A protocol whose calls carry sampling of their own (a temperature, a token cap per kind of call) may
# define `settle_sampling(user) -> {call: {"temperature": t, "max_tokens": n}}`: before the run, the
# runner hands it the user's --temperature / --max-tokens (only those given), which then win over the
# protocol's own values, and records the returned settings in the run's manifest (sampling["calls"]).


class Ask(_Interface):
    """Call the model once (with the runner's retries). Keyword parameters override the run's
    sampling for this call (`temperature`, `max_tokens`); `label` names the turn in the record."""

    async def __call__(self, messages: Sequence["Message"], *, tools: Sequence["ToolSpec"] | None = None,
                       tool_choice: Any = None, label: str = "", **params: Any) -> "Completion":
        ...


@dataclass(frozen=True)
class Turn:
    """One model call inside a protocol: what came back, why it stopped, what it cost."""

    text: str
    finish_reason: str | None
    usage: Mapping[str, int] = field(default_factory=dict)
    latency: float = 0.0
    label: str = ""
    tool_calls: tuple[Mapping[str, Any], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"text": self.text, "finish_reason": self.finish_reason, "usage": dict(self.usage),
                               "latency": self.latency}
        if self.label:
            out["label"] = self.label
        if self.tool_calls:
            out["tool_calls"] = [dict(c) for c in self.tool_calls]
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Turn":
        return cls(d.get("text") or "", d.get("finish_reason"), dict(d.get("usage") or {}),
                   float(d.get("latency") or 0.0), d.get("label") or "", tuple(d.get("tool_calls") or ()))


@dataclass(frozen=True)
class Answer:
    """The protocol's result, as the grader reads it.

    `text`/`finish_reason`: the reply the grader reads (for a two-step protocol, the formatting
    reply). `steps`: one Answer per step of a multi-step protocol, each with its `step` id.
    `value`: what a program returned (plain JSON). `outcome`: a protocol-level outcome that
    decides the grade by itself (e.g. `no_program`), or None. `detail`: anything else worth
    keeping (the program's source and executor status, vote counts, the tool log). A one-call
    protocol may leave `turns` empty: the attempt's record holds that call's figures.
    """

    text: str
    finish_reason: str | None
    turns: tuple[Turn, ...] = ()
    steps: tuple["Answer", ...] = ()
    value: Any = None
    outcome: str | None = None
    detail: Mapping[str, Any] = field(default_factory=dict)
    step: str | None = None

    def data(self) -> dict[str, Any] | None:
        """The structured part (everything beside text, finish reason and turns) as plain JSON, or
        None when there is none: what the store keeps in `answer_json`."""
        out: dict[str, Any] = {}
        if self.steps:
            out["steps"] = [s.step_dict() for s in self.steps]
        if self.value is not None:
            out["value"] = self.value
        if self.outcome is not None:
            out["outcome"] = self.outcome
        if self.detail:
            out["detail"] = dict(self.detail)
        if self.step is not None:
            out["step"] = self.step
        return out or None

    def step_dict(self) -> dict[str, Any]:
        return {"text": self.text, "finish_reason": self.finish_reason, **(self.data() or {})}

    @classmethod
    def from_parts(cls, text: str | None, finish_reason: str | None, turns: Sequence[Mapping[str, Any]] | None,
                   data: Mapping[str, Any] | None) -> "Answer":
        """The answer as a stored attempt holds it (text, finish reason, turn dicts, answer data)."""
        data = data or {}
        steps = tuple(cls.from_parts(s.get("text"), s.get("finish_reason"), None, s) for s in data.get("steps") or ())
        return cls(text or "", finish_reason, tuple(Turn.from_dict(t) for t in turns or ()), steps,
                   data.get("value"), data.get("outcome"), dict(data.get("detail") or {}), data.get("step"))


class Protocol(_Interface):
    """A way of asking: `direct`, `two-step`, `checkpoints-self`/`-oracle`, `program`, `agent`...

    A protocol whose whole run is one call with the item's own messages, answered by that call's
    text, may say so with a true class attribute `one_call`: the runner then makes that call
    itself (same retries and accounting) and skips `run`, which must still do the same thing.
    `needs_tools` says the protocol offers tools to the model (a model that cannot call tools is
    refused before the run); a true `no_model` says it calls no model at all (`--model` may then be
    left out: the run's model is `none`). An optional `check_item(item)` raises a UserError, before the run,
    for an item the protocol cannot ask (a two-step item without its formatting turn). A true
    `single_reply` (implied by `one_call`) says the answer is the text of one reply to the item's
    messages, after its formatting turn where it has one: what the Inspect and verifiers
    integrations can reproduce, so they refuse any other protocol.
    """

    name: str

    async def run(self, item: "Item", ask: Ask) -> Answer:
        ...
