"""The item: one immutable, JSON-serialisable task handed to a model and graded by code."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal, Mapping

from physbench.core.canary import CANARY
from physbench.core.frozen import freeze, thaw
from physbench.core.hashing import params_hash

Role = Literal["system", "user", "assistant"]
Kind = Literal["calculation", "worksheet_check", "result_check"] | str


@dataclass(frozen=True, slots=True)
class Message:
    """One chat message."""

    role: str
    content: str

    def to_dict(self) -> dict[str, str]:
        return {"role": self.role, "content": self.content}


@dataclass(frozen=True, slots=True)
class Reference:
    """What a right answer is.

    For a calculation: the value and its unit (unit "" for a dimensionless answer).
    For a check: the same correct final result, plus whether the colleague's work holds a
    planted error and, for worksheets, the number of its first wrong step.
    """

    value: float | None = None
    unit: str | None = None
    planted: bool | None = None
    first_error_step: int | None = None
    shown_value: float | None = None  # the colleague's result as shown, checks only

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"value": self.value, "unit": self.unit}
        if self.planted is not None:
            out["planted"] = self.planted
            out["first_error_step"] = self.first_error_step
            out["shown_value"] = self.shown_value
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Reference":
        return cls(
            value=d.get("value"),
            unit=d.get("unit"),
            planted=d.get("planted"),
            first_error_step=d.get("first_error_step"),
            shown_value=d.get("shown_value"),
        )


@dataclass(frozen=True)
class Item:
    """One task. `params` and `meta` are deep-frozen; `to_dict` gives plain JSON types."""

    id: str
    suite: str
    kind: str
    messages: tuple[Message, ...]
    reference: Reference
    band: float  # relative tolerance, a fraction (0.005 = 0.5%)
    params: Mapping[str, Any] = field(default_factory=dict)
    params_hash: str = ""
    meta: Mapping[str, Any] = field(default_factory=dict)
    canary: str = CANARY

    def __post_init__(self) -> None:
        object.__setattr__(self, "messages", tuple(self.messages))
        object.__setattr__(self, "params", freeze(self.params))
        object.__setattr__(self, "meta", freeze(self.meta))
        if not self.params_hash:
            object.__setattr__(self, "params_hash", params_hash(self.params))

    @property
    def system(self) -> str:
        return next((m.content for m in self.messages if m.role == "system"), "")

    @property
    def user(self) -> str:
        return next((m.content for m in reversed(self.messages) if m.role == "user"), "")

    def to_dict(self) -> dict[str, Any]:
        return self._fields(thaw(self.params), thaw(self.meta))

    def to_json(self) -> str:
        # the frozen forms encode exactly as their thawed copies (a FrozenDict is a dict, a tuple a list)
        return json.dumps(self._fields(self.params, self.meta), sort_keys=True, ensure_ascii=False)

    def _fields(self, params: Any, meta: Any) -> dict[str, Any]:
        return {
            "id": self.id,
            "suite": self.suite,
            "kind": self.kind,
            "messages": [m.to_dict() for m in self.messages],
            "reference": self.reference.to_dict(),
            "band": self.band,
            "params": params,
            "params_hash": self.params_hash,
            "meta": meta,
            "canary": self.canary,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Item":
        return cls(
            id=d["id"],
            suite=d["suite"],
            kind=d["kind"],
            messages=tuple(Message(m["role"], m["content"]) for m in d["messages"]),
            reference=Reference.from_dict(d["reference"]),
            band=float(d["band"]),
            params=d.get("params", {}),
            params_hash=d.get("params_hash", ""),
            meta=d.get("meta", {}),
            canary=d.get("canary", CANARY),
        )
