"""Every clincalc arm that asks a model, against the embedded local model (Gemma 3 270M) on ten cases
at a 48-token cap: each run completes and every case gets an outcome, whatever the small model
writes (slow; needs the `local` extra). The ten cases are the shipped one-shot rows with the shortest
Program-Solve prompts, and the library covers five of their calculators, so the library-first arms
take both routes; on two shared cores the whole set takes some minutes."""

from __future__ import annotations

import json

import pytest

from physbench.suites.clincalc.arms import ARMS

CASES = 10
MAX_TOKENS = 48
# the paper's arms; the official-style arms are single replies like open-book (test_official_prompts.py)
MODEL_ARMS = sorted(a for a in ARMS if ARMS[a].calls_model and not a.startswith("official-"))


@pytest.fixture(scope="module")
def short_cases(tmp_path_factory):
    """(a CSV of the ten rows with the shortest prompts, a library subset of the first five's calculators)."""
    from physbench.suites.clincalc.dataset import load_one_shot, write_csv
    from physbench.suites.clincalc.suite import SUITE

    rows = {r.row_number: r for r in load_one_shot().rows}
    items = SUITE.items(arm="program-solve")
    size = {int(it.params["row"]): sum(len(m.content) for m in it.messages) for it in items}
    chosen = sorted(rows, key=lambda n: (size[n], n))[:CASES]
    folder = tmp_path_factory.mktemp("short")
    write_csv([rows[n] for n in sorted(chosen)], folder / "short.csv")
    (folder / "library.txt").write_text(" ".join(str(rows[n].calculator_id) for n in sorted(chosen)[:5]))
    return folder / "short.csv", folder / "library.txt"


def test_the_local_set_covers_every_arm_that_asks_a_model():
    assert len(MODEL_ARMS) == len(ARMS) - 4 == 17  # less the Gold-Solve library and the three official styles


@pytest.mark.slow
@pytest.mark.parametrize("arm", MODEL_ARMS)
def test_every_arm_runs_end_to_end_on_the_local_model(cli, tmp_path, short_cases, arm):
    pytest.importorskip("llama_cpp")
    from physbench.runner.store import open_run

    data, library = short_cases
    run = tmp_path / "run"
    r = cli("eval", "clincalc", "--arm", arm, "--model", "local", "--data", str(data), "--library-subset",
            str(library), "--max-tokens", str(MAX_TOKENS), "--run-dir", str(run), "--quiet", "--json")
    assert r.returncode == 0, r.stderr
    s = json.loads(r.stdout)
    assert (s["n_items"], s["n_done"], s["n_errors"]) == (CASES, CASES, 0), s["errors"]
    assert sum(s["outcomes"].values()) == CASES
    with open_run(run) as reader:
        calls = reader.manifest.sampling["calls"]
        graded = [res for res in reader.results() if res.grade is not None]
    assert calls and all(c["max_tokens"] == MAX_TOKENS for c in calls.values())
    assert len(graded) == CASES
