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
    "official-direct": {(0.0, 4096)}, "official-zero-shot": {(0.0, 4096)}, "official-one-shot": {(0.0, 4096)},
}

# what the manifest records for each kind of call (Table 16); the recalled arm's extraction is not
# reached on these rows, so its requests show only the samples
NOTE, EXTRACT, TREE_CALL = (0.0, 4096), (0.0, 512), (0.0, 2048)
CALLS = {
    "note-only": {"answer": NOTE}, "note-only-gold": {"answer": NOTE}, "page-without-formula": {"answer": NOTE},
    "open-book-arithmetic": {"answer": NOTE}, "extract-solve-library": {"extraction": EXTRACT},
    "gold-solve-library": None, "extract-solve-recalled": {"sample": (0.7, 4096), "extraction": EXTRACT},
    "formulate-solve-tree": {"tree": TREE_CALL}, "program-solve": {"program": (0.0, 2048)},
    "program-solve-syntax": {"program": (0.0, 2048)}, "blind-program-solve": {"program": (0.0, 1024)},
    "blind-vote": {"sample": (0.7, 1024)}, "blind-repair": {"program": (0.0, 1024)},
    "blind-repair-vote": {"sample": (0.7, 1024)}, "gold-first-program": {"program": (0.0, 2048)},
    "gold-first-arithmetic": {"answer": NOTE}, "extract-first-program": {"extraction": EXTRACT, "program": (0.0, 2048)},
    "extract-first-arithmetic": {"extraction": EXTRACT, "answer": NOTE},
    "official-direct": {"answer": NOTE}, "official-zero-shot": {"answer": NOTE}, "official-one-shot": {"answer": NOTE},
}


def test_the_tables_name_every_arm():
    assert set(EXPECTED) == set(ARMS) == set(CALLS)


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
    sampling = _manifest_sampling(tmp_path / "run")
    assert (sampling["temperature"], sampling["max_tokens"]) == (None, None)  # no user flags
    calls = sampling.get("calls")  # the gold-solve library calls no model: no calls recorded
    assert (None if calls is None else {k: (c["temperature"], c["max_tokens"]) for k, c in calls.items()}) == CALLS[arm]
    if arm == "gold-solve-library":
        assert s["model"] == "none" and s["outcomes"]["abstained"] == 6  # outside the one-calculator library


def _manifest_sampling(run_dir):
    from physbench.runner.store import open_run

    with open_run(run_dir) as reader:
        return reader.manifest.sampling


@pytest.mark.parametrize("arm", sorted(a for a in ARMS if ARMS[a].calls_model))
def test_the_user_s_temperature_and_token_cap_win_over_the_arm_s_and_the_manifest_says_so(
        cli, tmp_path, mock_server, arm):
    """`--temperature 0.3 --max-tokens 77`: every request of every kind of call carries them (greedy,
    sampled, extraction and program calls alike), and the manifest records them for each call."""
    server = mock_server(reply="Step one.\nFinal answer: 3", replies=REPLIES, record=True)
    subset = tmp_path / "library.txt"
    subset.write_text("2\n")
    r = cli("eval", "clincalc", "--arm", arm, "--model", "openai/mock", "--base-url", server.base_url,
            "--temperature", "0.3", "--max-tokens", "77", "--limit", "4", "--library-subset", str(subset),
            "--run-dir", str(tmp_path / "run"), "--quiet", "--json")
    assert r.returncode == 0, r.stderr
    bodies = [json.loads(b) for b in server.bodies]
    assert bodies and {(b["temperature"], b["max_tokens"]) for b in bodies} == {(0.3, 77)}
    sampling = _manifest_sampling(tmp_path / "run")
    assert (sampling["temperature"], sampling["max_tokens"]) == (0.3, 77)
    assert sampling["calls"] == {call: {"temperature": 0.3, "max_tokens": 77} for call in CALLS[arm]}


def test_one_user_flag_leaves_the_arm_s_other_setting_alone(cli, tmp_path, mock_server):
    """Only `--max-tokens 64` on Blind + vote: the five programs keep the arm's sampled temperature."""
    server = mock_server(reply="x", replies=REPLIES, record=True)
    r = cli("eval", "clincalc", "--arm", "blind-vote", "--model", "openai/mock", "--base-url", server.base_url,
            "--max-tokens", "64", "--limit", "2", "--run-dir", str(tmp_path / "run"), "--quiet", "--json")
    assert r.returncode == 0, r.stderr
    assert {(json.loads(b)["temperature"], json.loads(b)["max_tokens"]) for b in server.bodies} == {(0.7, 64)}
    assert _manifest_sampling(tmp_path / "run")["calls"] == {"sample": {"temperature": 0.7, "max_tokens": 64}}


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
