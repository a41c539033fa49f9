"""`physbench export` and `export-results` (issue 19): rows Hugging Face `datasets` reads as they
are, for every suite; keyed splits keep hashed ids and drop seeds and (by default) references."""

from __future__ import annotations

import json

import pytest

datasets = pytest.importorskip("datasets")


@pytest.fixture(autouse=True)
def _offline(monkeypatch, tmp_path):
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))


def _load(path, fmt):
    return datasets.load_dataset(fmt, data_files=str(path), split="train", cache_dir=str(path.parent / "cache"))


@pytest.mark.parametrize("suite", ["medphys", "clincalc", "research", "planning"])
@pytest.mark.parametrize("fmt", ["jsonl", "parquet"])
def test_every_suite_exports_rows_datasets_reads_as_they_are(cli, tmp_path, suite, fmt):
    out = tmp_path / f"items.{fmt}"
    r = cli("export", suite, "--out", str(out), "--limit", "4")
    assert r.returncode == 0, r.stderr
    ds = _load(out, "json" if fmt == "jsonl" else "parquet")
    assert ds.num_rows == 4
    assert {"id", "suite", "kind", "messages", "reference", "meta", "canary"} <= set(ds.column_names)
    row = ds[0]
    assert row["suite"] == suite and row["messages"][0]["role"] in ("system", "user")
    assert json.loads(row["reference"]) and row["canary"].startswith("PHYSBENCH-CANARY-")


def test_a_keyed_split_has_hashed_ids_and_no_seed_key_or_reference(cli, tmp_path):
    key = tmp_path / "k.hex"
    key.write_text("ab" * 32)
    out = tmp_path / "test.jsonl"
    r = cli("export", "medphys", "--split", "test", "--key-file", str(key), "--out", str(out), "--limit", "6")
    assert r.returncode == 0, r.stderr
    text = out.read_text()
    assert "ab" * 32 not in text and str(key) not in text
    rows = [json.loads(line) for line in text.splitlines()]
    assert all("/t-" in row["id"] and row["reference"] is None for row in rows)
    assert all(json.loads(row["meta"]).get("seed") is None for row in rows)


def test_results_export_one_row_per_graded_attempt(cli, tmp_path):
    run = tmp_path / "run"
    assert cli("eval", "medphys", "--model", "oracle", "--limit", "5", "--run-dir", str(run), "--quiet").returncode == 0
    out = tmp_path / "results.parquet"
    assert cli("export-results", str(run), "--out", str(out)).returncode == 0
    ds = _load(out, "parquet")
    assert ds.num_rows == 5 and all(ds["passed"]) and set(ds["outcome"]) == {"correct"}


def test_a_bad_format_or_folder_is_one_line(cli, tmp_path):
    r = cli("export", "medphys", "--out", str(tmp_path / "x.csv"), "--format", "csv")
    assert r.returncode == 2 and "unknown export format" in r.stderr
    blocker = tmp_path / "f"
    blocker.write_text("")
    r = cli("export", "medphys", "--out", str(blocker / "x.jsonl"), "--limit", "1")
    assert r.returncode == 2 and "cannot write" in r.stderr
