"""verifiers environments rewarded by physbench's grader (issue 19): with a loopback chat server
giving scripted replies, each task's reward equals `physbench eval --model replay:FILE`'s grade of
the same reply, and the environments resolve by the ids `vf-eval` uses."""

from __future__ import annotations

import asyncio
import json
import logging
import signal
import sqlite3

import pytest

vf = pytest.importorskip("verifiers.v1")

WRONG = ["\\boxed{123456 kg}", "I cannot tell.",
         '```json {"verdict": "correct", "first_error_step": null, "corrected_result": null}```']


def _scripted_replies(items) -> dict[str, str]:
    """Oracle replies on even positions, wrong or unreadable ones on odd positions."""
    from physbench.core.registry import get_suite

    suite = get_suite("medphys")
    return {item.id: suite.oracle(item) if k % 2 == 0 else WRONG[k // 2 % len(WRONG)]
            for k, item in enumerate(items)}


def _rules(tasks, replies: dict[str, str]) -> list[dict[str, str]]:
    """Mock-server reply rules keyed by each task's user text, as it appears in the JSON request."""
    texts = {t.data.id: "\n".join(m.content for m in t.data.prompt) for t in tasks}
    for i, text in texts.items():  # a rule must pick out its own item's request only
        assert not any(text in other for j, other in texts.items() if j != i)
    return [{"match": json.dumps(texts[i], ensure_ascii=False)[1:-1], "reply": r} for i, r in replies.items()]


async def _rollouts(env, tasks, base_url: str) -> list:
    ctx = vf.ModelContext(model="scripted", client=vf.EvalClientConfig(base_url=base_url, api_key_var="PB_NO_KEY"))
    async with env.serving():
        return await asyncio.gather(*(env.run_episode(t, ctx) for t in tasks))


def test_rewards_equal_physbench_eval_on_20_scripted_replies(cli, tmp_path, mock_server):
    import physbench_medphys

    env = physbench_medphys.load_environment(limit=20)
    tasks = list(env.taskset)
    assert len(tasks) == 20
    replies = _scripted_replies([t.item for t in tasks])
    server = mock_server(reply="no rule matched", replies=_rules(tasks, replies), record=True)

    episodes = asyncio.run(_rollouts(env, tasks, server.base_url))
    assert all(e.ok for e in episodes), [e.errors or e.traces[0].errors for e in episodes if not e.ok]
    rewards = {e.task.data.id: e.traces[0].reward for e in episodes}
    outcomes = {e.task.data.id: next(k for k in e.traces[0].metrics if k.startswith("outcome_"))
                for e in episodes}
    assert len(server.bodies) == 20

    replay = tmp_path / "replies.jsonl"
    replay.write_text("".join(json.dumps({"id": i, "response": r}) + "\n" for i, r in replies.items()))
    run = tmp_path / "run"
    r = cli("eval", "medphys", "--limit", "20", "--model", f"replay:{replay}", "--run-dir", str(run), "--quiet")
    assert r.returncode == 0, r.stderr
    with sqlite3.connect(run / "store.sqlite") as conn:
        grades = {i: json.loads(g) for i, g in conn.execute("SELECT item_id, grade_json FROM attempts")}
    assert rewards == {i: 1.0 if g["passed"] else 0.0 for i, g in grades.items()}
    assert outcomes == {i: f"outcome_{g['outcome']}" for i, g in grades.items()}
    assert set(rewards.values()) == {0.0, 1.0}  # both rewards occur


@pytest.mark.parametrize("suite", ["medphys", "clincalc", "research", "planning"])
def test_vf_resolves_each_suite_by_its_vf_eval_id(suite):
    from verifiers.v1.cli.resolve import with_positional_taskset

    argv = with_positional_taskset([f"physbench-{suite}"])
    assert argv[argv.index("--env.taskset.id") + 1] == f"physbench-{suite}"
    config = vf.resolve_env_config({"taskset": {"id": f"physbench-{suite}", "limit": 2}})
    env = vf.load_environment(config)
    tasks = list(env.taskset)
    assert type(env).__name__ == "PhysbenchEnv" and config.agent.runtime.type == "subprocess"
    assert type(env._harnesses["agent"]).__name__ == "PhysbenchHarness"
    assert len(tasks) == 2 and all(t.data.suite == suite and t.data.prompt for t in tasks)
    assert tasks[0].key == tasks[0].item.id


def test_a_research_challenge_gets_its_formatting_turn(mock_server):
    import physbench_research

    env = physbench_research.load_environment(limit=1)
    (task,) = list(env.taskset)
    assert task.data.format_turn
    server = mock_server(reply="no code here", record=True)
    (episode,) = asyncio.run(_rollouts(env, [task], server.base_url))
    (trace,) = episode.traces
    assert len(server.bodies) == 2 and len(trace.assistant_messages) == 2  # solution turn, then template turn
    assert trace.reward == 0.0 and "outcome_no_code" in trace.metrics


def test_a_task_rebuilt_from_wire_data_grades_the_same_item():
    from physbench.integrations.verifiers_envs import PhysbenchTask

    import physbench_clincalc

    (task,) = list(physbench_clincalc.load_environment(limit=1).taskset)
    rebuilt = PhysbenchTask(type(task.data).model_validate(task.data.model_dump(mode="json")))
    assert rebuilt.physbench_item().id == task.item.id


def test_vf_eval_runs_an_environment_by_its_id(tmp_path, mock_server, monkeypatch):
    """`vf-eval physbench-clincalc ...` (its entry point, in this process) against the loopback server."""
    from verifiers.v1.cli.eval.main import main as vf_eval

    monkeypatch.setenv("PRIME_RUNS_MODE", "disabled")  # no platform run, nothing leaves the machine
    # the CLI sets up signal handlers and logging for its process: put them back afterwards
    handlers = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    library = logging.getLogger("verifiers.v1")
    monkeypatch.setattr(logging, "lastResort", logging.lastResort)
    monkeypatch.setattr(library, "handlers", list(library.handlers))
    monkeypatch.setattr(library, "level", library.level)
    server = mock_server(reply="Final answer: 3")
    try:
        vf_eval(["physbench-clincalc", "-n", "3", "--model", "scripted", "--client.base-url", server.base_url,
                 "--client.api-key-var", "PB_NO_KEY", "--no-push", "--output-dir", str(tmp_path)])
    finally:
        for sig, handler in handlers.items():
            signal.signal(sig, handler)
    (traces,) = tmp_path.glob("*/traces.jsonl")
    episodes = [json.loads(line) for line in traces.read_text().splitlines()]
    assert len(episodes) == 3 and all(e["ok"] for e in episodes)
    from physbench.integrations.common import grade_reply, suite_items

    items = {i.id: i for i in suite_items("clincalc", limit=3, options={"arm": "open-book"})}
    for e in episodes:
        (trace,) = e["traces"]
        grade = grade_reply("clincalc", items[e["task"]["data"]["id"]], "Final answer: 3", "stop")
        assert trace["rewards"]["correct"]["score"] == (1.0 if grade.passed else 0.0)
        assert trace["info"]["physbench"]["outcome"] == grade.outcome


def test_the_core_and_the_cli_never_import_verifiers():
    import subprocess
    import sys

    code = ("import sys, physbench.cli, physbench.runner.evaluate, physbench.integrations; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('verifiers', 'physbench_medphys')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert out.stdout.strip() == "[]"


def test_a_program_arm_is_refused_when_its_environment_is_loaded():
    import physbench_clincalc

    with pytest.raises(ValueError, match="program-solve"):
        physbench_clincalc.load_environment(arm="program", limit=2)
    assert physbench_clincalc.load_environment(arm="open-book", limit=2) is not None
