"""A wrong endpoint says so at once (issue 36, item 1): before the run one cheap request tells an
unreachable endpoint, a refused key or a model the server does not serve (one line, exit 2, nothing
stored); during a run the first error of each kind is printed as it happens, and a run whose every
recent request failed stops with the reason instead of grinding through its retries."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from physbench.models.base import ModelError
from physbench.models.watch import RequestWatch, error_kind

LAUNCH = Path(__file__).resolve().parents[1] / "runner" / "launch.py"  # the CLI with the fixture suite registered


def _refusing_url() -> str:
    """A loopback port nothing listens on (bound, then closed)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def _eval(tmp_path: Path, url: str, *extra: str) -> tuple[subprocess.CompletedProcess[str], float]:
    start = time.monotonic()
    r = subprocess.run([sys.executable, str(LAUNCH), "eval", "medphys", "--model", "openai/mock", "--base-url", url,
                        "--limit", "32", "--run-dir", str(tmp_path / "run"), *extra],
                       capture_output=True, text=True, timeout=60, cwd=tmp_path,
                       env={**_env(), "OPENAI_API_KEY": "sk-test"})
    return r, time.monotonic() - start


def _env() -> dict[str, str]:
    import os

    return {k: v for k, v in os.environ.items() if k not in ("OPENAI_BASE_URL",)}


@pytest.mark.parametrize("server, words", [
    ("refused", "cannot reach http://127.0.0.1:"),
    ("401", "refused the key in OPENAI_API_KEY: HTTP 401"),
    ("403", "refused the key in OPENAI_API_KEY: HTTP 403"),
    ("404", "does not serve model 'mock' (HTTP 404"),
])
def test_a_wrong_endpoint_is_one_line_exit_2_within_seconds_and_nothing_is_stored(mock_server, tmp_path, server,
                                                                                 words):
    url = _refusing_url() if server == "refused" else \
        mock_server(faults=[{"match": "", "sequence": [server]}]).base_url
    r, took = _eval(tmp_path, url)
    assert took < 10, took
    assert r.returncode == 2, (r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("physbench: error: ") and words in lines[0], r.stderr
    assert r.stdout == ""
    assert not (tmp_path / "run").exists()
    assert not (tmp_path / "runs").exists()


def test_a_model_the_server_does_not_list_is_confirmed_by_one_chat_request(mock_server, tmp_path):
    """A server that lists other names but answers this one (llama.cpp serves any name) runs."""
    server = mock_server(models=["something-else"])
    r, _ = _eval(tmp_path, server.base_url, "--limit", "2", "--quiet")
    assert r.returncode == 0, r.stderr
    assert server.requests["ok"] == 2 + 1  # the two attempts and the one-token probe


def test_a_model_that_is_listed_costs_no_chat_request(mock_server, tmp_path):
    server = mock_server()
    r, _ = _eval(tmp_path, server.base_url, "--limit", "2", "--quiet")
    assert r.returncode == 0, r.stderr
    assert server.requests["ok"] == 2


def test_a_run_whose_every_request_fails_stops_with_the_reason_and_prints_each_kind_once(mock_server, tmp_path):
    """The listing answers, then every chat request gets a 500: the run stops after a window of
    failures, long before 32 attempts x 6 tries of backoff, and says why; a resume works."""
    server = mock_server(faults=[{"match": "messages", "sequence": ["500"]}])
    r, took = _eval(tmp_path, server.base_url, "--concurrency", "4", "--retry-delay", "0.05", "--quiet")
    assert r.returncode == 1, (r.stdout, r.stderr)
    assert took < 20, took
    first = [line for line in r.stderr.splitlines() if "the first error of this kind" in line]
    assert len(first) == 1 and "HTTP 500" in first[0], r.stderr
    assert "stopped: every one of the last 16 requests failed (the latest: HTTP 500" in r.stdout
    assert "fix that cause, then re-run the same command to resume" in r.stdout
    assert server.requests["500"] < 32 * 6
    assert (tmp_path / "run" / "store.sqlite").exists()


def test_failed_requests_between_answers_never_stop_a_run():
    """Errors mixed with answers never trip the stop; the first of each kind is still printed."""
    said: list[str] = []
    watch = RequestWatch(window=16, say=said.append)
    for n in range(100):
        watch.failed(ModelError("HTTP 503: busy", retryable=True))
        watch.answered()
    watch.failed(ModelError("connection error (ClientOSError: reset)", retryable=True))
    assert watch.reason is None and len(said) == 2
    for _ in range(15):
        watch.failed(ModelError("HTTP 429: slow down", retryable=True))  # rate limits never count
    assert watch.reason is None
    for _ in range(14):
        watch.failed(ModelError("HTTP 500: down", retryable=True))
    assert watch.reason is None  # 15 failures in a row: one short of the window
    watch.failed(ModelError("HTTP 500: down", retryable=True))
    assert watch.reason is not None and "last 16 requests" in watch.reason


def test_error_kinds_group_what_differs_only_in_detail():
    assert error_kind("HTTP 503: {\"error\": 1}") == error_kind("HTTP 503: other") == "HTTP 503"
    assert error_kind("timeout after 5 s") == "timeout"
    assert error_kind("connection error (ClientOSError: [Errno 104] reset)") == "connection error (ClientOSError)"
    assert error_kind("HTTP 500: x") != error_kind("HTTP 503: x")


def test_the_mock_lists_its_models(mock_server):
    import urllib.request

    server = mock_server(models=["a", "b"])
    with urllib.request.urlopen(f"{server.base_url}/models", timeout=5) as response:
        assert [m["id"] for m in json.load(response)["data"]] == ["a", "b"]
    assert sum(server.requests.values()) == 0  # a listing is not a chat request


def test_an_unreachable_endpoint_off_this_machine_without_a_key_is_still_one_line(tmp_path):
    """The no-key warning waits for the endpoint to answer: a wrong endpoint is one line, the cause."""
    env = {k: v for k, v in _env().items() if k != "OPENAI_API_KEY"}
    r = subprocess.run([sys.executable, str(LAUNCH), "eval", "medphys", "--model", "openai/mock", "--base-url",
                        "http://127.0.0.2:1/v1", "--limit", "2", "--run-dir", str(tmp_path / "run")],
                       capture_output=True, text=True, timeout=60, cwd=tmp_path, env=env)
    assert r.returncode == 2, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot reach http://127.0.0.2:1/v1" in lines[0], r.stderr


def test_a_models_own_warning_is_printed_once_the_model_is_checked(tmp_path, monkeypatch, capsys):
    """What the model says as it is made (e.g. no key set) is held back only until the checks pass."""
    import importlib

    from physbench.models.scripted import ConstantModel
    from physbench.runner.evaluate import EvalConfig, evaluate

    module = importlib.import_module("physbench.runner.model_check")

    def make(spec, suite, options):
        print("physbench: warning: a word from the model", file=sys.stderr)
        return ConstantModel("1 cGy")

    monkeypatch.setattr(module, "make_model", make)
    evaluate(EvalConfig(suite="medphys", model="constant:1 cGy", limit=1, run_dir=str(tmp_path / "run"), quiet=True))
    assert capsys.readouterr().err.count("physbench: warning: a word from the model") == 1
