"""A run store from elsewhere runs no code of its own (issue 33, item 8): a trigger that grades
garbage correct on resume, a recursive view that hangs `report`, or any object physbench does not
make is refused in one line, exit 2, by every command that opens a store."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from physbench.core.errors import UserError
from physbench.runner.results import open_run
from physbench.runner.schema import guard

TRIGGER = """CREATE TRIGGER grade_all_correct AFTER INSERT ON attempts BEGIN
    UPDATE attempts SET outcome = 'correct', passed = 1, score = 1.0 WHERE id = new.id; END"""
RECURSIVE_VIEW = """CREATE VIEW forever AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n)
    SELECT i FROM n"""
HOSTILE = {
    "trigger": TRIGGER,
    "view": RECURSIVE_VIEW,
    "table": "CREATE TABLE extra (x)",
    "index": "CREATE INDEX by_text ON attempts (length(response_text))",
    "virtual table": "CREATE VIRTUAL TABLE attempts_fts USING fts5(response_text)",
}


def _execute(store: Path, sql: str) -> None:
    conn = sqlite3.connect(store)
    try:
        conn.execute(sql)
        conn.commit()
    finally:
        conn.close()


def _one_line(r) -> str:  # noqa: ANN001
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in r.stderr, r.stderr
    return lines[0]


@pytest.fixture
def half_done(cli, tmp_path):  # noqa: ANN001, ANN201
    """A medphys run of 4 items from a replay file that answers 2 of them (wrongly): 2 graded
    attempts and 2 errors, which a resume retries; returns (run dir, the eval arguments)."""
    first = tmp_path / "ids"
    assert cli("eval", "medphys", "--limit", "4", "--model", "oracle", "--run-dir", str(first)).returncode == 0
    ids = [i for (i,) in sqlite3.connect(first / "store.sqlite").execute("SELECT item_id FROM attempts ORDER BY id")]
    replay = tmp_path / "replay.jsonl"
    replay.write_text("".join(json.dumps({"id": i, "response": "garbage"}) + "\n" for i in ids[:2]))
    run = tmp_path / "run"
    args = ("eval", "medphys", "--limit", "4", "--model", f"replay:{replay}", "--run-dir", str(run),
            "--max-attempts", "1", "--quiet")
    cli(*args)
    replay.write_text("".join(json.dumps({"id": i, "response": "garbage"}) + "\n" for i in ids))
    return run, args


def test_a_trigger_in_a_store_is_refused_before_resume_grades_anything(cli, half_done):
    run, args = half_done
    store = run / "store.sqlite"
    before = sqlite3.connect(store).execute("SELECT COUNT(*), SUM(passed) FROM attempts").fetchone()
    assert before[1] == 0
    _execute(store, TRIGGER)
    line = _one_line(cli(*args))
    assert "trigger 'grade_all_correct'" in line and str(run) in line
    after = sqlite3.connect(store).execute("SELECT COUNT(*), SUM(passed) FROM attempts").fetchone()
    assert after == before  # nothing was written, nothing graded correct


@pytest.mark.parametrize("kind", sorted(HOSTILE))
@pytest.mark.parametrize("command", ["report", "export-results", "view", "eval"])
def test_every_command_that_opens_a_store_refuses_objects_physbench_does_not_make(cli, tmp_path, kind, command):
    run = tmp_path / "run"
    assert cli("eval", "medphys", "--limit", "2", "--model", "oracle", "--run-dir", str(run)).returncode == 0
    try:
        _execute(run / "store.sqlite", HOSTILE[kind])
    except sqlite3.OperationalError as exc:  # a Python whose SQLite lacks FTS5
        pytest.skip(str(exc))
    args = {"report": ["report", str(run), "--out", str(tmp_path / "rep")],
            "export-results": ["export-results", str(run), "--out", str(tmp_path / "r.jsonl")],
            "view": ["view", str(run), "--port", "0"],
            "eval": ["eval", "medphys", "--limit", "2", "--model", "oracle", "--run-dir", str(run)]}[command]
    line = _one_line(cli(*args))
    assert "refusing the run store" in line and "does not make" in line
    assert not (tmp_path / "rep").exists() and not (tmp_path / "r.jsonl").exists()


def test_a_recursive_view_does_not_hang_report(cli, tmp_path):
    run = tmp_path / "run"
    assert cli("eval", "medphys", "--limit", "2", "--model", "oracle", "--run-dir", str(run)).returncode == 0
    _execute(run / "store.sqlite", RECURSIVE_VIEW)
    assert "view 'forever'" in _one_line(cli("report", str(run), "--out", str(tmp_path / "rep")))


@pytest.mark.timeout(120, method="thread")  # before the guard this report never ended (in SQLite: no signal stops it)
def test_a_store_whose_attempts_are_an_endless_view_is_refused_not_read_for_ever(cli, tmp_path):
    """The attempts table renamed and replaced by a view joining it to an endless recursive count:
    a report that read it would never finish."""
    run = tmp_path / "run"
    assert cli("eval", "medphys", "--limit", "2", "--model", "oracle", "--run-dir", str(run)).returncode == 0
    conn = sqlite3.connect(run / "store.sqlite")
    conn.executescript("""ALTER TABLE attempts RENAME TO attempts_kept;
        CREATE VIEW attempts AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n)
        SELECT a.* FROM n, attempts_kept a;""")
    conn.close()
    line = _one_line(cli("report", str(run), "--out", str(tmp_path / "rep")))
    assert "refusing the run store" in line
    assert not (tmp_path / "rep").exists()


def test_stores_are_read_with_trusted_schema_off(cli, tmp_path):
    run = tmp_path / "run"
    assert cli("eval", "medphys", "--limit", "1", "--model", "oracle", "--run-dir", str(run)).returncode == 0
    with open_run(run) as reader:
        assert reader.conn.execute("PRAGMA trusted_schema").fetchone()[0] == 0
        assert reader.count_done() == 1


def test_a_store_physbench_wrote_passes_the_guard_and_a_changed_index_does_not(tmp_path):
    conn = sqlite3.connect(tmp_path / "s.sqlite")
    from physbench.runner.schema import SCHEMA

    conn.executescript(SCHEMA)
    guard(conn, "here")  # our own schema, with SQLite's own autoindexes and sqlite_sequence
    conn.execute("ALTER TABLE attempts ADD COLUMN item_json TEXT")  # a schema 1 store's extra column
    guard(conn, "here")
    conn.execute("DROP INDEX one_grade_per_attempt")
    conn.execute("CREATE UNIQUE INDEX one_grade_per_attempt ON attempts (item_id, repeat)")  # same name, other rule
    with pytest.raises(UserError, match="index 'one_grade_per_attempt'"):
        guard(conn, "here")
    conn.close()
