"""Comparisons of plain values (numbers, strings) used by the validator and the grader."""

from __future__ import annotations

import cmath
import math
from typing import Any


def numbers_close(a: Any, b: Any, rtol: float, atol: float = 0.0) -> bool:
    """|a - b| <= max(atol, rtol * |b|) for finite real or complex numbers; False otherwise."""
    if isinstance(a, bool) or isinstance(b, bool):
        return False
    if not isinstance(a, (int, float, complex)) or not isinstance(b, (int, float, complex)):
        return False
    try:
        if not (cmath.isfinite(a) and cmath.isfinite(b)):
            return False
        return abs(complex(a) - complex(b)) <= max(atol, rtol * abs(complex(b)))
    except (OverflowError, ValueError, TypeError):
        return False


def strings_match(a: Any, b: str, case_sensitive: bool = False) -> bool:
    """Equal after collapsing whitespace (and case, unless case_sensitive)."""
    if not isinstance(a, str) or len(a) > 10_000:
        return False
    x, y = " ".join(a.split()), " ".join(b.split())
    return x == y if case_sensitive else x.casefold() == y.casefold()


def is_finite_real(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)
