"""The report opens with a verdict (issue 36, item 3): per kind, the scores and which models the
tests cannot tell apart, in plain words, for any set of runs; labels are short (item 4)."""

from __future__ import annotations

import pytest

from physbench.report.document import report_for
from physbench.report.html import render_html
from physbench.report.markdown import render_document
from physbench.runner.evaluate import EvalConfig, evaluate

CONSTANT = 'constant:\\boxed{100 cGy} ```json {"verdict": "correct", "first_error_step": null, "corrected_result": null}```'


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    base = tmp_path_factory.mktemp("verdict")
    runs = [("oracle", "oracle", None), ("nocalc", "nocalc", None), ("constant", CONSTANT, None),
            ("named", "constant:\\boxed{1 cGy}", "one cGy")]
    for name, spec, label in runs:
        evaluate(EvalConfig(suite="medphys", model=spec, limit=30, run_dir=str(base / name), quiet=True,
                            grade_inline=True, label=label))
    return report_for([str(base / name) for name, _, _ in runs], figures=False)


def test_the_report_opens_with_a_verdict_in_plain_words(report):
    first = report.sections[0]
    assert first.key == "verdict" and first.title == "Verdict"
    lines = [ln for ln in first.text.splitlines() if ln.startswith("- ")]
    assert [ln.split(":", 1)[0] for ln in lines] == ["- calculation", "- worksheet_check", "- result_check"]
    calc = lines[0]
    assert "oracle 15/15" in calc and "oracle is ahead of" in calc
    checks = lines[1]
    assert "cannot be told apart from" in checks and "McNemar" in checks


def test_the_verdict_rows_say_when_two_models_got_the_same_items(report):
    rows = {r["kind"]: r for r in report.doc["analyses"]["verdict"]}
    calc = {frozenset((p["first"], p["second"])): p for p in rows["calculation"]["pairs"]}
    assert all(isinstance(p["same_items"], bool) for r in rows.values() for p in r["pairs"])
    assert calc[frozenset(("oracle", "nocalc"))]["same_items"] is False


def test_long_specs_get_short_labels_with_the_whole_text_on_hover(report):
    labels = {m["label"]: m for m in report.doc["models"]}
    assert "one cGy" in labels  # --label
    long = next(m for m in report.doc["models"] if m["model_spec"] == CONSTANT)
    assert len(long["label"]) <= 32 and long["label"].endswith("…") and long["full_label"] == CONSTANT
    page = render_html(report.sections, {}, report.doc["models"])
    assert 'title="constant:\\boxed{100 cGy} ```json {&#34;verdict&#34;: &#34;correct&#34;' in page
    assert CONSTANT not in render_document(report.sections)  # the long text is never a table cell


def test_runs_that_share_no_items_are_said_to_be_not_compared():
    """Pairs without shared items are not tested (report/generic.pairwise leaves them out): the verdict
    says so instead of calling the models indistinguishable."""
    from physbench.report.verdict import kind_sentence, model_sentences

    row = {"kind": "calculation", "alpha": 0.05, "pairs": [],
           "models": [{"model": "a", "n_correct": 3, "n": 4}, {"model": "b", "n_correct": 1, "n": 4}]}
    assert "shares no items with b (not compared)" in kind_sentence(row)
    assert "cannot be told apart" not in kind_sentence(row)
    assert "no items in common with b 1/4 (not compared)" in model_sentences([row], "a")[0]
