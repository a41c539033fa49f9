"""CritPt "with coding tools" (002_* Tables 2, 3, 5): a Python tool, then the formatting turn.

`PythonSession` is the research harness the `agent` protocol drives: one tool, `python`, whose
code runs in the executor's `scientific` sandbox (numpy, scipy, sympy, math). Names persist
across calls within one attempt: each call re-runs the cells that ran cleanly before it, with the
new cell last, and only what the new cell printed is sent back (capped at MAX_OUTPUT_CHARS). The
call budget is MAX_CALLS. `ToolsThenFormat` runs that loop and then asks the item's formatting
turn on the final reply, as the two-step protocol does; the formatting reply is graded.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from physbench.core.tools import ToolSpec

MAX_CALLS = 10
MAX_OUTPUT_CHARS = 4_000
CELL_WALL_S = 30.0          # each run of the session's cells, as a graded answer gets (002_* Section 3.2)
CELL_MEMORY_MB = 1024
PYTHON = ToolSpec("python", "Run Python 3 code with numpy, scipy, sympy and math. Names defined in earlier "
                            "calls stay defined. Print what you want to see; the printed text is returned.",
                  {"type": "object", "properties": {"code": {"type": "string", "description": "Python source"}},
                   "required": ["code"]})


class PythonSession:
    """One attempt's Python tool; state kept by replaying the cells that ran cleanly."""

    tools = (PYTHON,)
    limits = {"tool_calls": MAX_CALLS, "turns": MAX_CALLS + 2}

    def __init__(self, executor: Any = None) -> None:
        self.cells: list[str] = []
        self.printed = ""           # what the kept cells print when replayed
        self.calls = 0
        self.finished = False       # the loop ends when the model stops calling the tool
        self._executor = executor

    def call(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        from physbench.executor import Limits, default_executor

        self.calls += 1
        code = args.get("code")
        if name != "python" or not isinstance(code, str) or not code.strip():
            return {"error": "call the python tool with a non-empty string argument 'code'"}
        ex = self._executor or default_executor("scientific")
        program = "\n\n".join([*self.cells, code])
        try:
            res = ex.run(program, call=None, limits=Limits(wall_s=CELL_WALL_S, cpu_s=CELL_WALL_S,
                                                            memory_mb=CELL_MEMORY_MB))
        except Exception as exc:  # a broken sandbox worker is the tool's error, not the attempt's
            return {"error": f"sandbox: {str(exc)[:300]}"}
        output = res.output or ""
        new = output[len(self.printed):] if output.startswith(self.printed) else output
        out: dict[str, Any] = {"output": _cap(new)}
        if res.status != "ok":
            out["error"] = f"{res.status}: {(res.error or '')[:MAX_OUTPUT_CHARS // 4]}"
            return out
        self.cells.append(code)
        self.printed = output
        return out

    def result(self) -> dict[str, Any]:
        return {"python_calls": self.calls, "cells_kept": len(self.cells)}


def _cap(text: str) -> str:
    if len(text) <= MAX_OUTPUT_CHARS:
        return text
    return text[:MAX_OUTPUT_CHARS] + f"\n[output cut: {len(text) - MAX_OUTPUT_CHARS} more characters]"


class ToolsThenFormat:
    """`agent` for research challenges: the tool loop, then the formatting turn on its last reply."""

    name = "agent"
    needs_tools = True

    def __init__(self, suite: Any = None, **limits: float) -> None:
        from physbench.protocols.agent import Agent

        self.inner = Agent(suite, **limits)

    def check_item(self, item: Any) -> None:
        from physbench.protocols.two_step import format_text

        format_text(item, item.protocol_data)

    async def run(self, item: Any, ask: Any) -> Any:
        from physbench.core.items import Message
        from physbench.protocols.base import Answer, Turn
        from physbench.protocols.two_step import format_text

        note = item.protocol_data.get("tools_note")
        asked = item
        if isinstance(note, str) and note and item.messages and item.messages[0].role == "system":
            asked = replace(item, messages=(Message("system", item.messages[0].content + note), *item.messages[1:]))
        solved = await self.inner.run(asked, ask)
        formatted = await ask([*asked.messages, Message("assistant", solved.text),
                               Message("user", format_text(item, item.protocol_data))], label="format")
        turns = (*solved.turns, Turn(formatted.text, formatted.finish_reason, dict(formatted.usage),
                                     formatted.latency, "format"))
        return Answer(formatted.text, formatted.finish_reason, turns,
                      detail={**dict(solved.detail), "solve_text": solved.text, "tool_loop_end": solved.outcome})
