"""MedCalc-Bench Verified rows: the official CSV schema, the same rows as parquet, the hub, validation.

Every problem with a file is one UserError naming the file, the row and the field. Relevant
Entities are a Python literal (not JSON) and are read with ast.literal_eval under a size bound.
"""

from __future__ import annotations

import ast
import csv
import hashlib
import io
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Iterable, Sequence

from physbench.core.errors import UserError

COLUMNS = ("Row Number", "Calculator ID", "Calculator Name", "Category", "Output Type", "Note ID", "Note Type",
           "Patient Note", "Question", "Relevant Entities", "Ground Truth Answer", "Lower Limit", "Upper Limit",
           "Ground Truth Explanation")
MAX_ENTITIES_CHARS = 65_536      # real rows are under 2,000 characters
MAX_FIELD_CHARS = 4_000_000      # a patient note
MAX_FILE_BYTES = 2 * 1024 ** 3
ONE_SHOT = "one-shot"


@dataclass(frozen=True)
class Row:
    """One dataset row; `entities` is the parsed Relevant Entities (treat it as read-only)."""

    row_number: int
    calculator_id: int
    calculator_name: str
    category: str
    output_type: str
    note_id: str
    note_type: str
    patient_note: str
    question: str
    entities: dict = field(hash=False, compare=False)
    entities_text: str
    ground_truth: str
    lower_limit: str
    upper_limit: str
    explanation: str

    def cells(self) -> dict[str, str]:
        """The row as the CSV writes it."""
        return {"Row Number": str(self.row_number), "Calculator ID": str(self.calculator_id),
                "Calculator Name": self.calculator_name, "Category": self.category,
                "Output Type": self.output_type, "Note ID": self.note_id, "Note Type": self.note_type,
                "Patient Note": self.patient_note, "Question": self.question,
                "Relevant Entities": self.entities_text, "Ground Truth Answer": self.ground_truth,
                "Lower Limit": self.lower_limit, "Upper Limit": self.upper_limit,
                "Ground Truth Explanation": self.explanation}


@dataclass(frozen=True)
class Dataset:
    """Rows in file order and where they came from (for the run manifest)."""

    rows: tuple[Row, ...]
    source: str
    sha256: str | None = None
    hub: dict[str, str] | None = None

    def manifest(self) -> dict[str, Any]:
        out: dict[str, Any] = {"source": self.source, "rows": len(self.rows), "sha256": self.sha256}
        if self.hub:
            out["hub"] = dict(self.hub)
        return out


def item_id(row: Row | int) -> str:
    """The stable item id of a dataset row: clincalc/row/<Row Number>."""
    n = row.row_number if isinstance(row, Row) else int(row)
    return f"clincalc/row/{n}"


def parse_entities(text: str, where: str) -> dict:
    """Relevant Entities from its Python-literal text; UserError naming `where` when it is not one."""
    if not isinstance(text, str):
        raise UserError(f"{where}: Relevant Entities must be text")
    if len(text) > MAX_ENTITIES_CHARS:
        raise UserError(f"{where}: Relevant Entities is {len(text)} characters; the limit is {MAX_ENTITIES_CHARS}")
    try:
        value = ast.literal_eval(text.strip())
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError) as exc:
        msg = getattr(exc, "msg", None) or type(exc).__name__
        raise UserError(f"{where}: Relevant Entities is not a Python literal ({msg})") from None
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        raise UserError(f"{where}: Relevant Entities must be a dict with text keys, got {type(value).__name__}")
    return value


def _int_cell(value: str, where: str, column: str) -> int:
    try:
        f = float(value)
    except (TypeError, ValueError):
        raise UserError(f"{where}, field {column!r}: {value!r} is not a whole number") from None
    if not f.is_integer():
        raise UserError(f"{where}, field {column!r}: {value!r} is not a whole number")
    return int(f)


def row_from_cells(cells: dict[str, Any], where: str) -> Row:
    """Validate one row's cells (already keyed by column) and build the Row."""
    from physbench.suites.clincalc.calculators import CALCULATORS
    from physbench.suites.clincalc.scoring import parse_gold

    text = {c: ("" if cells.get(c) is None else str(cells[c])) for c in COLUMNS}
    for column, value in text.items():
        if len(value) > MAX_FIELD_CHARS:
            raise UserError(f"{where}, field {column!r}: {len(value)} characters is over the limit")
    number = _int_cell(text["Row Number"], where, "Row Number")
    where = f"{where} (Row Number {number})"
    calc_id = _int_cell(text["Calculator ID"], where, "Calculator ID")
    if calc_id not in CALCULATORS:
        raise UserError(f"{where}, field 'Calculator ID': {calc_id} is not a MedCalc-Bench Verified calculator")
    entities = parse_entities(text["Relevant Entities"], f"{where}, field 'Relevant Entities'")
    try:
        parse_gold(calc_id, text["Ground Truth Answer"].strip(), text["Lower Limit"].strip(),
                   text["Upper Limit"].strip())
    except ValueError as exc:
        raise UserError(f"{where}: {exc}") from None
    return Row(number, calc_id, text["Calculator Name"], text["Category"], text["Output Type"], text["Note ID"],
               text["Note Type"], text["Patient Note"], text["Question"], entities, text["Relevant Entities"],
               text["Ground Truth Answer"].strip(), text["Lower Limit"].strip(), text["Upper Limit"].strip(),
               text["Ground Truth Explanation"])


def _check_header(header: Sequence[str] | None, path: str) -> None:
    if not header:
        raise UserError(f"{path}: empty file, no header row")
    missing = [c for c in COLUMNS if c not in header]
    if missing:
        raise UserError(f"{path}: missing column {missing[0]!r} (a MedCalc-Bench Verified file has "
                        f"{', '.join(COLUMNS)})")


def _finish(rows: list[Row], path: str, sha: str | None, hub: dict | None = None) -> Dataset:
    seen: set[int] = set()
    for row in rows:
        if row.row_number in seen:
            raise UserError(f"{path}: Row Number {row.row_number} appears twice")
        seen.add(row.row_number)
    if not rows:
        raise UserError(f"{path}: no data rows")
    return Dataset(tuple(rows), path, sha, hub)


def _read_bytes(path: Path) -> bytes:
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise UserError(f"{path}: {size} bytes is over the {MAX_FILE_BYTES}-byte limit")
        return path.read_bytes()
    except IsADirectoryError:
        raise UserError(f"{path}: is a directory, not a data file") from None
    except OSError as exc:
        raise UserError(f"cannot read {path}: {exc.strerror or exc}") from None


def load_csv(path: str | Path) -> Dataset:
    """Rows of a MedCalc-Bench Verified CSV file."""
    path = Path(path)
    data = _read_bytes(path)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UserError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    csv.field_size_limit(max(csv.field_size_limit(), MAX_FIELD_CHARS + 1))
    reader = csv.DictReader(io.StringIO(text, newline=""), strict=True)
    rows: list[Row] = []
    try:
        _check_header(reader.fieldnames, str(path))
        for cells in reader:
            where = f"{path}: row {len(rows) + 1} (line {reader.line_num})"
            if None in cells or any(v is None for v in cells.values()):
                raise UserError(f"{where}: has {len(reader.fieldnames or ())} columns in the header but a "
                                "different number in this row")
            rows.append(row_from_cells(cells, where))
    except csv.Error as exc:
        raise UserError(f"{path}: malformed CSV near line {reader.line_num}: {exc}") from None
    return _finish(rows, str(path), hashlib.sha256(data).hexdigest())


def _pyarrow():
    try:
        import pyarrow  # noqa: F401
        import pyarrow.parquet as pq
    except ImportError:
        raise UserError("parquet files need pyarrow: pip install 'physbench[export]'") from None
    return pq


def load_parquet(path: str | Path, hub: dict | None = None) -> Dataset:
    """Rows of a parquet file with the CSV's columns (the Hugging Face copy's layout)."""
    pq = _pyarrow()
    path = Path(path)
    data = _read_bytes(path)
    try:
        table = pq.read_table(io.BytesIO(data))
    except Exception as exc:  # pyarrow raises several types for a damaged file
        raise UserError(f"{path}: not a readable parquet file ({type(exc).__name__})") from None
    _check_header(table.column_names, str(path))
    rows = [row_from_cells(cells, f"{path}: row {i + 1}") for i, cells in enumerate(table.to_pylist())]
    return _finish(rows, str(path), hashlib.sha256(data).hexdigest(), hub)


def _atomic_write(path: Path, write) -> None:
    """Written whole or not at all, into an existing folder."""
    from physbench.core.files import write_atomic

    if not (path.parent if str(path.parent) else Path(".")).is_dir():
        raise UserError(f"cannot write {path}: folder {path.parent} does not exist")
    write_atomic(path, write, make_folder=False)


def write_csv(rows: Iterable[Row], path: str | Path) -> None:
    """The rows as a MedCalc-Bench Verified CSV file (written whole or not at all)."""
    def write(fh) -> None:
        text = io.StringIO(newline="")
        w = csv.DictWriter(text, fieldnames=COLUMNS, lineterminator="\n")
        w.writeheader()
        for row in rows:
            w.writerow(row.cells())
        fh.write(text.getvalue().encode("utf-8"))

    _atomic_write(Path(path), write)


def write_parquet(rows: Iterable[Row], path: str | Path) -> None:
    """The same rows as parquet, every column as text (as the CSV)."""
    pq = _pyarrow()
    import pyarrow as pa

    cells = [r.cells() for r in rows]
    table = pa.table({c: pa.array([x[c] for x in cells], type=pa.string()) for c in COLUMNS})
    _atomic_write(Path(path), lambda fh: pq.write_table(table, fh))


def one_shot_path() -> Path:
    """The shipped one-shot split (CC-BY-SA 4.0; see data/LICENSE-medcalc-bench-verified.md)."""
    return Path(str(resources.files("physbench.suites.clincalc") / "data" / "one_shot_data.csv"))


def load_one_shot() -> Dataset:
    return load_csv(one_shot_path())


def load_hub(revision: str | None = None) -> Dataset:
    """The test split from the Hugging Face hub at the pinned revision (or `revision`)."""
    from physbench.suites.clincalc.hub import HUB_REVISION, fetch_hub

    local, meta = fetch_hub(revision or HUB_REVISION)
    if local.lower().endswith(".parquet"):
        return load_parquet(local, hub=meta)
    ds = load_csv(local)
    return Dataset(ds.rows, ds.source, ds.sha256, meta)


def load(spec: str | Path, revision: str | None = None) -> Dataset:
    """Rows from `spec`: a .csv or .parquet path, 'one-shot' (shipped), or 'hub' (pinned revision)."""
    spec_s = str(spec)
    if spec_s == ONE_SHOT:
        return load_one_shot()
    if spec_s == "hub":
        return load_hub(revision)
    path = Path(spec_s)
    if not path.exists():
        raise UserError(f"no such data file: {spec_s} (give a .csv or .parquet path, 'one-shot' or 'hub')")
    if path.suffix.lower() == ".parquet":
        return load_parquet(path)
    return load_csv(path)
