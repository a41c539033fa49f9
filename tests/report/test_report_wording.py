"""The report reads for a medical physicist who has not read the code: what was graded against what was
answered, plain plurals, papers named, generator codes expanded, no header-only or repeated tables, and the
share of replies cut off at the token limit in the first table."""

from __future__ import annotations

import re

import pytest

from physbench.report.document import report_for
from physbench.report.html import render_html
from physbench.report.markdown import md_table, render_document
from physbench.report.sections_generic import runs_section
from physbench.report.tables import Table
from physbench.runner.evaluate import EvalConfig, evaluate


@pytest.fixture(scope="module")
def small_report(tmp_path_factory):
    base = tmp_path_factory.mktemp("wording")
    dirs = []
    for name, model in (("oracle", "oracle"), ("const", "constant:\\boxed{1 MU}")):
        evaluate(EvalConfig(suite="medphys", split="dev", model=model, run_dir=str(base / name), quiet=True,
                            grade_inline=True, limit=30))
        dirs.append(str(base / name))
    rep = report_for(dirs, figures=False)
    return rep, render_document(rep.sections, captions=rep.captions)


def test_run_details_say_correct_of_graded_with_plain_plurals(small_report):
    _, md = small_report
    assert "1 repeats" not in md and "× 1 repeat)" in md
    assert "0 correct of 30 responses graded (30 planned: 30 items × 1 repeat)" in md
    assert "30 correct of 30 responses graded" in md


def test_papers_are_named_not_seed_numbers(small_report):
    _, md = small_report
    assert not re.search(r"[Ss]eed 00\d", md)
    assert "MedPhysBench paper, Table 2" in md or "MedPhysBench paper summarises a run in its Table 2" in md


def test_each_generator_code_is_expanded_once(small_report):
    _, md = small_report
    from physbench.suites.medphys.generators import available_generators

    shown = [g for g in available_generators() if f"\n| {g.name} | " in md]  # rows of the generator table
    assert shown
    for gen in shown:
        assert md.count(f"{gen.name} = {gen.title}") == 1


def test_medphys_runs_do_not_repeat_the_generator_level_table(small_report):
    _, md = small_report
    assert "Accuracy by group" not in md  # the suite's generator-by-level table already gives it
    assert "Accuracy by generator and level" in md


def test_a_table_without_rows_is_its_caption_and_none_never_a_bare_header():
    empty = Table("Every pair on its shared items.", ["first", "second", "p"], [])
    assert md_table(empty) == ["*Every pair on its shared items.* None.", ""]
    from physbench.report.tables import Section
    page = render_html([Section("pairs", "Pairs", "", [empty])], {}, [])
    assert "<th>first</th>" not in page and "Every pair on its shared items. None." in page


def test_the_first_table_gives_the_share_cut_off_at_the_token_limit():
    summary = {"run_id": "r", "suite": "medphys", "split": "dev", "protocol": "direct", "n_done": 30,
               "n_attempts": 30, "repeats": 1, "accuracy": 0.0, "ci_low": 0.0, "ci_high": 0.116,
               "outcomes": {"truncated": 25, "wrong": 5}}
    table = runs_section([summary], [{"label": "local"}]).tables[0]
    column = table.header.index("truncated")
    assert table.rows[0][column] == "25 (83.3%)"


def test_the_outcomes_section_defines_every_outcome(small_report):
    rep, md = small_report
    (outcomes,) = [s for s in rep.sections if s.key == "outcomes"]
    meanings = outcomes.tables[-1]
    assert meanings.header == ["outcome", "meaning"]
    assert {row[0] for row in meanings.rows} >= {"correct", "wrong", "stopped_short", "truncated", "no_answer"}


def test_the_per_run_summary_says_correct_of_graded_with_plain_plurals(small_report):
    from physbench.report.markdown import render_markdown

    rep, _ = small_report
    text = render_markdown(rep.doc["runs"])
    assert "0 correct of 30 responses graded (30 planned: 30 items × 1 repeat)" in text and "1 repeats" not in text


def test_the_readme_shows_the_checked_in_screenshots():
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    readme = (root / "README.md").read_text(encoding="utf-8")
    for name in ("report-1400.png", "report-1000.png", "viewer-1400.png", "viewer-1000.png"):
        shot = root / "docs" / "screenshots" / name
        assert f"docs/screenshots/{name}" in readme
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size < 300_000
