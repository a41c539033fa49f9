"""The basic report's numbers: exact intervals as the seed prints them; progress lines for logs."""

from __future__ import annotations

import io

import pytest

from physbench.report.intervals import exact_interval
from physbench.report.markdown import interval_text
from physbench.report.summary import accuracy_cell
from physbench.runner.progress import PlainProgress, Tally, make_progress


@pytest.mark.parametrize("k, n, lo, hi", [(148, 150, 95.3, 99.8), (0, 75, 0.0, 4.8), (75, 75, 95.2, 100.0)])
def test_exact_intervals_match_the_seed_tables(k, n, lo, hi):
    """MedPhysBench (seed 000) prints 148/150 as 98.7 (95.3-99.8) and 0/75 as 0.0 (0.0-4.8)."""
    a, b = exact_interval(k, n)
    assert (round(100 * a, 1), round(100 * b, 1)) == (lo, hi)


def test_exact_intervals_agree_with_the_statistics_package():
    stats = pytest.importorskip("physbench.stats")
    for n in (1, 7, 30, 150):
        for k in range(0, n + 1, max(1, n // 7)):
            assert exact_interval(k, n) == pytest.approx(tuple(stats.clopper_pearson(k, n)), abs=1e-9)


def test_an_empty_cell_has_no_accuracy_rather_than_zero():
    cell = accuracy_cell("x", 0, 0)
    assert cell["accuracy"] is None and cell["ci_low"] is None and interval_text(cell) == "–"


def test_plain_progress_writes_periodic_lines_and_a_last_one():
    stream = io.StringIO()
    progress = PlainProgress(stream, "fixture x oracle", interval_s=0.0)
    tally = Tally(total=4, done_before=1)
    tally.done, tally.errors, tally.tokens = 2, 1, 1234
    progress.update(tally)
    progress.close(tally)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 2 and lines[-1].startswith("physbench: fixture x oracle: 4/4 (100%)")
    assert "1 errors, 1,234 tokens" in lines[-1]


def test_progress_is_plain_when_not_a_terminal():
    assert isinstance(make_progress("x", io.StringIO()), PlainProgress)


def test_the_summary_reads_the_attempt_columns_not_each_items_json(cli, tmp_path):
    """The end-of-run summary counts from the attempts' columns: with every stored item's JSON made
    unreadable, it is still the summary the run printed (a summary that decoded items would raise)."""
    import json
    import sqlite3

    from physbench.report.summary import summarise
    from physbench.runner.results import open_run

    run = tmp_path / "run"
    r = cli("eval", "medphys", "--model", "oracle", "--limit", "12", "--run-dir", str(run), "--quiet", "--json")
    assert r.returncode == 0, r.stderr
    printed = json.loads(r.stdout)
    conn = sqlite3.connect(run / "store.sqlite")
    conn.execute("UPDATE items SET item_json = 'not json'")
    conn.execute("UPDATE attempts SET grade_json = 'not json'")
    conn.commit()
    conn.close()
    with open_run(run) as reader:
        again = summarise(reader)
    assert again == {k: printed[k] for k in again} and again["n_done"] == 12 and len(again["by_kind"]) == 3
