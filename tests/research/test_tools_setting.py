"""The "with coding tools" setting: scripted tool calls on the loopback mock drive the research agent
(a Python tool in the scientific sandbox, names kept across calls, output capped, a call budget),
then the formatting turn is graded."""

from __future__ import annotations

import json
import sqlite3

from physbench.suites.research.problem import shipped_dir
from physbench.suites.research.tools import MAX_OUTPUT_CHARS, PythonSession

FILLED = ("```python\nimport sympy as sp\n\ndef answer(p):\n"
          "    return 2*p**2 - sp.Rational(28, 9)*p**3 + sp.Rational(4, 3)*p**4\n```")


def _setup(tmp_path, script):
    d = json.loads((shipped_dir() / "qed_422_depolarising.json").read_text())
    d["challenge"]["question"] += "\nmock-script: " + json.dumps(script)
    (tmp_path / "set").mkdir()
    (tmp_path / "set" / "qed.json").write_text(json.dumps(d))
    # the formatting turn carries its own script: its reply is the filled template
    (tmp_path / "wording.json").write_text(json.dumps({"format": "mock-script: " + json.dumps([FILLED]) + "\n{template}"}))


def _py(code):
    return {"tool_calls": [{"name": "python", "arguments": {"code": code}}]}


def _attempt(tmp_path):
    with sqlite3.connect(tmp_path / "run" / "store.sqlite") as conn:
        grade, answer, turns = conn.execute("SELECT grade_json, answer_json, turns_json FROM attempts").fetchone()
    return json.loads(grade), json.loads(answer), json.loads(turns)


def test_tool_calls_keep_state_cap_output_and_the_formatting_reply_is_graded(cli, tmp_path, mock_server):
    _setup(tmp_path, [_py("x = 6 * 7\nprint(x)"), _py("print(x + 1)"), _py("print('y' * 10000)"),
                      _py("import os"), "Final Answer: $2p^2 - 28p^3/9 + 4p^4/3$"])
    server = mock_server()
    r = cli("eval", "research", "--model", "openai/mock", "--base-url", server.base_url, "--protocol", "agent",
            "--option", f"problems={tmp_path / 'set'}", "--option", f"prompts={tmp_path / 'wording.json'}",
            "--repeats", "1", "--run-dir", str(tmp_path / "run"), "--quiet", "--json")
    assert r.returncode == 0, r.stderr
    grade, answer, turns = _attempt(tmp_path)
    log = answer["detail"]["tool_log"]
    assert [e["result"]["output"].strip() for e in log[:2]] == ["42", "43"]  # x survived into the second call
    assert len(log[2]["result"]["output"]) < MAX_OUTPUT_CHARS + 100 and "output cut" in log[2]["result"]["output"]
    assert log[3]["result"]["error"].startswith("rejected")  # the sandbox's policy holds inside the tool
    assert [t["label"] for t in turns][-1] == "format" and grade["outcome"] == "correct"


def test_the_call_budget_ends_the_loop(cli, tmp_path, mock_server):
    _setup(tmp_path, [_py("print(1)")] * 10 + ["Final Answer: 0"])
    server = mock_server()
    r = cli("eval", "research", "--model", "openai/mock", "--base-url", server.base_url, "--protocol",
            "agent:tool_calls=2", "--option", f"problems={tmp_path / 'set'}", "--option",
            f"prompts={tmp_path / 'wording.json'}", "--repeats", "1", "--run-dir", str(tmp_path / "run"), "--quiet")
    assert r.returncode == 0, r.stderr
    _, answer, turns = _attempt(tmp_path)
    log = answer["detail"]["tool_log"]
    assert len(log) == 3 and log[2]["result"] == {"error": "tool-call budget exhausted"}
    assert answer["detail"]["tool_loop_end"] == "budget_exhausted" and turns[-1]["label"] == "format"


def test_a_session_replays_only_clean_cells():
    s = PythonSession()
    assert s.call("python", {"code": "a = 2\nprint(a)"})["output"].strip() == "2"
    assert "error" in s.call("python", {"code": "b = 1 / 0"})
    out = s.call("python", {"code": "print(a * 10)"})
    assert out == {"output": "20\n"} and s.cells == ["a = 2\nprint(a)", "print(a * 10)"]
