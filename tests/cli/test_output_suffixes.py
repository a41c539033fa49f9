"""Unknown `--out` suffixes are refused alike by every command that writes a file (issue 36, item 8):
one line, exit 2, nothing written (export wrote JSONL to items.xlsx, synth CSV to synth.xlsx)."""

from __future__ import annotations

import pytest

from physbench.runner.evaluate import EvalConfig, evaluate


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    path = tmp_path_factory.mktemp("suffix") / "run"
    evaluate(EvalConfig(suite="medphys", model="oracle", limit=2, run_dir=str(path), quiet=True, grade_inline=True))
    return path


@pytest.mark.parametrize("command, listed", [
    (["export", "medphys", "--limit", "2"], ".jsonl or .parquet"),
    (["clincalc", "synth", "--per-calculator", "1"], ".csv or .parquet"),
    (["report", "RUN"], ".htm or .html or .json or .md"),
    (["export-results", "RUN"], ".jsonl or .parquet"),
])
@pytest.mark.parametrize("name", ["out.xlsx", "out.pdf"])
def test_an_unknown_suffix_is_one_line_and_nothing_is_written(cli, tmp_path, run_dir, command, listed, name):
    target = tmp_path / name
    r = cli(*[str(run_dir) if a == "RUN" else a for a in command], "--out", str(target))
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert r.stderr.count("\n") == 1 and f"unknown suffix {target.suffix!r}; give a {listed} file" in r.stderr
    assert not target.exists()


def test_a_format_that_contradicts_the_suffix_is_refused(cli, tmp_path):
    r = cli("export", "medphys", "--limit", "2", "--out", str(tmp_path / "a.jsonl"), "--format", "parquet")
    assert r.returncode == 2 and "does not match" in r.stderr and not (tmp_path / "a.jsonl").exists()
