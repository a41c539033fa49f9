"""The run store: schema, exactly-once grading, error rows kept, reader API, single writer."""

from __future__ import annotations

import sqlite3
import time

import pytest

from physbench.core import UserError
from physbench.grading.types import Grade
from physbench.runner import store as store_mod
from physbench.runner.manifest import Manifest
from physbench.runner.records import AttemptRecord, item_group
from physbench.runner.store import STORE_NAME, RunStore, open_run


def _manifest(n: int) -> Manifest:
    return Manifest(suite="fixture", split="dev", protocol="direct", model_spec="oracle",
                    sampling={"temperature": None}, repeats=1, n_items=n, item_set_hash="abc")


def _record(item, status: str, passed: bool = True, errors=None) -> AttemptRecord:
    now = time.time()
    grade = Grade(float(passed), passed, "correct" if passed else "wrong") if status == "done" else None
    return AttemptRecord(item=item, repeat=0, status=status, started_at=now, finished_at=now,
                         text="\\boxed{1 cGy/MU}" if status == "done" else None, finish_reason="stop",
                         usage={"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}, latency=0.01,
                         model_calls=1, tries=1, errors=errors or [], grade=grade)


@pytest.fixture
def items(suite):
    return list(suite.items("dev"))


def _open(tmp_path, items) -> RunStore:
    store = RunStore(tmp_path)
    store.write_manifest(_manifest(len(items)))
    store.write_items(items)
    return store


def test_store_uses_wal_and_records_schema_version(tmp_path, items):
    _open(tmp_path, items).close()
    conn = sqlite3.connect(tmp_path / STORE_NAME)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0] == str(store_mod.SCHEMA_VERSION)


def test_a_second_graded_row_for_an_attempt_is_ignored(tmp_path, items):
    store = _open(tmp_path, items)
    store.record(_record(items[0], "done", passed=True))
    store.record(_record(items[0], "done", passed=False))
    store.close()
    with open_run(tmp_path) as reader:
        results = list(reader.results())
    assert len(results) == 1 and results[0].grade.passed


def test_error_rows_are_kept_and_failures_lists_only_unresolved_attempts(tmp_path, items):
    store = _open(tmp_path, items)
    store.record(_record(items[0], "error", errors=["HTTP 500: boom"]))
    store.record(_record(items[0], "done"))
    store.record(_record(items[1], "error", errors=["timeout after 1 s"]))
    store.close()
    with open_run(tmp_path) as reader:
        failures = list(reader.failures())
        assert [f.item.id for f in failures] == [items[1].id]
        assert failures[0].errors == ["timeout after 1 s"]
        assert reader.count_done() == 1
    conn = sqlite3.connect(tmp_path / STORE_NAME)
    assert conn.execute("SELECT COUNT(*) FROM attempts WHERE status = 'error'").fetchone()[0] == 2


def test_reader_round_trips_item_grade_usage_and_manifest(tmp_path, items):
    store = _open(tmp_path, items)
    store.record(_record(items[2], "done"))
    store.close()
    with open_run(tmp_path) as reader:
        (r,) = list(reader.results())
        assert reader.manifest.model_spec == "oracle" and reader.manifest.n_items == len(items)
    assert r.item == items[2]
    assert r.usage["total_tokens"] == 15 and r.grade.outcome == "correct" and r.text == "\\boxed{1 cGy/MU}"
    row = sqlite3.connect(tmp_path / STORE_NAME).execute("SELECT kind, item_group FROM attempts").fetchone()
    assert row == (items[2].kind, item_group(items[2]))


def test_only_one_writer_per_run_directory(tmp_path, items, monkeypatch):
    monkeypatch.setattr(store_mod, "LOCK_WAIT_S", 0.1)
    store = _open(tmp_path, items)
    try:
        with pytest.raises(UserError, match="another physbench eval"):
            RunStore(tmp_path)
    finally:
        store.close()
    RunStore(tmp_path).close()  # free again once the first writer closed


def test_open_run_refuses_a_directory_without_a_store(tmp_path):
    with pytest.raises(UserError, match="not a physbench run directory"):
        open_run(tmp_path)


def test_an_ungraded_attempt_cannot_become_a_row(items):
    with pytest.raises(ValueError):
        _record(items[0], "answered").row()


def test_a_grader_that_raises_turns_the_attempt_into_an_error_with_its_text_kept(items):
    class Broken:
        def grade(self, item, text, finish_reason=None):
            raise ZeroDivisionError("bug")

    rec = _record(items[0], "answered")
    rec.text = "some answer"
    rec.grade_with(Broken())
    assert rec.status == "error" and rec.text == "some answer"
    assert rec.errors[-1].startswith("grader raised ZeroDivisionError")
