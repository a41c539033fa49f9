"""A two-step run SIGKILLed in the middle of its attempts resumes: each item graded exactly once,
and every stored attempt holds both of its turns."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

from test_runner_resume import LAUNCH, N_CALC, _done_rows, _wait_for_rows


def _start(server, run_dir: Path) -> subprocess.Popen[str]:
    env = dict(os.environ, FIXTURE_N_CALC=str(N_CALC), FIXTURE_TWO_STEP="1")
    args = [sys.executable, str(LAUNCH), "eval", "fixture", "--model", "openai/mock", "--base-url", server.base_url,
            "--run-dir", str(run_dir), "--concurrency", "4", "--retry-delay", "0.01", "--protocol", "two-step",
            "--limit", str(N_CALC)]
    return subprocess.Popen(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)


def test_a_two_step_run_killed_mid_attempt_resumes_and_grades_each_item_once(mock_server, tmp_path):
    server = mock_server(delay_s=0.03)
    run_dir = tmp_path / "run"
    proc = _start(server, run_dir)
    _wait_for_rows(proc, run_dir, 10)
    os.killpg(proc.pid, signal.SIGKILL)  # attempts in flight are between their two turns or inside one
    proc.communicate(timeout=30)
    partial = _done_rows(run_dir)
    assert 10 <= partial < N_CALC
    rerun = _start(server, run_dir)
    out, err = rerun.communicate(timeout=120)
    assert rerun.returncode == 0, err
    conn = sqlite3.connect(run_dir / "store.sqlite")
    rows = conn.execute("SELECT item_id, repeat, turns_json FROM attempts WHERE status = 'done'").fetchall()
    keys = [(r[0], r[1]) for r in rows]
    assert len(keys) == len(set(keys)) == N_CALC
    assert all([t.get("label") for t in json.loads(r[2])] == ["solve", "format"] for r in rows)


def test_a_tools_protocol_with_the_local_model_is_one_error_line_and_exit_2(tmp_path):
    args = [sys.executable, str(LAUNCH), "eval", "fixture", "--model", "local", "--protocol", "agent",
            "--run-dir", str(tmp_path / "run")]
    proc = subprocess.run(args, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0 and "calls tools" in proc.stderr
    assert not (tmp_path / "run").exists()


def test_a_research_checkpoint_run_killed_mid_attempt_resumes_with_each_step_graded_once(mock_server, tmp_path):
    server = mock_server(delay_s=0.02)
    run_dir = tmp_path / "run"
    args = [sys.executable, str(LAUNCH), "eval", "research", "--model", "openai/mock", "--base-url", server.base_url,
            "--run-dir", str(run_dir), "--concurrency", "4", "--retry-delay", "0.01",
            "--protocol", "checkpoints-oracle", "--repeats", "12"]

    def start() -> subprocess.Popen[str]:
        return subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)

    proc = start()
    _wait_for_rows(proc, run_dir, 8)
    os.killpg(proc.pid, signal.SIGKILL)  # attempts in flight are between checkpoints or inside one
    proc.communicate(timeout=30)
    assert 8 <= _done_rows(run_dir) < 72
    rerun = start()
    out, err = rerun.communicate(timeout=180)
    assert rerun.returncode == 0, err
    conn = sqlite3.connect(run_dir / "store.sqlite")
    rows = conn.execute("SELECT item_id, repeat, turns_json, grade_json FROM attempts WHERE status = 'done'").fetchall()
    keys = [(r[0], r[1]) for r in rows]
    assert len(keys) == len(set(keys)) == 72  # 6 problems x 12 repeats, each graded once
    for _, _, turns, grade in rows:
        steps = json.loads(grade)["detail"]["steps"]
        labels = [t["label"] for t in json.loads(turns)]
        assert len(steps) == 3 and labels == [f"{s['step']}:{part}" for s in steps for part in ("solve", "format")]
