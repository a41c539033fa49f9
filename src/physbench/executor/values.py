"""JSON-safe values across the sandbox boundary (never pickles).

A program may return numbers, strings, booleans, None, and lists, tuples, sets and dicts of
them; dates, datetimes and times become ISO strings, timedeltas ISO 8601 durations, numpy scalars
and arrays plain numbers and lists, sympy integers and booleans Python ones, and other sympy
objects their `srepr` text, which comes back as `SymPyText` (a str that says where it came from;
it is inert: only a trusted parser ever turns it into an expression). On the wire tuples, sets,
dicts, complex numbers and sympy text are tagged ({"t": [...]}, {"s": [...]}, {"d": [[k, v], ...]},
{"c": [re, im]}, {"x": "srepr"}) so they come back as what they were; plain JSON objects never
appear untagged. Arguments may also carry sympy symbols and undefined functions (`SymbolArg`),
which only the program's process builds.
"""

from __future__ import annotations

import datetime as _dt
import json
import sys
from dataclasses import dataclass
from typing import Any

MAX_DEPTH = 32


class BadValue(Exception):
    """The value cannot cross the boundary (kind, depth or size); the message says why."""


class SymPyText(str):
    """The `srepr` text of a sympy object a program returned: data, never evaluated here."""

    def __repr__(self) -> str:
        return f"SymPyText({str.__repr__(self)})"


@dataclass(frozen=True)
class SymbolArg:
    """An argument the program receives as `sympy.Symbol(name, **assumptions)`, or with
    `function=True` as `sympy.Function(name)` (CritPt templates pass both, beside plain numbers)."""

    name: str
    assumptions: tuple[tuple[str, bool], ...] = ()
    function: bool = False


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
    """The value a wire form stands for (tuples, sets, dicts, complex numbers, sympy text restored)."""
    return _decode(json.loads(text), None)


def decode_tree(tree: Any) -> Any:
    """Like decode, for a wire form already parsed from JSON (symbol arguments are refused)."""
    return _decode(tree, None)


def decode_args(tree: Any) -> Any:
    """In the program's process: call arguments, sympy symbols and functions built here."""
    return _decode(tree, _build_symbol)


def encode_args(args: Any) -> Any:
    """Arguments for a call, from the caller's side, in wire form (dates as ISO strings)."""
    return _encode(tuple(args), 0, [10**8])


def _build_symbol(spec: Any) -> Any:
    import sympy

    name, facts, function = spec
    if not isinstance(name, str) or not isinstance(facts, dict) or not all(
            isinstance(k, str) and isinstance(v, bool) for k, v in facts.items()):
        raise ValueError("malformed symbol argument")
    return sympy.Function(name, **facts) if function else sympy.Symbol(name, **facts)


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
    if isinstance(v, SymPyText):
        _spend(budget, len(v) + 8)
        return {"x": str(v)}
    if isinstance(v, str):
        _spend(budget, len(v) + 2)
        return str(v)
    if isinstance(v, SymbolArg):
        _spend(budget, len(v.name) + 16 * len(v.assumptions) + 16)
        return {"y": [v.name, dict(v.assumptions), v.function]}
    if isinstance(v, (set, frozenset)):
        _spend(budget, 2 + len(v))
        items = [_encode(x, depth + 1, budget) for x in v]
        return {"s": items}
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
    if isinstance(wire, dict) and ("t" in wire or "s" in wire):
        return all(_is_key(x) for x in wire.get("t", wire.get("s")))
    return isinstance(wire, dict) and ("c" in wire or "x" in wire)


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
        if isinstance(v, sympy.Integer):
            return _encode(int(v), depth, budget)
        if v is sympy.true or v is sympy.false:
            return _encode(bool(v), depth, budget)
        text = sympy.srepr(v)
        if not isinstance(text, str):
            raise BadValue("sympy value has no text form")
        _spend(budget, len(text) + 8)
        return {"x": str(text)}
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


def _decode(v: Any, symbol: Any) -> Any:
    if isinstance(v, list):
        return [_decode(x, symbol) for x in v]
    if isinstance(v, dict):
        if "t" in v:
            return tuple(_decode(x, symbol) for x in v["t"])
        if "s" in v:
            return frozenset(_decode(x, symbol) for x in v["s"])
        if "d" in v:
            return {_decode(k, symbol): _decode(x, symbol) for k, x in v["d"]}
        if "c" in v:
            return complex(v["c"][0], v["c"][1])
        if "x" in v and isinstance(v["x"], str):
            return SymPyText(v["x"])
        if "y" in v and symbol is not None:
            return symbol(v["y"])
        raise ValueError(f"untagged object on the wire: {sorted(v)[:3]}")
    return v
