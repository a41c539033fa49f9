"""The viewer shows the completion text the local model was given, not only the chat messages
(issue 36, item 4): a run whose manifest says "few-shot completion" gets the prompt rebuilt from its item."""

from __future__ import annotations

import json
import sqlite3

from physbench.core.registry import get_suite
from physbench.report.loading import load_runs
from physbench.report.viewer_data import ResponseIndex
from physbench.runner.evaluate import EvalConfig, evaluate


def test_a_completion_prompted_run_shows_its_prompt_and_others_do_not(tmp_path):
    for name in ("local", "other"):
        evaluate(EvalConfig(suite="medphys", model="oracle", limit=3, run_dir=str(tmp_path / name), quiet=True,
                            grade_inline=True))
    conn = sqlite3.connect(tmp_path / "local" / "store.sqlite")  # as the local model's manifest reads
    conn.execute("UPDATE runs SET model_info_json = ?", (json.dumps({"kind": "local", "prompting": "few-shot completion"}),))
    conn.commit()
    conn.close()
    index = ResponseIndex(load_runs([tmp_path / "local", tmp_path / "other"]))
    local = index.detail(0)
    item = index.entries[0].result.item
    assert local["completion_prompt"]["text"] == get_suite("medphys").completion_prompt(item).text
    assert local["completion_prompt"]["text"] != local["messages"][-1]["text"]
    assert index.detail(len(index.entries) - 1)["completion_prompt"] is None
