"""Files the user names that cannot be read or written are one error line and exit 2, never a
traceback (issue 16: a binary --params file, an unwritable --out folder)."""

from __future__ import annotations

import json


def _one_line(r):
    assert r.returncode == 2, (r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("physbench: error: "), r.stderr
    return lines[0]


def test_a_binary_params_file_is_one_line(cli, tmp_path):
    binary = tmp_path / "params.json"
    binary.write_bytes(bytes(range(128, 256)) * 16)
    assert "not UTF-8 text" in _one_line(cli("medphys", "solve", "tg51", "3", "--params", str(binary)))


def test_a_report_folder_that_cannot_be_made_is_one_line_and_nothing_is_written(cli, tmp_path):
    run = tmp_path / "run"
    assert cli("eval", "medphys", "--model", "oracle", "--limit", "2", "--run-dir", str(run), "--quiet").returncode == 0
    blocker = tmp_path / "file"
    blocker.write_text("a file where the report folder would go")
    line = _one_line(cli("report", str(run), "--out", str(blocker / "report")))
    assert "cannot write" in line and str(blocker) in line
    assert blocker.read_text() == "a file where the report folder would go"


def test_solving_another_generators_item_names_both_and_no_class(cli, tmp_path):
    """Issue 16: `solve mu 3 --params` on a TG-51 item named an internal dataclass."""
    item = tmp_path / "tg51.json"
    made = cli("medphys", "item", "tg51", "3", "1", "--json")
    assert made.returncode == 0
    item.write_text(made.stdout)
    line = _one_line(cli("medphys", "solve", "mu", "3", "--params", str(item)))
    assert "tg51 level 3" in line and "mu level 3" in line and "Isocentric" not in line
    params = tmp_path / "params.json"
    params.write_text(json.dumps(json.loads(made.stdout)["params"]))
    line = _one_line(cli("medphys", "solve", "mu", "3", "--params", str(params)))
    assert line.startswith("physbench: error: unknown params for mu level 3:") and "Isocentric" not in line
