"""The short reply without an answer is `stopped_short` (the MedPhysBench paper's "interrupted"), stores
written under the old name read as the new one, and every outcome has one meaning the report shows."""

from __future__ import annotations

import json
import sqlite3

from physbench.grading.types import OUTCOME_MEANINGS, OUTCOMES, RENAMED_OUTCOMES, Grade, outcome_meaning
from physbench.report.document import report_for
from physbench.report.markdown import render_document
from physbench.report.loading import load_runs
from physbench.report.viewer_data import ResponseIndex
from physbench.runner.evaluate import EvalConfig, evaluate


def _short_run(tmp_path):
    run = tmp_path / "short"
    evaluate(EvalConfig(suite="medphys", split="dev", model="constant:I think", run_dir=str(run), quiet=True,
                        grade_inline=True, limit=6))
    return run


def _rename_to_old_name(run) -> int:
    """Write the store as a physbench before the rename did: outcome 'interrupted' in the column and the JSON."""
    conn = sqlite3.connect(run / "store.sqlite")
    rows = conn.execute("SELECT rowid, grade_json FROM attempts WHERE outcome = 'stopped_short'").fetchall()
    for rowid, text in rows:
        grade = json.loads(text)
        grade["outcome"] = "interrupted"
        conn.execute("UPDATE attempts SET grade_json = ?, outcome = 'interrupted' WHERE rowid = ?",
                     (json.dumps(grade), rowid))
    conn.commit()
    conn.close()
    return len(rows)


def test_a_short_reply_without_an_answer_is_stopped_short_not_interrupted():
    g = Grade.from_dict({"score": 0.0, "passed": False, "outcome": "interrupted"})
    assert g.outcome == "stopped_short"
    assert "interrupted" not in OUTCOMES and "stopped_short" in OUTCOMES
    assert set(RENAMED_OUTCOMES.values()) <= set(OUTCOMES)


def test_every_outcome_has_a_one_line_meaning():
    assert list(OUTCOME_MEANINGS) == list(OUTCOMES)
    for outcome in OUTCOMES:
        meaning = outcome_meaning(outcome)
        assert meaning and "\n" not in meaning and len(meaning) < 120
    assert outcome_meaning("no_decision") != outcome_meaning("ungraded")


def test_a_store_holding_the_old_name_reports_and_views_the_new_one(tmp_path):
    run = _short_run(tmp_path)
    assert _rename_to_old_name(run) == 6
    rep = report_for([str(run)], figures=False)
    (summary,) = rep.doc["runs"]
    assert summary["outcomes"]["stopped_short"] == 6 and "interrupted" not in summary["outcomes"]
    md = render_document(rep.sections)
    assert "interrupted" not in md
    assert f"| stopped_short | {OUTCOME_MEANINGS['stopped_short']} |" in md  # the definitions table
    index = ResponseIndex(load_runs([str(run)]))
    assert {e.facets["outcome"] for e in index.entries} == {"stopped_short"}
    assert index.meta()["outcomes"]["stopped_short"] == OUTCOME_MEANINGS["stopped_short"]
