"""The planning report through `physbench eval --system` and `physbench report` (001_* Tables S8,
S10, S12, S14): scripted systems with no model, an interpreter whose replies include a malformed
one, and the viewer's DVH chart of a submitted plan."""

from __future__ import annotations

import json
from types import SimpleNamespace

from physbench.suites.planning import suite as S
from physbench.suites.planning.interpreter import oracle_reply
from physbench.suites.planning.report import detail

COVERAGE = [t for t in S.shipped_tasks() if t["kind"] == "coverage_cap" and t["patient"] in S.DEV_PATIENTS]


def _report(cli, tmp_path, *runs):
    out = tmp_path / "report"
    r = cli("report", *map(str, runs), "--out", str(out))
    assert r.returncode == 0, r.stderr
    return json.loads((out / "report.json").read_text()), (out / "report.md").read_text()


def test_a_system_that_calls_no_model_runs_without_model_and_is_labelled_by_its_system(cli, tmp_path):
    run = tmp_path / "arith"
    r = cli("eval", "planning", "--system", "arithmetic", "--option", "family=coverage_cap", "--limit", "3",
            "--run-dir", str(run), "--quiet", "--json")
    assert r.returncode == 0, r.stderr
    summary = json.loads(r.stdout)
    assert summary["model"] == "none" and summary["protocol"] == "arithmetic" and summary["n_done"] == 3
    doc, md = _report(cli, tmp_path, run)
    (planning,) = doc["analyses"]["planning"]["runs"]
    assert planning["model"] == "arithmetic" and planning["decision_accuracy"] == {"coverage_cap": 100.0}
    s10 = planning["table_s10"]
    assert list(s10["families"]) == ["coverage_cap"] and s10["primary"]["value"] == 100.0
    assert s10["primary"]["n_boot"] == 2000 and s10["patients"] == 3
    assert set(planning["table_s14"]) == {"primary", "reason", "hard_goals"}
    assert "OpenGray Table S10" in md and "OpenGray Table S14" in md and "| arithmetic |" in md


def test_an_interpreter_run_counts_a_malformed_reply_as_a_technical_failure_in_the_report(cli, tmp_path):
    tasks = COVERAGE[:3]
    replies = [oracle_reply(tasks[0]),                                        # the proven escalation
               "I would escalate this case.",                                  # prose: breaks the format
               json.dumps({"action": "plan", "reason": None, "explanation": "plan it", "flags": []})]  # wrong
    replay = tmp_path / "interpreter.jsonl"
    replay.write_text("".join(json.dumps({"id": t["id"], "response": text}) + "\n" for t, text in zip(tasks, replies)))
    run = tmp_path / "interp"
    r = cli("eval", "planning", "--system", "interpreter", "--option", "family=coverage_cap", "--limit", "3",
            "--repeats", "1", "--model", f"replay:{replay}", "--run-dir", str(run), "--quiet", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["protocol"] == "direct"
    doc, md = _report(cli, tmp_path, run)
    (planning,) = doc["analyses"]["planning"]["runs"]
    assert planning["decision_accuracy"] == {"coverage_cap": 33.33}
    failures = planning["technical_failures"]
    assert failures["count"] == 1 and failures["of"] == 3 and failures["attempts"][0]["patient"] == tasks[1]["patient"]
    decisions = planning["dose"]["final_decisions"]["coverage_cap"]
    assert decisions == {**decisions, "attempts": 3, "escalated": 1, "submitted": 1, "technical_failure": 1}
    assert "Technical failures" in md and "| 1/3 |" in md


def test_the_agent_system_is_the_default_and_needs_a_model(cli, tmp_path):
    r = cli("eval", "planning", "--limit", "1", "--model", "none", "--run-dir", str(tmp_path / "x"), "--quiet")
    assert r.returncode == 2 and "asks a model" in r.stderr and "Traceback" not in r.stderr
    r = cli("eval", "planning", "--system", "surgeon", "--limit", "1", "--run-dir", str(tmp_path / "y"), "--quiet")
    assert r.returncode == 2 and "system must be one of" in r.stderr


def test_the_viewer_draws_the_dvh_of_a_submitted_plan(fast_suite):
    proto = fast_suite.protocols()["controller"](None)
    t = next(t for t in S.shipped_tasks() if t["id"] == "planning/routine/pt_278")
    f = S.item_fields(t, "controller")
    item = SimpleNamespace(id=f["id"], kind=f["kind"], params=f["params"], reference=f["reference"], meta=f["meta"])
    answer = proto.run_sync(item)
    grade = fast_suite.grade(item, SimpleNamespace(text="", finish_reason="stop", outcome=None, detail=answer))
    assert grade.detail["decision"] == "submitted"
    blocks = detail(SimpleNamespace(grade=grade, answer={"detail": answer}, item=item))["blocks"]
    assert blocks[0]["title"] == "Decision" and ["decision", "submitted"] in blocks[0]["fields"]
    chart = blocks[1]["chart"]
    assert chart["y_label"] == "volume (%)"
    curves = [s for s in chart["series"] if not s["name"].startswith("goal ")]
    goals = [s for s in chart["series"] if s["name"].startswith("goal ")]
    assert {"PTV_7000", "SpinalCord"} <= {s["name"] for s in curves}
    for s in curves:
        assert s["x"] == sorted(s["x"]) and all(0.0 <= y <= 100.0 for y in s["y"]) and s["y"][0] == 100.0
        assert all(a >= b for a, b in zip(s["y"], s["y"][1:]))  # a cumulative DVH never rises
    assert "goal PTV_7000 D99 >= 66.5 Gy (hard)" in {s["name"] for s in goals}  # every goal marked
    assert all(len(set(s["x"])) == 1 for s in goals)
    # an interpreter's plan has no harness detail in its answer: the DVH comes with its grade
    again = detail(SimpleNamespace(grade=grade, answer={}, item=item))["blocks"]
    assert again[1]["chart"] == chart
    escalated = fast_suite.grade(item, SimpleNamespace(text="", finish_reason="stop", outcome=None,
                                                       detail={"result": {"outcome": "escalated", "reason": "other"}}))
    assert [b["title"] for b in detail(SimpleNamespace(grade=escalated, answer={}, item=item))["blocks"]] == ["Decision"]


def test_the_viewer_legend_defines_every_planning_outcome():
    from physbench.suites.planning.report import REPORT

    assert set(REPORT.outcomes) == set(S.OUTCOMES) and all(len(t) > 40 for t in REPORT.outcomes.values())
