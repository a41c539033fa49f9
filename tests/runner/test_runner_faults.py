"""End to end against a loopback OpenAI-compatible server: normal runs and injected faults.

Every item must end in a recorded state (graded, or an error row saying why), without hanging.
"""

from __future__ import annotations

import json
import sqlite3
import time

import pytest

from physbench.runner.evaluate import EvalConfig, evaluate
from physbench.runner.store import STORE_NAME, open_run


def _config(server, run_dir, **kw) -> EvalConfig:
    base = dict(suite="fixture", model="openai/mock", base_url=server.base_url, run_dir=str(run_dir),
                concurrency=4, quiet=True, retry_delay_s=0.01, timeout_s=5.0)
    base.update(kw)
    return EvalConfig(**base)


@pytest.mark.parametrize("inline", [True, False], ids=["inline-grading", "forked-grading"])
def test_a_normal_run_grades_every_item_and_records_usage(mock_server, tmp_path, inline):
    server = mock_server()
    result = evaluate(_config(server, tmp_path / "run", grade_inline=inline))
    s = result.summary
    # the fixture's mock replies: even calculation items right (4 of 8), all 4 checks right
    assert (s["n_done"], s["n_correct"], s["n_errors"]) == (12, 8, 0)
    assert s["outcomes"]["correct"] == 8 and s["outcomes"]["wrong"] == 4
    assert s["tokens"]["prompt"] > 0 and s["tokens"]["completion"] > 0
    assert result.status == "completed" and server.requests["ok"] == 12
    with open_run(tmp_path / "run") as reader:
        rows = list(reader.results())
        assert reader.manifest.base_url == server.base_url
    assert all(r.tries == 1 and r.finish_reason == "stop" and r.latency > 0 for r in rows)


def test_injected_faults_each_end_in_a_recorded_state_without_hanging(mock_server, tmp_path):
    faults = [
        {"match": "dev/calc/0:", "sequence": ["429", "ok"]},
        {"match": "dev/calc/1:", "sequence": ["500", "503", "ok"]},
        {"match": "dev/calc/2:", "sequence": ["timeout", "ok"]},
        {"match": "dev/calc/3:", "sequence": ["malformed", "ok"]},
        {"match": "dev/calc/4:", "sequence": ["length"]},
        {"match": "dev/calc/5:", "sequence": ["400"]},
        {"match": "dev/calc/6:", "sequence": ["500"]},
        {"match": "dev/calc/7:", "sequence": ["close", "ok"]},
        {"match": "dev/worksheet_check/0:", "sequence": ["empty"]},
    ]
    server = mock_server(faults=faults, retry_after="1", hang_s=30)
    start = time.monotonic()
    result = evaluate(_config(server, tmp_path / "run", timeout_s=0.5, max_attempts=3))
    assert time.monotonic() - start < 20
    with open_run(tmp_path / "run") as reader:
        done = {r.item.id: r for r in reader.results()}
        failed = {r.item.id: r for r in reader.failures()}
    assert len(done) + len(failed) == 12 and not set(done) & set(failed)

    r429 = done["dev/calc/0"]
    assert r429.tries == 2 and r429.errors[0].startswith("HTTP 429")
    assert r429.finished_at - r429.started_at >= 1.0  # Retry-After: 1 was honoured
    assert done["dev/calc/1"].tries == 3 and done["dev/calc/1"].grade.outcome == "wrong"
    assert done["dev/calc/2"].errors[0].startswith("timeout") and done["dev/calc/2"].grade.passed
    assert "malformed JSON" in done["dev/calc/3"].errors[0]
    assert done["dev/calc/4"].finish_reason == "length" and done["dev/calc/4"].grade.outcome == "truncated"
    assert failed["dev/calc/5"].tries == 1
    assert failed["dev/calc/5"].errors == ['HTTP 400: {"error": {"message": "mock 400"}}']
    assert failed["dev/calc/6"].tries == 3 and all(e.startswith("HTTP 500") for e in failed["dev/calc/6"].errors)
    assert done["dev/calc/7"].errors[0].startswith("connection error")
    assert done["dev/worksheet_check/0"].text == "" and not done["dev/worksheet_check/0"].grade.passed
    assert result.summary["n_errors"] == 2 and result.status == "completed"


def test_rerunning_retries_only_the_attempts_that_got_no_response(mock_server, tmp_path):
    server = mock_server(faults=[{"match": "dev/calc/5:", "sequence": ["400", "ok"]}])
    first = evaluate(_config(server, tmp_path / "run"))
    assert first.summary["n_done"] == 11 and first.summary["n_errors"] == 1
    second = evaluate(_config(server, tmp_path / "run"))
    assert second.attempted == 1 and second.skipped == 11
    assert second.summary["n_done"] == 12 and second.summary["n_errors"] == 0
    conn = sqlite3.connect(tmp_path / "run" / STORE_NAME)
    assert conn.execute("SELECT COUNT(*) FROM attempts").fetchone()[0] == 13  # the error row is kept
    sessions = conn.execute("SELECT status, attempts_written FROM sessions ORDER BY id").fetchall()
    assert sessions == [("completed", 12), ("completed", 1)]


def test_repeats_are_separate_attempts_and_sampling_reaches_the_server(mock_server, tmp_path):
    server = mock_server(record=True)
    result = evaluate(_config(server, tmp_path / "run", repeats=2, temperature=0.3, max_tokens=64, seed=7, limit=3))
    sent = [json.loads(b) for b in server.bodies]
    assert all(b["temperature"] == 0.3 and b["max_tokens"] == 64 and b["model"] == "mock" for b in sent)
    assert len({b["seed"] for b in sent}) == 6  # one seed per (item, repeat)
    assert result.summary["n_attempts"] == 6 and result.summary["n_done"] == 6
    conn = sqlite3.connect(tmp_path / "run" / STORE_NAME)
    pairs = conn.execute("SELECT item_id, repeat FROM attempts ORDER BY item_id, repeat").fetchall()
    assert pairs == [(i, r) for i in ("dev/calc/0", "dev/calc/1", "dev/calc/2") for r in (0, 1)]
    manifest = conn.execute("SELECT sampling_json FROM runs").fetchone()[0]
    assert json.loads(manifest) == {"max_tokens": 64, "seed": 7, "temperature": 0.3}


def test_a_long_retry_after_is_capped_by_the_option(mock_server, tmp_path):
    server = mock_server(faults=[{"match": "dev/calc/0:", "sequence": ["429", "ok"]}], retry_after="3000")
    start = time.monotonic()
    result = evaluate(_config(server, tmp_path / "run", max_retry_after_s=0.2, max_attempts=3))
    assert time.monotonic() - start < 60  # a 3000 s Retry-After honoured as given would hang here
    assert result.summary["n_done"] == 12 and server.requests["429"] == 1
    with open_run(tmp_path / "run") as reader:
        assert reader.manifest.options["max_retry_after_s"] == 0.2
