"""The full agent as OpenGray ran it (protocol `opengray-agent`, the default of `--system agent`;
the core's generic `agent` protocol stays available beside it).

What differs from the generic tool loop, after the anchor's agent: the case summary is fetched
before the first model call and given in the first message (that call counts toward the 15);
a reply without tool calls gets one nudge, and a second ends the attempt; a call whose arguments
are not JSON is answered with `invalid_json` and uses none of the budget; when one call is left
and the model asks for anything but submit or escalate, the best plan so far (not rejected, then
most hard goals met, then most soft goals) is submitted automatically, or the task is escalated
as `other` when there is no plan; the model may be called at most twice the call cap. Every
call the harness runs is counted by both the loop and the harness, and the answer records both.
"""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Any

from physbench.core.items import Message
from physbench.protocols.base import Answer, Turn

if TYPE_CHECKING:
    from physbench.core.items import Item

NUDGE = "Please continue by calling a tool; end the task with submit (a plan_id) or escalate (a reason)."
TERMINAL = ("submit", "escalate")
PLAN_TOOLS = ("optimize", "normalize", "compare_to_goals")
IDLE_LIMIT = 2


def plan_quality(result: dict[str, Any]) -> tuple[int, int, int] | None:
    """How good a plan a tool result describes: not rejected, hard goals met, soft goals met."""
    if "error" in result or not isinstance(result.get("hard_met"), int):
        return None
    return (0 if result.get("rejected") else 1, int(result["hard_met"]), int(result.get("soft_met") or 0))


class PaperAgent:
    name = "opengray-agent"
    needs_tools = True

    def __init__(self, suite: Any = None, **_: Any) -> None:
        self.suite = suite

    async def run(self, item: "Item", ask: Any) -> Answer:
        harness = self.suite.harness(item)
        try:
            return await self._loop(item, ask, harness)
        finally:
            await harness.aclose()

    async def _loop(self, item: "Item", ask: Any, harness: Any) -> Answer:
        cap = int(harness.limits["tool_calls"])
        log: list[dict[str, Any]] = []
        turns: list[Turn] = []
        state = {"calls": 0, "best": None, "auto": None}

        async def run_tool(name: str, args: dict[str, Any], call_id: str, text: str) -> dict[str, Any]:
            out = await harness.acall(name, args)
            state["calls"] += 1
            q = plan_quality(out) if name in PLAN_TOOLS else None
            if q is not None and (state["best"] is None or q > state["best"][0]):
                state["best"] = (q, str(out.get("plan_id")))
            log.append({"name": name, "arguments": text, "result": out, "error": None, "id": call_id})
            return out

        async def finish(why: str) -> None:
            if cap - state["calls"] < 1:
                return
            best = state["best"]
            if best is not None:
                await run_tool("submit", {"plan_id": best[1], "note": f"Submitted automatically because {why}."},
                               "auto", "")
            else:
                await run_tool("escalate", {"reason": "other", "explanation": f"No plan was made before {why}."},
                               "auto", "")
            state["auto"] = why

        summary = await run_tool("get_case_summary", {}, "summary", "{}")
        first = item.messages[1].content if len(item.messages) > 1 else ""
        conversation = [item.messages[0], Message("user", first + "\n\nThe case summary (what get_case_summary "
                                                  "returns):\n" + json.dumps(summary, separators=(",", ":")))]
        idle, reply = 0, None
        while not harness.finished:
            if len(turns) >= 2 * cap:
                await finish(f"the model was called {2 * cap} times")
                break
            t0 = time.monotonic()
            reply = await ask(conversation, tools=list(harness.tools), label=f"turn-{len(turns) + 1}")
            turns.append(Turn(reply.text, reply.finish_reason, dict(reply.usage), reply.latency or time.monotonic() - t0,
                              f"turn-{len(turns) + 1}", tuple(c.to_dict() for c in reply.tool_calls)))
            if not reply.tool_calls:
                idle += 1
                if idle >= IDLE_LIMIT:
                    await finish("the model stopped calling tools")
                    break
                conversation += [Message("assistant", reply.text), Message("user", NUDGE)]
                continue
            idle = 0
            conversation.append(Message("assistant", reply.text, tuple(reply.tool_calls)))
            for call in reply.tool_calls:
                if harness.finished:
                    out: dict[str, Any] = {"error": "task_over", "detail": "The task has already ended."}
                elif call.error is not None:
                    out = {"error": "invalid_json", "detail": f"The arguments are not a JSON object ({call.error})."}
                    log.append({"name": call.name, "arguments": call.arguments, "result": out, "error": call.error,
                                "id": call.id})
                elif cap - state["calls"] <= 1 and call.name not in TERMINAL:
                    await finish("the tool-call cap was reached")
                    out = {"error": "task_over", "detail": "The tool-call cap was reached; the task has ended."}
                else:
                    out = await run_tool(call.name, dict(call.parsed or {}), call.id, call.arguments)
                conversation.append(Message("tool", json.dumps(out, allow_nan=False, default=str)[:20_000],
                                            tool_call_id=call.id, name=call.name))
        result = dict(await harness.aresult())
        outcome = None if harness.finished else "no_decision"
        return Answer(reply.text if reply else "", reply.finish_reason if reply else None, tuple(turns), outcome=outcome,
                      detail={"tool_log": log, "result": result, "auto_ended": state["auto"],
                              "protocol_tool_calls": state["calls"]})
