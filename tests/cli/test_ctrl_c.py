"""Ctrl-C (issue 36, item 2): `physbench eval` stops within 2 s for every kind of model, at any
moment, prints the resume hint (and the summary once the run's store is open), exits 130, and
the resumed run stores exactly what an uninterrupted run stores: no attempt lost or doubled."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

import pytest

from physbench.runner.evaluate import EvalConfig, load_items

HINT = "re-run the same command to resume"
REPEATS = 8  # medphys dev x 8 = 4800 attempts: a few seconds for a scripted model on a loaded machine


def _rows(run_dir: Path) -> list[tuple]:
    """What the store holds of each attempt, in a fixed order (none while the store is not yet there)."""
    try:
        conn = sqlite3.connect(f"file:{run_dir / 'store.sqlite'}?mode=ro", uri=True, timeout=5)
        try:
            return conn.execute("SELECT item_id, repeat, status, response_text, grade_json, outcome, score FROM attempts "
                                "ORDER BY item_id, repeat").fetchall()
        finally:
            conn.close()
    except sqlite3.Error:
        return []


def _wait(condition: Callable[[], bool], limit_s: float = 60.0) -> None:
    end = time.monotonic() + limit_s
    while not condition():
        assert time.monotonic() < end, "the moment to interrupt never came"
        time.sleep(0.01)


MOMENTS: dict[str, Callable[[Path], Callable[[], bool]]] = {
    "starting": lambda run: (lambda: True),  # at once: imports, items, the grading process's fork
    "store-open": lambda run: (lambda: (run / "store.sqlite").exists()),
    "mid-run": lambda run: (lambda: len(_rows(run)) >= 50),
}


def _command(spec: str, run: Path, extra: tuple[str, ...]) -> list[str]:
    return [sys.executable, "-m", "physbench", "eval", "medphys", "--model", spec, "--repeats", str(REPEATS),
            "--run-dir", str(run), *extra]


def _interrupt(spec: str, run: Path, moment: str, extra: tuple[str, ...], env: dict[str, str]) -> None:
    proc = subprocess.Popen(_command(spec, run, extra), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env)
    try:
        _wait(MOMENTS[moment](run))
        if moment == "starting":
            time.sleep(0.3)
        if proc.poll() is not None:
            pytest.skip("the run ended before the moment came (a very fast machine)")
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
        took = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130, (out, err)
    assert took < 2.0, took
    assert HINT in out + err, (out, err)
    if (run / "store.sqlite").exists() and moment != "starting":
        assert out.startswith("run ") and "interrupted: " + HINT in out, (out, err)  # the summary, then the hint


def _resume(spec: str, run: Path, extra: tuple[str, ...], env: dict[str, str]) -> list[tuple]:
    r = subprocess.run(_command(spec, run, (*extra, "--quiet")), capture_output=True, text=True, timeout=300,
                       env=env)
    assert r.returncode == 0, (r.stdout, r.stderr)
    return _rows(run)


@pytest.fixture(scope="module")
def replay_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("replay") / "replies.jsonl"
    items = load_items(EvalConfig(suite="medphys"))
    path.write_text("".join(json.dumps({"id": i.id, "response": f"\\boxed{{{n % 7 + 1} cGy}}"}) + "\n"
                            for n, i in enumerate(items)))
    return path


_REFERENCE: dict[str, list[tuple]] = {}


def _spec(kind: str, replay_file: Path, mock_server) -> tuple[str, tuple[str, ...]]:
    if kind == "oracle":
        return "oracle", ()
    if kind == "constant":
        return "constant:\\boxed{1 cGy}", ()
    if kind == "replay":
        return f"replay:{replay_file}", ()
    if kind in ("nocalc", "mode:isocentric_isq_omitted"):  # medphys's own scripted models
        return kind, ()
    server = mock_server(delay_s=0.005)
    return "openai/mock", ("--base-url", server.base_url, "--concurrency", "32")


# two fast cases; the slow ones (CI) cover the other kinds and moments without repeating a pair
@pytest.mark.parametrize("kind, moment", [
    ("oracle", "mid-run"),
    pytest.param("oracle", "starting", marks=pytest.mark.slow),
    pytest.param("constant", "store-open", marks=pytest.mark.slow),
    pytest.param("replay", "mid-run", marks=pytest.mark.slow),
    ("endpoint", "mid-run"),
    pytest.param("endpoint", "store-open", marks=pytest.mark.slow),
    pytest.param("nocalc", "mid-run", marks=pytest.mark.slow),
])
def test_ctrl_c_stops_within_2_s_says_how_to_resume_and_the_resume_is_exact(tmp_path, replay_file, mock_server,
                                                                            kind, moment):
    spec, extra = _spec(kind, replay_file, mock_server)
    env = {**os.environ, "OPENAI_API_KEY": "sk-test"}
    if kind not in _REFERENCE:  # an uninterrupted run (once per kind: the mock's URL does not enter the rows)
        _REFERENCE[kind] = _resume(spec, tmp_path / "whole", extra, env)
    reference = _REFERENCE[kind]
    assert len(reference) == 600 * REPEATS
    run = tmp_path / "run"
    _interrupt(spec, run, moment, extra, env)
    partial = _rows(run)
    assert len(partial) < len(reference)  # it did stop early
    assert set(partial) <= set(reference)  # and what it stored is what the whole run stores
    assert _resume(spec, run, extra, env) == reference
