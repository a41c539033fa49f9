"""Values from models and servers made storable: kept as they are where SQLite and UTF-8 can hold
them, sanitised where they cannot, so that one hostile reply never stops a run's store writer.

- Text: a lone surrogate (legal in JSON as "\\ud800", not encodable as UTF-8) becomes U+FFFD, the
  replacement character; every other character, a valid surrogate pair (an emoji) included, is kept.
- Integers: clamped into SQLite's signed 64-bit range in INTEGER columns (token counts are
  clamped further, to `MAX_TOKENS`, where they are read: models/base.py); JSON holds any integer.
- Reals: NaN and infinities are stored as NULL (unknown), never as a value a report would sum.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1
REPLACEMENT = "\ufffd"
_SURROGATE = re.compile("[\ud800-\udfff]")


def text(value: str | None) -> str | None:
    """`value` with each lone surrogate replaced by U+FFFD (the common, encodable case costs one check)."""
    if value is None or value.isascii():
        return value
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.sub(REPLACEMENT, value)
    return value


def integer(value: int | None) -> int | None:
    """`value` clamped into SQLite's INTEGER range."""
    if value is None or (type(value) is int and INT64_MIN <= value <= INT64_MAX):
        return value
    return min(max(int(value), INT64_MIN), INT64_MAX)


def real(value: float | None) -> float | None:
    """`value` when it is a finite number, else None."""
    if value is None:
        return None
    return value if math.isfinite(value) else None


def _clean(value: Any) -> Any:
    """A JSON-able value with lone surrogates replaced in every string and key, and integers
    clamped (a copy; only called when the fast check in `json_text` found something)."""
    if isinstance(value, str):
        return text(value)
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return integer(value)
    if isinstance(value, float):
        return real(value)
    if isinstance(value, dict):
        return {text(str(k)): _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    return text(str(value))


def json_text(value: Any, encoder: json.JSONEncoder | None = None) -> str:
    """`value` as ASCII JSON that reads back without lone surrogates or non-finite numbers
    (re-encoded cleaned only when the first encoding may hold one: json writes every surrogate as
    a lower-case `\\udxxx` escape, and non-finite numbers as Infinity or NaN)."""
    out = (encoder or _ENCODER).encode(value)
    if "\\ud" in out or "Infinity" in out or "NaN" in out:
        return (encoder or _ENCODER).encode(_clean(value))
    return out


_ENCODER = json.JSONEncoder(default=str)


def row(values: tuple[Any, ...]) -> tuple[Any, ...]:
    """A store row with every value storable (the writer's fallback after SQLite refused a row)."""
    out = []
    for v in values:
        if isinstance(v, str):
            out.append(text(v))
        elif isinstance(v, bool) or v is None:
            out.append(v)
        elif isinstance(v, int):
            out.append(integer(v))
        elif isinstance(v, float):
            out.append(real(v))
        else:
            out.append(v)
    return tuple(out)
