"""Two clincalc arms against the embedded local model (Gemma 3 270M) on ten cases: every attempt is
answered and graded, whatever the small model writes (slow; needs the `local` extra)."""

from __future__ import annotations

import json

import pytest


@pytest.mark.slow
@pytest.mark.parametrize("arm", ["extract-solve-library", "program-solve"])  # open-book-arithmetic: 4,096-token cap, too slow on a CPU
def test_an_arm_runs_end_to_end_on_the_local_model(cli, tmp_path, arm):
    pytest.importorskip("llama_cpp")
    r = cli("eval", "clincalc", "--arm", arm, "--model", "local", "--limit", "10",
            "--run-dir", str(tmp_path / "run"), "--quiet", "--json")
    assert r.returncode == 0, r.stderr
    s = json.loads(r.stdout)
    assert (s["n_done"], s["n_errors"]) == (10, 0)
    assert sum(s["outcomes"].values()) == 10
