"""The project's pint registry, and unit text read by our own bounded scanner.

pint never sees raw model text: `scan_unit` reads unit words one at a time (each checked
against the registry and cached), allows only small integer exponents and a power-of-ten
count in a denominator ("Gy/100 MU"), and builds a pint expression from full unit names.
pint parses each distinct expression once; each conversion factor is computed once, and
remembered on disk with pint's other answers (unit_table.py): pint is imported only for a
question that table has not seen.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from physbench.grading.unit_table import table

if TYPE_CHECKING:
    import pint

DEFINITIONS = Path(__file__).with_name("units.txt")
MAX_UNIT_TOKENS = 16
MAX_WORD = 24

# names that are not unit words in the registry but mean one (checked after the registry)
_WORD_ALIASES = {"%": "percent", "‰": "permille", "°": "degree"}


_MISSING = object()


@lru_cache(maxsize=1)
def registry() -> "pint.UnitRegistry":
    """The one registry, built from `units.txt` (gray and sievert apart, MU a unit, no `rad`)."""
    import pint

    return pint.UnitRegistry(str(DEFINITIONS), on_redefinition="raise", cache_folder=None)


@lru_cache(maxsize=8192)
def unit_word(word: str) -> str | None:
    """The registry's full name for one unit word ("cGy" -> "centigray"), or None if not a unit.

    Where pint finds two readings ("MU": monitor unit or mega-U) the unprefixed one wins.
    Capitalised long names ("Gray", "Hours") are tried in lower case.
    """
    if not word or len(word) > MAX_WORD:
        return None
    if word in _WORD_ALIASES:
        return _WORD_ALIASES[word]
    known = table().get("words", word, _MISSING)
    if known is not _MISSING:
        return known  # type: ignore[no-any-return]
    name = _registry_word(word)
    table().learn("words", word, name)
    return name


def _registry_word(word: str) -> str | None:
    reg = registry()
    tries = (word, word.lower()) if len(word) > 3 and not word.islower() else (word,)
    for w in tries:
        try:
            found = reg.parse_unit_name(w)
        except Exception:  # pint raises on some odd names; they are simply not units
            found = ()
        if found:
            prefix, name, _suffix = min(found, key=lambda c: (c[0] != "", len(c[0])))
            return prefix + name
    return None


class UnitPhrase(NamedTuple):
    """A unit read from text: pint expression, display form, count factor and where it ended."""

    expr: str          # pint expression of full names, "" for no unit ("centigray/monitor_unit")
    shown: str         # normalised display form ("cGy/MU", "MBq h", "cGy MU^-1")
    factor: float      # multiplier from counts in a denominator (Gy/100 MU -> 0.01)
    end: int           # index in the scanned text just after the phrase
    invalid: str | None = None  # why the unit is not acceptable (a number inside it)


_TOKEN = re.compile(
    r"[ \t]*(?:"
    r"(?P<word>[A-Za-zµμ]+|[%‰°])"
    r"(?:[ \t]*(?:\^|\*\*)[ \t]*(?P<paren>\()?[ \t]*(?P<exp>[-+]?\d{1,2})(?![\d.])[ \t]*(?(paren)\)))?"
    r"|(?P<op>[/*])"
    r"|(?P<hyph>-)(?=[A-Za-zµμ])"
    r"|(?P<num>\d+(?:\.\d+)?)"
    r"|(?P<open>\()"
    r"|(?P<close>\))"
    r")"
)


def _power_of_ten(text: str) -> float | None:
    """A count such as 1, 10, 100, 1000 (the only numbers allowed inside a unit)."""
    if re.fullmatch(r"10{0,6}", text):
        return float(text)
    return None


def _next_is_unit(text: str, pos: int) -> bool:
    m = _TOKEN.match(text, pos)
    return bool(m and m["word"] and m["word"].lower() != "per" and unit_word(m["word"]))


def scan_unit(text: str, pos: int = 0, *, group: bool = False) -> UnitPhrase:
    """Read the unit phrase that starts at `pos`; stop before the first thing that is not a unit.

    An operator is kept only when a unit word follows it, so "317 MU, which" reads "MU".
    Inside a group "(...)" that follows "/", a leading count is allowed ("Gy/(100 MU)").
    """
    expr: list[str] = []
    shown: list[str] = []
    factor = 1.0
    pending: str | None = None  # "/" or "*" waiting for its unit word
    end = pos
    for _ in range(MAX_UNIT_TOKENS):
        m = _TOKEN.match(text, pos)
        if m is None:
            break
        word = m["word"]
        if word is not None:
            if word.lower() == "per":
                if pending or not expr:
                    break
                pending, pos = "/", m.end()
                continue
            name = unit_word(word)
            if name is None:
                break
            exp = m["exp"]
            op = pending or ("*" if expr else "")
            expr.append(op + name + (f"**{int(exp)}" if exp else ""))
            shown.append(("/" if op == "/" else (" " if op else "")) + word + (f"^{int(exp)}" if exp else ""))
            pending, pos, end = None, m.end(), m.end()
            continue
        if m["op"] or m["hyph"]:
            if pending or not expr or (m["hyph"] and m.start("hyph") != end):
                break  # "//", a leading operator, or a spaced hyphen (a range, not a product)
            pending, pos = ("/" if m["op"] == "/" else "*"), m.end()
            continue
        if m["num"] is not None:
            count = _power_of_ten(m["num"])
            if count is not None and _next_is_unit(text, m.end()):
                if pending == "/":  # "Gy/100 MU": folded into the factor, "/" stays pending
                    factor /= count
                    pos = m.end()
                    continue
                if group and not expr and pending is None:  # "(100 MU)" after "/"
                    factor *= count
                    pos = m.end()
                    continue
            if expr and pending != "/" and _next_is_unit(text, m.end()):
                return UnitPhrase("", "", 1.0, m.end(), invalid="a number inside the unit")
            break
        if m["open"] and pending == "/" and not group:
            inner = scan_unit(text, m.end(), group=True)
            close = _TOKEN.match(text, inner.end)
            if inner.invalid or not inner.expr or close is None or close["close"] is None:
                break
            expr.append(f"/({inner.expr})")
            shown.append(f"/({inner.shown})" if " " in inner.shown or "/" in inner.shown else f"/{inner.shown}")
            factor /= inner.factor
            pending, pos, end = None, close.end(), close.end()
            continue
        break
    return UnitPhrase("".join(expr), "".join(shown), factor, end)


@lru_cache(maxsize=4096)
def pint_unit(expr: str) -> "pint.Unit | None":
    """The pint unit of an expression built by `scan_unit` ("" is dimensionless); None if pint fails."""
    try:
        return registry().parse_units(expr)
    except Exception:
        return None


@lru_cache(maxsize=16384)
def conversion_factor(from_expr: str, to_expr: str) -> float | None:
    """Multiply a value in `from_expr` by this to express it in `to_expr`; None if incompatible."""
    key = f"{from_expr}\0{to_expr}"
    known = table().get("factors", key, _MISSING)
    if known is not _MISSING:
        return known  # type: ignore[no-any-return]
    factor = _registry_factor(from_expr, to_expr)
    table().learn("factors", key, factor)
    return factor


def _registry_factor(from_expr: str, to_expr: str) -> float | None:
    a, b = pint_unit(from_expr), pint_unit(to_expr)
    if a is None or b is None:
        return None
    try:
        f = float(registry().Quantity(1.0, a).to(b).magnitude)
    except Exception:  # DimensionalityError, offset units: not convertible
        return None
    return f if math.isfinite(f) and f != 0.0 else None


@lru_cache(maxsize=4096)
def dimensionless(expr: str) -> bool:
    """True when the unit is a pure number (including percent)."""
    known = table().get("dimensionless", expr, _MISSING)
    if known is not _MISSING:
        return known  # type: ignore[no-any-return]
    unit = pint_unit(expr)
    answer = unit is not None and bool(unit.dimensionless)
    table().learn("dimensionless", expr, answer)
    return answer
