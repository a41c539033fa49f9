"""`physbench mock-server` (issue 36, item 5): the loopback endpoint the README's examples use."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import urllib.request

from physbench.runner.mock_server import MockServer


def test_mock_server_serves_until_stopped_and_a_run_uses_it(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "physbench", "mock-server", "--port", "0", "--model", "mine",
                             "--reply", "\\boxed{1.018 cGy/MU}"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        line = proc.stdout.readline()
        url = re.search(r"listening (http://127\.0\.0\.1:\d+/v1)", line)[1]
        with urllib.request.urlopen(f"{url}/models", timeout=10) as page:
            assert [m["id"] for m in json.load(page)["data"]] == ["mine"]
        r = subprocess.run([sys.executable, "-m", "physbench", "eval", "medphys", "--model", "openai/mine",
                            "--base-url", url, "--limit", "4", "--run-dir", str(tmp_path / "run"), "--json",
                            "--quiet"], capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr
        assert json.loads(r.stdout)["n_done"] == 4
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(10)
    assert proc.returncode == 0


def test_a_taken_port_is_one_line_and_exit_2(cli):
    with MockServer() as taken:
        r = cli("mock-server", "--port", str(taken.port))
    assert r.returncode == 2 and r.stderr.count("\n") == 1
    assert f"cannot listen on 127.0.0.1:{taken.port}" in r.stderr


def test_the_command_is_in_the_help_and_the_readme(cli):
    r = cli("--help")
    assert "mock-server" in r.stdout
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    assert "physbench mock-server --port 8011" in readme
    assert "--base-url URL" not in readme and "--model ..." not in readme  # every endpoint line runs offline
