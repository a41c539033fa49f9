"""Every clincalc arm end to end against the loopback OpenAI-compatible mock (003_* Appendix A.1,
Table 16): each run completes, and every request carries the arm's temperature and token cap and
never the seed."""

from __future__ import annotations

import json

import pytest

from physbench.suites.clincalc.arms import ARMS

EXTRACTION = '{"weight": [70, "kg"], "height": [170, "cm"]}'
TREE = '{"calculation": "x", "formula": "x = 1 + 2", "variables": {}, "missing": [], "tree": {"op": "+", "args": [1, 2]}}'
PROGRAM = "```python\ndef solve():\n    return 3\n```"
REPLIES = [{"match": "Do not calculate", "reply": EXTRACTION}, {"match": "expression tree", "reply": TREE},
           {"match": "solve()", "reply": PROGRAM}]

# the (temperature, max_tokens) pairs each arm may send on these four rows (library: row 1's calculator only)
EXPECTED = {
    "note-only": {(0.0, 4096)}, "note-only-gold": {(0.0, 4096)}, "page-without-formula": {(0.0, 4096)},
    "open-book-arithmetic": {(0.0, 4096)}, "extract-solve-library": {(0.0, 512)}, "gold-solve-library": set(),
    "extract-solve-recalled": {(0.7, 4096)}, "formulate-solve-tree": {(0.0, 2048)},
    "program-solve": {(0.0, 2048)}, "program-solve-syntax": {(0.0, 2048)}, "blind-program-solve": {(0.0, 1024)},
    "blind-vote": {(0.7, 1024)}, "blind-repair": {(0.0, 1024)}, "blind-repair-vote": {(0.7, 1024)},
    "gold-first-program": {(0.0, 2048)}, "gold-first-arithmetic": {(0.0, 4096)},
    "extract-first-program": {(0.0, 512), (0.0, 2048)}, "extract-first-arithmetic": {(0.0, 512), (0.0, 4096)},
}


def test_the_table_names_every_arm():
    assert set(EXPECTED) == set(ARMS)


@pytest.mark.parametrize("arm", sorted(ARMS))
def test_each_arm_runs_against_the_loopback_mock_with_its_own_settings(cli, tmp_path, mock_server, arm):
    server = mock_server(reply="Step one.\nFinal answer: 3", replies=REPLIES, record=True)
    subset = tmp_path / "library.txt"
    subset.write_text("2\n")  # row 1's calculator (Cockcroft-Gault) only
    model = [] if arm == "gold-solve-library" else ["--model", "openai/mock", "--base-url", server.base_url]
    r = cli("eval", "clincalc", "--arm", arm, *model, "--limit", "4", "--repeats", "2",
            "--library-subset", str(subset), "--run-dir", str(tmp_path / "run"), "--quiet", "--json")
    assert r.returncode == 0, r.stderr
    s = json.loads(r.stdout)
    assert (s["n_done"], s["n_errors"]) == (8, 0)
    assert sum(s["outcomes"].values()) == 8
    bodies = [json.loads(b) for b in server.bodies]
    assert {(b["temperature"], b["max_tokens"]) for b in bodies} == EXPECTED[arm]
    assert not any("seed" in b for b in bodies)
    if arm == "gold-solve-library":
        assert s["model"] == "none" and s["outcomes"]["abstained"] == 6  # outside the one-calculator library


def test_an_arm_that_asks_a_model_is_refused_the_none_model_before_the_run(cli, tmp_path):
    r = cli("eval", "clincalc", "--arm", "open-book-arithmetic", "--model", "none", "--limit", "1",
            "--run-dir", str(tmp_path / "run"), "--quiet", "--json")
    assert r.returncode == 2 and "asks a model" in r.stderr and not (tmp_path / "run").exists()


def test_the_gold_solve_library_needs_no_model_and_is_labelled_by_its_arm(cli, tmp_path):
    r = cli("eval", "clincalc", "--arm", "gold-solve-library", "--limit", "3",
            "--run-dir", str(tmp_path / "run"), "--quiet", "--json")
    assert r.returncode == 0, r.stderr
    s = json.loads(r.stdout)
    assert s["model"] == "none" and s["protocol"] == "gold-solve-library" and s["n_correct"] == 3


def test_an_unknown_arm_is_one_line_and_writes_nothing(cli, tmp_path):
    r = cli("eval", "clincalc", "--arm", "guess", "--run-dir", str(tmp_path / "run"))
    assert r.returncode == 2 and "unknown clincalc arm" in r.stderr and not (tmp_path / "run").exists()


def test_the_first_arm_names_still_run(cli, tmp_path):
    r = cli("eval", "clincalc", "--arm", "open-book", "--model", "oracle", "--limit", "2",
            "--run-dir", str(tmp_path / "run"), "--quiet", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["n_correct"] == 2


def test_a_missing_data_file_or_a_bad_library_subset_is_one_line_and_writes_nothing(cli, tmp_path):
    r = cli("eval", "clincalc", "--arm", "gold-solve-library", "--data", str(tmp_path / "none.csv"),
            "--run-dir", str(tmp_path / "a"))
    assert r.returncode == 2 and "no such data file" in r.stderr and not (tmp_path / "a").exists()
    bad = tmp_path / "ids.txt"
    bad.write_text("2, 999\n")
    r = cli("eval", "clincalc", "--arm", "gold-solve-library", "--library-subset", str(bad),
            "--run-dir", str(tmp_path / "b"))
    assert r.returncode == 2 and "999" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "b").exists()
