"""One answer string read as a quantity: number, unit, and whether its form is acceptable.

The number is parsed here (never by pint); the unit by `units.scan_unit`. A range or a list
of alternatives ("1.2-1.3 Gy", "317 or 318 MU"), an unevaluated expression ("180/0.5678"),
and a number inside the unit are format errors (MedPhysBench, "Grading details").
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from typing import NamedTuple

from physbench.grading.alternatives import Stated, later_values, number_value, read_stated
from physbench.grading.normalize import NEEDS_LABELS_FIRST, clean, clean_text, drop_labels
from physbench.grading.units import UnitPhrase, conversion_factor, scan_unit

NUMBER = re.compile(r"(?<![\w.])[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?(?![\d]|[eE][-+]?\d)")
_BETWEEN = re.compile(r"\b(?:between|either|from)\s*$", re.I)
_NOT_A_NUMBER = "the number is not finite, out of range or too long"


class Reading(NamedTuple):
    """What an answer string says. `error` is set when its form is not acceptable."""

    value: float | None  # the number, with a count in the denominator folded in (Gy/100 MU)
    unit: str            # normalised unit as written ("cGy/MU"); "" for none
    expr: str            # the unit as a pint expression of full names
    error: str | None    # why this is a format error, or None
    text: str            # the cleaned answer text, for the record
    rest: str = ""       # what follows the quantity in `text`
    stated: Stated | None = None  # the number as written and its unit (for comparing restatements)


def _read(s: str) -> Reading | None:
    m = NUMBER.search(s)
    if m is None:
        return None
    first, pos = read_stated(s, m)
    unit = first.unit
    error = None if first.value is not None else _NOT_A_NUMBER
    if error is None and unit.invalid:
        error = unit.invalid
    if error is None and m.start() and _BETWEEN.search(s, 0, m.start()):
        error = "a range"
    if error is None and pos < len(s):
        first, pos, error = later_values(s, pos, first)
    return Reading(first.value, unit.shown, unit.expr, error, s, s[pos:], first)


_DONE = re.compile(r"[\s.,;:!)\]]*$")


def _read_slow(text: str) -> Reading | None:
    """Labels are dropped ("mm Al", "per fraction", "EQD2", "at d_max") only when the plain
    reading leaves text after the quantity, so a plain "317 MU" costs one pass."""
    s = clean_text(text)
    if "W" in s and NEEDS_LABELS_FIRST.search(s):
        s = drop_labels(s)
    reading = _read(s)
    if reading is not None and _DONE.match(reading.rest):
        return reading
    s2 = drop_labels(s)
    return reading if s2 == s else _read(s2)


# --- the fast path: a plain number followed by a tail whose digits are only unit exponents ----------
# Most answers are "NUMBER TAIL" where the tail ("\\ \\text{cGy/MU}", " MBq h.", " cGy MU⁻¹") holds no
# digit except a unit's exponent. How such a tail reads does not depend on the number: every rule of
# `clean_text`, `drop_labels` and the scanners that looks at digits needs one in the tail other than a
# unit exponent, and the number (ASCII digits, optional sign, decimal point, digit groups and
# exponent, ending in a digit) passes through them unchanged. So the tail is read once, after a
# stand-in number of the same shape ("1", or "1.5" when the number has a point or an exponent, so
# that a full stop after it reads the same), and cached; the number itself is parsed here. A
# property test checks that both paths agree on random numbers and tails.
_PLAIN = re.compile(
    r"[ \t]*([-+]?(?:[1-9]\d{0,2}(?:(?:,|\{,\}|\\,|\u2009)\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"
    r"(?:[eE][-+]?\d+)?)(?!\d|\.\d)"
)
_GROUP_MARK = re.compile(r",|\{,\}|\\,|\u2009")  # digit groups: 17,273 17{,}273 17\,273 (joined, as clean_text does)
_TAIL_DIGIT = re.compile(r"[\d\u00b2\u00b3\u00b9\u2070-\u2079\u2080-\u2089]")
# a unit's exponent: "MU^{-1}", "\\text{MU}^{-1}", "cm^2", "MU⁻¹" (after a letter or a closing brace)
_TAIL_EXPONENT = re.compile(r"(?<=[A-Za-zµ}])(?:\^\s*\{?\s*\(?\s*[-+]?\s*\d{1,2}\s*\)?\s*\}?|[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)")


@lru_cache(maxsize=8192)
def _tail(stand_in: str, tail: str) -> tuple[UnitPhrase, str, str, str | None, str, str] | None:
    """How stand_in + tail reads, as (unit, shown unit, pint expression, error, cleaned text after
    the number, rest); None when the stand-in is not read as the number at the start, or when a
    number is left after the unit (it would be compared with the value)."""
    r = _read_slow(stand_in + tail)
    if r is None or r.stated is None or r.stated.text.rstrip(".") != stand_in or not r.text.startswith(stand_in) \
            or (r.value is not None and r.stated.unit.factor * float(stand_in) != r.value) \
            or _TAIL_DIGIT.search(r.rest):
        return None
    return r.stated.unit, r.unit, r.expr, r.error, r.text[len(stand_in):], r.rest


def _plain_tail(tail: str) -> bool:
    if len(tail) > 200:
        return False
    if not _TAIL_DIGIT.search(tail):
        return True
    return not _TAIL_DIGIT.search(_TAIL_EXPONENT.sub("", tail))


def read_quantity(text: str) -> Reading | None:
    """Read the first quantity of an answer string; None when it holds no number at all."""
    m = _PLAIN.match(text)
    if m is not None:
        tail = text[m.end():]
        if _plain_tail(tail):
            number = m.group(1)
            if "," in number or "\\" in number or "\u2009" in number:
                number = _GROUP_MARK.sub("", number)
            cached = _tail("1.5" if "." in number or "e" in number or "E" in number else "1", tail)
            if cached is not None:  # the tail's reading, with the real number in place of the stand-in
                unit, shown, expr, error, after, rest = cached
                raw = number_value(number)
                if raw is None:
                    return Reading(None, shown, expr, _NOT_A_NUMBER, number + after, rest, Stated(number, unit, None))
                value = raw * unit.factor
                return Reading(value, shown, expr, error, number + after, rest, Stated(number, unit, value))
    return _read_slow(text)


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
