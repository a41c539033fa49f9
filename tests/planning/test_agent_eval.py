"""The agent system end to end through `physbench eval` (001_*, the tool contract): replayed tool
calls reach the harness, the decision is graded, and a malformed call is logged, not raised."""

from __future__ import annotations

import json
import sqlite3


def _calls(*calls):
    return {"content": "", "tool_calls": [{"id": f"c{i}", "name": n, "arguments": a} for i, (n, a) in enumerate(calls)],
            "finish_reason": "tool_calls"}


def test_an_agent_that_escalates_a_missing_structure_is_graded_through_eval(cli, tmp_path):
    item = "planning/missing_structure/pt_258"
    replies = [_calls(("get_case_summary", "{}")),
               _calls(("escalate", "{not json")),  # malformed: answered with its error, the loop goes on
               _calls(("escalate", json.dumps({"reason": "missing_structure", "explanation": "no PTV56 contour"})))]
    replay = tmp_path / "agent.jsonl"
    replay.write_text(json.dumps({"id": item, "responses": replies}) + "\n")
    run = tmp_path / "run"
    r = cli("eval", "planning", "--option", "system=agent", "--option", "family=missing_structure", "--limit", "1",
            "--repeats", "1", "--protocol", "agent", "--model", f"replay:{replay}", "--run-dir", str(run), "--quiet",
            "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["n_done"] == 1
    with sqlite3.connect(run / "store.sqlite") as conn:
        item_id, answer, grade = conn.execute("SELECT item_id, answer_json, grade_json FROM attempts").fetchone()
    log = json.loads(answer)["detail"]["tool_log"]
    assert item_id == item and [c["name"] for c in log] == ["get_case_summary", "escalate", "escalate"]
    assert log[1]["error"] and "malformed" in json.dumps(log[1]["result"])
    graded = json.loads(grade)
    assert graded["detail"]["decision"] == "escalated" and graded["passed"] is True, graded
