"""Table S16's settings as the planning suite's defaults (001_*, Table S16): 2,048 output tokens for
the interpreter, 8,192 per agent call, provider seeds 0 and 1; they reach every request and the
manifest, and the user's flags win over them."""

from __future__ import annotations

import json

import pytest

from physbench.runner.results import open_run

ESCALATE = json.dumps({"action": "escalate", "reason": "missing_structure", "explanation": "no left optic nerve"})


def _eval(cli, server, run_dir, system, *extra):
    return cli("eval", "planning", "--option", f"system={system}", "--option", "family=missing_structure",
               "--split", "reserved", "--limit", "1", "--model", "openai/mock", "--base-url", server.base_url,
               "--run-dir", str(run_dir), "--quiet", *extra)


def _chats(server):
    return [json.loads(b) for b in server.bodies if b"messages" in b]


def test_the_interpreter_runs_twice_with_seeds_0_and_1_and_2048_tokens(cli, tmp_path, mock_server):
    server = mock_server(reply=ESCALATE, record=True)
    r = _eval(cli, server, tmp_path / "run", "interpreter")
    assert r.returncode == 0, r.stderr
    bodies = _chats(server)
    assert sorted(b["seed"] for b in bodies) == [0, 1]
    assert {b["max_tokens"] for b in bodies} == {2048}
    with open_run(tmp_path / "run") as reader:
        m = reader.manifest
    assert m.split == "reserved" and m.repeats == 2 and m.sampling["max_tokens"] == 2048
    assert m.sampling["seeds"] == [0, 1]
    assert m.sampling["suite_defaults"] == ["max_tokens", "seeds"] and m.sampling["seed"] is None


def test_every_agent_call_carries_8192_tokens_and_its_run_seed(cli, tmp_path, mock_server, monkeypatch):
    monkeypatch.setenv("PHYSBENCH_PLANNING_WORKERS", "0")
    server = mock_server(reply="I would escalate this.", record=True)  # no tool call: one nudge, then it ends
    r = _eval(cli, server, tmp_path / "run", "agent")
    assert r.returncode == 0, r.stderr
    bodies = _chats(server)
    assert len(bodies) == 4 and {b["max_tokens"] for b in bodies} == {8192}
    assert sorted(b["seed"] for b in bodies) == [0, 0, 1, 1]
    with open_run(tmp_path / "run") as reader:
        assert reader.manifest.sampling["max_tokens"] == 8192 and reader.manifest.sampling["seeds"] == [0, 1]


@pytest.mark.parametrize("flags, tokens, repeats", [
    (("--max-tokens", "300"), 300, 2),                            # the limit is the user's, the seeds stay
    (("--seed", "7"), 2048, 2),                                   # the user's seed: varied per item and repeat
    (("--repeats", "3"), 2048, 3),                                # a third run counts the seeds on: 0, 1, 2
])
def test_the_users_flags_win(cli, tmp_path, mock_server, flags, tokens, repeats):
    server = mock_server(reply=ESCALATE, record=True)
    r = _eval(cli, server, tmp_path / "run", "interpreter", *flags)
    assert r.returncode == 0, r.stderr
    bodies = _chats(server)
    assert len(bodies) == repeats and {b["max_tokens"] for b in bodies} == {tokens}
    with open_run(tmp_path / "run") as reader:
        s = reader.manifest.sampling
    if "--seed" in flags:
        assert s["seed"] == 7 and "seeds" not in s and s["suite_defaults"] == ["max_tokens"]
        assert all(b["seed"] not in (0, 1) for b in bodies)
    else:
        assert sorted(b["seed"] for b in bodies) == list(range(repeats)) and s["seeds"] == list(range(repeats))
    if "--max-tokens" in flags:
        assert s["suite_defaults"] == ["seeds"]


def test_the_scripted_systems_get_no_sampling_defaults(cli, tmp_path):
    r = cli("eval", "planning", "--option", "system=controller", "--option", "family=missing_structure",
            "--limit", "1", "--run-dir", str(tmp_path / "run"), "--quiet")
    assert r.returncode == 0, r.stderr
    with open_run(tmp_path / "run") as reader:
        m = reader.manifest
    assert m.repeats == 1 and "suite_defaults" not in m.sampling and m.sampling["max_tokens"] is None
