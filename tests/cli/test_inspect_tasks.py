"""Inspect AI tasks scored by physbench's grader (issue 19): with Inspect's `mockllm` model giving
the same replies, each sample's score equals `physbench eval` on the same item and reply."""

from __future__ import annotations

import json
import sqlite3

import pytest

inspect_ai = pytest.importorskip("inspect_ai")

from inspect_ai.model import ModelOutput, ModelUsage, get_model  # noqa: E402

REPLY = '\\boxed{100 cGy} ```json {"verdict": "incorrect", "first_error_step": 3, "corrected_result": "1 cGy"}```'


def _mock(n: int, reply: str):
    out = ModelOutput.from_content(model="mockllm/model", content=reply)
    out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)  # no tokenizer download
    return get_model("mockllm/model", custom_outputs=[out] * n, memoize=False)


@pytest.mark.parametrize(("suite", "task_args", "eval_args", "reply"), [
    ("medphys", {"limit": 12}, ["--limit", "12"], REPLY),
    ("clincalc", {"limit": 10, "arm": "open-book"}, ["--limit", "10", "--option", "arm=open-book"], "Final answer: 3"),
])
def test_inspect_scores_agree_with_physbench_eval(cli, tmp_path, suite, task_args, eval_args, reply):
    from physbench.integrations import inspect_tasks

    task = getattr(inspect_tasks, suite)(**task_args)
    (log,) = inspect_ai.eval(task, model=_mock(len(task.dataset), reply), log_dir=str(tmp_path / "logs"),
                             display="none")
    assert log.status == "success", log.error
    inspect_scores = {str(s.id): next(iter(s.scores.values())).value == "C" for s in log.samples}

    run = tmp_path / "run"
    r = cli("eval", suite, "--model", f"constant:{reply}", *eval_args, "--run-dir", str(run), "--quiet")
    assert r.returncode == 0, r.stderr
    with sqlite3.connect(run / "store.sqlite") as conn:
        ours = {i: json.loads(g)["passed"] for i, g in conn.execute("SELECT item_id, grade_json FROM attempts")}
    assert inspect_scores == ours and len(ours) == task_args["limit"]
    assert any(ours.values()) or suite == "clincalc"  # the medphys reply is right on some checks


def test_the_package_registers_one_task_per_suite():
    from importlib.metadata import entry_points

    (ep,) = [e for e in entry_points(group="inspect_ai") if e.name == "physbench"]
    module = ep.load()
    assert all(callable(getattr(module, name)) for name in ("medphys", "clincalc", "research", "planning"))


def test_a_research_challenge_gets_its_formatting_turn(tmp_path):
    from physbench.integrations import inspect_tasks

    task = inspect_tasks.research(limit=1)
    (log,) = inspect_ai.eval(task, model=_mock(4, "no code here"), log_dir=str(tmp_path / "logs"), display="none")
    (sample,) = log.samples
    assert [m.role for m in sample.messages].count("assistant") == 2  # the solution turn, then the template turn
    assert next(iter(sample.scores.values())).explanation == "no_code"
