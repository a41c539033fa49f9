"""A report on runs of several suites (issue 36, item 7): each suite's sections grouped under a
heading of its own, no two sections with one title, and small cells printed as counts."""

from __future__ import annotations

import re

import pytest

from physbench.report.breakdown import share_cell
from physbench.report.document import report_for
from physbench.report.markdown import render_document
from physbench.runner.evaluate import EvalConfig, evaluate


@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    base = tmp_path_factory.mktemp("mixed")
    runs = [("med", dict(suite="medphys", model="oracle", limit=6)),
            ("cc", dict(suite="clincalc", item_options=(("arm", "gold-solve-library"), ("data", "one-shot")),
                        limit=6))]
    for name, options in runs:
        evaluate(EvalConfig(run_dir=str(base / name), quiet=True, grade_inline=True, **options))
    return report_for([str(base / name) for name, _ in runs], figures=False)


def test_no_two_sections_share_a_title(mixed):
    titles = [s.title for s in mixed.sections]
    assert len(titles) == len(set(titles)), [t for t in titles if titles.count(t) > 1]
    assert "Outcomes" in titles and "Outcomes (clincalc)" in titles


def test_each_suites_sections_sit_under_its_own_heading(mixed):
    keys = [s.key for s in mixed.sections]
    med, cc = keys.index("part-medphys"), keys.index("part-clincalc")
    assert med < cc
    assert all(s.level == 3 for s in mixed.sections[med + 1:cc])
    assert "accuracy" in keys[med + 1:cc] and "clincalc-outcomes" in keys[cc + 1:]
    md = render_document(mixed.sections)
    assert "\n## medphys suite\n" in md and "\n### Calculation accuracy\n" in md
    assert "\n## Outcomes\n" in md and "\n### Outcomes (clincalc)\n" in md


def test_small_cells_are_counts_and_large_ones_carry_the_interval(mixed):
    md = render_document(mixed.sections)
    assert not re.search(r"\d+/1: \d", md)  # no "0/1: 0.0 (0.0–97.5)"
    assert share_cell({"n": 1, "n_correct": 0, "accuracy": 0.0, "ci_low": 0.0, "ci_high": 0.975}) == "0/1"
    assert share_cell({"n": 20, "n_correct": 12, "accuracy": 0.6, "ci_low": 0.361, "ci_high": 0.809}) == \
        "12/20: 60.0 (36.1–80.9)"
