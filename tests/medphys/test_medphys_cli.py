"""`physbench medphys split | item | commit | release | audit-cues` with benchmark versions and the
stratified half of the test split, and `physbench eval medphys --split test-half`."""

from __future__ import annotations

import json
import sqlite3
from collections import Counter

import pytest

from physbench.suites.medphys.commit import code_version_hash, commitment
from physbench.suites.medphys.release import hashed, pair_id
from physbench.suites.medphys.splits import heldout_items


@pytest.fixture
def key_file(tmp_path):
    path = tmp_path / "k.hex"
    path.write_text(bytes(range(32)).hex() + "\n")
    return path


def _one_error_line(r):
    assert r.returncode == 2 and r.stdout == "", (r.returncode, r.stdout)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("physbench: error:")
    return lines[0]


def test_split_test_half_lists_300_150_150(cli, key_file):
    r = cli("medphys", "split", "test-half", "--key-file", str(key_file), "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["n_items"] == 600 and out["benchmark_version"] == "medphys@1.1"
    assert out["by_kind"] == {"calculation": 300, "worksheet_check": 150, "result_check": 150}
    cells = Counter((row["generator"], row["level"], row["kind"]) for row in out["items"])
    assert set(cells.values()) == {10}
    planted = Counter(row["planted"] is not None for row in out["items"] if row["kind"] != "calculation")
    assert planted == {True: 150, False: 150}


def test_split_test_half_needs_the_key(cli):
    assert "--key-file" in _one_error_line(cli("medphys", "split", "test-half"))


def test_eval_of_the_half_split_runs_300_150_150(cli, key_file, tmp_path):
    run = tmp_path / "run"
    r = cli("eval", "medphys", "--split", "test-half", "--key-file", str(key_file), "--model", "oracle",
            "--run-dir", str(run), "--quiet", "--json")
    assert r.returncode == 0, r.stderr
    with sqlite3.connect(run / "store.sqlite") as conn:
        kinds = Counter(json.loads(row[0])["kind"] for row in conn.execute("SELECT item_json FROM items"))
    assert kinds == {"calculation": 300, "worksheet_check": 150, "result_check": 150}


def test_item_command_builds_either_version_and_rejects_unknown_ones(cli):
    r = cli("medphys", "item", "ncrp151", "3", "1", "--benchmark-version", "1.0", "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["id"] == "medphys@1.0/ncrp151/L3/calc/1" and data["meta"]["benchmark_version"] == "1.0"
    assert "unknown medphys benchmark version" in _one_error_line(
        cli("medphys", "item", "mu", "1", "0", "--benchmark-version", "9"))


def test_commit_is_the_papers_hash_over_ids_and_params_with_the_code_hash_beside_it(cli, key_file):
    r = cli("medphys", "commit", "--key-file", str(key_file), "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    items = heldout_items(bytes(range(32)))
    lines = sorted(f"{i.id}\t{i.params_hash}" for i in items)
    import hashlib

    assert out["commitment"] == hashlib.sha256("\n".join(lines).encode()).hexdigest() == commitment(items)
    assert out["code_hash"] == code_version_hash() and out["n_items"] == 1200
    r = cli("medphys", "verify-commitment", out["commitment"], "--key-file", str(key_file), "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["match"]
    r = cli("medphys", "commit", "--key-file", str(key_file), "--benchmark-version", "1.0", "--json")
    assert json.loads(r.stdout)["commitment"] != out["commitment"]


def test_release_writes_commitments_dev_items_and_hashed_outcomes(cli, key_file, tmp_path):
    run = tmp_path / "run"
    split = "targeted:mu:3:isocentric_isq_omitted:3:1000"
    assert cli("eval", "medphys", "--split", split, "--model", "oracle", "--run-dir", str(run), "--quiet").returncode == 0
    out = tmp_path / "release"
    r = cli("medphys", "release", "--key-file", str(key_file), "--out", str(out), "--run", str(run), "--json")
    assert r.returncode == 0, r.stderr
    summary = json.loads(r.stdout)
    record = json.loads((out / "commitments.json").read_text())
    assert record["commitment"] == commitment(heldout_items(bytes(range(32))))
    assert record["test_half"]["n_items"] == 600 and record["code_hash"] == code_version_hash()
    dev = [json.loads(line) for line in (out / "dev_items.jsonl").read_text().splitlines()]
    assert len(dev) == 600 and dev[0]["id"] == "medphys/tg51/L1/calc/0"
    (export,) = (out / "outcomes").iterdir()
    rows = [json.loads(line) for line in export.read_text().splitlines()]
    assert len(rows) == 15 == summary["outcomes"][export.stem]
    text = export.read_text()
    assert "medphys/" not in text and "content" not in text  # hashed ids, no prompts or responses
    by_pair = Counter(row["pair"] for row in rows)
    assert sorted(by_pair.values()) == [5, 5, 5]  # calculation, planted and correct twins share a pair id
    assert {row["verdict"] for row in rows if row["kind"] != "calculation"} == {"flagged", "accepted"}
    planted = [row for row in rows if row["planted"]]
    assert {row["planted"] for row in planted} == {"isocentric_isq_omitted"} and len(planted) == 6
    assert all(row["rel_error"] is not None for row in rows if row["kind"] == "calculation")


def test_release_refuses_a_non_empty_folder_and_leaves_nothing_behind(cli, key_file, tmp_path):
    out = tmp_path / "release"
    out.mkdir()
    (out / "x").write_text("keep")
    assert "not an empty folder" in _one_error_line(cli("medphys", "release", "--key-file", str(key_file),
                                                        "--out", str(out)))
    fresh = tmp_path / "fresh"
    assert "run directory" in _one_error_line(cli("medphys", "release", "--key-file", str(key_file), "--out",
                                                  str(fresh), "--run", str(tmp_path / "norun")))
    assert not fresh.exists() and not (tmp_path / "fresh.partial").exists()


def test_pair_ids_join_the_items_of_one_draw():
    from physbench.suites.medphys.splits import dev_items

    items = [i for i in dev_items() if i.meta["group"] == "mu/L2" and i.meta["seed"] == 3]
    assert len(items) == 3 and len({pair_id(i) for i in items}) == 1
    assert pair_id(items[0]) == "medphys/mu/L2/draw/3"
    assert hashed("item", items[0].id) != hashed("pair", pair_id(items[0]))


def test_audit_cues_reports_both_versions(cli):
    r = cli("medphys", "audit-cues", "--draws", "20", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert set(out["versions"]) == {"medphys@1.0", "medphys@1.1"}
    assert out["versions"]["medphys@1.0"]["variation"] is False and out["versions"]["medphys@1.1"]["variation"]
    assert "medphys@1.0" in cli("medphys", "audit-cues", "--draws", "20").stdout


def test_solve_refuses_impossible_params_and_warns_on_stderr(cli, tmp_path):
    """Issue 36 item 8: a negative pressure gave -1.02 cGy/MU and 295.15 °C gave 1.95 cGy/MU, exit 0,
    with the warnings on stdout."""
    import json as _json

    r = cli("medphys", "item", "tg51", "2", "1", "--json")
    params = _json.loads(r.stdout)["params"]
    for name, value, words in (("press_kpa", -101.3, "press_kpa = -101.3 must be positive"),
                               ("temp_c", 295.15, "water boils at 100 °C"), ("temp_c", -300.0, "absolute zero")):
        path = tmp_path / f"{name}.json"
        path.write_text(_json.dumps({**params, name: value}))
        bad = cli("medphys", "solve", "tg51", "2", "--params", str(path))
        assert bad.returncode == 2 and words in bad.stderr and bad.stdout == ""
    path = tmp_path / "warm.json"
    path.write_text(_json.dumps({**params, "temp_c": 35.0}))  # possible, outside the measurement range
    warm = cli("medphys", "solve", "tg51", "2", "--params", str(path))
    assert warm.returncode == 0 and "warning" not in warm.stdout and "physbench: warning: " in warm.stderr
    assert warm.stdout.strip().endswith("cGy")
