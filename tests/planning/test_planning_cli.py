"""`physbench planning ...`: JSON on every verb, one error line and exit 2 on bad input."""

from __future__ import annotations

import json


def test_patients_lists_the_forty_shipped_patients(cli):
    r = cli("planning", "patients", "--json")
    assert r.returncode == 0
    pts = json.loads(r.stdout)["patients"]
    assert len(pts) == 40 and pts[0]["id"] == "pt_241" and "PTV_7000" in pts[0]["structures"]


def test_certificates_give_the_table_s2_and_s3_numbers(cli):
    r = cli("planning", "certificates", "--json")
    rows = {c["patient"]: c for c in json.loads(r.stdout)["certificates"]}
    assert rows["pt_258"]["coverage_cap"] == {"target": "PTV_7000", "N": 4635, "m": 48, "threshold": 77.9063}
    assert rows["pt_258"]["overlap"] == {"organ": "Bone_Mandible", "target": "PTV_7000", "O": 128, "m": 48, "n": 3, "margin": 77}
    assert "overlap" not in rows["pt_289"]  # no mandible


def test_tasks_filter_by_family_and_report_what_was_not_built(cli):
    r = cli("planning", "tasks", "--family", "overlap", "--json")
    out = json.loads(r.stdout)
    assert out["counts"] == {"overlap": 17} and all(t["kind"] == "overlap" for t in out["tasks"])
    assert "pt_269" in out["not_built"]
    text = cli("planning", "tasks", "--family", "coverage_cap")
    assert "planning/coverage_cap/pt_241: escalate" in text.stdout


def test_plan_optimizes_the_routine_goals(cli, tmp_path, monkeypatch):
    monkeypatch.setenv("PHYSBENCH_PLANNING_CACHE", str(tmp_path))
    r = cli("planning", "plan", "pt_278", "--iterations", "30", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["solver"]["iterations"] <= 30 and out["goals"][0]["structure"] == "External"
    assert out["solver"]["method"] == "lbfgsb" and out["influence"]["source"].startswith("model:")


def test_bad_input_is_one_line_and_exit_2(cli, tmp_path):
    for args in (("planning", "plan", "pt_999"), ("planning", "tasks", "--family", "nope"),
                 ("planning", "patients", "--data", str(tmp_path / "missing")),
                 ("planning", "plan", "pt_278", "--dij", str(tmp_path)),
                 ("planning", "plan", "pt_278", "--method", "newton")):
        r = cli(*args)
        assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and r.stderr.startswith("physbench: error:"), args
    (tmp_path / "pt_5").mkdir()
    (tmp_path / "pt_5" / "possible_dose_mask.csv").write_text("garbage")
    r = cli("planning", "patients", "--data", str(tmp_path))
    assert r.returncode == 2 and "pt_5" in r.stderr


def test_run_decides_every_selected_task_with_a_scripted_system(cli):
    r = cli("planning", "run", "--system", "arithmetic", "--family", "missing_structure", "--limit", "2",
            "--n-boot", "100", "--json")
    assert r.returncode == 0
    out = json.loads(r.stdout)
    assert out["decision_accuracy"] == {"missing_structure": 100.0} and len(out["attempts"]) == 2
    assert all(a["decision"] == "escalated" and a["reason"] == "missing_structure" for a in out["attempts"])


def test_run_refuses_a_language_system_and_an_unknown_split(cli):
    for args in (("--system", "agent"), ("--system", "controller", "--split", "train")):
        r = cli("planning", "run", *args)
        assert r.returncode == 2 and r.stderr.count("\n") == 1 and "error" in r.stderr


def test_witnesses_regenerates_the_shipped_witness_of_a_small_patient(cli, tmp_path, monkeypatch):
    """The shipped table is reproducible: the search on pt_278 gives the stored record, weights included."""
    monkeypatch.setenv("PHYSBENCH_PLANNING_CACHE", str(tmp_path / "cache"))
    out = tmp_path / "w.json"
    r = cli("planning", "witnesses", "pt_278", "pt_252", "--out", str(out), "--json")
    assert r.returncode == 0
    rows = json.loads(r.stdout)
    assert rows["patients"]["pt_278"]["matches_shipped"] and rows["no_witness"] == {"pt_252": "no spinal cord"}
    from physbench.suites.planning.tasks import load_witnesses

    assert json.loads(out.read_text())["patients"]["pt_278"] == load_witnesses()["pt_278"]
    bad = cli("planning", "witnesses", "pt_278", "--out", str(tmp_path / "nowhere" / "w.json"))
    assert bad.returncode == 2 and not (tmp_path / "nowhere").exists()
