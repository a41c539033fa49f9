"""Issue 34's "done when": a scripted agent (the `opengray-agent` loop on a replay file) and the
interpreter (the oracle's replies) run through `eval planning --split reserved` with the paper's
settings (Table S16: two runs, seeds 0 and 1), and `physbench report` renders Table S10 with its
difference row, S13, S14 and Figures 2 and 3 from them. Two small reserved patients keep it quick."""

from __future__ import annotations

import json

import pytest

from physbench.runner.results import open_run
from physbench.suites.planning import scripted_agent
from physbench.suites.planning import suite as S
from physbench.suites.planning.tasks import SCORED

PATIENTS = "pt_278,pt_275"  # the two smallest reserved patients


@pytest.mark.slow
def test_a_scripted_agent_and_the_interpreter_run_the_reserved_split_and_are_reported(cli, capsys, tmp_path, fast_suite):
    tasks = S.of_patients(S.select(S.shipped_tasks(), "reserved"), PATIENTS, "reserved")
    replay = tmp_path / "agent.jsonl"
    assert scripted_agent.main(["--split", "reserved", "--out", str(replay)]) == 0
    assert capsys.readouterr().out.startswith(f"{len(S.select(S.shipped_tasks(), 'reserved'))} tasks")
    runs = {}
    for system, model in (("agent", f"replay:{replay}"), ("interpreter", "oracle")):
        runs[system] = tmp_path / system
        r = cli("eval", "planning", "--system", system, "--split", "reserved", "--option", f"patients={PATIENTS}",
                "--model", model, "--run-dir", str(runs[system]), "--quiet", "--json")
        assert r.returncode == 0, r.stderr
        assert json.loads(r.stdout)["n_done"] == 2 * len(tasks)  # every task twice, with seeds 0 and 1
        with open_run(runs[system]) as reader:
            m = reader.manifest
        assert m.split == "reserved" and m.sampling["seeds"] == [0, 1]
        assert m.sampling["max_tokens"] == (8192 if system == "agent" else 2048)
    out = tmp_path / "report"
    r = cli("report", str(runs["interpreter"]), str(runs["agent"]), "--out", str(out))
    assert r.returncode == 0, r.stderr
    doc, md = json.loads((out / "report.json").read_text()), (out / "report.md").read_text()
    planning = doc["analyses"]["planning"]
    by = {run["system"]: run for run in planning["runs"]}
    # the scripted agent escalates what the summary's numbers prove; it never flags a note
    agent_s10 = by["opengray-agent"]["table_s10"]
    assert agent_s10["patients"] == 2 and set(agent_s10["families"]) == set(SCORED) - {"overlap"}
    assert all(agent_s10["families"][f]["value"] == 100.0
               for f in ("missing_structure", "coverage_cap", "feasible_control"))
    assert by["direct"]["table_s10"]["primary"]["value"] == 100.0
    (diff,) = planning["differences"]
    assert diff["label"].endswith("minus " + by["opengray-agent"]["model"]) and diff["table_s10"]["primary"]["value"] == 0.0
    assert set(by["opengray-agent"]["table_s14"]) == {"primary", "reason", "hard_goals"}
    for title in ("OpenGray Table S10", "OpenGray Table S14", "Unmet hard goals of submitted feasible controls"):
        assert title in md, title
    assert " minus " in md.split("OpenGray Table S14")[0]  # the difference row sits in Table S10
    figures = sorted(p.name for p in out.rglob("planning_fig*.png"))
    assert figures == ["planning_fig2.png", "planning_fig3.png"], figures
