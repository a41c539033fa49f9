"""`eval --price-table FILE` is read whole before any request: a file that cannot price the run is one
line naming it and exit 2 (issue 16: garbage was silently ignored and the run went unpriced)."""

from __future__ import annotations

import json

import pytest

from physbench.core.errors import UserError
from physbench.models.pricing import load_price, load_table


def _one_line(r) -> str:
    assert r.returncode == 2, (r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("physbench: error: "), r.stderr
    return lines[0]


@pytest.mark.parametrize("text, words", [
    ("{", "not valid JSON"),
    ("[1, 2]", "must be a JSON object keyed by model name"),
    ("{}", "has no entries"),
    ('{"m": 3}', "entry 'm' must be an object"),
    ('{"m": {"input": "cheap", "output": 1}}', '"input" must be a number'),
    ('{"m": {"input": 1, "output": -2}}', '"output" is negative'),
    ('{"m": {"input": 1, "output": 2}, "n": {"input": true, "output": 1}}', "entry 'n'"),
    ('{"m": {"input": 1}}', '"output" is missing'),
    ('{"m": {"input": 1, "output": 2, "inputs": 1}}', "unknown field 'inputs'"),
    ('{"": {"input": 1, "output": 2}}', "a model name is empty"),
])
def test_a_bad_price_table_is_one_line_naming_it_before_any_request(cli, tmp_path, mock_server, text, words):
    server = mock_server(reply="\\boxed{2 Gy}")
    table = tmp_path / "prices.json"
    table.write_text(text)
    run = tmp_path / "run"
    line = _one_line(cli("eval", "medphys", "--model", "openai/m", "--base-url", server.base_url, "--limit", "1",
                         "--price-table", str(table), "--run-dir", str(run), "--quiet"))
    assert str(table) in line and words in line
    assert sum(server.requests.values()) == 0 and not run.exists()


def test_a_missing_or_binary_table_is_one_line(cli, tmp_path):
    binary = tmp_path / "prices.json"
    binary.write_bytes(bytes(range(128, 256)))
    for path, words in ((tmp_path / "none.json", "no such file"), (binary, "not a UTF-8 text file"),
                        (tmp_path, "is a directory")):
        line = _one_line(cli("eval", "medphys", "--model", "openai/m", "--limit", "1", "--price-table", str(path),
                             "--run-dir", str(tmp_path / "run"), "--quiet"))
        assert words in line


def test_a_price_table_for_a_model_without_prices_is_refused(cli, tmp_path):
    table = tmp_path / "prices.json"
    table.write_text(json.dumps({"*": {"input": 1, "output": 1}}))
    line = _one_line(cli("eval", "medphys", "--model", "oracle", "--limit", "1", "--price-table", str(table),
                         "--run-dir", str(tmp_path / "run"), "--quiet"))
    assert "openai/NAME models only" in line


def test_an_entry_may_name_the_model_with_or_without_its_openai_prefix(tmp_path):
    table = tmp_path / "prices.json"
    table.write_text(json.dumps({"openai/gpt-x": {"input": 2, "output": 8}, "served-name": {"input": 1, "output": 3},
                                 "*": {"input": 9, "output": 9}}))
    assert load_price(str(table), "gpt-x").output_per_mtok == 8.0
    assert load_price(str(table), "served-name").output_per_mtok == 3.0
    assert load_price(str(table), "other").output_per_mtok == 9.0
    assert set(load_table(str(table))) == {"openai/gpt-x", "served-name", "*"}
    table.write_text(json.dumps({"m": {"input": float("nan"), "output": 1}}))
    with pytest.raises(UserError, match="must be a number"):
        load_table(str(table))
