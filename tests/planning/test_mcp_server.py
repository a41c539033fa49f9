"""`physbench planning mcp`: one task's harness served over stdio to a real MCP client; the calls
land in a replay record that `eval planning --system agent --model replay:FILE` stores and grades
(issue 34 item 6)."""

from __future__ import annotations

import json
import os
import sqlite3
import sys

import pytest

pytest.importorskip("mcp")

TASK = "planning/missing_structure/pt_258"


async def _session(record):
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    params = StdioServerParameters(command=sys.executable, args=["-m", "physbench", "planning", "mcp", TASK,
                                                                  "--record", str(record)], env=env)
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as s:
            init = await s.initialize()
            tools = await s.list_tools()
            summary = await s.call_tool("get_case_summary", {})
            bad = await s.call_tool("guess", {})
            done = await s.call_tool("escalate", {"reason": "missing_structure",
                                                  "explanation": "The goal list names OpticNrv_L; the case has none."})
            return init, tools, summary, bad, done


@pytest.mark.slow
def test_an_mcp_client_plans_through_the_server_and_the_run_is_graded(cli, tmp_path):
    import anyio

    record = tmp_path / "mcp.jsonl"
    init, tools, summary, bad, done = anyio.run(_session, record)
    assert [t.name for t in tools.tools][:2] == ["get_case_summary", "set_objectives"]
    text = summary.content[0].text
    assert TASK not in text and "missing_structure" not in (init.instructions or "").split("escalate")[0]
    assert json.loads(text)["task_id"].startswith("case-") and not summary.is_error
    assert bad.is_error and json.loads(bad.content[0].text)["error"] == "unknown_tool"
    assert json.loads(done.content[0].text)["status"] == "escalated"
    run = tmp_path / "run"
    r = cli("eval", "planning", "--split", "dev", "--option", "system=agent", "--option", "family=missing_structure",
            "--limit", "1", "--protocol", "agent", "--model", f"replay:{record}", "--run-dir", str(run), "--quiet")
    assert r.returncode == 0, r.stderr
    with sqlite3.connect(run / "store.sqlite") as conn:
        item_id, grade = conn.execute("SELECT item_id, grade_json FROM attempts").fetchone()
    assert item_id == TASK and json.loads(grade)["passed"] is True
