"""A run killed part-way (SIGKILL) or stopped with Ctrl-C resumes: each attempt graded exactly once."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

LAUNCH = Path(__file__).resolve().parent / "launch.py"
N_CALC = 120
N_ITEMS = N_CALC + 4


def _start(server, run_dir: Path) -> subprocess.Popen[str]:
    env = dict(os.environ, FIXTURE_N_CALC=str(N_CALC))
    args = [sys.executable, str(LAUNCH), "eval", "fixture", "--model", "openai/mock", "--base-url", server.base_url,
            "--run-dir", str(run_dir), "--concurrency", "4", "--retry-delay", "0.01"]
    return subprocess.Popen(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)


def _done_rows(run_dir: Path) -> int:
    try:
        conn = sqlite3.connect(f"file:{run_dir / 'store.sqlite'}?mode=ro", uri=True, timeout=5)
        try:
            return int(conn.execute("SELECT COUNT(*) FROM attempts WHERE status = 'done'").fetchone()[0])
        finally:
            conn.close()
    except sqlite3.Error:
        return 0


def _wait_for_rows(proc: subprocess.Popen[str], run_dir: Path, n: int, limit_s: float = 30.0) -> None:
    deadline = time.monotonic() + limit_s
    while _done_rows(run_dir) < n:
        assert proc.poll() is None, f"run ended early: {proc.communicate()}"
        assert time.monotonic() < deadline, "no progress"
        time.sleep(0.02)


def _check_exactly_once(run_dir: Path) -> None:
    conn = sqlite3.connect(run_dir / "store.sqlite")
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    done = conn.execute("SELECT item_id, repeat FROM attempts WHERE status = 'done'").fetchall()
    assert len(done) == len(set(done)) == N_ITEMS


@pytest.mark.parametrize("whole_group", [False, True], ids=["runner-only", "runner-and-grader"])
def test_a_run_killed_with_sigkill_resumes_and_grades_each_attempt_exactly_once(mock_server, tmp_path, whole_group):
    server = mock_server(delay_s=0.03)
    run_dir = tmp_path / "run"
    proc = _start(server, run_dir)
    _wait_for_rows(proc, run_dir, 20)
    if whole_group:
        os.killpg(proc.pid, signal.SIGKILL)
    else:
        os.kill(proc.pid, signal.SIGKILL)
    proc.communicate(timeout=30)
    partial = _done_rows(run_dir)
    assert 20 <= partial < N_ITEMS

    rerun = _start(server, run_dir)
    out, err = rerun.communicate(timeout=120)
    assert rerun.returncode == 0, err
    assert f"{N_ITEMS - partial} attempts run now" in out or partial == _done_rows(run_dir)
    _check_exactly_once(run_dir)
    sessions = sqlite3.connect(run_dir / "store.sqlite").execute("SELECT status FROM sessions ORDER BY id").fetchall()
    assert sessions == [("killed",), ("completed",)]  # the killed session, found still running on resume, is marked


def test_ctrl_c_stops_cleanly_and_the_same_command_resumes(mock_server, tmp_path):
    server = mock_server(delay_s=0.03)
    run_dir = tmp_path / "run"
    proc = _start(server, run_dir)
    _wait_for_rows(proc, run_dir, 10)
    os.killpg(proc.pid, signal.SIGINT)  # what a terminal sends to the foreground process group
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert "interrupted: re-run the same command to resume" in out
    assert "Traceback" not in err
    conn = sqlite3.connect(run_dir / "store.sqlite")
    assert conn.execute("SELECT status FROM sessions").fetchall() == [("interrupted",)]
    conn.close()

    rerun = _start(server, run_dir)
    out, err = rerun.communicate(timeout=120)
    assert rerun.returncode == 0, err
    _check_exactly_once(run_dir)
