"""The public release of a medphys benchmark version (seed 000, "Data and code availability").

A release folder holds:
- `commitments.json`: the SHA-256 commitment to the test split and to its stratified half (sorted
  item ids and params hashes), with the code hash beside them;
- `dev_items.jsonl`: every development item, one JSON object a line;
- `outcomes/<run id>.jsonl` for each run given: one record per graded attempt under hashed item,
  params and pair ids, with the item's generator, level, kind and planted error and the response's
  verdict class, grade and relative error; no prompt and no response text, so test items stay secret.

Hashed ids are SHA-256 with a fixed prefix: the same item has the same hashed id in every model's
export, and the key holder can check them against the commitment. The three items of one draw, and a
targeted test's planted worksheet and its correct twin, share one pair id.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any, Iterable

from physbench.core.errors import UserError
from physbench.core.hashing import sha256_hex
from physbench.core.items import Item
from physbench.suites.medphys.commit import commitment, commitments
from physbench.suites.medphys.items import KIND_TAGS
from physbench.suites.medphys.splits import HALF_PER_CELL, dev_items, heldout_items
from physbench.suites.medphys.versions import Version, get_version

HASH_HEX = 32  # 128 bits of SHA-256
_KIND_SEGMENT = re.compile(r"/(?:" + "|".join(KIND_TAGS.values()) + r")/")


def hashed(kind: str, value: str) -> str:
    """The released form of an identifier: SHA-256 of a labelled string, 32 hex digits."""
    return sha256_hex(f"physbench/medphys/release/{kind}\n{value}")[:HASH_HEX]


def pair_id(item: Item) -> str:
    """The draw an item comes from: its id without the kind and the targeted twin's suffix."""
    explicit = item.meta.get("pair_id")
    if isinstance(explicit, str) and explicit:
        return explicit
    base = re.sub(r"/(planted|correct)$", "", item.id)
    return _KIND_SEGMENT.sub("/draw/", base, count=1)


def verdict_class(grade: Any) -> str | None:
    """'flagged', 'accepted' or 'none' (no readable verdict) for a checking response."""
    if grade is None:
        return None
    flagged = getattr(grade, "flagged", None)
    return "none" if flagged is None else ("flagged" if flagged else "accepted")


def outcome_record(item: Item, repeat: int, grade: Any, run: dict[str, Any]) -> dict[str, Any]:
    """One released outcome: hashed ids, the item's design and the response's grade."""
    planted = item.meta.get("planted") or None
    check = item.kind != "calculation"
    return {
        **run, "item": hashed("item", item.id), "params": hashed("params", item.params_hash),
        "pair": hashed("pair", pair_id(item)), "repeat": repeat,
        "generator": item.meta.get("generator"), "level": item.meta.get("level"), "kind": item.kind,
        "benchmark_version": item.meta.get("benchmark_version"),
        "planted": planted.get("mode") if planted else None,
        "planted_category": planted.get("category") if planted else None,
        "outcome": getattr(grade, "outcome", None), "score": getattr(grade, "score", None),
        "passed": getattr(grade, "passed", None),
        "verdict": verdict_class(grade) if check else None,
        "localized": getattr(grade, "localized", None) if item.kind == "worksheet_check" else None,
        "corrected_passed": getattr(grade, "corrected_passed", None) if check else None,
        "rel_error": getattr(grade, "rel_error", None) if not check else None,
    }


def run_outcomes(run_dir: str | Path) -> tuple[str, list[dict[str, Any]]]:
    """The run id and the released outcome records of one run directory."""
    from physbench.runner.results import open_run

    with open_run(run_dir) as reader:
        m = reader.manifest
        if m.suite != "medphys":
            raise UserError(f"run {m.run_id} is of suite {m.suite!r}, not medphys")
        run = {"run": m.run_id, "model": m.model_spec, "split": m.split, "protocol": m.protocol}
        records = [outcome_record(r.item, r.repeat, r.grade, run) for r in reader.attempts()]  # failures too
    return m.run_id, records


def _write_jsonl(path: Path, rows: Iterable[Any]) -> int:
    n = 0
    with path.open("w", encoding="utf-8") as fh:
        for row in rows:
            fh.write((row if isinstance(row, str) else json.dumps(row, sort_keys=True, ensure_ascii=False)) + "\n")
            n += 1
    return n


def write_release(key: bytes, out: Path, runs: Iterable[str | Path] = (),
                  version: Version | str | None = None) -> dict[str, Any]:
    """Write the release folder `out` (which must not exist or be empty); nothing is left half-written:
    the folder is built beside `out` and moved into place at the end."""
    v = get_version(version)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise UserError(f"{str(out)!r} exists and is not an empty folder")
    exports = [run_outcomes(r) for r in runs]  # read every run first: a bad run leaves nothing behind
    ids = [run_id for run_id, _ in exports]
    if len(set(ids)) != len(ids):
        raise UserError("the same run was given twice")
    test = heldout_items(key, version=v)
    half = heldout_items(key, HALF_PER_CELL, version=v)
    record = {**commitments(test, v), "test_half": {"n_items": len(half), "commitment": commitment(half)}}
    tmp = out.with_name(out.name + ".partial")
    shutil.rmtree(tmp, ignore_errors=True)
    (tmp / "outcomes").mkdir(parents=True)
    try:
        (tmp / "commitments.json").write_text(json.dumps(record, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        n_dev = _write_jsonl(tmp / "dev_items.jsonl", (i.to_json() for i in dev_items(v)))
        counts = {run_id: _write_jsonl(tmp / "outcomes" / f"{run_id}.jsonl", rows) for run_id, rows in exports}
        if out.exists():
            out.rmdir()
        tmp.replace(out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return {"out": str(out), "benchmark_version": v.label, "commitment": record["commitment"],
            "code_hash": record["code_hash"], "test_items": len(test), "dev_items": n_dev, "outcomes": counts}
