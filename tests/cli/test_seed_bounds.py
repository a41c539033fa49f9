"""Seeds outside 0..MAX_SEED are one line naming the seed and exit 2 (issue 16: `-1` was read as an
unknown option, and a 23-digit seed was taken as it stood)."""

from __future__ import annotations

import pytest

from physbench.core.seeds import MAX_SEED

HUGE = "1" * 23


def _one_line(r) -> str:
    assert r.returncode == 2, (r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("physbench: error: "), r.stderr
    return lines[0]


@pytest.mark.parametrize("seed", ["-1", HUGE])
def test_a_medphys_item_seed_out_of_range_names_the_seed(cli, seed):
    line = _one_line(cli("medphys", "item", "tg51", "1", seed))
    assert "seed must be between 0 and" in line and "No such option" not in line


def test_the_largest_seed_still_builds_an_item(cli):
    r = cli("medphys", "item", "tg51", "1", str(MAX_SEED), "--json")
    assert r.returncode == 0 and f"/{MAX_SEED}" in r.stdout


@pytest.mark.parametrize("seed", ["-1", HUGE])
def test_an_eval_seed_out_of_range_is_refused_before_the_run(cli, tmp_path, seed):
    run = tmp_path / "run"
    line = _one_line(cli("eval", "medphys", "--model", "oracle", "--limit", "1", "--seed", seed,
                         "--run-dir", str(run), "--quiet"))
    assert "--seed must be between 0 and" in line
    assert not run.exists()


@pytest.mark.parametrize("seed", ["-1", HUGE])
def test_a_synth_seed_out_of_range_writes_nothing(cli, tmp_path, seed):
    out = tmp_path / "synth.csv"
    line = _one_line(cli("clincalc", "synth", "--out", str(out), "--per-calculator", "1", "--seed", seed))
    assert "--seed must be between 0 and" in line
    assert not out.exists()


def test_a_negative_number_where_an_option_could_stand_says_so(cli):
    line = _one_line(cli("clincalc", "compute", "-3", "--entities", "{}"))
    assert "negative number" in line
