"""Issue 33 item 3: a keyed split's exports hold nothing from which a reference, a planted error or a
verdict can be read without the key: every field of every row is scanned, ids and order included."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from physbench.core.items import Item
from physbench.runner.evaluate import EvalConfig, load_items
from physbench.suites.medphys.generators import available_generators
from physbench.suites.medphys.planting import SLIP_PRODUCT, SLIP_TRANSPOSE

KEY_HEX = "5e" * 32
LIMIT = 60  # stratified by kind and cell: calculations and planted and correct checks of many cells
ITEM_COLUMNS = {"id", "suite", "kind", "split", "messages", "reference", "meta", "params", "protocol_data", "canary"}
PUBLIC_META = {"generator", "level", "group", "benchmark_version"}
RESULT_COLUMNS = {"run_id", "model", "item_id", "suite", "kind", "repeat", "response", "finish_reason",
                  "prompt_tokens", "completion_tokens", "cost_usd", "latency_s"}
# names whose presence outside the messages tells a planted check from a correct one
MODE_NAMES = sorted({m.name for g in available_generators() for m in g.error_modes} | {SLIP_PRODUCT, SLIP_TRANSPOSE})


@pytest.fixture
def key_file(tmp_path: Path) -> Path:
    path = tmp_path / "k.hex"
    path.write_text(KEY_HEX)
    return path


def _items() -> list[Item]:
    return load_items(EvalConfig(suite="medphys", split="test", key=bytes.fromhex(KEY_HEX), limit=LIMIT))


def _strings(value) -> list[str]:
    """Every string and number of a JSON value (keys too), as text."""
    if isinstance(value, dict):
        return [t for k, v in value.items() for t in [str(k), *_strings(v)]]
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in _strings(v)]
    return [] if value is None else [str(value)]


def _secrets(item: Item) -> list[str]:
    """What must not be readable outside the messages: reference values, seeds, params and their hash."""
    out = [item.params_hash]
    reference = {k: v for k, v in item.reference.items() if k != "band"}  # a generator's band is public
    for v in _strings(reference):
        digits = re.sub(r"e.*", "", v).replace("-", "").replace(".", "").lstrip("0")
        if re.fullmatch(r"-?\d+\.\d+(e-?\d+)?", v) and len(digits) >= 4:  # the reference's own numbers
            out.append(v)
    for v in _strings(dict(item.params)):
        if len(v) >= 6:  # params a planted worksheet may show otherwise
            out.append(v)
    return out


def _read(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _scan(rows: list[dict], items: list[Item], skip: set[str]) -> None:
    """No secret of any item in any field of any row (but `skip`), and no planted-error name or flag."""
    text = "\n".join(json.dumps({k: v for k, v in row.items() if k not in skip}) for row in rows)
    for item in items:
        for secret in _secrets(item):
            assert secret not in text, f"{secret!r} of {item.id} is readable in the export"
    for name in MODE_NAMES + ["planted", "pair_id", "first_error_step", "seed"]:
        assert name not in text, f"{name!r} is readable in the export"


def test_a_keyed_item_export_holds_only_what_the_model_is_shown(cli, tmp_path, key_file):
    out = tmp_path / "test.jsonl"
    r = cli("export", "medphys", "--split", "test", "--key-file", str(key_file), "--out", str(out),
            "--limit", str(LIMIT))
    assert r.returncode == 0, r.stderr
    rows, items = _read(out), _items()
    assert len(rows) == LIMIT and {row["kind"] for row in rows} == {"calculation", "worksheet_check", "result_check"}
    assert any(i.meta.get("planted") for i in items) and any(i.kind != "calculation" and not i.meta.get("planted")
                                                             for i in items)
    by_id = {i.id: i for i in items}
    for row in rows:
        item = by_id[row["id"]]
        assert set(row) == ITEM_COLUMNS and row["reference"] is None
        meta = json.loads(row["meta"])
        assert set(meta) <= PUBLIC_META and all(meta[k] == item.meta[k] for k in meta)
        assert json.loads(row["params"]) == {} and json.loads(row["protocol_data"]) == {}
        assert row["messages"] == [{"role": m.role, "content": m.content} for m in item.messages]
        # an opaque keyed tag, never a public seed a public generator would regenerate the item from
        assert re.fullmatch(r"medphys/\w+/L[123]/(calc|ws|rc)/t-[0-9a-f]{16}", row["id"]), row["id"]
    _scan(rows, items, skip={"messages"})
    # correct and planted checks alternate in generation order: the rows are in the order of their ids
    assert [row["id"] for row in rows] == sorted(row["id"] for row in rows)


def test_references_of_a_keyed_split_come_only_when_asked_for_with_the_key(cli, tmp_path, key_file):
    out = tmp_path / "full.jsonl"
    r = cli("export", "medphys", "--split", "test", "--key-file", str(key_file), "--out", str(out),
            "--limit", "12", "--include-reference")
    assert r.returncode == 0, r.stderr
    rows = _read(out)
    assert all(json.loads(row["reference"]) for row in rows)
    assert any("planted" in json.loads(row["meta"]) for row in rows)


@pytest.fixture
def keyed_run(cli, tmp_path, key_file) -> Path:
    run = tmp_path / "run"
    r = cli("eval", "medphys", "--split", "test", "--key-file", str(key_file), "--model", "oracle",
            "--limit", "24", "--run-dir", str(run), "--quiet")
    assert r.returncode == 0, r.stderr
    return run


def test_a_keyed_results_export_carries_no_grade(cli, tmp_path, keyed_run):
    out = tmp_path / "results.jsonl"
    r = cli("export-results", str(keyed_run), "--out", str(out))
    assert r.returncode == 0, r.stderr
    rows = _read(out)
    assert len(rows) == 24 and all(set(row) == RESULT_COLUMNS for row in rows)
    items = load_items(EvalConfig(suite="medphys", split="test", key=bytes.fromhex(KEY_HEX), limit=24))
    # the oracle's replies hold the references: they are the model's answers, read only with the key
    _scan(rows, items, skip={"response"})
    assert [(row["item_id"], row["repeat"]) for row in rows] == sorted((row["item_id"], row["repeat"]) for row in rows)


def test_grades_of_a_keyed_run_come_only_with_its_own_key(cli, tmp_path, keyed_run, key_file):
    out = tmp_path / "results.jsonl"
    r = cli("export-results", str(keyed_run), "--out", str(out), "--include-reference")
    assert r.returncode == 2 and "--key-file" in r.stderr and not out.exists()
    other = tmp_path / "other.hex"
    other.write_text("7a" * 32)
    r = cli("export-results", str(keyed_run), "--out", str(out), "--include-reference", "--key-file", str(other))
    assert r.returncode == 2 and "not the key" in r.stderr and not out.exists()
    r = cli("export-results", str(keyed_run), "--out", str(out), "--include-reference", "--key-file", str(key_file))
    assert r.returncode == 0, r.stderr
    rows = _read(out)
    assert len(rows) == 24 and all(row["outcome"] == "correct" and row["passed"] for row in rows)


def test_a_public_run_exports_its_grades_as_before(cli, tmp_path):
    run, out = tmp_path / "run", tmp_path / "results.jsonl"
    assert cli("eval", "medphys", "--model", "oracle", "--limit", "3", "--run-dir", str(run), "--quiet").returncode == 0
    assert cli("export-results", str(run), "--out", str(out)).returncode == 0
    assert all(row["outcome"] == "correct" and json.loads(row["grade_detail"]) is not None for row in _read(out))


def test_a_store_written_before_runs_recorded_their_key_counts_as_keyed_unless_public():
    from physbench.runner.manifest import Manifest
    from physbench.runner.results import keyed_run

    def manifest(split: str, **options) -> Manifest:
        return Manifest(suite="medphys", split=split, protocol="direct", model_spec="oracle", sampling={}, repeats=1,
                        n_items=1, item_set_hash="0", options=options)

    assert keyed_run(manifest("test")) and keyed_run(manifest("test-half"))
    assert not keyed_run(manifest("dev")) and not keyed_run(manifest("targeted:mu:3:isocentric_isq_omitted"))
    assert keyed_run(manifest("dev", keyed=True)) and not keyed_run(manifest("test", keyed=False))


def test_a_key_without_include_reference_is_refused(cli, tmp_path, keyed_run, key_file):
    out = tmp_path / "results.jsonl"
    r = cli("export-results", str(keyed_run), "--out", str(out), "--key-file", str(key_file))
    assert r.returncode == 2 and "--include-reference" in r.stderr and not out.exists()


def test_the_report_of_a_keyed_run_holds_no_item_id_or_reference(cli, tmp_path, keyed_run):
    """The decision in docs/security.md: a keyed run's report (Markdown and JSON) is aggregates only, so it
    may be shared; no item is named and no reference value or params hash is printed."""
    out = tmp_path / "report"
    r = cli("report", str(keyed_run), "--out", str(out))
    assert r.returncode == 0, r.stderr
    text = (out / "report.md").read_text() + (out / "report.json").read_text() + (out / "report.html").read_text()
    items = load_items(EvalConfig(suite="medphys", split="test", key=bytes.fromhex(KEY_HEX), limit=24))
    for item in items:
        assert item.id not in text and item.id.rsplit("/", 1)[-1] not in text
        assert all(secret not in text for secret in _secrets(item) if not secret.isidentifier()), item.id
