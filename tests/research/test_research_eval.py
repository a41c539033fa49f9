"""`physbench eval research` end to end: each mode under its protocol, graded by the suite (002_*
Section 3.1: a free turn, then the template turn; checkpoints in one conversation)."""

from __future__ import annotations

import json
import sqlite3

import pytest


@pytest.mark.parametrize(("protocol", "mode"), [("two-step", "challenge"), ("checkpoints-self", "checkpoints-self"),
                                                ("checkpoints-oracle", "checkpoints-oracle")])
def test_the_oracle_solves_every_problem_in_each_mode(cli, tmp_path, protocol, mode):
    run = tmp_path / "run"
    r = cli("eval", "research", "--model", "oracle", "--protocol", protocol, "--option", f"mode={mode}",
            "--repeats", "1", "--run-dir", str(run), "--quiet", "--json")
    assert r.returncode == 0, r.stderr
    summary = json.loads(r.stdout)
    assert summary["n_done"] == 6 and summary["n_correct"] == 6
    with sqlite3.connect(run / "store.sqlite") as conn:
        labels = [t["label"] for (turns,) in conn.execute("SELECT turns_json FROM attempts")
                  for t in json.loads(turns)]
    if mode == "challenge":
        assert labels.count("solve") == labels.count("format") == 6
    else:  # every checkpoint has its free turn and its template turn
        assert labels and all(lab.endswith((":solve", ":format")) for lab in labels)
        assert sum(lab.endswith(":solve") for lab in labels) == sum(lab.endswith(":format") for lab in labels)


def test_a_constant_reply_solves_nothing(cli, tmp_path):
    r = cli("eval", "research", "--model", "constant:Final answer: 0", "--protocol", "two-step",
            "--repeats", "1", "--run-dir", str(tmp_path / "run"), "--quiet", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["n_correct"] == 0


def test_a_protocol_that_cannot_ask_the_items_is_refused_before_the_run(cli, tmp_path):
    r = cli("eval", "research", "--model", "oracle", "--protocol", "checkpoints-self", "--option", "mode=challenge",
            "--run-dir", str(tmp_path / "run"), "--quiet")
    assert r.returncode == 2 and "no protocol_data steps" in r.stderr
    assert not (tmp_path / "run").exists()


def test_an_unknown_item_option_is_one_line(cli, tmp_path):
    r = cli("eval", "research", "--model", "oracle", "--option", "level=3", "--run-dir", str(tmp_path / "run"))
    assert r.returncode == 2 and "no item option 'level'" in r.stderr and "mode" in r.stderr
    r = cli("eval", "research", "--model", "oracle", "--option", "mode", "--run-dir", str(tmp_path / "run"))
    assert r.returncode == 2 and "NAME=VALUE" in r.stderr


@pytest.mark.parametrize("protocol", ["challenge", "checkpoints-oracle"])
def test_the_protocol_picks_the_items_and_five_repeats_are_the_default(cli, tmp_path, protocol):
    r = cli("eval", "research", "--model", "oracle", "--protocol", protocol, "--limit", "1",
            "--run-dir", str(tmp_path / "run"), "--quiet", "--json")
    assert r.returncode == 0, r.stderr
    s = json.loads(r.stdout)
    assert (s["repeats"], s["n_done"], s["n_correct"]) == (5, 5, 5)
    expected_kind = "challenge" if protocol == "challenge" else protocol
    with sqlite3.connect(tmp_path / "run" / "store.sqlite") as conn:
        assert {k for (k,) in conn.execute("SELECT kind FROM attempts")} == {expected_kind}
