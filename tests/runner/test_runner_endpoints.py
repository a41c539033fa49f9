"""One run over several endpoints: requests spread, a failing server taken out, each item graded once."""

from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from physbench.cli.eval_cmd import summary_lines
from physbench.models.endpoints import failing
from physbench.runner.evaluate import EvalConfig, evaluate
from physbench.runner.store import open_run

LAUNCH = Path(__file__).resolve().parent / "launch.py"
ALWAYS_500 = [{"match": "", "sequence": ["500"]}]  # "" is in every request body


def _refusing_url() -> str:
    """The URL of a loopback port nothing listens on (bound, then closed)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def _done(run_dir: Path) -> list[tuple[str, int]]:
    """The graded (item, repeat) rows; none while the store is not yet there (a run is starting)."""
    try:
        conn = sqlite3.connect(f"file:{run_dir / 'store.sqlite'}?mode=ro", uri=True, timeout=5)
        try:
            return conn.execute("SELECT item_id, repeat FROM attempts WHERE status = 'done'").fetchall()
        finally:
            conn.close()
    except sqlite3.Error:
        return []


@pytest.mark.parametrize("fault", ["http-500", "refused"])
def test_three_endpoints_one_failing_grade_every_item_once_and_name_the_failing_one(mock_server, tmp_path,
                                                                                    monkeypatch, fault):
    monkeypatch.setenv("FIXTURE_N_CALC", "60")
    good = [mock_server(delay_s=0.005), mock_server(delay_s=0.005)]
    bad_server = mock_server(faults=ALWAYS_500) if fault == "http-500" else None
    bad = bad_server.base_url if bad_server else _refusing_url()
    urls = (good[0].base_url, bad, good[1].base_url)
    config = EvalConfig(suite="fixture", model="openai/mock", base_url=urls, run_dir=str(tmp_path / "run"),
                        concurrency=3, quiet=True, retry_delay_s=0.01, timeout_s=5.0)
    result = evaluate(config)
    s = result.summary
    assert result.status == "completed" and (s["n_done"], s["n_errors"]) == (64, 0)
    done = _done(tmp_path / "run")
    assert len(done) == len(set(done)) == 64
    assert good[0].requests["ok"] + good[1].requests["ok"] == 64  # each item asked once of a good server
    assert good[0].requests["ok"] > 0 and good[1].requests["ok"] > 0
    by_url = {e["url"]: e for e in s["endpoints"]}
    assert by_url[bad]["requests"] == by_url[bad]["failures"] > 0
    if bad_server is not None:
        assert bad_server.requests["500"] == by_url[bad]["requests"]
    assert all(by_url[g.base_url]["failures"] == 0 and by_url[g.base_url]["requests"] == g.requests["ok"]
               for g in good)
    assert [e["url"] for e in failing(s["endpoints"])] == [bad]
    lines = summary_lines(s, result.status, result.wall_s, result.attempted, result.skipped)
    assert sum(line.startswith("failing endpoint: ") for line in lines) == 1
    assert any(line.startswith(f"failing endpoint: {bad} ") for line in lines)
    with open_run(tmp_path / "run") as reader:
        assert reader.manifest.base_url == ", ".join(sorted(urls))
        assert {e["url"] for e in reader.manifest.model_info["endpoints"]} == set(urls)


def test_a_single_base_url_runs_without_the_pool_and_reports_no_endpoints(mock_server, tmp_path):
    server = mock_server()
    result = evaluate(EvalConfig(suite="fixture", model="openai/mock", base_url=(server.base_url,),
                                 run_dir=str(tmp_path / "run"), quiet=True))
    assert result.summary["n_done"] == 12 and "endpoints" not in result.summary
    with open_run(tmp_path / "run") as reader:
        assert reader.manifest.base_url == server.base_url


def _start(urls: list[str], run_dir: Path, *extra: str) -> subprocess.Popen[str]:
    env = dict(os.environ, FIXTURE_N_CALC="120")
    args = [sys.executable, str(LAUNCH), "eval", "fixture", "--model", "openai/mock", "--run-dir", str(run_dir),
            "--concurrency", "2", "--retry-delay", "0.01", *extra]
    for url in urls:
        args += ["--base-url", url]
    return subprocess.Popen(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)


def test_a_killed_run_over_several_endpoints_resumes_grading_each_item_once(mock_server, tmp_path):
    servers = [mock_server(delay_s=0.02) for _ in range(3)]
    urls = [s.base_url for s in servers]
    run_dir = tmp_path / "run"
    proc = _start(urls, run_dir)
    deadline = time.monotonic() + 60
    while len(_done(run_dir)) < 20:
        assert proc.poll() is None, f"run ended early: {proc.communicate()}"
        assert time.monotonic() < deadline, "no progress"
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    first = len(_done(run_dir))
    assert 20 <= first < 124
    resumed = _start(list(reversed(urls)), run_dir, "--json")  # the same endpoints in another order
    out, err = resumed.communicate(timeout=120)
    assert resumed.returncode == 0, err
    summary = json.loads(out)
    assert summary["skipped"] == first and summary["n_done"] == 124
    done = _done(run_dir)
    assert len(done) == len(set(done)) == 124
    assert sum(e["requests"] for e in summary["endpoints"]) >= 124 - first
    assert not failing(summary["endpoints"])


def test_a_bad_url_among_several_is_one_error_line_and_exit_2(cli, mock_server, tmp_path):
    good = mock_server().base_url
    for bad, words in [("htp://127.0.0.1:8000/v1", "must start with http:// or https://"),
                       ("http://127.0.0.1:80x/v1", "has an invalid port"),
                       ("http:///v1", "is not a valid URL"),
                       (good, "is given twice")]:
        r = cli("eval", "fixture", "--model", "openai/mock", "--base-url", good, "--base-url", bad,
                "--run-dir", str(tmp_path / "run"))
        lines = r.stderr.strip().splitlines()
        assert r.returncode == 2 and len(lines) == 1 and words in lines[0], r.stderr
        assert "Traceback" not in r.stderr and not (tmp_path / "run").exists()


def test_a_file_of_urls_spreads_the_run_over_every_server_it_lists(cli, mock_server, tmp_path):
    servers = [mock_server(), mock_server()]
    url_file = tmp_path / "endpoints.txt"
    url_file.write_text(f"# two replicas\n{servers[0].base_url}\n\n{servers[1].base_url}  # second\n")
    r = cli("eval", "fixture", "--model", "openai/mock", "--base-url", f"@{url_file}", "--concurrency", "2",
            "--run-dir", str(tmp_path / "run"), "--quiet")
    assert r.returncode == 0, r.stderr
    assert servers[0].requests["ok"] > 0 and servers[1].requests["ok"] > 0
    assert servers[0].requests["ok"] + servers[1].requests["ok"] == 12
    with open_run(tmp_path / "run") as reader:
        assert reader.manifest.base_url == ", ".join(sorted(s.base_url for s in servers))


def test_a_bad_file_of_urls_is_one_error_line_and_exit_2(cli, tmp_path):
    (tmp_path / "empty.txt").write_text("# nothing here\n\n")
    (tmp_path / "binary.txt").write_bytes(b"\xff\xfe\x00http")
    (tmp_path / "bad.txt").write_text("http://127.0.0.1:8000/v1\nftp://x/v1\n")
    for arg, words in [(f"@{tmp_path / 'missing.txt'}", "no such file"),
                       (f"@{tmp_path}", "is a directory"),
                       (f"@{tmp_path / 'empty.txt'}", "lists no URL"),
                       (f"@{tmp_path / 'binary.txt'}", "not a UTF-8 text file"),
                       (f"@{tmp_path / 'bad.txt'}", "must start with http:// or https://")]:
        r = cli("eval", "fixture", "--model", "openai/mock", "--base-url", arg, "--run-dir", str(tmp_path / "run"))
        lines = r.stderr.strip().splitlines()
        assert r.returncode == 2 and len(lines) == 1 and words in lines[0], (arg, r.stderr)
        assert "Traceback" not in r.stderr and not (tmp_path / "run").exists()
