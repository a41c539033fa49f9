"""Limits a sandboxed program runs under, and the result it comes back with.

Defaults follow the seeds: 003_* Table 17 (256 MB, 5 s CPU, 5 s wall, 100,000 executed lines,
8,000 source characters) for `strict`; 002_* section 3.2 (30 s wall) for `scientific`.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

POLICIES = ("strict", "scientific", "symbolic")

STATUSES = ("ok", "rejected", "raised", "timeout", "memory", "line_limit", "output_limit", "bad_return")

# per-policy defaults; a field left None in Limits takes the value here
_DEFAULTS: dict[str, dict[str, float]] = {
    "strict": dict(wall_s=5.0, cpu_s=5.0, memory_mb=256, max_lines=100_000, max_output_chars=65_536,
                   max_value_chars=1_000_000, max_source_chars=8_000),
    "scientific": dict(wall_s=30.0, cpu_s=30.0, memory_mb=256, max_lines=100_000, max_output_chars=65_536,
                       max_value_chars=1_000_000, max_source_chars=16_000),
}
_DEFAULTS["symbolic"] = dict(_DEFAULTS["scientific"])

# what a caller may ask for at most: keeps a typo from becoming an hour-long or 1 TB run
_CEILINGS = dict(wall_s=600.0, cpu_s=600.0, memory_mb=65_536, max_lines=10**9, max_output_chars=10**8,
                 max_value_chars=10**8, max_source_chars=10**6)


@dataclass(frozen=True)
class Limits:
    """Caps for one program; None means the policy's default.

    memory_mb is address space the program may add on top of the warm interpreter it is
    forked from (so `scientific`, whose parent has numpy/scipy/sympy mapped, gets the same
    headroom as `strict`).
    """

    wall_s: float | None = None
    cpu_s: float | None = None
    memory_mb: int | None = None
    max_lines: int | None = None
    max_output_chars: int | None = None
    max_value_chars: int | None = None
    max_source_chars: int | None = None
    # past max_output_chars: False stops the run (status output_limit), True drops the rest of
    # the printed text and lets the program finish (a grader whose verdict is the returned value)
    truncate_output: bool | None = None

    def resolve(self, policy: str) -> "Limits":
        """Fill every None from the policy's defaults and check each value is sane."""
        if policy not in _DEFAULTS:
            raise ValueError(f"unknown policy {policy!r}; choose one of {', '.join(POLICIES)}")
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "truncate_output":
                if value is not None and not isinstance(value, bool):
                    raise ValueError(f"limit truncate_output must be true or false, got {value!r}")
                out[f.name] = bool(value)
                continue
            if value is None:
                value = _DEFAULTS[policy][f.name]
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise ValueError(f"limit {f.name} must be a finite number, got {value!r}")
            if value <= 0 or value > _CEILINGS[f.name]:
                raise ValueError(f"limit {f.name}={value} is outside (0, {_CEILINGS[f.name]}]")
            out[f.name] = float(value) if f.name.endswith("_s") else int(value)
        return replace(self, **out)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class ExecResult:
    """What one program run produced. `status` is one of STATUSES; `value` is JSON-safe
    (tuples and non-string dict keys survive the trip); `output` is captured print text."""

    status: str
    value: Any = None
    error: str | None = None
    wall_s: float = 0.0
    cpu_s: float = 0.0
    max_rss_mb: float = 0.0
    output: str = ""

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON: tuples become lists, sets {"set": [...]}, complex numbers {"real", "imag"}, keys strings."""
        return {"status": self.status, "value": _plain(self.value), "error": self.error,
                "wall_s": round(self.wall_s, 6), "cpu_s": round(self.cpu_s, 6),
                "max_rss_mb": round(self.max_rss_mb, 3), "output": self.output}


def _plain(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (set, frozenset)):  # tagged: a set has no order a reader may take as one
        items = [_plain(v) for v in value]
        return {"set": sorted(items, key=lambda v: (type(v).__name__, repr(v)))}
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, complex):
        return {"real": value.real, "imag": value.imag}
    return value
