"""Scripted models for tests and baselines: `oracle`, `constant:TEXT`, `replay:FILE`, `none`.

They answer without a network and without a language model, so a run of them measures the
grader and the plumbing: the oracle must score 100% on every item that has a reference.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from physbench.core.errors import UserError
from physbench.core.files import read_capped
from physbench.models.base import Completion, ModelError, token_count

if TYPE_CHECKING:
    from physbench.core.items import Item, Message

REPLAY_MAX_BYTES = 1 << 30  # a replay file is read whole; refuse anything absurd


class OracleModel:
    """Answers every item from its reference, as its suite writes a perfect reply.

    The suite's `oracle(item)` gives the reply; a suite whose protocols take several turns may
    define `oracle_turn(item, label, messages)` to answer each turn (`label` names the turn).
    """

    spec = "oracle"
    turn_aware = True  # the runner passes `call=` and `label=`

    def __init__(self, suite: Any = None) -> None:
        self.suite = suite

    async def generate(self, messages: Sequence["Message"], *, item: "Item | None" = None, label: str = "",
                       call: int = 0, **params: Any) -> Completion:
        if item is None:
            raise ModelError("the oracle model needs the item", retryable=False)
        text = None
        by_turn = getattr(self.suite, "oracle_turn", None)
        if callable(by_turn):
            text = by_turn(item, label, messages)
        elif callable(getattr(self.suite, "oracle", None)):
            text = self.suite.oracle(item)
        if text is None:
            raise ModelError(f"item {item.id} has no reference for the oracle to answer from",
                             retryable=False)
        return Completion(text=text, finish_reason="stop")

    def info(self) -> dict[str, Any]:
        return {"kind": "scripted", "name": "oracle"}

    async def aclose(self) -> None:
        return None


class NoModel:
    """Stands in where the protocol calls no model (a scripted planning system, the gold library):
    any call is refused, so a protocol that does need a model cannot run on it by mistake."""

    spec = "none"

    async def generate(self, messages: Sequence["Message"], *, item: "Item | None" = None,
                       **params: Any) -> Completion:
        raise ModelError("this run has no model (--model none): its protocol must not call one", retryable=False)

    def info(self) -> dict[str, Any]:
        return {"kind": "none"}

    async def aclose(self) -> None:
        return None


class ConstantModel:
    """Gives the same text to every item (a baseline: what a fixed guess scores)."""

    def __init__(self, text: str) -> None:
        if not text:
            raise UserError("model spec 'constant:TEXT' needs a non-empty TEXT")
        self.text = text
        self.spec = f"constant:{text}"

    async def generate(self, messages: Sequence["Message"], *, item: "Item | None" = None,
                       **params: Any) -> Completion:
        return Completion(text=self.text, finish_reason="stop")

    def info(self) -> dict[str, Any]:
        return {"kind": "scripted", "name": "constant", "text": self.text}

    async def aclose(self) -> None:
        return None


def _replay_step(r: Any, where: str) -> dict[str, Any]:
    """One element of a replay line's "responses": text, or content with tool calls."""
    from physbench.core.items import ToolCall

    if isinstance(r, str):
        return {"text": r, "tool_calls": (), "finish_reason": None}
    if not isinstance(r, dict) or not isinstance(r.get("content") or "", str):
        raise UserError(f"{where}: each of \"responses\" must be text or an object with text \"content\"")
    calls = r.get("tool_calls") or []
    if not isinstance(calls, list) or not all(isinstance(c, dict) and isinstance(c.get("name"), str) for c in calls):
        raise UserError(f"{where}: \"tool_calls\" must be a list of objects with a \"name\"")
    finish = r.get("finish_reason")
    return {"text": r.get("content") or "", "finish_reason": finish if isinstance(finish, str) else None,
            "tool_calls": tuple(ToolCall.from_dict({"id": c.get("id") or f"call_{i}", "name": c["name"],
                                                    "arguments": c.get("arguments", "{}")})
                                for i, c in enumerate(calls))}


class ReplayModel:
    """Responses prepared elsewhere, read from a JSONL file keyed by item id.

    Each line: {"id": ITEM_ID, "response": TEXT} with optional "repeat" (int; a line without it
    answers every repeat), "finish_reason" and "usage". A multi-turn protocol's replies come from
    "responses": a list whose k-th element answers the attempt's k-th call (the last one once the
    list runs out); an element is reply text or {"content", "tool_calls": [{"id", "name",
    "arguments"}], "finish_reason"}. An item with no line is recorded as an error, not guessed.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self.spec = f"replay:{path}"
        self.attempt_aware = True  # the runner passes `repeat=`
        self.turn_aware = True  # and `call=`, the index of the call within the attempt
        self._by_key: dict[tuple[str, int | None], dict[str, Any]] = {}
        self._load(Path(path))

    def item_ids(self) -> set[str]:
        """The item ids the file answers (the runner refuses a file that answers none of a run's items)."""
        return {item_id for item_id, _ in self._by_key}

    def _load(self, path: Path) -> None:
        where = f"cannot read replay file {str(path)!r}"
        try:  # read at most 1 GiB: a device that never ends (/dev/zero) is refused, not read for ever
            lines = read_capped(path, where, REPLAY_MAX_BYTES).decode("utf-8").splitlines()
        except UnicodeDecodeError as exc:
            raise UserError(f"{where}: {type(exc).__name__}") from None
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            row = self._parse_line(line, number)
            key = (row["id"], row.get("repeat"))
            if key in self._by_key:
                raise UserError(f"replay file line {number}: a second response for item {row['id']!r}")
            self._by_key[key] = row
        if not self._by_key:
            raise UserError(f"replay file {str(path)!r} holds no responses")

    def _parse_line(self, line: str, number: int) -> dict[str, Any]:
        where = f"replay file line {number}"
        try:
            row = json.loads(line)
        except ValueError:
            raise UserError(f"{where}: not valid JSON") from None
        except RecursionError:
            raise UserError(f"{where}: JSON nested too deeply") from None
        if not isinstance(row, dict):
            raise UserError(f"{where}: expected a JSON object")
        if not isinstance(row.get("id"), str):
            raise UserError(f"{where}: needs a string \"id\"")
        text = row.get("response", row.get("text"))
        responses = row.get("responses")
        if responses is not None:
            if not isinstance(responses, list) or not responses:
                raise UserError(f"{where}: \"responses\" must be a non-empty list")
            steps = [_replay_step(r, where) for r in responses]
            text = steps[0]["text"]
        elif not isinstance(text, str):
            raise UserError(f"{where}: needs a string \"response\"")
        else:
            steps = None
        repeat = row.get("repeat")
        if repeat is not None and (not isinstance(repeat, int) or isinstance(repeat, bool) or repeat < 0):
            raise UserError(f"{where}: \"repeat\" must be a non-negative integer")
        finish = row.get("finish_reason")
        if finish is not None and not isinstance(finish, str):
            raise UserError(f"{where}: \"finish_reason\" must be a string")
        usage = row.get("usage") or {}
        if not isinstance(usage, dict) or not all(isinstance(v, int) for v in usage.values()):
            raise UserError(f"{where}: \"usage\" must map names to integers")
        usage = {str(k): token_count(v) for k, v in usage.items()}  # 10**30 tokens is clamped, as from a server
        return {"id": row["id"], "repeat": repeat, "text": text, "finish_reason": finish, "usage": usage,
                "steps": steps}

    async def generate(self, messages: Sequence["Message"], *, item: "Item | None" = None,
                       repeat: int | None = None, call: int = 0, **params: Any) -> Completion:
        if item is None:
            raise ModelError("the replay model needs the item", retryable=False)
        row = self._by_key.get((item.id, repeat)) or self._by_key.get((item.id, None))
        if row is None:
            raise ModelError(f"replay file has no response for item {item.id}", retryable=False)
        if row["steps"]:
            step = row["steps"][min(max(int(call), 0), len(row["steps"]) - 1)]  # call: 0-based index
            return Completion(text=step["text"], usage=row["usage"], tool_calls=step["tool_calls"],
                              finish_reason=step["finish_reason"] or row["finish_reason"]
                              or ("tool_calls" if step["tool_calls"] else "stop"))
        return Completion(text=row["text"], usage=row["usage"], finish_reason=row["finish_reason"] or "stop")

    def info(self) -> dict[str, Any]:
        return {"kind": "scripted", "name": "replay", "responses": len(self._by_key)}

    async def aclose(self) -> None:
        return None
