"""`physbench research ...`: JSON output, one-line errors with exit 2."""

from __future__ import annotations

import json

from physbench.suites.research.problem import shipped_dir

QED = str(shipped_dir() / "qed_422_depolarising.json")


def test_validate_and_list_print_json(cli):
    r = cli("research", "validate", str(shipped_dir()), "--json")
    assert r.returncode == 0 and len(json.loads(r.stdout)["problems"]) >= 6
    r = cli("research", "list", "--json")
    assert r.returncode == 0 and {"qed_422_depolarising", "ising_ring6"} <= {p["id"] for p in json.loads(r.stdout)}


def test_a_bad_problem_file_is_one_line_and_exit_2(cli, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"id": "x", "title": "t"}')
    r = cli("research", "validate", str(bad))
    assert r.returncode == 2 and r.stderr.strip().count("\n") == 0 and "bad.json" in r.stderr


def test_grade_responses_regrades_each_line(cli, tmp_path):
    lines = [{"id": "a", "response": "```python\ndef answer():\n    return 18\n```"},
             {"id": "b", "response": "```python\ndef answer():\n    return 17\n```"},
             {"id": "c", "response": "no code"}]
    f = tmp_path / "r.jsonl"
    f.write_text("\n".join(json.dumps(x) for x in lines))
    r = cli("research", "grade", QED, "--step", "checkpoint-2", "--responses", str(f), "--json")
    got = [json.loads(x) for x in r.stdout.splitlines()]
    assert [(g["id"], g["outcome"]) for g in got] == [("a", "correct"), ("b", "wrong"), ("c", "no_code")]


def test_check_passes_a_shipped_problem(cli):
    r = cli("research", "check", QED, "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["ok"] is True
