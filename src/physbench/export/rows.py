"""One row per item (`item_row`) or per attempt (`result_row`), and writing them atomically.

A *sealed* row is what a keyed split may show without its key: the text a model is given and
nothing from which a reference, a planted error or a verdict can be read (see `sealed_item_row`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable

from physbench.core.errors import UserError

if TYPE_CHECKING:
    from physbench.core.items import Item
    from physbench.runner.results import Result

FORMATS = ("jsonl", "parquet")
# metadata a sealed item row keeps: the cell an item belongs to, which its prompt shows anyway.
# Everything else (seed, planted error, pair id, step count, unit, quantity, ...) is left out.
PUBLIC_META = ("generator", "level", "group", "benchmark_version")
# what a sealed result row keeps of an attempt: who answered what, at which cost; never its grade
SEALED_RESULT_FIELDS = ("run_id", "model", "item_id", "suite", "kind", "repeat", "response", "finish_reason",
                        "prompt_tokens", "completion_tokens", "cost_usd", "latency_s")


def _text(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _messages(item: "Item") -> list[dict[str, str]]:
    return [{"role": m.role, "content": m.content or ""} for m in item.messages]


def item_row(item: "Item", *, split: str, with_reference: bool = True) -> dict[str, Any]:
    """id, suite, kind, split, messages, reference, meta, params, protocol_data (JSON text), canary;
    without the reference, the sealed row."""
    if not with_reference:
        return sealed_item_row(item, split=split)
    d = item.to_dict()
    return {"id": item.id, "suite": item.suite, "kind": item.kind, "split": split, "messages": _messages(item),
            "reference": _text(d.get("reference") or {}), "meta": _text(d.get("meta") or {}),
            "params": _text(d.get("params") or {}), "protocol_data": _text(d.get("protocol_data") or {}),
            "canary": item.canary}


def sealed_item_row(item: "Item", *, split: str) -> dict[str, Any]:
    """The same columns, holding only what the model is shown first: the messages, the item's cell
    (PUBLIC_META) and its id. No reference, no params (a planted check's worksheet differs from
    them), no params hash, no later-turn data (it may carry reference answers, as oracle carryover
    does). The id of a keyed item is opaque (a keyed tag, never a seed)."""
    meta = {k: item.meta[k] for k in PUBLIC_META if k in item.meta}
    return {"id": item.id, "suite": item.suite, "kind": item.kind, "split": split, "messages": _messages(item),
            "reference": None, "meta": _text(meta), "params": _text({}), "protocol_data": _text({}),
            "canary": item.canary}


def result_row(r: "Result", run_id: str, model: str, *, sealed: bool = False) -> dict[str, Any]:
    """One attempt: item id, repeat, outcome (`failed` when the model never replied), score, passed,
    the response, its cost and the grader's detail; sealed, the same without anything of the grade."""
    g = r.grade
    row = {"run_id": run_id, "model": model, "item_id": r.item.id, "suite": r.item.suite, "kind": r.item.kind,
           "repeat": r.repeat, "outcome": g.outcome if g else None, "score": g.score if g else None,
           "passed": bool(g and g.passed), "response": r.text or "", "finish_reason": r.finish_reason,
           "prompt_tokens": int(r.usage.get("prompt_tokens", 0)),
           "completion_tokens": int(r.usage.get("completion_tokens", 0)),
           "cost_usd": r.cost, "latency_s": r.latency, "grade_detail": _text(g.detail if g else {})}
    if sealed:
        return {k: row[k] for k in SEALED_RESULT_FIELDS}
    return row


def sealed_order(rows: Iterable[dict[str, Any]], *keys: str) -> list[dict[str, Any]]:
    """Rows sorted by `keys`: a keyed split's items alternate correct and planted checks within a
    cell, so their generation (or grading) order would tell them apart; ids sort by a keyed tag."""
    return sorted(rows, key=lambda row: tuple(str(row[k]) if k != "repeat" else row[k] for k in keys))


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
