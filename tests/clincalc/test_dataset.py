"""The MedCalc-Bench Verified loader: the official CSV schema, the same rows as parquet, item ids,
and one clear line naming the file, row and field for every malformed input."""

from __future__ import annotations

import csv

import pytest

from physbench.core.errors import UserError
from physbench.suites.clincalc.dataset import COLUMNS, item_id, load, load_csv, load_one_shot, one_shot_path, write_csv

ROWS = load_one_shot().rows


def _write(path, rows):
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


def _cells():
    with open(one_shot_path(), newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def test_the_shipped_split_has_55_rows_with_row_item_ids():
    assert len(ROWS) == 55 and item_id(ROWS[0]) == f"clincalc/row/{ROWS[0].row_number}"


def test_a_written_csv_reads_back_the_same_rows(tmp_path):
    write_csv(ROWS, tmp_path / "copy.csv")
    again = load(tmp_path / "copy.csv").rows
    assert [r.cells() for r in again] == [r.cells() for r in ROWS]


def test_parquet_holds_the_same_rows(tmp_path):
    pytest.importorskip("pyarrow")
    from physbench.suites.clincalc.dataset import write_parquet

    write_parquet(ROWS, tmp_path / "copy.parquet")
    assert [r.cells() for r in load(tmp_path / "copy.parquet").rows] == [r.cells() for r in ROWS]


@pytest.mark.parametrize(("column", "value", "words"), [
    ("Relevant Entities", "{'weight': [68.0, 'kg'", "Relevant Entities"),
    ("Relevant Entities", "__import__('os').system('true')", "not a Python literal"),
    ("Calculator ID", "999", "not a MedCalc-Bench Verified calculator"),
    ("Row Number", "1.5", "not a whole number"),
    ("Ground Truth Answer", "about twenty", "Ground Truth Answer"),
])
def test_a_malformed_cell_names_the_file_row_and_field(tmp_path, column, value, words):
    cells = _cells()
    cells[3][column] = value
    _write(tmp_path / "bad.csv", cells)
    with pytest.raises(UserError) as err:
        load_csv(tmp_path / "bad.csv")
    text = str(err.value)
    assert "bad.csv" in text and words in text and "\n" not in text


def test_a_missing_column_and_a_repeated_row_are_refused(tmp_path):
    cells = [{k: v for k, v in c.items() if k != "Upper Limit"} for c in _cells()]
    _write(tmp_path / "cols.csv", cells)
    with pytest.raises(UserError, match="missing column 'Upper Limit'"):
        load_csv(tmp_path / "cols.csv")
    cells = _cells()
    cells[1]["Row Number"] = cells[0]["Row Number"]
    _write(tmp_path / "twice.csv", cells)
    with pytest.raises(UserError, match="appears twice"):
        load_csv(tmp_path / "twice.csv")


def test_a_binary_or_missing_file_is_one_error(tmp_path):
    (tmp_path / "junk.csv").write_bytes(bytes(range(256)) * 8)
    with pytest.raises(UserError):
        load_csv(tmp_path / "junk.csv")
    with pytest.raises(UserError, match="no such data file"):
        load(tmp_path / "absent.csv")


def test_the_schema_is_the_official_one():
    assert COLUMNS == ("Row Number", "Calculator ID", "Calculator Name", "Category", "Output Type", "Note ID",
                       "Note Type", "Patient Note", "Question", "Relevant Entities", "Ground Truth Answer",
                       "Lower Limit", "Upper Limit", "Ground Truth Explanation")
