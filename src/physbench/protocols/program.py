"""`program`: the model writes a Python function; the restricted executor runs it and its returned
value is the answer. Options: `vote=K` (K samples at temperature 0.7; a value returned at least
twice wins, ties to the first; else the first computed value; "abstained" if none ran) and
`repair=N` (after a failed run, a corrective turn with the original prompt, the previous reply
and the executor's error string, at most N times). A suite's arm may also fix the decoding:
`temperature` for the single (greedy) call, `vote_temperature` for the samples and `max_tokens`
for every call."""

from __future__ import annotations

import asyncio
import json
import re
from typing import TYPE_CHECKING, Any, Mapping

from physbench.core.errors import UserError
from physbench.core.items import Message
from physbench.protocols.base import Answer, Ask, Turn

if TYPE_CHECKING:
    from physbench.core.items import Item

MAX_REPLY_CHARS = 200_000  # a reply longer than this is not searched for a program
_FENCE = re.compile(r"```[ \t]*(?:python|py|python3)?[ \t]*\n(.*?)```", re.S | re.I)
VOTE_TEMPERATURE = 0.7


def extract_program(text: str) -> str | None:
    """The program in a reply: the first fenced block that defines a function, else the first
    fenced block, else the bare reply when it defines a function; None when there is none."""
    text = text[:MAX_REPLY_CHARS]
    blocks = _FENCE.findall(text)
    for block in blocks:
        if re.search(r"^\s*def \w+\s*\(", block, re.M):
            return block.strip("\n")
    if blocks:
        return blocks[0].strip("\n") or None
    return text.strip("\n") if re.search(r"^\s*def \w+\s*\(", text, re.M) else None


def _spec(item: "Item") -> dict[str, Any]:
    spec = item.protocol_data.get("program") or {}
    if not hasattr(spec, "get"):
        raise UserError(f"item {item.id!r}: protocol_data program must be a JSON object")
    return {"policy": str(spec.get("policy", "strict")), "limits": dict(spec.get("limits") or {}),
            "call": str(spec.get("call", "solve")), "args": list(spec.get("args") or ())}


def execute(source: str, spec: Mapping[str, Any]) -> tuple[str | None, Any, dict[str, Any]]:
    """(outcome, value, detail) of running `source` in the executor; outcome None when it ran."""
    from physbench.executor import ExecutorError, Limits, run

    try:
        result = run(source, call=spec["call"], args=spec["args"], policy=spec["policy"],
                     limits=Limits(**spec["limits"]))
    except (ValueError, TypeError, ExecutorError) as exc:
        return "unreadable", None, {"source": source, "status": "error", "error": str(exc)[:500]}
    detail = {"source": source, "status": result.status, "error": result.error}
    value = result.to_dict()["value"]
    if result.status == "ok":
        try:
            json.dumps(value, allow_nan=False)
        except (TypeError, ValueError):
            return "unreadable", None, detail
        return None, value, detail
    outcome = {"rejected": "rejected", "bad_return": "bad_kind"}.get(result.status, "raised")
    return outcome, None, detail


def _turn(c: Any, label: str) -> Turn:
    return Turn(c.text, c.finish_reason, dict(c.usage), c.latency, label)


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


class Program:
    def __init__(self, vote: int = 1, repair: int = 0, *, temperature: float | None = None,
                 max_tokens: int | None = None, vote_temperature: float = VOTE_TEMPERATURE) -> None:
        if vote < 1 or repair < 0 or vote > 50 or repair > 10:
            raise UserError("program options: vote must be 1..50 and repair 0..10")
        self.vote, self.repair = vote, repair
        self.temperature, self.max_tokens, self.vote_temperature = temperature, max_tokens, vote_temperature
        self.name = "program" + (f":vote={vote}" if vote > 1 else "") + (f":repair={repair}" if repair else "")

    async def _one(self, item: "Item", ask: Ask, spec: dict[str, Any], label: str,
                   turns: list[Turn], **params: Any) -> tuple[str | None, Any, dict[str, Any], Any]:
        reply = await ask(item.messages, label=label, **params)
        turns.append(_turn(reply, label))
        for n in range(self.repair + 1):
            source = extract_program(reply.text)
            if source is None:
                outcome, value, detail = "no_program", None, {"source": None, "status": "no_program", "error": None}
            else:
                outcome, value, detail = await asyncio.to_thread(execute, source, spec)
            if outcome is None or n == self.repair:
                break
            error = detail.get("error") or outcome
            fix = [*item.messages, Message("assistant", reply.text),
                   Message("user", f"Running your program failed: {error}\nReply with a corrected program.")]
            reply = await ask(fix, label=f"{label}:repair-{n + 1}", **params)
            turns.append(_turn(reply, f"{label}:repair-{n + 1}"))
        return outcome, value, detail, reply

    async def run(self, item: "Item", ask: Ask) -> Answer:
        spec = _spec(item)
        turns: list[Turn] = []
        cap = {} if self.max_tokens is None else {"max_tokens": self.max_tokens}
        if self.vote == 1:
            greedy = {} if self.temperature is None else {"temperature": self.temperature}
            outcome, value, detail, reply = await self._one(item, ask, spec, "program", turns, **greedy, **cap)
            return Answer(reply.text, reply.finish_reason, tuple(turns), value=value, outcome=outcome, detail=detail)
        runs = [await self._one(item, ask, spec, f"sample-{k + 1}", turns, temperature=self.vote_temperature, **cap)
                for k in range(self.vote)]
        computed = [r for r in runs if r[0] is None]
        counts: dict[str, int] = {}
        for r in computed:
            counts[_key(r[1])] = counts.get(_key(r[1]), 0) + 1
        votes = {"samples": [{"outcome": r[0], "value": r[1], "status": r[2]["status"]} for r in runs],
                 "counts": counts}
        if not computed:
            last = runs[-1]
            return Answer(last[3].text, last[3].finish_reason, tuple(turns), outcome="abstained",
                          detail={**last[2], "vote": votes})
        top = max(counts.values())
        winner = computed[0]
        if top >= 2:  # the first sample whose value reached the top count (ties go to the first)
            winner = next(r for r in computed if counts[_key(r[1])] == top)
        return Answer(winner[3].text, winner[3].finish_reason, tuple(turns), value=winner[1],
                      detail={**winner[2], "vote": votes})
