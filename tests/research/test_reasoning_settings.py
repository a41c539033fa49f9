"""`--reasoning-effort` and `--thinking-budget` (issue 37 item 5): the fields reach the server, the
manifest records them, a resume with other settings is refused, and the report keeps each setting
as its own configuration (never a repeat of another)."""

from __future__ import annotations

import json

from physbench.runner.results import open_run


def _eval(cli, server, run_dir, *extra):
    return cli("eval", "research", "--model", "openai/mock", "--base-url", server.base_url, "--limit", "1",
               "--repeats", "1", "--option", "problems=critpt-example", "--run-dir", str(run_dir), "--quiet",
               *extra)


def test_effort_and_budget_arrive_in_every_request_and_enter_the_manifest(cli, tmp_path, mock_server):
    server = mock_server(record=True)
    r = _eval(cli, server, tmp_path / "run", "--reasoning-effort", "high", "--thinking-budget", "800")
    assert r.returncode == 0, r.stderr
    bodies = [json.loads(b) for b in server.bodies]
    assert len(bodies) == 2  # the two-step answer: the solution, then the formatting turn
    for body in bodies:
        assert body["reasoning_effort"] == "high"
        assert body["thinking"] == {"type": "enabled", "budget_tokens": 800}
        assert "thinking_budget" not in body  # the option's own name never goes on the wire
    with open_run(tmp_path / "run") as reader:
        m = reader.manifest
        usage = [res.usage for res in reader.results()]
    assert m.sampling["reasoning_effort"] == "high" and m.sampling["thinking_budget"] == 800
    assert usage[0].get("reasoning_tokens") == 2 * 800  # the mock's thinking, capped by the budget, counted


def test_without_the_options_no_field_is_sent_and_the_manifest_is_as_before(cli, tmp_path, mock_server):
    server = mock_server(record=True)
    assert _eval(cli, server, tmp_path / "run").returncode == 0
    assert all("reasoning_effort" not in json.loads(b) and "thinking" not in json.loads(b) for b in server.bodies)
    with open_run(tmp_path / "run") as reader:
        assert set(reader.manifest.sampling) == {"temperature", "max_tokens", "seed"}


def test_bad_values_and_models_without_a_server_are_refused(cli, tmp_path, mock_server):
    server = mock_server()
    bad = _eval(cli, server, tmp_path / "a", "--reasoning-effort", "extreme")
    assert bad.returncode == 2 and "--reasoning-effort must be one of" in bad.stderr
    assert not (tmp_path / "a").exists()
    zero = _eval(cli, server, tmp_path / "b", "--thinking-budget", "0")
    assert zero.returncode == 2 and "--thinking-budget" in zero.stderr
    oracle = cli("eval", "research", "--model", "oracle", "--reasoning-effort", "low", "--run-dir", str(tmp_path / "c"))
    assert oracle.returncode == 2 and "openai/NAME models only" in oracle.stderr


def test_a_resume_with_another_effort_is_refused(cli, tmp_path, mock_server):
    server = mock_server()
    assert _eval(cli, server, tmp_path / "run", "--reasoning-effort", "low").returncode == 0
    again = _eval(cli, server, tmp_path / "run", "--reasoning-effort", "high")
    assert again.returncode == 2 and "sampling" in again.stderr


def test_two_efforts_are_two_configurations_in_the_report(cli, tmp_path, mock_server):
    server = mock_server()
    for effort in ("low", "high"):
        assert _eval(cli, server, tmp_path / effort, "--reasoning-effort", effort).returncode == 0
    r = cli("report", str(tmp_path / "low"), str(tmp_path / "high"), "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    labels = sorted(m["label"] for m in doc["models"])
    assert labels == ["openai/mock [effort=high]", "openai/mock [effort=low]"]
    assert all(m["primary"] for m in doc["models"])  # not "run 2" of one condition
