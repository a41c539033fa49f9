"""`physbench view`: serves on 127.0.0.1, `--port 0` picks a free port and prints the URL; bad input exits 2."""

from __future__ import annotations

import json
import os
import selectors
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from physbench.runner.evaluate import EvalConfig, evaluate


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("view") / "oracle"
    evaluate(EvalConfig(suite="medphys", split="dev", model="oracle", limit=30, run_dir=str(path), quiet=True,
                        grade_inline=True))
    return path


def _first_line(proc: subprocess.Popen[str], timeout: float = 60.0) -> str:
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)  # type: ignore[arg-type]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if sel.select(timeout=0.2):
            return proc.stdout.readline()  # type: ignore[union-attr]
        if proc.poll() is not None:
            break
    raise AssertionError(f"no address printed (exit {proc.poll()}): {proc.stderr.read() if proc.stderr else ''}")


def _serve(*args: str) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    return subprocess.Popen([sys.executable, "-m", "physbench", "view", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)


def _stop(proc: subprocess.Popen[str]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)


def test_port_0_picks_a_free_port_prints_the_url_and_serves_the_runs(run_dir):
    proc = _serve(str(run_dir), "--port", "0")
    try:
        line = _first_line(proc)
        assert line.startswith("physbench view: 30 responses of 1 run(s) at http://127.0.0.1:"), line
        url = line.split(" at ", 1)[1].split()[0]
        assert not url.endswith(":0/")
        meta = httpx.get(url + "api/meta", timeout=10).json()
        assert meta["total"] == 30 and meta["runs"][0]["model_spec"] == "oracle"
        assert "physbench responses" in httpx.get(url, timeout=10).text
    finally:
        _stop(proc)


def test_json_prints_the_address_as_one_json_line(run_dir):
    proc = _serve(str(run_dir), "--port", "0", "--json")
    try:
        doc = json.loads(_first_line(proc))
        assert doc["responses"] == 30 and doc["runs"] == 1 and doc["url"].startswith("http://127.0.0.1:")
        assert httpx.get(doc["url"] + "api/responses", params={"limit": 5}, timeout=10).json()["matched"] == 30
    finally:
        _stop(proc)


@pytest.mark.parametrize("args, words", [
    (["{missing}"], "is not a physbench run directory"),
    (["{run}", "--port", "70000"], "--port must be between 0 and 65535"),
])
def test_bad_input_is_one_line_and_exit_2(run_dir, tmp_path, args, words):
    args = [a.replace("{missing}", str(tmp_path / "nothing")).replace("{run}", str(run_dir)) for a in args]
    r = subprocess.run([sys.executable, "-m", "physbench", "view", *args], capture_output=True, text=True,
                       timeout=60)
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1 and words in lines[0], r.stderr


def test_a_port_in_use_is_one_line_and_exit_2(run_dir):
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        r = subprocess.run([sys.executable, "-m", "physbench", "view", str(run_dir), "--port", str(port)],
                           capture_output=True, text=True, timeout=60)
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1 and f"cannot listen on 127.0.0.1:{port}" in lines[0], r.stderr
