"""One planning task's harness as an MCP server over stdio (issue 34 item 6), so an agent built on
another framework meets the same nine tools, budgets and grading.

The server's instructions are the agent's system and user turns (the task named by its opaque
token); its tools are the harness's, with their JSON schemas; each tool result is the harness's
JSON as text, an error result flagged ``is_error``. Every call is appended to a replay record
(`--record FILE`, the `replay:` model's JSONL: one line per task, each call a turn), so the
decision is stored, graded and reported like any other run:
`physbench eval planning --system agent --model replay:FILE`.
Needs the optional `mcp` package (``pip install physbench[mcp]``, mcp 2).
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from physbench.core.errors import UserError


def _task(item_id: str) -> dict[str, Any]:
    from physbench.suites.planning.suite import shipped_tasks

    task = next((t for t in shipped_tasks() if t["id"] == item_id), None)
    if task is None:
        raise UserError(f"unknown planning task {item_id!r}; `physbench planning tasks` lists them")
    return task


def write_record(path: Path, item_id: str, calls: list[dict[str, Any]]) -> None:
    """Replace this task's line in the replay record (atomically), keeping the other tasks' lines."""
    lines = []
    if path.is_file():
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                if json.loads(line).get("id") == item_id:
                    continue
            except (ValueError, AttributeError):
                pass
            lines.append(line)
    turns = [{"content": "", "tool_calls": [c], "finish_reason": "tool_calls"} for c in calls]
    turns.append({"content": "", "finish_reason": "stop"})  # the agent stopped here
    lines.append(json.dumps({"id": item_id, "responses": turns}))
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(tmp, path)


def build_server(item_id: str, record: Path | None = None) -> Any:
    """The MCP server of one task's harness (a fresh harness per server)."""
    try:
        from mcp import types
        from mcp.server import Server
    except ImportError:
        raise UserError("the MCP server needs the optional mcp package: pip install 'physbench[mcp]'") from None
    from physbench.suites.planning.interpreter import agent_messages
    from physbench.suites.planning.suite import new_harness
    from physbench.suites.planning.tools import TOOL_SPECS

    task = _task(item_id)
    harness = new_harness(task)
    calls: list[dict[str, Any]] = []
    instructions = "\n\n".join(m["content"] for m in agent_messages(task))

    async def list_tools(_ctx: Any, _params: Any) -> Any:
        return types.ListToolsResult(tools=[types.Tool(name=t.name, description=t.description,
                                                       input_schema=dict(t.parameters)) for t in TOOL_SPECS])

    async def call_tool(_ctx: Any, params: Any) -> Any:
        args = dict(params.arguments or {})
        out = harness.call(params.name, args)
        calls.append({"id": f"mcp_{len(calls) + 1}", "name": str(params.name)[:60], "arguments": json.dumps(args)})
        if record is not None:
            write_record(record, item_id, calls)
        return types.CallToolResult(content=[types.TextContent(text=json.dumps(out, allow_nan=False, default=str))],
                                    is_error="error" in out)

    return Server("physbench-planning", instructions=instructions, on_list_tools=list_tools, on_call_tool=call_tool)


def serve(item_id: str, record: str | None = None) -> None:
    """Serve one task over stdin/stdout until the client closes."""
    import anyio

    path = Path(record) if record else None
    if path is not None and not path.parent.is_dir():
        raise UserError(f"--record: no folder {str(path.parent)!r}")
    server = build_server(item_id, path)

    async def main() -> None:
        from mcp.server.stdio import stdio_server

        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    anyio.run(main)
