"""One value or several: what may follow the quantity a final answer states.

MedPhysBench ("Grading details"): a response with a range or alternatives is a format error.
Issue 14 sharpens this: a final answer that names more than one value, or an expression the
grader cannot evaluate exactly, is a format error, never a pass. After the first quantity of an
answer string, every later number is classified, in this order:

1. right after the quantity, arithmetic ("1.8 Gy × 25") is an expression: a format error. The
   one exception is a power of ten ("1.018 cGy/MU × 10^{3}"), which is scientific notation
   split by the unit and is applied exactly (decimal arithmetic, one rounding);
2. the same value restated ("1.23 Gy (or 123 cGy)") is one value; without a word of choice
   before it, so is the value rounded to at least 3 significant figures ("317.4 MU (≈ 317 MU)");
3. a word of hedging or choice before it ("or", "maybe", "else", "i.e.", "option", "→", ...)
   makes it an alternative, whatever its unit;
4. a number joined to the quantity by a range or list mark (",", ";", "/", "-", "to", "and")
   is the other end of a range or a second item;
5. a bare number is a second value unless it is an index ("step 4") or a count of something
   that is not the answer ("3 significant figures", "in 25 fractions");
6. a number of the answer's dimension is a second value unless a preposition introduces it
   directly ("54.3 cm at 3 m");
7. a number of another dimension qualifies the answer ("1.018 cGy/MU at 10 cm depth").
Each rule is a word class or a mark, not a listed answer; every scan is bounded.
"""

from __future__ import annotations

import math
import re
import sys
from decimal import Decimal, InvalidOperation
from typing import NamedTuple

from physbench.grading.units import UnitPhrase, conversion_factor, scan_unit, unit_word

MAX_LATER = 12  # later numbers examined; an answer with more is refused as a list

# a number not glued to a word, a decimal point or a caret (an exponent, a subscript, "Gy10")
LATER_NUMBER = re.compile(r"(?<![\w.^])[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?(?!\d|[eE][-+]?\d)")
UNCERTAINTY = re.compile(r"\s*(?:±|\+/-|\+-)\s*(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?\s*%?")

# words and marks of hedging or choice: what follows them is offered instead of the answer
HEDGE = re.compile(
    r"\b(?:or|else|otherwise|alternatively|alternatives?|options?|maybe|perhaps|possibly|either|rather|"
    r"instead|versus|namely|respectively|unless)\b|\b(?:i\.?\s?e|e\.?\s?g|vs|alt)\b\.?|→|⇒|⟶|↦|\?|\|",
    re.I,
)
# marks that join a second number to the first: a range or a list (the whole gap between them)
_JOINED = re.compile(
    r"\s*\(?\s*(?:,|;|/|\||\bor\b|\band\b|\bto\b|\bvs\.?|\bversus\b|–|—|-|\.\.\.?|…)\s*\(?\s*", re.I
)
# arithmetic right after the quantity; "/" and "-" are read as joiners when a unit was written
_ARITHMETIC_AFTER_UNIT = re.compile(r"\s*(?:\*\*|[*^+]|x\s)\s*\(?\s*[-+]?\.?\d")
_ARITHMETIC_AFTER_NUMBER = re.compile(r"\s*(?:\*\*|[*/^+]|x\s)\s*\(?\s*[-+]?\.?\d")
_POWER_OF_TEN = re.compile(r"\s*(?:\*|x)\s*10\s*\^\s*\(?\s*([-+]?\d{1,4})\s*\)?(?![\d.])")
# an index before a bare number, a count noun after it
_INDEX_BEFORE = re.compile(
    r"\b(?:steps?|eqs?|equations?|tables?|fields?|beams?|points?|lines?|rows?|parts?|items?|figs?|figures?|"
    r"pages?|levels?|sections?|cases?|patients?|sources?|positions?|dwells?|channels?|no|nos|number|"
    r"reports?|publications?|pub|tg|trs|ncrp|icru|icrp|aapm|iaea|iec|protocol|chapter|ref|version|v)"
    r"\.?\s*#?\s*$",
    re.I,
)
_COUNT_AFTER = re.compile(
    r"\s*(?:significant\b|sig\.?\s*figs?\b|s\.\s?f\.|sf\b|decimals?\b|d\.p\.|dp\b|digits?\b|figures?\b|"
    r"fractions?\b|fx\b|fr\b|#|fields?\b|beams?\b|arcs?\b|sessions?\b|treatments?\b|sources?\b|seeds?\b|"
    r"dwells?\b|positions?\b|points?\b|steps?\b|[HT]VLs?\b|half[- ]?li(?:fe|ves)\b|patients?\b|iterations?\b)",
    re.I,
)
_PREPOSITION = re.compile(
    r"\b(?:at|in|for|over|with|within|after|before|on|using|behind|under|of|across|through|into|below|above|"
    r"beyond|per|near|inside|outside|during)\s+(?:(?:a|an|the|each|every)\s+)?$",
    re.I,
)
_NONZERO = re.compile(r"[1-9]")
_DIGIT = re.compile(r"\d")
_SEPARATOR = re.compile(r"[,;()\[\]]")
# a sentence ends the answer's statement: what follows is prose, checked only for hedged values
_SENTENCE_END = re.compile(r"[.!](?:\s+(?=[A-Z])|\s*$)")
# a name glued to a number by a hyphen: "TG-51", "Ir-192", "Co-60" (not "Gy-1.3": a unit, so a range)
_NAME_HYPHEN = re.compile(r"(?<![A-Za-z])([A-Za-z]{1,6})-$")
_PRODUCT = re.compile(r"^\s*(?:\*|x|by)\s*$", re.I)


class Stated(NamedTuple):
    """A number as written, its unit, and its value in that unit (a count in a denominator folded in)."""

    text: str
    unit: UnitPhrase
    value: float | None


def number_value(text: str) -> float | None:
    """The number a string spells; None when it is too long or out of range: an exponent that
    overflows ("1e999") or makes a nonzero number underflow ("7e-10005" is not 0, and never 10005)."""
    if len(text) > 60:
        return None
    value = float(text)
    if not math.isfinite(value):
        return None
    if value == 0.0:
        return None if _NONZERO.search(text.lower().partition("e")[0]) else 0.0
    return value if abs(value) >= sys.float_info.min else None  # a subnormal has lost its digits


def _ulp(text: str) -> float:
    """The place value of the last written digit: "1.018" -> 0.001, "317" -> 1, "1.2e3" -> 100."""
    mant, _, exp = text.lower().lstrip("+-").partition("e")
    decimals = len(mant.partition(".")[2])
    try:
        power = int(exp) if exp else 0
    except ValueError:
        power = 0
    return 10.0 ** max(-300, min(300, power - decimals))


def read_stated(s: str, m: re.Match[str]) -> tuple[Stated, int]:
    """The number at `m`, an optional "± u", its unit and another optional "± u [unit]"; where it ends."""
    pos = m.end()
    u = UNCERTAINTY.match(s, pos)
    if u:
        pos = u.end()
    unit = scan_unit(s, pos)
    pos = unit.end
    u = UNCERTAINTY.match(s, pos)
    if u:
        pos = scan_unit(s, u.end()).end
    raw = number_value(m.group())
    return Stated(m.group(), unit, None if raw is None else raw * unit.factor), pos


def _significant(text: str) -> int:
    """Significant figures as written: "317" -> 3, "0.0123" -> 3, "1.2e3" -> 2; an integer's
    trailing zeros are not counted ("100" -> 1), the conservative reading of an ambiguous form."""
    mantissa = text.lower().lstrip("+-").partition("e")[0]
    digits = mantissa.replace(".", "").lstrip("0")
    return len(digits if "." in mantissa else digits.rstrip("0"))


def same_value(a: Stated, b: Stated, *, exact: bool = False) -> bool:
    """Two statements of one value: equal after conversion ("1.23 Gy (or 123 cGy)"); or, unless
    `exact` (the second follows a word or mark of choice), the same to the precision of the less
    precise one when that one has at least 3 significant figures ("317.4 MU (≈ 317 MU)"; not
    "1 Gy (0.6 Gy)"). A bare number takes the other's unit ("317 or 317 MU")."""
    if a.value is None or b.value is None or a.unit.invalid or b.unit.invalid:
        return False
    f = conversion_factor(a.unit.expr, b.unit.expr)  # "0.987 (98.7%)": a pure number and a percentage
    if f is None and not (a.unit.expr and b.unit.expr):
        f = 1.0  # "317 or 318 MU": the bare number takes the other's unit
    if f is None:
        return False
    x, y = a.value * f, b.value
    if abs(x - y) <= 1e-9 * max(abs(x), abs(y)):
        return True
    if exact or min(_significant(a.text), _significant(b.text)) < 3:
        return False
    tol = 0.5 * max(_ulp(a.text) * a.unit.factor * abs(f), _ulp(b.text) * b.unit.factor)
    return abs(x - y) <= tol * (1.0 + 1e-9)


def _same_dimension(a: UnitPhrase, b: UnitPhrase) -> bool:
    return conversion_factor(a.expr, b.expr) is not None


def power_of_ten(s: str, pos: int, first: Stated) -> tuple[Stated, int] | None:
    """"1.018 cGy/MU × 10^{3}": the value times the power, computed exactly; None if absent.
    The written precision moves with the power (1.018 × 10^3 is known to 1)."""
    m = _POWER_OF_TEN.match(s, pos)
    if m is None:
        return None
    try:
        text = str(Decimal(first.text).scaleb(int(m.group(1))))
    except (InvalidOperation, ValueError):
        return Stated(first.text, first.unit, None), m.end()
    raw = number_value(text)
    return Stated(text, first.unit, None if raw is None else raw * first.unit.factor), m.end()


def later_values(s: str, pos: int, first: Stated) -> tuple[Stated, int, str | None]:
    """Read what follows the first quantity (which ends at `pos`): the quantity as finally stated
    (a power of ten applied), where it ends, and why the answer is more than one value (or None)."""
    if first.unit.expr:
        arithmetic = _ARITHMETIC_AFTER_UNIT
        scaled = power_of_ten(s, pos, first)
        if scaled is not None:
            first, pos = scaled
            if first.value is None:
                return first, pos, "the number is out of range"
    else:
        arithmetic = _ARITHMETIC_AFTER_NUMBER
    if arithmetic.match(s, pos):
        return first, pos, "an expression, not a value"
    end = pos
    sentence = _SENTENCE_END.search(s, pos)
    stop = sentence.end() if sentence else len(s)
    prev_end, prev_qualifier, seen = pos, False, 0
    for m in LATER_NUMBER.finditer(s, pos, stop):
        if m.start() < prev_end:
            continue  # inside a quantity already read ("± 0.02 Gy")
        seen += 1
        if seen > MAX_LATER:
            return first, end, "more numbers than one answer holds"
        between = s[prev_end: m.start()]
        name = _NAME_HYPHEN.search(between)
        if name and unit_word(name.group(1)) is None:
            continue  # part of a name, not a value
        other, other_end = read_stated(s, m)
        if other.unit.invalid:
            return first, end, "a second value with an invalid unit"
        if prev_qualifier and _PRODUCT.match(between):
            prev_end = other_end  # the rest of a qualifier: "for a 10 x 10 cm field"
            continue
        hedged = HEDGE.search(between) is not None
        joined = seen == 1 and _JOINED.fullmatch(between) is not None
        if same_value(first, other, exact=hedged or joined):
            prev_end, prev_qualifier = other_end, False
            continue
        if hedged:
            return first, end, "alternatives (a hedge or choice before a second value)"
        if joined:
            return first, end, "a range or alternatives"
        bare = not other.unit.expr
        if bare and (_INDEX_BEFORE.search(between) or _COUNT_AFTER.match(s, other_end)
                     or _PREPOSITION.search(between)):
            prev_end, prev_qualifier = other_end, True
            continue
        if bare and first.unit.expr:
            return first, end, "a second number after the answer"
        if _same_dimension(first.unit, other.unit):
            if _PREPOSITION.search(between) and not _SEPARATOR.search(between):
                prev_end, prev_qualifier = other_end, True
                continue
            return first, end, "a second value of the same kind (alternatives)"
        prev_end, prev_qualifier = other_end, True  # another quantity qualifies the answer
    if stop < len(s):
        return first, end, hedged_after(s[stop:], first)
    return first, end, None


def hedged_after(s: str, first: Stated) -> str | None:
    """Text after a box on its line, or after the answer's sentence: a hedged second value
    ("\\boxed{317 MU} or 318 MU", "1.018 cGy/MU. Or maybe 2.0") or arithmetic on the box
    ("\\boxed{1.8 Gy} × 25") makes the answer more than one value."""
    if _ARITHMETIC_AFTER_NUMBER.match(s):
        return "an expression after the box"
    if _DIGIT.search(s) is None:
        return None
    h = HEDGE.search(s)
    if h is None:
        return None
    for index, m in enumerate(LATER_NUMBER.finditer(s, h.end())):
        if index >= MAX_LATER:
            break
        other, _ = read_stated(s, m)
        if not same_value(first, other, exact=True):
            return "alternatives after the box"
    return None
