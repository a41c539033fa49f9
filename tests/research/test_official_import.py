"""`physbench research import`: CritPt's official formats (notebook, JSON form, parquet) become problem
files that keep the official ids, text, templates and public answers; private answers are `ungraded`."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from physbench.suites.research.importer import DEFAULT_ASSUMPTIONS, import_release
from physbench.suites.research.problem import Ceilings, load_problem, load_set, shipped_dir
from tests.research.critpt_fixture import SECRET, notebook, private_challenge, write_release


def _imported(tmp_path: Path) -> Path:
    out = tmp_path / "problems"
    written, errors = import_release(write_release(tmp_path / "data"), out)
    assert not errors and len(written) == 3
    return out


def test_a_notebook_keeps_ids_setup_questions_templates_tags_and_answers(tmp_path):
    p = load_problem(_imported(tmp_path) / "two_level.json")
    assert p.areas == ("Condensed Matter Physics",)
    assert "splitting $2g$" in p.setup and "take $\\hbar = 1$" in p.setup
    steps = [p.challenge, *p.checkpoints]
    assert [s.official_id for s in steps] == ["two_level_main", "two_level_sub_0", "two_level_sub_1"]
    assert "ground-state energy" in p.challenge.question and "How many levels" in p.checkpoints[0].question
    assert p.challenge.template.startswith("import sympy as sp") and "def answer(g)" in p.challenge.template
    assert p.challenge.answer.expr == "-g" and p.checkpoints[0].answer.value == 2
    assert p.checkpoints[1].answer.expr.replace(" ", "") == "4*g**2"
    assert p.checkpoints[1].answer_text == "$4g^2$"


def test_the_detailed_solution_enters_no_step(tmp_path):
    raw = (_imported(tmp_path) / "two_level.json").read_text()
    assert SECRET not in raw


def test_a_symbol_without_stated_assumptions_gets_the_documented_default_and_stated_ones_are_kept(tmp_path):
    p = load_problem(_imported(tmp_path) / "two_level.json")
    assert p.challenge.answer.symbols.assumptions == {"g": DEFAULT_ASSUMPTIONS}
    nb = notebook()
    nb["cells"][5]["source"] = ["".join(nb["cells"][5]["source"]).replace("sp.symbols('g')",
                                                                           "sp.symbols('g', negative=True)")]
    nb["cells"][8]["source"] = ["E = g"]
    src = tmp_path / "stated"
    src.mkdir()
    (src / "stated.ipynb").write_text(json.dumps(nb))
    import_release(src, tmp_path / "out2")
    q = load_problem(tmp_path / "out2" / "stated.json")
    assert q.challenge.answer.symbols.assumptions == {"g": {"negative": True}}


def test_a_private_answer_imports_as_unknown_with_no_checkpoints(tmp_path):
    p = load_problem(_imported(tmp_path) / "Challenge_1.json")
    assert p.challenge.answer is None and not p.challenge.graded and p.checkpoints == ()
    assert p.challenge.official_id == "Challenge_1_main"
    assert p.setup.startswith("# Problem setup:") and p.challenge.question == "# Main problem:\nGive the coefficients."


def test_each_unreadable_file_is_one_line_and_the_rest_are_written(cli, tmp_path):
    data = write_release(tmp_path / "data")
    (data / "broken.json").write_text("{not json")
    nb = notebook()
    nb["cells"] = [c for c in nb["cells"] if "Main problem" not in "".join(c["source"])]
    (data / "no_main.ipynb").write_text(json.dumps(nb))
    r = cli("research", "import", str(data), "--out", str(tmp_path / "out"))
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 2 and any("broken.json" in x and "not JSON" in x for x in lines)
    assert any("no_main.ipynb" in x and "Main problem" in x for x in lines)
    assert sorted(p.name for p in (tmp_path / "out").glob("*.json")) == ["Challenge_1.json", "Challenge_2.json",
                                                                         "two_level.json"]


def test_parquet_rows_import_like_the_json_form(tmp_path):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    rows = [dict(p, metadata=json.dumps(p["metadata"])) for i in (3, 4)
            for p in private_challenge(f"Challenge_{i}")["problems"]]
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "train.parquet")
    written, errors = import_release(tmp_path / "train.parquet", tmp_path / "out")
    assert not errors and [p.name for p in written] == ["Challenge_3.json", "Challenge_4.json"]
    assert load_problem(written[0]).challenge.official_id == "Challenge_3_main"


def test_the_shipped_example_is_the_official_challenge_with_its_licence():
    folder = shipped_dir("critpt-example")
    assert "Apache License" in (folder / "LICENSE.txt").read_text() and (folder / "NOTICE.md").is_file()
    [p] = load_set("critpt-example")
    assert p.challenge.official_id == "quantum_error_correction_main" and len(p.checkpoints) == 3
    assert all(s.graded for s in (p.challenge, *p.checkpoints))


def test_the_example_scores_four_of_four_steps_with_the_oracle(cli, tmp_path):
    steps = []
    for protocol in ("two-step", "checkpoints-oracle"):
        r = cli("eval", "research", "--model", "oracle", "--protocol", protocol, "--option", "problems=critpt-example",
                "--repeats", "1", "--run-dir", str(tmp_path / protocol), "--quiet", "--json")
        assert r.returncode == 0, r.stderr
        with sqlite3.connect(tmp_path / protocol / "store.sqlite") as conn:
            steps += [s for (g,) in conn.execute("SELECT grade_json FROM attempts") for s in json.loads(g)["detail"]["steps"]]
    assert [s["outcome"] for s in steps] == ["correct"] * 4


def test_unknown_answers_are_ungraded_and_counted_apart(cli, tmp_path):
    out = _imported(tmp_path)
    r = cli("eval", "research", "--model", "oracle", "--option", f"problems={out}", "--repeats", "1",
            "--run-dir", str(tmp_path / "run"), "--quiet", "--json")
    assert r.returncode == 0, r.stderr
    s = json.loads(r.stdout)
    assert s["protocol"] == "two-step" and s["outcomes"]["ungraded"] == 2 and s["n_ungraded"] == 2
    assert s["n_correct"] == 1 and s["accuracy"] == 1.0  # the one known challenge; the two private ones apart


def test_limits_a_problem_asks_for_are_capped_by_the_ceilings_and_reported(cli, tmp_path):
    d = json.loads((shipped_dir() / "qed_422_depolarising.json").read_text())
    d["challenge"]["limits"] = {"wall_s": 600, "memory_mb": 65536}
    (tmp_path / "greedy.json").write_text(json.dumps(d))
    step = load_problem(tmp_path / "greedy.json").challenge
    assert (step.wall_s, step.memory_mb) == (Ceilings().wall_s, Ceilings().memory_mb) and step.asked_limits == (600, 65536)
    raised = load_problem(tmp_path / "greedy.json", Ceilings(600, 65536)).challenge
    assert (raised.wall_s, raised.memory_mb) == (600, 65536) and raised.asked_limits is None
    r = cli("research", "validate", str(tmp_path), "--json")
    [row] = json.loads(r.stdout)["problems"]
    assert row["limits_capped"] == [{"step": "challenge", "asked": [600.0, 65536], "used": [60.0, 4096]}]
