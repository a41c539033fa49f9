"""A user's OpenKBP-Opt matrices through the whole benchmark (issue 34 item 2): a dij folder built
here in the OpenKBP-Opt format runs through `eval planning`, `tasks`, `certificates` and
`witnesses`; a matrix that is not its patient's is refused in one line with exit code 2."""

from __future__ import annotations

import json
import shutil
import sqlite3

import numpy as np
import pytest
from scipy import sparse

from physbench.suites.planning import influence as infl
from physbench.suites.planning.openkbp import N_GRID

PATIENT = "pt_258"  # a development patient with a small External
EVERY = 6  # keep every 6th beamlet: a small matrix, still covering the targets


def write_dij(folder, case, rows_of=None) -> None:
    """OpenKBP-Opt layout: dij.npz (128^3 rows x beamlets, Gy per unit intensity) and
    beamlet_indices.csv (a pandas index column, then row, column, angle 1..9)."""
    inf = case.influence
    keep = np.arange(0, inf.n_beamlets, EVERY)
    voxel = (inf.interp @ inf.nodes[:, keep]).tocoo()
    rows = (rows_of or (lambda r: inf.voxels[r]))(voxel.row)
    dij = sparse.csr_matrix((voxel.data, (rows, voxel.col)), shape=(N_GRID, keep.size), dtype=np.float32)
    folder.mkdir(parents=True)
    sparse.save_npz(folder / "dij.npz", dij)
    lines = [",row,column,angle"] + [f"{i},{inf.row[j]},{inf.col[j]},{inf.beam[j] + 1}" for i, j in enumerate(keep)]
    (folder / "beamlet_indices.csv").write_text("\n".join(lines) + "\n")


@pytest.fixture(scope="module")
def dij_root(tmp_path_factory, request):
    case_for = request.getfixturevalue("case_for")
    root = tmp_path_factory.mktemp("dij")
    write_dij(root / PATIENT, case_for(PATIENT))
    return root


def test_eval_plans_on_the_users_matrix_end_to_end(cli, dij_root, tmp_path, monkeypatch):
    monkeypatch.setenv("PHYSBENCH_PLANNING_WORKERS", "0")
    run = tmp_path / "run"
    r = cli("eval", "planning", "--split", "dev", "--option", f"dij={dij_root}", "--option", "system=controller",
            "--option", "family=routine", "--run-dir", str(run), "--quiet", "--json")
    assert r.returncode == 0, r.stdout + r.stderr
    with sqlite3.connect(run / "store.sqlite") as conn:
        rows = conn.execute("SELECT item_id, answer_json, grade_json FROM attempts").fetchall()
    assert [row[0] for row in rows] == [f"planning/routine/{PATIENT}"]  # only the patient the folder covers
    result = json.loads(rows[0][1])["detail"]["result"]
    from physbench.suites.planning.openkbp import load_shipped

    assert result["outcome"] == "submitted"
    assert result["influence_hash"] == infl.dij_hash(load_shipped(PATIENT), dij_root / PATIENT)


def test_tasks_certificates_and_witnesses_take_the_folder(cli, dij_root):
    t = json.loads(cli("planning", "tasks", "--dij", str(dij_root), "--json").stdout)
    assert {x["patient"] for x in t["tasks"]} == {PATIENT} and all(x["dij"].endswith(PATIENT) for x in t["tasks"])
    assert t["counts"]["feasible_control"] == 0  # the shipped witness belongs to the pencil-beam model
    assert t["not_built"][PATIENT]["feasible_control"] == "no stored witness"  # the shipped one is the model's
    c = json.loads(cli("planning", "certificates", "--dij", str(dij_root), "--json").stdout)
    assert [x["patient"] for x in c["certificates"]] == [PATIENT] and len(c["certificates"][0]["dij"]) == 64


@pytest.mark.slow
def test_witnesses_found_on_the_users_matrix_make_its_feasible_control(cli, dij_root, tmp_path):
    table = tmp_path / "witnesses.json"
    w = cli("planning", "witnesses", PATIENT, "--dij", str(dij_root), "--out", str(table), "--json")
    assert w.returncode == 0, w.stderr
    found = json.loads(table.read_text())["patients"]
    t = json.loads(cli("planning", "tasks", "--dij", str(dij_root), "--witnesses", str(table), "--json").stdout)
    controls = [x for x in t["tasks"] if x["kind"] == "feasible_control"]
    if PATIENT in found:  # a witness on this matrix: its control is built and carries the matrix's hash
        assert controls and controls[0]["reference"]["certificate"]["influence_hash"] == found[PATIENT]["influence_hash"]
    else:
        assert not controls


def test_a_matrix_of_another_patient_is_refused_in_one_line(cli, dij_root, tmp_path):
    wrong = tmp_path / "wrong"
    shutil.copytree(dij_root / PATIENT, wrong / "pt_269")  # pt_258's matrix filed under pt_269
    for args in (("planning", "tasks", "--dij", str(wrong)), ("planning", "certificates", "--dij", str(wrong)),
                 ("eval", "planning", "--split", "dev", "--option", f"dij={wrong}", "--option", "system=controller",
                  "--run-dir", str(tmp_path / "run"), "--quiet")):
        r = cli(*args)
        assert r.returncode == 2 and "not this patient's matrix" in r.stderr, (args, r.stderr)
        assert len(r.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "run" / "store.sqlite").exists()


def test_a_matrix_that_leaves_a_target_without_dose_is_refused(case_for, tmp_path):
    from physbench.suites.planning.openkbp import load_shipped

    p = load_shipped(PATIENT)
    top = next(iter(p.targets))
    target_rows = set(np.searchsorted(p.external, p.mask(top)).tolist())
    inf = case_for(PATIENT).influence
    # move the target's rows onto External voxels outside the target: same count, target dark
    spare = np.setdiff1d(p.external, p.mask(top))
    write_dij(tmp_path / "dark", case_for(PATIENT),
              rows_of=lambda r: np.where(np.isin(r, list(target_rows)), spare[r % spare.size], inf.voxels[r]))
    with pytest.raises(infl.PatientDataError, match=f"{top} gets dose in"):
        infl.load_openkbp_opt(tmp_path / "dark", p)
