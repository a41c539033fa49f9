"""Each new suite's own report sections, on scripted runs: research (CritPt metrics, accuracy per
step), clincalc (accuracy by audit group and category), planning (by task family, Table S10)."""

from __future__ import annotations

import json


def _report(cli, tmp_path, *runs):
    r = cli("report", *map(str, runs), "--out", str(tmp_path / "rep"))
    assert r.returncode == 0, r.stderr
    return (tmp_path / "rep" / "report.md").read_text(), json.loads((tmp_path / "rep" / "report.json").read_text())


def _eval(cli, run, *args):
    r = cli("eval", *args, "--run-dir", str(run), "--quiet")
    assert r.returncode == 0, r.stderr


def test_the_research_report_grades_each_step_and_needs_five_runs_for_consistency(cli, tmp_path):
    _eval(cli, tmp_path / "o", "research", "--model", "oracle", "--protocol", "checkpoints-self",
          "--option", "mode=checkpoints-self", "--limit", "2", "--repeats", "5")
    _eval(cli, tmp_path / "c", "research", "--model", "constant:x", "--protocol", "checkpoints-self",
          "--option", "mode=checkpoints-self", "--limit", "2", "--repeats", "1")
    md, doc = _report(cli, tmp_path, tmp_path / "o", tmp_path / "c")
    a = doc["analyses"]["research"]
    metrics = {m["model"]: m for m in a["metrics"]}
    assert metrics["oracle"]["average_accuracy"] == 1.0 and metrics["oracle"]["consistently_solved"] == 1.0
    assert metrics["constant:x"]["average_accuracy"] == 0.0 and metrics["constant:x"]["consistently_solved"] is None
    oracle_steps = [s for s in a["steps"] if s["model"] == "oracle"]
    assert len(oracle_steps) == 6 and all(s["n"] == 5 and s["n_correct"] == 5 for s in oracle_steps)
    assert "## Research metrics" in md and "## Accuracy per step" in md and "(--repeats 5)" in md


def test_the_clincalc_report_groups_calculators_by_their_audit(cli, tmp_path):
    _eval(cli, tmp_path / "o", "clincalc", "--model", "oracle")
    md, doc = _report(cli, tmp_path, tmp_path / "o")
    groups = {g["name"]: (g["n"], g["n_correct"]) for g in doc["analyses"]["clincalc"]["audit_groups"]}
    assert groups == {"replaced": (4, 4), "other_concern": (12, 12), "no_issue": (39, 39)}
    assert "## Accuracy by audit group" in md and "## Accuracy by category" in md


def test_the_planning_report_has_families_and_table_s10(cli, tmp_path):
    _eval(cli, tmp_path / "p", "planning", "--model", "oracle", "--protocol", "arithmetic", "--limit", "6")
    md, doc = _report(cli, tmp_path, tmp_path / "p")
    a = doc["analyses"]["planning"]
    assert sum(f["n"] for f in a["families"]) == 6
    (run,) = a["runs"]
    assert run["table_s10"]["primary"]["value"] is not None and set(run["table_s14"]) == {"primary", "reason", "hard_goals"}
    assert sum(run["dose"]["final_decisions"][f]["attempts"] for f in run["dose"]["final_decisions"]) == 6
    assert "## Decision accuracy by task family" in md and "(OpenGray Table S10)" in md


def test_the_research_viewer_panel_shows_each_steps_outcome_and_expected_answer(cli, tmp_path):
    from physbench.runner.results import open_run
    from physbench.suites.research.report import detail

    _eval(cli, tmp_path / "c", "research", "--model", "constant:x", "--protocol", "checkpoints-self",
          "--limit", "1", "--repeats", "1")
    with open_run(tmp_path / "c") as reader:
        (r,) = list(reader.results())
    blocks = [b for b in detail(r)["blocks"] if "fields" in b]  # the steps; the turns follow as text blocks
    assert len(blocks) == 3 and all(dict(b["fields"])["outcome"] == "no_code" for b in blocks)
    assert all(dict(b["fields"])["expected"].startswith("The correct answer is: ") for b in blocks)
