"""`physbench report`: accuracy with exact intervals overall, by kind and group; JSON; files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

LAUNCH = Path(__file__).resolve().parents[1] / "runner" / "launch.py"
sys.path.insert(0, str(LAUNCH.parent))

import fixture_suite  # noqa: E402,F401  (registers the suite "fixture")

from physbench.cli import main  # noqa: E402
from physbench.runner.evaluate import EvalConfig, evaluate  # noqa: E402


@pytest.fixture
def cli(capsys):
    """`physbench ARGS` in this process: (exit code, stdout, stderr)."""

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        with pytest.raises(SystemExit) as exit_:
            main(list(args))
        out = capsys.readouterr()
        return subprocess.CompletedProcess(args, exit_.value.code, out.out, out.err)

    return run


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    base = tmp_path_factory.mktemp("runs")
    oracle, constant = base / "oracle", base / "constant"
    evaluate(EvalConfig(suite="fixture", model="oracle", run_dir=str(oracle), quiet=True))
    evaluate(EvalConfig(suite="fixture", model="constant:\\boxed{1.018 cGy/MU}", run_dir=str(constant), quiet=True))
    return oracle, constant


def test_report_json_has_one_entry_per_run_with_exact_intervals(runs):
    r = subprocess.run([sys.executable, "-m", "physbench", "report", *map(str, runs), "--json"], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    oracle, constant = json.loads(r.stdout)["runs"]
    assert (oracle["model"], oracle["suite"], oracle["n_items"], oracle["n_done"], oracle["n_correct"]) == \
        ("oracle", "fixture", 12, 12, 12)
    assert oracle["accuracy"] == 1.0 and oracle["ci_high"] == 1.0
    assert oracle["ci_low"] == pytest.approx(0.7354, abs=1e-4)  # Clopper-Pearson 12/12: (0.05/2)^(1/12)
    # the constant answer is right for the one item whose reference it is (dev/calc/0, group gena/L1 = calc 0 and 6)
    assert constant["n_correct"] == 1 and constant["outcomes"]["correct"] == 1
    groups = {g["name"]: g for g in constant["by_group"]}
    assert groups["gena/L1"]["n"] == 2 and groups["gena/L1"]["n_correct"] == 1
    assert {k["name"] for k in oracle["by_kind"]} == {"calculation", "worksheet_check", "result_check"}


def test_report_markdown_goes_to_stdout_or_to_files(runs, tmp_path, cli):
    r = cli("report", str(runs[0]))
    assert r.returncode == 0 and "| calculation | 8 | 8 | 100.0 (63.1–100.0) |" in r.stdout
    out_dir = tmp_path / "report"
    r = cli("report", *map(str, runs), "--out", str(out_dir))
    assert r.returncode == 0, r.stderr
    assert json.loads((out_dir / "report.json").read_text())["runs"][1]["n_correct"] == 1
    assert "# physbench report" in (out_dir / "report.md").read_text()
    md = tmp_path / "one.md"
    assert cli("report", str(runs[0]), "--out", str(md)).returncode == 0 and md.read_text().startswith("# physbench")


def test_report_on_something_that_is_not_a_run_is_one_line_exit_2(tmp_path, cli):
    r = cli("report", str(tmp_path))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "not a physbench run directory" in r.stderr
