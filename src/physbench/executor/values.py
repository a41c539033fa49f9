"""JSON-safe values across the sandbox boundary (never pickles).

A program may return numbers, strings, booleans, None, and lists, tuples and dicts of them;
dates, datetimes and times become ISO strings, timedeltas ISO 8601 durations, numpy scalars and
arrays plain numbers and lists, and sympy objects their `srepr` string. On the wire tuples,
dicts and complex numbers are tagged ({"t": [...]}, {"d": [[k, v], ...]}, {"c": [re, im]}) so
they come back as what they were; plain JSON objects never appear untagged.
"""

from __future__ import annotations

import datetime as _dt
import json
import sys
from typing import Any

MAX_DEPTH = 32


class BadValue(Exception):
    """The value cannot cross the boundary (kind, depth or size); the message says why."""


def encode(value: Any, max_chars: int) -> str:
    """The wire form of a program's return value; raises BadValue."""
    budget = [max_chars]
    tree = _encode(value, 0, budget)
    try:
        text = json.dumps(tree, allow_nan=True, separators=(",", ":"))
    except ValueError as exc:  # e.g. an int beyond the interpreter's digit limit
        raise BadValue(f"value cannot be written as JSON: {exc}") from None
    if len(text) > max_chars:
        raise BadValue(f"returned value is {len(text)} characters of JSON; the cap is {max_chars}")
    return text


def decode(text: str) -> Any:
    """The value a wire form stands for (tuples, dicts and complex numbers restored)."""
    return _decode(json.loads(text))


def decode_tree(tree: Any) -> Any:
    """Like decode, for a wire form already parsed from JSON."""
    return _decode(tree)


def encode_args(args: Any) -> Any:
    """Arguments for a call, from the caller's side, in wire form (dates as ISO strings)."""
    return _encode(tuple(args), 0, [10**8])


def _spend(budget: list[int], n: int) -> None:
    budget[0] -= n
    if budget[0] < 0:
        raise BadValue("returned value is larger than the value cap")


def _encode(v: Any, depth: int, budget: list[int]) -> Any:
    if depth > MAX_DEPTH:
        raise BadValue(f"returned value is nested deeper than {MAX_DEPTH} levels")
    if v is None or isinstance(v, bool):
        _spend(budget, 5)
        return v
    if isinstance(v, int):
        if v.bit_length() > 14_000:  # about 4,300 decimal digits, the interpreter's own limit
            raise BadValue("returned integer has more than 4,300 digits")
        _spend(budget, 8)
        return int(v)
    if isinstance(v, float):
        _spend(budget, 8)
        return float(v)
    if isinstance(v, complex):
        _spend(budget, 16)
        return {"c": [v.real, v.imag]}
    if isinstance(v, str):
        _spend(budget, len(v) + 2)
        return str(v)
    if isinstance(v, (list, tuple)):
        _spend(budget, 2 + len(v))
        items = [_encode(x, depth + 1, budget) for x in v]
        return {"t": items} if isinstance(v, tuple) else items
    if isinstance(v, dict):
        _spend(budget, 2 + len(v))
        pairs = []
        for k, x in v.items():
            key = _encode(k, depth + 1, budget)  # sympy symbols as keys (solve's dicts) become srepr text
            if not _is_key(key):
                raise BadValue(f"dict key of type {type(k).__name__} cannot be returned")
            pairs.append([key, _encode(x, depth + 1, budget)])
        return {"d": pairs}
    if isinstance(v, (_dt.date, _dt.time)):  # datetime is a date
        _spend(budget, 32)
        return v.isoformat()
    if isinstance(v, _dt.timedelta):
        _spend(budget, 32)
        return _iso_duration(v)
    return _encode_library(v, depth, budget)


def _is_key(wire: Any) -> bool:
    """Whether an encoded key decodes to something hashable (scalars, tuples, complex)."""
    if wire is None or isinstance(wire, (bool, int, float, str)):
        return True
    if isinstance(wire, dict) and "t" in wire:
        return all(_is_key(x) for x in wire["t"])
    return isinstance(wire, dict) and "c" in wire


def _encode_library(v: Any, depth: int, budget: list[int]) -> Any:
    """numpy and sympy values, looked up only when those modules are loaded."""
    np = sys.modules.get("numpy")
    if np is not None:
        if isinstance(v, np.ndarray):
            _spend(budget, int(v.size))
            if v.dtype.kind not in "biufc":
                raise BadValue(f"numpy array of dtype {v.dtype} cannot be returned")
            return _encode(v.tolist(), depth, budget)
        if isinstance(v, np.generic):
            return _encode(v.item(), depth, budget)
    sympy = sys.modules.get("sympy")
    if sympy is not None and isinstance(v, (sympy.Basic, sympy.MatrixBase)):
        text = sympy.srepr(v)
        _spend(budget, len(text))
        return text
    raise BadValue(f"a value of type {type(v).__name__} cannot be returned")


def _iso_duration(td: _dt.timedelta) -> str:
    """ISO 8601 duration, e.g. P280D or P1DT2H3M4.5S (negative durations get a leading '-')."""
    sign = "-" if td < _dt.timedelta(0) else ""
    td = abs(td)
    hours, rest = divmod(td.seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    secs = seconds + td.microseconds / 1e6
    time = ""
    if hours:
        time += f"{hours}H"
    if minutes:
        time += f"{minutes}M"
    if secs:
        time += f"{secs:g}S"
    out = f"{sign}P{td.days}D" if td.days or not time else f"{sign}P"
    return out + (f"T{time}" if time else "")


def _decode(v: Any) -> Any:
    if isinstance(v, list):
        return [_decode(x) for x in v]
    if isinstance(v, dict):
        if "t" in v:
            return tuple(_decode(x) for x in v["t"])
        if "d" in v:
            return {_decode(k): _decode(x) for k, x in v["d"]}
        if "c" in v:
            return complex(v["c"][0], v["c"][1])
        raise ValueError(f"untagged object on the wire: {sorted(v)[:3]}")
    return v
