"""`--split reserved` (001_*, issue 34 item 3): the shipped patients the paper's tables place in its
reserved evaluation, apart from the development patients, with the tasks those tables list."""

from __future__ import annotations

import json

from physbench.suites.planning import suite as S
from physbench.suites.planning.openkbp import shipped_ids

S11_OVERLAP = {"pt_248", "pt_252", "pt_256", "pt_264", "pt_283", "pt_299"}  # Table S11, reserved overlap tasks
S17_FEASIBLE = {"pt_245", "pt_278", "pt_287", "pt_292", "pt_304", "pt_334"}  # Table S17, the evaluation's controls


def test_reserved_is_a_named_part_of_test_and_apart_from_dev():
    tasks = S.shipped_tasks()
    reserved = {t["patient"] for t in S.select(tasks, "reserved")}
    assert reserved == set(S.RESERVED_PATIENTS) and len(reserved) == 17
    assert reserved <= set(shipped_ids()) and not reserved & set(S.DEV_PATIENTS)
    assert reserved <= {t["patient"] for t in S.select(tasks, "test")}


def test_the_reserved_tasks_include_those_the_papers_tables_list():
    tasks = S.shipped_tasks()
    assert {t["patient"] for t in S.select(tasks, "reserved", "overlap")} >= S11_OVERLAP
    assert {t["patient"] for t in S.select(tasks, "reserved", "feasible_control")} >= S17_FEASIBLE
    assert {t["patient"] for t in S.select(tasks, "reserved", "coverage_cap")} == set(S.RESERVED_PATIENTS)


def test_eval_runs_on_the_reserved_split(cli, tmp_path):
    r = cli("eval", "planning", "--split", "reserved", "--system", "controller", "--option", "family=missing_structure",
            "--limit", "2", "--run-dir", str(tmp_path / "run"), "--quiet", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["split"] == "reserved" and out["n_done"] == 2
    bad = cli("eval", "planning", "--split", "heldout", "--system", "controller", "--run-dir", str(tmp_path / "x"))
    assert bad.returncode == 2 and "reserved" in bad.stderr
