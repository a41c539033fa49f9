"""Validation helpers for problem files: every error names the file and the field, in one line."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable

from physbench.core.errors import UserError


class ProblemError(UserError):
    """A problem file (or one of its fields) is malformed; the message says which and why."""


@dataclass(frozen=True)
class Where:
    """A position in a problem file, e.g. `qec.json: checkpoints[1].answer.rtol`."""

    file: str
    path: str = ""

    def at(self, key: str | int) -> "Where":
        if isinstance(key, int):
            return Where(self.file, f"{self.path}[{key}]")
        return Where(self.file, f"{self.path}.{key}" if self.path else key)

    def fail(self, message: str) -> ProblemError:
        return ProblemError(f"{self.file}: {self.path or '(top level)'}: {message}")


def mapping(value: Any, where: Where, allowed: Iterable[str], required: Iterable[str] = ()) -> dict:
    """`value` as a JSON object with no unknown keys and every required key."""
    if not isinstance(value, dict):
        raise where.fail(f"must be a JSON object, not {_kind(value)}")
    allowed = set(allowed)
    unknown = sorted(k for k in value if k not in allowed)
    if unknown:
        raise where.fail(f"unknown field {unknown[0]!r} (allowed: {', '.join(sorted(allowed))})")
    for key in required:
        if key not in value:
            raise where.at(key).fail("is required")
    return value


def text(value: Any, where: Where, max_chars: int, allow_empty: bool = False) -> str:
    if not isinstance(value, str):
        raise where.fail(f"must be a string, not {_kind(value)}")
    if not allow_empty and not value.strip():
        raise where.fail("must not be empty")
    if len(value) > max_chars:
        raise where.fail(f"is {len(value)} characters; the limit is {max_chars}")
    return value


def real(value: Any, where: Where, low: float | None = None, high: float | None = None,
         low_open: bool = False) -> float:
    """A finite JSON number (not a boolean) within [low, high] (or (low, high] if low_open)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise where.fail(f"must be a number, not {_kind(value)}")
    x = float(value)
    if not math.isfinite(x):
        raise where.fail("must be finite")
    if low is not None and (x < low or (low_open and x == low)):
        raise where.fail(f"must be {'>' if low_open else '>='} {low:g}")
    if high is not None and x > high:
        raise where.fail(f"must be <= {high:g}")
    return x


def integer(value: Any, where: Where, low: int | None = None, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise where.fail(f"must be an integer, not {_kind(value)}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise where.fail(f"must be between {low} and {high}")
    return value


def boolean(value: Any, where: Where) -> bool:
    if not isinstance(value, bool):
        raise where.fail(f"must be true or false, not {_kind(value)}")
    return value


def array(value: Any, where: Where, min_len: int = 0, max_len: int = 10_000) -> list:
    if not isinstance(value, list):
        raise where.fail(f"must be a JSON array, not {_kind(value)}")
    if not min_len <= len(value) <= max_len:
        raise where.fail(f"must have between {min_len} and {max_len} entries, not {len(value)}")
    return value


def complex_number(value: Any, where: Where) -> complex | float:
    """A number, or {"real": x, "imag": y} for a complex one."""
    if isinstance(value, dict):
        mapping(value, where, ("real", "imag"), ("real", "imag"))
        z = complex(real(value["real"], where.at("real")), real(value["imag"], where.at("imag")))
        return z if z.imag != 0 else z.real
    return real(value, where)


def _kind(value: Any) -> str:
    return {dict: "an object", list: "an array", str: "a string", bool: "a boolean",
            type(None): "null", int: "an integer", float: "a number"}.get(type(value), type(value).__name__)
