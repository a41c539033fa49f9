"""One hostile reply or file never stops a run (issue 33, item 6): a lone surrogate, a token count
of 10**30, a cost that overflows, JSON nested thousands deep, a key file that never ends. Each
is stored faithfully where it can be and sanitised where not, or refused in one line, exit 2."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from physbench.models.base import MAX_TOKENS
from physbench.runner.storable import REPLACEMENT

OPENAI = ["--model", "openai/mock", "--base-url", "http://127.0.0.1:9/v1"]  # never reached: the file is read first
DEEP = "[" * 100_000 + "]" * 100_000  # deeper than Python's recursion limit


def _strict_json(text: str) -> object:
    def refuse(constant: str) -> None:
        raise AssertionError(f"not JSON: bare {constant}")

    return json.loads(text, parse_constant=refuse)


def _one_line(r) -> str:  # noqa: ANN001
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in r.stderr, r.stderr
    return lines[0]


def _rows(run: Path) -> list[tuple]:
    conn = sqlite3.connect(run / "store.sqlite")
    try:
        return conn.execute("SELECT status, response_text, prompt_tokens, usage_json, cost FROM attempts").fetchall()
    finally:
        conn.close()


def _eval(cli, server, run: Path, *extra: str):  # noqa: ANN001, ANN202
    return cli("eval", "medphys", "--limit", "2", "--model", "openai/mock", "--base-url", server.base_url,
               "--run-dir", str(run), "--retry-delay", "0.01", "--json", *extra)


def test_a_reply_with_a_lone_surrogate_is_stored_and_the_run_completes_and_resumes(cli, mock_server, tmp_path):
    """JSON's "\\ud800" decodes to a lone surrogate, which UTF-8 cannot hold: once the grading
    process died on it and every resume met it again."""
    server = mock_server(reply="The dose is \ud800 \\boxed{1 cGy} \U0001F600")
    run = tmp_path / "run"
    r = _eval(cli, server, run)
    assert r.returncode == 0, r.stderr
    assert _strict_json(r.stdout)["n_done"] == 2
    rows = _rows(run)
    assert [row[0] for row in rows] == ["done", "done"]
    assert all(row[1] == f"The dose is {REPLACEMENT} \\boxed{{1 cGy}} \U0001F600" for row in rows)  # the emoji kept
    again = _eval(cli, server, run)
    assert again.returncode == 0, again.stderr
    assert _strict_json(again.stdout)["n_done"] == 2 and len(_rows(run)) == 2
    assert cli("report", str(run), "--out", str(tmp_path / "rep")).returncode == 0
    out = tmp_path / "results.jsonl"
    assert cli("export-results", str(run), "--out", str(out)).returncode == 0
    assert REPLACEMENT in out.read_text(encoding="utf-8")


@pytest.mark.parametrize("price, cost", [(1.0, MAX_TOKENS / 1e6), (1e300, None)], ids=["clamped", "overflowing"])
def test_a_token_count_of_10_to_the_30_is_clamped_and_eval_json_stays_json(cli, mock_server, tmp_path, price, cost):
    """10**30 prompt tokens once overflowed SQLite's INTEGER; a cost that overflows to infinity
    was printed by `eval --json` as a bare `Infinity`. Now the count is clamped to MAX_TOKENS and
    a cost that is not finite is unknown (null)."""
    server = mock_server(usage={"prompt_tokens": 10**30, "completion_tokens": 0})
    table = tmp_path / "prices.json"
    table.write_text(json.dumps({"*": {"input": price, "output": 0}}))
    run = tmp_path / "run"
    r = _eval(cli, server, run, "--price-table", str(table))
    assert r.returncode == 0, r.stderr
    summary = _strict_json(r.stdout)
    assert summary["n_done"] == 2
    rows = _rows(run)
    assert all(row[2] == MAX_TOKENS and json.loads(row[3])["prompt_tokens"] == MAX_TOKENS for row in rows)
    if cost is None:
        assert all(row[4] is None for row in rows)
        assert summary["cost_usd"] is None
    else:
        assert all(row[4] == pytest.approx(cost) for row in rows)
        assert summary["cost_usd"] == pytest.approx(2 * cost)


def test_a_replay_file_with_a_huge_token_count_is_clamped(cli, tmp_path):
    first = tmp_path / "first"
    assert cli("eval", "medphys", "--limit", "1", "--model", "oracle", "--run-dir", str(first)).returncode == 0
    (item_id,) = sqlite3.connect(first / "store.sqlite").execute("SELECT item_id FROM attempts").fetchone()
    replay = tmp_path / "replay.jsonl"
    replay.write_text(json.dumps({"id": item_id, "response": "\\boxed{1 MBq}",
                                  "usage": {"prompt_tokens": 10**30, "completion_tokens": 1}}) + "\n")
    run = tmp_path / "run"
    r = cli("eval", "medphys", "--limit", "1", "--model", f"replay:{replay}", "--run-dir", str(run), "--json")
    assert r.returncode == 0, r.stderr
    assert [row[:1] + row[2:3] for row in _rows(run)] == [("done", MAX_TOKENS)]


@pytest.mark.parametrize("what", ["replay", "price-table"])
def test_deeply_nested_json_in_a_replay_file_or_price_table_is_one_line_exit_2(cli, tmp_path, what):
    path = tmp_path / f"{what}.json"
    path.write_text(DEEP + "\n")
    args = ["--model", f"replay:{path}"] if what == "replay" else [*OPENAI, "--price-table", str(path)]
    line = _one_line(cli("eval", "medphys", "--limit", "1", "--run-dir", str(tmp_path / "run"), *args))
    assert "nested too deeply" in line
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("column", ["answer_json", "usage_json", "item_json"])
def test_deeply_nested_json_in_a_store_is_one_line_exit_2(cli, tmp_path, column):
    run = tmp_path / "run"
    assert cli("eval", "medphys", "--limit", "2", "--model", "oracle", "--run-dir", str(run)).returncode == 0
    conn = sqlite3.connect(run / "store.sqlite")
    table = "items" if column == "item_json" else "attempts"
    conn.execute(f"UPDATE {table} SET {column} = ?", (DEEP,))
    conn.commit()
    conn.close()
    assert "nested too deeply" in _one_line(cli("report", str(run), "--out", str(tmp_path / "rep")))
    assert "nested too deeply" in _one_line(cli("export-results", str(run), "--out", str(tmp_path / "r.jsonl")))
    assert not (tmp_path / "r.jsonl").exists()


@pytest.mark.parametrize("args", [
    ["medphys", "split", "test", "--key-file", "/dev/zero"],
    ["eval", "medphys", "--split", "test", "--key-file", "/dev/zero", "--model", "oracle"],
    ["eval", "medphys", "--model", "replay:/dev/zero"],
    ["eval", "medphys", *OPENAI, "--price-table", "/dev/zero"],
], ids=["split-key", "eval-key", "replay", "price-table"])
def test_a_file_that_never_ends_is_refused_in_one_line_not_read_until_memory_runs_out(cli, tmp_path, args):
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero here")
    if args[0] == "eval":
        args = [*args, "--run-dir", str(tmp_path / "run")]
    _one_line(cli(*args))
    assert not (tmp_path / "run").exists()
