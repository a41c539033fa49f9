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

from physbench.runner.evaluate import EvalConfig, evaluate  # noqa: E402


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


def test_out_dir_also_writes_a_self_contained_html_page_and_notes_sections_without_data(runs, tmp_path, cli):
    out_dir = tmp_path / "full"
    r = cli("report", *map(str, runs), "--out", str(out_dir))
    assert r.returncode == 0, r.stderr
    page = (out_dir / "report.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "<script" not in page and "<link" not in page
    assert "http://" not in page and "https://" not in page
    # the fixture suite registers no report of its own: the generic sections only, over every kind
    assert "Scores" not in page and "Calculation accuracy" not in page
    assert "Pairwise comparisons of accuracy" in page and "<td>oracle</td>" in page
    doc = json.loads((out_dir / "report.json").read_text())
    assert "medphys" not in doc["analyses"] and doc["analyses"]["pairwise"]["kind"] == "all"
    assert doc["analyses"]["pairwise"]["pairs"][0]["n"] == 12  # the fixture's eight calculations and four checks
    html_only = tmp_path / "page.html"
    assert cli("report", str(runs[0]), "--out", str(html_only)).returncode == 0
    assert html_only.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_a_bad_run_among_good_ones_is_one_line_exit_2_and_writes_nothing(runs, tmp_path, cli):
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "store.sqlite").write_bytes(b"this is not a database" * 100)
    out_dir = tmp_path / "never"
    for bad in (broken, tmp_path / "missing"):
        r = cli("report", str(runs[0]), str(bad), "--out", str(out_dir))
        assert r.returncode == 2 and r.stderr.count("\n") == 1 and r.stderr.startswith("physbench: error: "), r.stderr
        assert not out_dir.exists()
    a_file = tmp_path / "file"
    a_file.write_text("x")
    r = cli("report", str(runs[0]), "--out", str(a_file))
    assert r.returncode == 2 and "is not a directory" in r.stderr and a_file.read_text() == "x"


def test_out_with_a_json_suffix_writes_one_json_file(runs, tmp_path, cli):
    """Issue 16: `--out rep.json` (or rep.txt) made a folder of that name."""
    out = tmp_path / "rep.json"
    r = cli("report", *map(str, runs), "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert out.is_file() and json.loads(out.read_text())["runs"][0]["n_correct"] == 12
    html = tmp_path / "rep.html"
    assert cli("report", str(runs[0]), "--out", str(html)).returncode == 0
    assert html.is_file() and html.read_text().lstrip().lower().startswith("<!doctype html")


def test_out_with_an_unknown_suffix_is_one_line_and_writes_nothing(runs, tmp_path, cli):
    out = tmp_path / "rep.txt"
    r = cli("report", str(runs[0]), "--out", str(out))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "unknown suffix '.txt'" in r.stderr
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_out_names_a_folder_without_a_suffix_when_it_ends_with_a_slash_or_exists(runs, tmp_path, cli):
    dotted = tmp_path / "report-v1.2"
    assert cli("report", str(runs[0]), "--out", f"{dotted}/").returncode == 0
    assert (dotted / "report.json").is_file()
    existing = tmp_path / "old.md"
    existing.mkdir()
    assert cli("report", str(runs[0]), "--out", str(existing)).returncode == 0
    assert (existing / "report.md").is_file() and (existing / "report.html").is_file()


def test_report_files_get_the_mode_the_umask_gives(runs, tmp_path, cli):
    import os
    import stat

    saved = os.umask(0o022)
    try:
        out = tmp_path / "report"
        assert cli("report", str(runs[0]), "--out", str(out)).returncode == 0
        single = tmp_path / "one.md"
        assert cli("report", str(runs[0]), "--out", str(single)).returncode == 0
    finally:
        os.umask(saved)
    for path in (out / "report.md", out / "report.json", out / "report.html", single):
        assert stat.S_IMODE(path.stat().st_mode) == 0o644, path
