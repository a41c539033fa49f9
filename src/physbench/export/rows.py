"""One row per item (`item_row`) or per stored attempt (`result_row`), and writing them atomically."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable

from physbench.core.errors import UserError

if TYPE_CHECKING:
    from physbench.core.items import Item
    from physbench.runner.results import Result

FORMATS = ("jsonl", "parquet")


def _text(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def item_row(item: "Item", *, split: str, with_reference: bool = True) -> dict[str, Any]:
    """id, suite, kind, split, messages, reference (JSON text, or None), meta, params, protocol_data, canary."""
    d = item.to_dict()
    return {"id": item.id, "suite": item.suite, "kind": item.kind, "split": split,
            "messages": [{"role": m["role"], "content": m.get("content") or ""} for m in d["messages"]],
            "reference": _text(d.get("reference") or {}) if with_reference else None,
            "meta": _text(d.get("meta") or {}), "params": _text(d.get("params") or {}),
            "protocol_data": _text(d.get("protocol_data") or {}), "canary": item.canary}


def result_row(r: "Result", run_id: str, model: str) -> dict[str, Any]:
    """One graded attempt: item id, repeat, outcome, score, passed, the response and its cost."""
    g = r.grade
    return {"run_id": run_id, "model": model, "item_id": r.item.id, "suite": r.item.suite, "kind": r.item.kind,
            "repeat": r.repeat, "outcome": g.outcome if g else None, "score": g.score if g else None,
            "passed": bool(g and g.passed), "response": r.text or "", "finish_reason": r.finish_reason,
            "prompt_tokens": int(r.usage.get("prompt_tokens", 0)), "completion_tokens": int(r.usage.get("completion_tokens", 0)),
            "cost_usd": r.cost, "latency_s": r.latency, "grade_detail": _text(g.detail if g else {})}


def write_rows(rows: Iterable[dict[str, Any]], path: Path, fmt: str) -> int:
    """Write every row to `path` (via a temporary file and a rename); the number of rows."""
    if fmt not in FORMATS:
        raise UserError(f"unknown export format {fmt!r}; choose {' or '.join(FORMATS)}")
    rows = list(rows)
    if fmt == "parquet":
        try:
            import pyarrow as pa
            import pyarrow.parquet as pq
        except ImportError:
            raise UserError("parquet export needs pyarrow: pip install 'physbench[parquet]'") from None
    from physbench.core.files import write_atomic

    def write(fh) -> None:
        if fmt == "jsonl":
            for row in rows:
                fh.write((json.dumps(row, ensure_ascii=False) + "\n").encode("utf-8"))
        else:
            pq.write_table(pa.Table.from_pylist(rows), fh)

    write_atomic(path, write)
    return len(rows)
