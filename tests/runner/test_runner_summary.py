"""The basic report's numbers: exact intervals as the seed prints them; progress lines for logs."""

from __future__ import annotations

import io

import pytest

from physbench.report.intervals import exact_interval
from physbench.report.markdown import interval_text
from physbench.report.summary import accuracy_cell
from physbench.runner.progress import PlainProgress, Tally, attempt_tokens, make_progress, status_text


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
    tally.done, tally.tokens = 2, 1000
    progress.update(tally)
    tally.errors, tally.tokens = 1, 1234
    progress.update(tally)  # the last attempt: its line is left to close()
    progress.close(tally)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 2 and lines[0].startswith("physbench: fixture x oracle: 3/4 (75%)")
    assert lines[-1].startswith("physbench: fixture x oracle: 4/4 (100%)")
    assert "1 errors, 1,234 tokens" in lines[-1]


def test_a_slow_run_prints_its_last_line_once():
    """Issue 16: with the local model every update passed the interval, so the last attempt's update
    and close() both printed the final line."""
    stream = io.StringIO()
    progress = PlainProgress(stream, "medphys x local", interval_s=0.0)
    tally = Tally(total=2)
    for _ in range(2):
        tally.done += 1
        progress.update(tally)
    progress.close(tally)
    finals = [line for line in stream.getvalue().splitlines() if ": 2/2 (100%)" in line]
    assert len(finals) == 1, stream.getvalue()


@pytest.mark.parametrize("width", [30, 40, 60, 80, 120])
def test_the_status_keeps_its_count_whole_at_any_width(width):
    """Issue 16: at 80 columns the count was cut; now it comes first and other fields give way."""
    tally = Tally(total=12_000, done_before=9_000)
    tally.done, tally.errors, tally.tokens = 2_345, 17, 123_456_789
    label = "medphys x openai/meta-llama/Llama-3.3-70B-Instruct-Turbo"
    text = status_text(label, tally, width)
    assert text.startswith("11362/12000 (95%)")
    assert len(text) <= width
    if width >= 120:
        assert "123,456,789 tokens" in text and "medphys x" in text


def test_a_narrow_status_drops_the_label_before_the_numbers():
    tally = Tally(total=30, done=3, started=0.0, stopped=2.0)
    text = status_text("medphys x openai/a-very-long-model-name-indeed", tally, 60)
    assert text == "3/30 (10%), 1.50 items/s, 0 errors, 0 tokens - medphys x op…"
    assert text.startswith("3/30 (10%), ") and "errors" in text and "tokens" in text
    assert text.endswith("…") and len(text) == 60


def test_tokens_are_prompt_plus_completion_whatever_the_endpoint_says_in_total():
    assert attempt_tokens({"prompt_tokens": 10, "completion_tokens": 5}) == 15
    assert attempt_tokens({"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 99}) == 15
    assert attempt_tokens({}) == 0


def test_the_rate_is_over_the_interval_the_tally_was_stopped_at():
    tally = Tally(total=4, done=3, errors=1, started=100.0, stopped=102.0)
    assert tally.elapsed() == 2.0 and tally.rate() == 2.0


def test_progress_is_plain_when_not_a_terminal():
    assert isinstance(make_progress("x", io.StringIO()), PlainProgress)


@pytest.mark.parametrize("columns", ["40", "80"])
def test_the_terminal_bar_shows_the_count_within_the_width(monkeypatch, columns):
    from physbench.runner.progress import RichProgress

    monkeypatch.setenv("COLUMNS", columns)
    stream = io.StringIO()
    progress = RichProgress(stream, "medphys x openai/meta-llama/Llama-3.3-70B-Instruct-Turbo")
    tally = Tally(total=12_000, done_before=9_000)
    tally.done, tally.tokens = 2_345, 123_456_789
    progress.update(tally)
    progress.close(tally)
    lines = [line for line in stream.getvalue().splitlines() if line.strip()]
    assert lines and all(len(line) <= int(columns) for line in lines), lines
    assert "11345/12000 (95%)" in lines[-1]


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
