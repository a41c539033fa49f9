"""Canonical JSON and the hashes built on it (params hash, item-set hash)."""

from __future__ import annotations

import hashlib
import json
from typing import Any, Iterable


def canonical_json(obj: Any) -> str:
    """Sorted keys, no whitespace, floats by repr: the same data always gives the same text."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False)


def sha256_hex(text: str | bytes) -> str:
    data = text.encode("utf-8") if isinstance(text, str) else text
    return hashlib.sha256(data).hexdigest()


def params_hash(params: Any) -> str:
    """SHA-256 of the canonical JSON of an item's parameters."""
    return sha256_hex(canonical_json(params))


def item_set_hash(ids_and_hashes: Iterable[tuple[str, str]]) -> str:
    """SHA-256 over sorted (item id, params hash) pairs, one pair per line."""
    lines = sorted(f"{i}\t{h}" for i, h in ids_and_hashes)
    return sha256_hex("\n".join(lines))
