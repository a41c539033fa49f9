"""The suite object builds first turns and protocol data, grades oracle replies correct and
constant replies wrong; metrics follow 002_* section 4."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from physbench.suites.research.metrics import average_accuracy, consistently_solved_rate, grid
from physbench.suites.research.suite import SUITE


@pytest.mark.parametrize("mode", ["challenge", "checkpoints-self", "checkpoints-oracle"])
def test_oracle_scores_full_and_constant_zero_on_every_mode(mode):
    for item in SUITE.items(mode=mode):
        assert item.messages[0].role == "system" and item.messages[1].role == "user"
        if mode == "challenge":
            assert "```python" in item.protocol_data["format"]
            labels = ["challenge"]
        else:
            steps = item.protocol_data["steps"]
            assert all(s["expected"].startswith("Expert answer to this checkpoint:") for s in steps)
            assert all(s["alone"].startswith(item.messages[1].content) for s in steps)  # the setup leads
            labels = [s["id"] for s in steps]
        replies = [SUITE.oracle_turn(item, f"{lab}:format", []) for lab in labels]
        good = SimpleNamespace(text=replies[0], steps=replies)
        bad = SimpleNamespace(text="```python\ndef answer(*a):\n    return 0\n```",
                              steps=["```python\ndef answer(*a):\n    return 0\n```"] * len(labels))
        g = SUITE.grade(item, good)
        assert g.passed and g.score == 1.0, g.detail
        b = SUITE.grade(item, bad)
        assert b.score == 0.0 and not b.passed


def test_missing_checkpoint_replies_are_no_code_not_errors():
    item = next(iter(SUITE.items(mode="checkpoints-self")))
    g = SUITE.grade(item, SimpleNamespace(text="", steps=[]))
    assert {s["outcome"] for s in g.detail["steps"]} == {"no_code"}


def test_metrics_on_a_worked_example():
    runs = {("m", "p1", "c1"): [True] * 4 + [False], ("m", "p1", "c2"): [True, False, False, False, False]}
    assert average_accuracy(runs) == {"m": 0.5}
    assert consistently_solved_rate(runs) == {"m": 0.5}
    assert grid(runs) == {"m": {("p1", "c1"): "4/5", ("p1", "c2"): "1/5"}}
