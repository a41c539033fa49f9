"""The research report as the CritPt paper lays it out (issue 37 item 6): Table 3 (one row per model
configuration, challenge / checkpoints without and with expert answers), Table 4 (k/n per problem and
step), Table 6 (tokens by kind, cost per attempt); `ungraded` steps counted apart everywhere, so the
Runs table and the step table agree; no paired test between runs that share no items."""

from __future__ import annotations

import json

from physbench.report.generic import pairwise
from physbench.suites.research.problem import shipped_dir


def _eval(cli, run, *args):
    r = cli("eval", "research", *args, "--run-dir", str(run), "--quiet")
    assert r.returncode == 0, r.stderr


def _report(cli, tmp_path, *runs):
    r = cli("report", *map(str, runs), "--out", str(tmp_path / "rep"))
    assert r.returncode == 0, r.stderr
    return (tmp_path / "rep" / "report.md").read_text(), json.loads((tmp_path / "rep" / "report.json").read_text())


def test_one_row_per_configuration_with_the_protocol_as_the_column(cli, tmp_path):
    ex = ("--option", "problems=critpt-example")
    _eval(cli, tmp_path / "two", "--model", "oracle", *ex, "--repeats", "5")
    _eval(cli, tmp_path / "self", "--model", "oracle", "--protocol", "checkpoints-self", *ex, "--repeats", "2")
    _eval(cli, tmp_path / "const", "--model", "constant:x", "--protocol", "checkpoints-oracle", *ex, "--repeats", "1")
    md, doc = _report(cli, tmp_path, tmp_path / "two", tmp_path / "self", tmp_path / "const")
    rows = {r["configuration"]: r for r in doc["analyses"]["research"]["table3"]}
    assert set(rows) == {"oracle", "constant:x"}  # three runs, two configurations
    oracle = rows["oracle"]["columns"]
    assert set(oracle) == {"challenge", "checkpoints-self"}
    assert (oracle["challenge"]["correct"], oracle["challenge"]["n"]) == (5, 5)
    assert oracle["challenge"]["consistently_solved"] == 1.0  # 5 runs: the 4-of-5 rate is defined
    assert (oracle["checkpoints-self"]["correct"], oracle["checkpoints-self"]["n"]) == (6, 6)
    assert oracle["checkpoints-self"]["consistently_solved"] is None  # 2 runs only: not claimed
    const = rows["constant:x"]["columns"]
    assert set(const) == {"checkpoints-oracle"} and const["checkpoints-oracle"]["correct"] == 0
    # Table 4: the challenge first, then each checkpoint in each setting
    (grid,) = doc["analyses"]["research"]["grid"]
    keys = [c["key"] for c in grid["columns"]]
    assert keys[0] == "challenge|challenge" and keys[1:3] == ["checkpoint-1|checkpoints-self",
                                                              "checkpoint-1|checkpoints-oracle"]
    cells = {r["configuration"]: r["cells"] for r in grid["rows"]}
    assert cells["oracle"]["checkpoint-3|checkpoints-self"] == {"k": 2, "n": 2, "ungraded": 0}
    assert cells["constant:x"]["checkpoint-2|checkpoints-oracle"] == {"k": 0, "n": 1, "ungraded": 0}
    assert "| oracle | 5/5 | 2/2 · – |" in md  # challenge; checkpoint-1 w/o expert · w/ expert (not run)


def test_ungraded_steps_are_apart_and_the_runs_table_agrees_with_the_steps(cli, tmp_path):
    d = json.loads((shipped_dir("critpt-example") / "quantum_error_correction.json").read_text())
    d["checkpoints"][2]["answer"] = None  # an answer not known here
    (tmp_path / "set").mkdir()
    (tmp_path / "set" / "qec.json").write_text(json.dumps(d))
    _eval(cli, tmp_path / "run", "--model", "oracle", "--protocol", "checkpoints-self",
          "--option", f"problems={tmp_path / 'set'}", "--repeats", "2")
    md, doc = _report(cli, tmp_path, tmp_path / "run")
    a = doc["analyses"]["research"]
    steps = {s["name"]: (s["n_correct"], s["n"]) for s in a["steps"]}
    assert steps == {"quantum_error_correction/checkpoint-1": (2, 2), "quantum_error_correction/checkpoint-2": (2, 2)}
    (row,) = a["table3"]
    assert row["columns"]["checkpoints-self"]["average"] == 1.0 and row["ungraded"] == {"checkpoints-self": 2}
    (run,) = doc["runs"]
    assert run["accuracy"] == 1.0  # the Runs table: every graded checkpoint right, as the step table says
    cells = a["grid"][0]["rows"][0]["cells"]
    assert cells["checkpoint-3|checkpoints-self"] == {"k": 0, "n": 0, "ungraded": 2}
    assert "| ungraded |" in md or "| ungraded" in md


def test_tokens_by_kind_and_cost_per_attempt(cli, tmp_path, mock_server):
    server = mock_server()
    prices = tmp_path / "prices.json"
    prices.write_text(json.dumps({"mock": {"input": 1.0, "output": 10.0}}))
    _eval(cli, tmp_path / "run", "--model", "openai/mock", "--base-url", server.base_url, "--limit", "1",
          "--repeats", "2", "--option", "problems=critpt-example", "--reasoning-effort", "medium",
          "--price-table", str(prices))
    md, doc = _report(cli, tmp_path, tmp_path / "run")
    (row,) = doc["analyses"]["research"]["tokens"]
    assert row["attempts"] == 2 and row["mean_reasoning"] == 2 * 400  # two calls per two-step attempt
    assert row["configuration"] == "openai/mock (effort=medium)"
    assert row["mean_total"] == row["mean_input"] + row["mean_reasoning"] + row["mean_response"]
    expected = (row["mean_input"] * 1.0 + (row["mean_reasoning"] + row["mean_response"]) * 10.0) / 1e6
    assert abs(row["cost_per_attempt"] - expected) < 1e-12 and abs(row["cost_total"] - 2 * expected) < 1e-12
    assert "## Tokens and cost per attempt" in md


def test_no_paired_test_between_models_that_share_no_items():
    result = pairwise({"a": {"x": True, "y": True}, "b": {"z": False}, "c": {"x": False, "y": False}})
    assert [(p["first"], p["second"]) for p in result["pairs"]] == [("a", "c")]
    assert sorted(map(tuple, result["untested"])) == [("a", "b"), ("b", "c")]
    assert all(p["p"] is not None and p["n"] for p in result["pairs"])


def test_the_report_names_untested_pairs_and_ungraded_responses_enter_no_test(cli, tmp_path):
    _eval(cli, tmp_path / "ex", "--model", "oracle", "--option", "problems=critpt-example", "--repeats", "1")
    _eval(cli, tmp_path / "tut", "--model", "oracle", "--limit", "1", "--repeats", "1")
    _eval(cli, tmp_path / "c", "--model", "constant:x", "--limit", "1", "--repeats", "1")
    md, doc = _report(cli, tmp_path, tmp_path / "ex", tmp_path / "tut", tmp_path / "c")
    pw = doc["analyses"]["pairwise"]
    assert all(p["n"] > 0 for p in pw["pairs"]) and len(pw["pairs"]) == 1
    assert len(pw["untested"]) == 2 and "2 pairs share no graded item and are not tested" in md


def test_an_attempt_without_a_reply_counts_as_wrong_on_every_step(cli, tmp_path, mock_server):
    server = mock_server(faults=[{"match": "", "sequence": ["500"]}])
    r = cli("eval", "research", "--model", "openai/mock", "--base-url", server.base_url, "--protocol",
            "checkpoints-self", "--option", "problems=critpt-example", "--repeats", "1", "--max-attempts", "1",
            "--retry-delay", "0", "--run-dir", str(tmp_path / "run"), "--quiet")
    assert r.returncode == 1  # nothing graded
    md, doc = _report(cli, tmp_path, tmp_path / "run")
    a = doc["analyses"]["research"]
    (row,) = a["table3"]
    assert (row["columns"]["checkpoints-self"]["correct"], row["columns"]["checkpoints-self"]["n"]) == (0, 3)
    (tokens,) = a["tokens"]
    assert tokens["attempts"] == 1  # counted once, not once as a result and again as a failure
