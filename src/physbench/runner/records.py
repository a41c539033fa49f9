"""One finished attempt as the runner hands it on: to the grader, then to the store."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Mapping

from physbench.core.items import Item
from physbench.grading.types import Grade
from physbench.models.base import ModelError
from physbench.models.chat_json import read_completion
from physbench.models.pricing import Price
from physbench.protocols.base import Answer
from physbench.runner import storable

GRADE_FIELDS = tuple(Grade.__dataclass_fields__)
FETCHED = "fetched"


_GRADE_ENCODER = json.JSONEncoder(default=str)  # made once: json.dumps(default=...) builds one per call


def grade_json(grade: Grade) -> str:
    """The grade as JSON (a flat field copy: dataclasses.asdict deep-copies and is slow here); what
    it quotes of the reply is made storable (runner/storable.py)."""
    return storable.json_text({name: getattr(grade, name) for name in GRADE_FIELDS}, _GRADE_ENCODER)


_COUNT_KEYS = frozenset({"prompt_tokens", "completion_tokens", "total_tokens"})


def usage_json(usage: Mapping[str, Any]) -> str:
    """json.dumps(usage), written directly for the usual standard integer counts (once per stored row)."""
    if usage.keys() <= _COUNT_KEYS:
        parts = []
        for key, value in usage.items():
            if type(value) is not int or not storable.INT64_MIN <= value <= storable.INT64_MAX:
                return storable.json_text(usage)
            parts.append(f'"{key}": {value}')
        return f"{{{', '.join(parts)}}}"
    return storable.json_text(usage)


def bug_text(exc: Exception) -> str:
    """How an exception that is a bug (in a model, protocol or reader) is recorded among an attempt's errors."""
    return f"{type(exc).__name__}: {str(exc)[:300]}"


def item_group(item: Item) -> str | None:
    """The reporting group of an item: meta["group"], else "generator/Llevel" when both are known."""
    group = item.meta.get("group")
    if isinstance(group, str) and group:
        return group
    generator, level = item.meta.get("generator"), item.meta.get("level")
    if generator is not None and level is not None:
        return f"{generator}/L{level}"
    return None


@dataclass(slots=True)
class AttemptRecord:
    """Everything known about one finished attempt.

    `status` is "fetched" (a reply's body, not yet read: see `read_body`), "answered" (a response,
    not yet graded), "done" (graded) or "error" (no usable response after retries, or a grader
    that raised).
    """

    item: Item
    repeat: int
    status: str
    started_at: float
    finished_at: float
    text: str | None = None
    finish_reason: str | None = None
    usage: dict[str, int] = field(default_factory=dict)
    cost: float | None = None
    latency: float | None = None
    model_calls: int = 0
    tries: int = 0
    errors: list[str] = field(default_factory=list)
    turns: list[dict[str, Any]] | None = None
    raw: list[Any] | None = None  # each call's provider extras (Completion.extras), when any
    answer: dict[str, Any] | None = None  # the protocol's structured answer (Answer.data()), when any
    grade: Grade | None = None
    body: bytes | None = None  # a fetched attempt's reply, as the server sent it
    price: tuple[float, float, float | None] | None = None  # a fetched attempt's Price fields, for its cost

    def read_body(self) -> tuple[str, bool] | None:
        """Read a fetched attempt's reply as `generate` would (models/chat_json.py): the attempt is
        then answered, or, for a malformed reply, (the error, retryable) is returned for the runner
        to retry the call, and the attempt is left as it was."""
        if self.status != FETCHED or self.body is None:
            return None
        price = None if self.price is None else Price(*self.price)
        try:
            reply = read_completion(self.body, self.latency or 0.0, price)
        except ModelError as exc:
            return str(exc), exc.retryable
        except Exception as exc:  # a reader bug fails this attempt, as it would in the runner
            self.errors.append(bug_text(exc))
            self.status, self.body = "error", None
            return None
        self.text, self.finish_reason, self.cost = reply.text, reply.finish_reason, reply.cost
        self.usage = dict(reply.usage)
        self.raw = [dict(reply.extras)] if reply.extras else None
        self.status, self.body = "answered", None
        return None

    def grade_with(self, suite: Any) -> "AttemptRecord":
        """Grade an answered attempt with the suite's grader; a grader that raises makes it an error."""
        if self.status != "answered":
            return self
        try:
            self.grade = suite.grade(self.item, Answer.from_parts(self.text, self.finish_reason, self.turns,
                                                                  self.answer))
            self.status = "done"
        except Exception as exc:  # the grader must not raise; if it does, keep the text and say so
            self.errors.append(f"grader raised {type(exc).__name__}: {str(exc)[:300]}")
            self.status = "error"
        return self

    def wire(self) -> tuple[Any, ...]:
        """A compact, picklable form without the item (the receiver knows the items by id)."""
        return (self.item.id, self.repeat, self.status, self.started_at, self.finished_at, self.text,
                self.finish_reason, self.usage, self.cost, self.latency, self.model_calls, self.tries,
                self.errors, self.turns, self.raw, self.answer, self.body, self.price)

    @classmethod
    def from_wire(cls, t: tuple[Any, ...], items: Mapping[str, Item]) -> "AttemptRecord":
        (item_id, repeat, status, started, finished, text, finish, usage, cost, latency, calls, tries,
         errors, turns, raw, answer, body, price) = t
        return cls(items[item_id], repeat, status, started, finished, text, finish, usage, cost, latency, calls,
                   tries, errors, turns, raw, answer, None, body, price)

    def row(self) -> tuple[Any, ...]:
        """The `attempts` row (see runner/store.py); only graded or failed attempts are stored, each
        value as it came where SQLite can hold it, else sanitised (runner/storable.py)."""
        if self.status not in ("done", "error"):
            raise ValueError(f"attempt of {self.item.id} is {self.status!r}, not graded")
        g = self.grade
        return (
            self.item.id, self.repeat, self.status, self.item.kind, item_group(self.item),
            storable.text(self.text), storable.text(self.finish_reason), usage_json(self.usage),
            storable.integer(self.usage.get("prompt_tokens")), storable.integer(self.usage.get("completion_tokens")),
            storable.real(self.cost), self.latency, self.model_calls, self.tries,
            storable.json_text(self.errors) if self.errors else "[]",
            None if self.turns is None else storable.json_text(self.turns),
            None if not self.raw else storable.json_text(self.raw),
            None if self.answer is None else storable.json_text(self.answer),
            None if g is None else grade_json(g), None if g is None else g.outcome,
            None if g is None else float(g.score), None if g is None else int(bool(g.passed)),
            self.started_at, self.finished_at,
        )
