"""`agent`: a tool loop over the suite's harness (suite.harness(item)). Each turn offers the
harness's tools; every call the model makes is run (a malformed one answered with its error) and
logged with its arguments and result; the loop stops when the harness is finished, the model
stops calling tools, or a limit (tool calls, turns, wall time) is reached. A harness whose work
is heavy offers ``acall`` / ``aresult`` / ``aclose`` coroutines (run off the event loop); a plain
one is called in place."""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Any

from physbench.core.errors import UserError
from physbench.core.items import Message
from physbench.protocols.base import Answer, Ask, Turn

if TYPE_CHECKING:
    from physbench.core.items import Item

DEFAULT_LIMITS = {"tool_calls": 15, "turns": 30, "wall_s": 600.0}
MAX_RESULT_CHARS = 20_000  # a tool result longer than this is cut before it is sent back


def _result_text(result: Any) -> str:
    try:
        text = json.dumps(result, allow_nan=False, default=str)
    except (TypeError, ValueError):
        text = json.dumps({"error": "tool result is not JSON"})
    return text[:MAX_RESULT_CHARS]


async def _call(harness: Any, name: str, arguments: dict[str, Any]) -> Any:
    acall = getattr(harness, "acall", None)
    return await acall(name, arguments) if acall is not None else harness.call(name, arguments)


async def _final(harness: Any) -> Any:
    aresult = getattr(harness, "aresult", None)
    return await aresult() if aresult is not None else harness.result()


class Agent:
    name = "agent"
    needs_tools = True

    def __init__(self, suite: Any = None, **limits: float) -> None:
        self.suite = suite
        self.limits = limits

    async def run(self, item: "Item", ask: Ask) -> Answer:
        if self.suite is None or not hasattr(self.suite, "harness"):
            raise UserError("the agent protocol needs a suite with a harness")
        harness = self.suite.harness(item)
        try:
            return await self._loop(item, ask, harness)
        finally:  # a harness that keeps its state apart (another process) releases it
            aclose = getattr(harness, "aclose", None)
            if aclose is not None:
                await aclose()

    async def _loop(self, item: "Item", ask: Ask, harness: Any) -> Answer:
        limits = {**DEFAULT_LIMITS, **dict(getattr(harness, "limits", None) or {}), **self.limits}
        tools = list(harness.tools)
        conversation = list(item.messages)
        log: list[dict[str, Any]] = []
        turns: list[Turn] = []
        start = time.monotonic()
        outcome: str | None = None
        reply = None
        while True:
            if len(turns) >= limits["turns"] or time.monotonic() - start > limits["wall_s"]:
                outcome = "budget_exhausted"
                break
            reply = await ask(conversation, tools=tools, label=f"turn-{len(turns) + 1}")
            turns.append(Turn(reply.text, reply.finish_reason, dict(reply.usage), reply.latency,
                              f"turn-{len(turns) + 1}", tuple(c.to_dict() for c in reply.tool_calls)))
            if not reply.tool_calls:
                break
            conversation.append(Message("assistant", reply.text, tuple(reply.tool_calls)))
            for call in reply.tool_calls:
                if len(log) >= limits["tool_calls"]:
                    result: Any = {"error": "tool-call budget exhausted"}
                    outcome = "budget_exhausted"
                elif call.error is not None:
                    result = {"error": f"malformed arguments: {call.error}"}
                else:
                    try:
                        result = await _call(harness, call.name, dict(call.parsed or {}))
                    except Exception as exc:  # a harness bug is logged, not a crash of the attempt
                        result = {"error": f"tool failed ({type(exc).__name__}: {str(exc)[:200]})"}
                log.append({"name": call.name, "arguments": call.arguments, "result": result, "error": call.error})
                conversation.append(Message("tool", _result_text(result), tool_call_id=call.id, name=call.name))
            if harness.finished or outcome is not None:
                break
        if outcome is None and not harness.finished:
            outcome = "no_decision"
        text = reply.text if reply is not None else ""
        finish = reply.finish_reason if reply is not None else None
        return Answer(text, finish, tuple(turns), outcome=None if harness.finished and outcome is None else outcome,
                      detail={"tool_log": log, "result": dict(await _final(harness))})
