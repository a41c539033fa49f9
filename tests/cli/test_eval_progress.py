"""The progress line and the final summary of `physbench eval` agree (issue 16: tokens were counted
from total_tokens on one side and prompt + completion on the other, the rates over different
intervals, and a slow run printed its last progress line twice)."""

from __future__ import annotations

import importlib
import json
import re
import sys

from physbench.runner.evaluate import EvalConfig, load_items
from physbench.runner.progress import PlainProgress


def test_the_last_progress_line_matches_the_summary(cli, tmp_path, monkeypatch):
    items = load_items(EvalConfig(suite="medphys", limit=3))
    replay = tmp_path / "replay.jsonl"
    replay.write_text("".join(json.dumps({"id": i.id, "response": "\\boxed{1 cGy}",
                                          "usage": {"prompt_tokens": 100 + n, "completion_tokens": 7}}) + "\n"
                              for n, i in enumerate(items)))
    # a line at every update, as a slow model (the local one) gets when each attempt outlasts the interval
    monkeypatch.setattr(importlib.import_module("physbench.runner.evaluate"), "make_progress",
                        lambda label, quiet=False: PlainProgress(sys.stderr, label, interval_s=0.0))
    r = cli("eval", "medphys", "--model", f"replay:{replay}", "--limit", "3", "--run-dir", str(tmp_path / "run"))
    assert r.returncode == 0, r.stderr
    finals = [line for line in r.stderr.splitlines() if ": 3/3 (100%)" in line]
    assert len(finals) == 1, r.stderr
    progress_rate, progress_tokens = re.search(r"([\d.]+) items/s, 0 errors, ([\d,]+) tokens", finals[0]).groups()
    summary_tokens = re.search(r"^tokens: ([\d,]+) \(", r.stdout, re.M).group(1)
    summary_rate = re.search(r"3 attempts run now \(([\d.]+)/s\)", r.stdout).group(1)
    assert progress_tokens == summary_tokens == f"{3 * 107 + 3:,}"
    assert progress_rate == summary_rate
