"""The item: one immutable, JSON-serialisable task handed to a model and graded by code.

The core knows no suite: an item's `reference` is plain JSON that its suite's grader reads (a
value and unit with a tolerance band, a date, an expression, a decision...). `protocol_data`
carries what a multi-turn protocol asks after the first turn (a formatting template, later
checkpoints, a program's policy), also plain JSON.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal, Mapping

from physbench.core.canary import CANARY
from physbench.core.frozen import freeze, thaw
from physbench.core.hashing import params_hash

Role = Literal["system", "user", "assistant", "tool"]


@dataclass(frozen=True, slots=True)
class ToolCall:
    """One tool call a model asked for.

    `arguments` is the text the model sent; `parsed` the JSON object it decodes to, or None with
    `error` saying why not (malformed JSON, not an object, too long). A malformed call is data,
    never an exception: the protocol records it and tells the model.
    """

    id: str
    name: str
    arguments: str = "{}"
    parsed: Mapping[str, Any] | None = None
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "name": self.name, "arguments": self.arguments}
        if self.error is not None:
            out["error"] = self.error
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "ToolCall":
        from physbench.core.tools import parse_arguments

        arguments = d.get("arguments", "{}")
        if not isinstance(arguments, str):
            arguments = json.dumps(arguments)
        parsed, error = parse_arguments(arguments)
        return cls(str(d.get("id", "")), str(d.get("name", "")), arguments, parsed, error)


@dataclass(frozen=True, slots=True)
class Message:
    """One chat message: system, user, assistant (possibly with tool calls) or a tool's result."""

    role: str
    content: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    tool_call_id: str | None = None
    name: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"role": self.role, "content": self.content}
        if self.tool_calls:
            out["tool_calls"] = [c.to_dict() for c in self.tool_calls]
        if self.tool_call_id is not None:
            out["tool_call_id"] = self.tool_call_id
        if self.name is not None:
            out["name"] = self.name
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Message":
        calls = tuple(ToolCall.from_dict(c) for c in d.get("tool_calls") or ())
        return cls(d["role"], d.get("content") or "", calls, d.get("tool_call_id"), d.get("name"))


@dataclass(frozen=True)
class Item:
    """One task. `reference`, `params`, `meta` and `protocol_data` are deep-frozen plain JSON."""

    id: str
    suite: str
    kind: str
    messages: tuple[Message, ...]
    reference: Mapping[str, Any] = field(default_factory=dict)
    params: Mapping[str, Any] = field(default_factory=dict)
    params_hash: str = ""
    meta: Mapping[str, Any] = field(default_factory=dict)
    protocol_data: Mapping[str, Any] = field(default_factory=dict)
    canary: str = CANARY

    def __post_init__(self) -> None:
        object.__setattr__(self, "messages", tuple(self.messages))
        object.__setattr__(self, "reference", freeze(self.reference))
        object.__setattr__(self, "params", freeze(self.params))
        object.__setattr__(self, "meta", freeze(self.meta))
        object.__setattr__(self, "protocol_data", freeze(self.protocol_data))
        if not self.params_hash:
            object.__setattr__(self, "params_hash", params_hash(self.params))

    @property
    def system(self) -> str:
        return next((m.content for m in self.messages if m.role == "system"), "")

    @property
    def user(self) -> str:
        return next((m.content for m in reversed(self.messages) if m.role == "user"), "")

    def to_dict(self) -> dict[str, Any]:
        return thaw(self._fields())

    def to_json(self) -> str:
        """The item's canonical JSON, encoded once (an item is immutable, so the text is kept)."""
        text = self.__dict__.get("_json")
        if text is None:
            # the frozen forms encode exactly as their thawed copies (a FrozenDict is a dict, a tuple a list)
            text = json.dumps(self._fields(), sort_keys=True, ensure_ascii=False)
            object.__setattr__(self, "_json", text)
        return text  # type: ignore[no-any-return]

    @classmethod
    def from_canonical_json(cls, text: str) -> "Item":
        """An item from text that `to_json` wrote (a cache's copy), which it keeps as its JSON."""
        item = cls.from_dict(json.loads(text))
        object.__setattr__(item, "_json", text)
        return item

    def _fields(self) -> dict[str, Any]:
        out = {
            "id": self.id,
            "suite": self.suite,
            "kind": self.kind,
            "messages": [m.to_dict() for m in self.messages],
            "reference": self.reference,
            "params": self.params,
            "params_hash": self.params_hash,
            "meta": self.meta,
            "canary": self.canary,
        }
        if self.protocol_data:
            out["protocol_data"] = self.protocol_data
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Item":
        """An item from its JSON; also reads items stored before references became suite-owned.

        Those carried a top-level `band` (a medphys tolerance), which now lives in the reference.
        """
        reference = dict(d.get("reference") or {})
        if "band" in d and "band" not in reference:
            reference["band"] = float(d["band"])
        return cls(
            id=d["id"],
            suite=d["suite"],
            kind=d["kind"],
            messages=tuple(Message.from_dict(m) for m in d["messages"]),
            reference=reference,
            params=d.get("params", {}),
            params_hash=d.get("params_hash", ""),
            meta=d.get("meta", {}),
            protocol_data=d.get("protocol_data", {}),
            canary=d.get("canary", CANARY),
        )
