"""The README's Inspect and verifiers commands run, as installed commands, in the environment
`make test` builds, against the loopback mock (issue 36, item 6: Inspect 0.3.259 and later need
openai>=3.1 while verifiers 0.4 holds openai below 3; the `inspect` extra is pinned below 0.3.259)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent


def _command(name: str) -> str:
    path = BIN / name if (BIN / name).exists() else shutil.which(name)
    if path is None:
        pytest.skip(f"`{name}` is not installed (its extra is not in this environment)")
    return str(path)


def _env(server_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "INSPECT_"))}
    env.update(OPENAI_API_KEY="sk-loopback", OPENAI_BASE_URL=server_url, PRIME_RUNS_MODE="disabled",
               HF_HUB_OFFLINE="1", NO_COLOR="1")
    return env


def test_inspect_and_verifiers_share_one_openai():
    """What made the README's Inspect command fail: Inspect's openai provider refusing this openai."""
    pytest.importorskip("inspect_ai")
    from inspect_ai.model._providers.providers import validate_openai_client

    validate_openai_client("OpenAI API")  # raises when the installed openai is older than Inspect needs


@pytest.mark.slow
def test_the_readmes_inspect_command_runs_against_the_mock(tmp_path, mock_server):
    inspect = _command("inspect")
    server = mock_server(reply="\\boxed{1.018 cGy/MU}")
    r = subprocess.run([inspect, "eval", "physbench/medphys", "--model", "openai/mock", "-M", "responses_api=false",
                        "-T", "limit=3",
                        "--log-dir", str(tmp_path / "logs"), "--display", "none"], capture_output=True, text=True,
                       timeout=300, env=_env(server.base_url), cwd=tmp_path)
    assert r.returncode == 0, (r.stdout[-2000:], r.stderr[-2000:])
    assert server.requests["ok"] == 3  # Inspect exits 0 even when every call failed: the server says they came
    from inspect_ai.log import read_eval_log

    (log,) = (tmp_path / "logs").glob("*.eval")
    assert read_eval_log(str(log)).status == "success"


@pytest.mark.slow
def test_the_readmes_verifiers_command_runs_against_the_mock(tmp_path, mock_server):
    vf_eval = _command("vf-eval")
    server = mock_server(reply="\\boxed{1.018 cGy/MU}")
    r = subprocess.run([vf_eval, "physbench-medphys", "-n", "3", "--model", "mock", "--client.base-url",
                        server.base_url, "--client.api-key-var", "OPENAI_API_KEY", "--no-push", "--output-dir",
                        str(tmp_path / "out")], capture_output=True, text=True, timeout=300,
                       env=_env(server.base_url), cwd=tmp_path)
    assert r.returncode == 0, (r.stdout[-2000:], r.stderr[-2000:])
    (traces,) = (tmp_path / "out").glob("*/traces.jsonl")
    assert len([json.loads(line) for line in traces.read_text().splitlines()]) == 3
