"""Issue 33 item 5: an attempt that ends without a model reply after its retries is no credit in
every headline and table, the report says how many, and a suite's declared retry policy is kept."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "runner"))

import fixture_suite  # noqa: E402  (registers the suite "fixture")

from physbench.core import register  # noqa: E402
from physbench.core.registry import unregister  # noqa: E402
from physbench.report.document import build_report  # noqa: E402
from physbench.report.loading import load_runs  # noqa: E402
from physbench.report.markdown import render_document, render_markdown  # noqa: E402
from physbench.runner.evaluate import EvalConfig, evaluate  # noqa: E402
from physbench.runner.store import open_run  # noqa: E402

# three items the mock answers rightly (even calculations, a check) never get a reply
DEAD = ("dev/calc/0:", "dev/calc/2:", "dev/worksheet_check/1:")


def _run(mock_server, run_dir, suite="fixture", server=None, **kw):
    server = server or mock_server(faults=[{"match": m, "sequence": ["503"]} for m in DEAD])
    config = EvalConfig(suite=suite, model="openai/mock", base_url=server.base_url, run_dir=str(run_dir),
                        concurrency=4, quiet=True, retry_delay_s=0.0, timeout_s=5.0, **kw)
    return evaluate(config), server


def test_failed_attempts_are_no_credit_in_the_run_summary(mock_server, tmp_path):
    """12 items, 8 of them answered rightly when they are answered; 3 of those 8 never get a reply:
    5 correct of 12 (41.7%), not 5 of the 9 graded (55.6%) as when failures were dropped."""
    result, _ = _run(mock_server, tmp_path / "run", max_attempts=2)
    s = result.summary
    assert (s["n_done"], s["n_failed"], s["n_scored"], s["n_correct"]) == (9, 3, 12, 5)
    assert s["accuracy"] == pytest.approx(5 / 12)
    assert s["outcomes"]["failed"] == 3
    by_kind = {c["name"]: c for c in s["by_kind"]}
    assert (by_kind["calculation"]["n"], by_kind["calculation"]["n_correct"]) == (8, 2)
    assert (by_kind["worksheet_check"]["n"], by_kind["worksheet_check"]["n_correct"]) == (2, 1)
    assert sum(c["n"] for c in s["by_group"]) == 12


def test_every_generic_table_keeps_failed_attempts_in_its_denominator(mock_server, tmp_path):
    _run(mock_server, tmp_path / "a", max_attempts=1)
    runset = load_runs([tmp_path / "a"])
    run = runset.models[0]
    failed = [r for r in run.results if r.grade is not None and r.grade.outcome == "failed"]
    assert len(run.results) == 12 and len(failed) == 3
    assert all(not r.grade.passed and r.grade.score == 0 and r.grade.detail["failure"] for r in failed)
    report = build_report(runset, figures=False)
    (row,) = [r for r in report.doc["analyses"]["outcomes"] if r["kind"] == "calculation"]
    assert row["n"] == 8 and row["outcomes"]["failed"] == 2
    md = render_document(report.sections)
    assert "no reply from the model after its retries" in md  # the outcome's meaning is listed
    assert "12 attempts (9 graded, 3 without a reply after its retries: no credit)" in md
    basic = render_markdown([run.summary])
    assert "3 without a reply" in basic and "41.7" in basic


def test_the_results_export_has_a_row_for_every_failed_attempt(mock_server, tmp_path, cli):
    _run(mock_server, tmp_path / "run", max_attempts=1)
    out = tmp_path / "results.jsonl"
    r = cli("export-results", str(tmp_path / "run"), "--out", str(out))
    assert r.returncode == 0, r.stderr
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 12
    failed = sorted(row["item_id"] for row in rows if row["outcome"] == "failed")
    assert failed == sorted(m.rstrip(":") for m in DEAD)
    assert all(row["passed"] is False and row["score"] == 0 for row in rows if row["outcome"] == "failed")


@pytest.fixture
def no_retry_suite():
    """The fixture suite declaring a paper's policy of no retries (as OpenGray Table S16)."""
    from physbench.runner.retry import DeclaredRetries

    suite = fixture_suite.FixtureSuite()
    suite.name = "fixture-no-retries"
    suite.retry_policy = DeclaredRetries(max_attempts=1, source="OpenGray Table S16")
    register(suite)
    yield "fixture-no-retries"
    unregister("fixture-no-retries")


def test_a_suite_that_declares_no_retries_gets_one_try_and_keeps_its_failures(mock_server, tmp_path, no_retry_suite):
    result, server = _run(mock_server, tmp_path / "run", suite=no_retry_suite)
    assert server.requests["503"] == 3  # one try per dead item, where the default policy makes 6
    assert result.summary["n_failed"] == 3
    with open_run(tmp_path / "run") as reader:
        assert reader.manifest.options["max_attempts"] == 1
        assert reader.manifest.options["retry_policy"] == "OpenGray Table S16"
    again, _ = _run(mock_server, tmp_path / "run", suite=no_retry_suite, server=server)
    assert again.attempted == 0 and server.requests["503"] == 3  # a re-run does not retry them either
    assert again.summary["n_failed"] == 3 and again.summary["accuracy"] == pytest.approx(5 / 12)


def test_the_user_can_still_ask_for_retries_over_a_declared_policy(mock_server, tmp_path, no_retry_suite):
    result, server = _run(mock_server, tmp_path / "run", suite=no_retry_suite, max_attempts=2)
    assert server.requests["503"] == 6 and result.summary["n_failed"] == 3
    with open_run(tmp_path / "run") as reader:
        assert "retry_policy" not in reader.manifest.options


def test_a_failed_attempt_is_not_a_completed_medphys_response(mock_server, tmp_path):
    """Seed 000 § 6.4 also reports accuracy over completed responses: an attempt without a reply is not one."""
    from physbench.suites.medphys.report.analyses import completed

    _run(mock_server, tmp_path / "run", max_attempts=1)
    run = load_runs([tmp_path / "run"]).models[0]
    assert [completed(r) for r in run.results].count(False) == 3


def test_research_steps_count_attempts_without_a_reply(mock_server, tmp_path):
    """Every request fails: each step of each problem is run once and counts as not solved, where the
    research tables used to hold no row at all ("no graded research responses")."""
    server = mock_server(faults=[{"match": "", "sequence": ["503"]}])
    config = EvalConfig(suite="research", protocol="two-step", model="openai/mock", base_url=server.base_url,
                        run_dir=str(tmp_path / "run"), quiet=True, retry_delay_s=0.0, max_attempts=1, limit=2,
                        repeats=1)
    assert evaluate(config).summary["n_failed"] == 2
    report = build_report(load_runs([tmp_path / "run"]), figures=False)
    research = report.doc["analyses"]["research"]
    assert [(row["n"], row["n_correct"]) for row in research["steps"]] == [(1, 0), (1, 0)]
    assert research["metrics"][0]["average_accuracy"] == 0.0


def test_clincalc_tables_count_an_attempt_without_a_reply_as_no_answer(mock_server, tmp_path):
    """Table 14 (right / wrong / none) puts a failed attempt under none, and Table 8's accuracy on attempted
    rows leaves it out, as it does an abstention; the overall accuracy keeps it in the denominator."""
    server = mock_server(faults=[{"match": "", "sequence": ["503"]}])
    config = EvalConfig(suite="clincalc", protocol="open-book-arithmetic", model="openai/mock",
                        base_url=server.base_url, run_dir=str(tmp_path / "run"), quiet=True, retry_delay_s=0.0,
                        max_attempts=1, limit=3, repeats=1)
    assert evaluate(config).summary["n_failed"] == 3
    clincalc = build_report(load_runs([tmp_path / "run"]), figures=False).doc["analyses"]["clincalc"]
    full = next(r for r in clincalc["outcome_sets"] if r["set"] == "full")
    assert (full["rows"], full["right"], full["wrong"], full["none"]) == (3, 0.0, 0.0, 1.0)
    (table8,) = clincalc["program_outcomes"]
    assert table8["rows"] == 3 and table8["accuracy"] == 0.0 and table8["attempted_accuracy"] is None
