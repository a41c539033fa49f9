"""One answer string read as a quantity: number, unit, and whether its form is acceptable.

The number is parsed here (never by pint); the unit by `units.scan_unit`. A range or a list
of alternatives ("1.2-1.3 Gy", "317 or 318 MU"), an unevaluated expression ("180/0.5678"),
and a number inside the unit are format errors (MedPhysBench, "Grading details").
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache

from physbench.grading.normalize import NEEDS_LABELS_FIRST, clean, clean_text, drop_labels
from physbench.grading.units import UnitPhrase, conversion_factor, scan_unit

NUMBER = re.compile(r"(?<![\w.])[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d{1,4})?(?![\d]|[eE][-+]?\d)")
_MAX_NUMBER_CHARS = 60
_UNCERTAINTY = re.compile(
    r"\s*(?:±|\+/-|\+-)\s*(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d{1,4})?\s*%?"
)
# something after the quantity that joins it to another number: a range or alternatives
_JOINER = re.compile(
    r"\s*\(?\s*(?:,|;|/|\||\bor\b|\band\b|\bto\b|\bvs\.?|\bversus\b|–|—|-|\.\.\.?|…)\s*\(?\s*"
    r"(?=[-+]?\.?\d)",
    re.I,
)
_BETWEEN = re.compile(r"\b(?:between|either|from)\s*$", re.I)
_EXPRESSION = re.compile(r"\s*(?:\*\*|[*/^+]|x\s)\s*\(?\s*[-+]?\.?\d")
_SECOND_NUMBER = re.compile(r"\s+[-+]?\.?\d")


@dataclass(frozen=True, slots=True)
class Reading:
    """What an answer string says. `error` is set when its form is not acceptable."""

    value: float | None  # the number, with a count in the denominator folded in (Gy/100 MU)
    unit: str            # normalised unit as written ("cGy/MU"); "" for none
    expr: str            # the unit as a pint expression of full names
    error: str | None    # why this is a format error, or None
    text: str            # the cleaned answer text, for the record
    rest: str = ""       # what follows the quantity in `text`


def _number(text: str) -> float | None:
    if len(text) > _MAX_NUMBER_CHARS:
        return None
    value = float(text)
    return value if math.isfinite(value) else None


def _read_core(s: str, m: re.Match[str]) -> tuple[float | None, UnitPhrase, int, str | None]:
    """Number at `m`, an optional "± u", the unit, another optional "± u [unit]"."""
    value = _number(m.group())
    pos = m.end()
    u = _UNCERTAINTY.match(s, pos)
    if u:
        pos = u.end()
    unit = scan_unit(s, pos)
    pos = unit.end
    u = _UNCERTAINTY.match(s, pos)
    if u:
        pos = scan_unit(s, u.end()).end
    error = None if value is not None else "the number is not finite or too long"
    return value, unit, pos, error


def _same_value(a: tuple[float | None, UnitPhrase], b: tuple[float | None, UnitPhrase]) -> bool:
    """Two readings that state one value ("1.23 Gy (or 123 cGy)") are not alternatives."""
    (va, ua), (vb, ub) = a, b
    if va is None or vb is None:
        return False
    ea, eb = ua.expr or ub.expr, ub.expr or ua.expr
    f = conversion_factor(ea, eb)
    if f is None:
        return False
    x, y = va * ua.factor * f, vb * ub.factor
    return math.isclose(x, y, rel_tol=1e-9, abs_tol=0.0)


def _read(s: str) -> Reading | None:
    m = NUMBER.search(s)
    if m is None:
        return None
    value, unit, pos, error = _read_core(s, m)
    if error is None and unit.invalid:
        error = unit.invalid
    if error is None and m.start() and _BETWEEN.search(s, 0, m.start()):
        error = "a range"
    rest = s[pos:]
    if error is None and rest:
        if not unit.expr and _EXPRESSION.match(rest):
            error = "an expression, not a value"
        elif (j := _JOINER.match(rest)) is not None:
            m2 = NUMBER.match(s, pos + j.end())
            if m2 is not None:
                v2, unit2, _, _ = _read_core(s, m2)
                if unit2.invalid or not _same_value((value, unit), (v2, unit2)):
                    error = "a range or alternatives"
        elif _SECOND_NUMBER.match(rest):
            error = "a second number after the answer"
    if value is not None:
        value *= unit.factor
    return Reading(value, unit.shown, unit.expr, error, s, rest)


_DONE = re.compile(r"[\s.,;:!)\]]*$")


def read_quantity(text: str) -> Reading | None:
    """Read the first quantity of an answer string; None when it holds no number at all.

    Labels are dropped ("mm Al", "per fraction", "EQD2", "at d_max") only when the plain
    reading leaves text after the quantity, so a plain "317 MU" costs one pass.
    """
    s = clean_text(text)
    if "W" in s and NEEDS_LABELS_FIRST.search(s):
        s = drop_labels(s)
    reading = _read(s)
    if reading is not None and _DONE.match(reading.rest):
        return reading
    s2 = drop_labels(s)
    return reading if s2 == s else _read(s2)


@lru_cache(maxsize=4096)
def parse_unit(text: str) -> UnitPhrase | None:
    """A whole string read as a unit ("cGy/MU", "MBq h", "", "dimensionless"); None if it is not one."""
    s = clean(text)
    unit = scan_unit(s, 0)
    if unit.invalid or s[unit.end:].strip():
        return None
    return unit


def parse_quantity(text: str) -> tuple[float, str] | None:
    """One "value unit" string as (value, normalised unit), or None if it is not exactly that.

    A count in a denominator is folded into the value: "1.2 Gy/100 MU" -> (0.012, "Gy/MU").
    """
    if not isinstance(text, str):
        return None
    r = read_quantity(text)
    if r is None or r.error is not None or r.value is None or r.rest.strip(" .;:") or r.text[:1].isalpha():
        return None
    return r.value, r.unit


def convert(value: float, unit: str, to_unit: str) -> float | None:
    """`value` in `unit` expressed in `to_unit`; None if a unit is invalid or they are incompatible."""
    try:
        value = float(value)
    except (TypeError, ValueError):
        return None
    a, b = parse_unit(unit or ""), parse_unit(to_unit or "")
    if a is None or b is None or not math.isfinite(value):
        return None
    f = conversion_factor(a.expr, b.expr)
    if f is None:
        return None
    out = value * a.factor * f / b.factor
    return out if math.isfinite(out) else None
