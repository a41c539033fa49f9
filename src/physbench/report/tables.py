"""Tables and sections of the full report, independent of Markdown or HTML, and number formatting.

Cells are plain text; the renderers escape them for their format. Numbers print as the seed's
tables print them: percentages to one decimal, exact intervals as "(lo–hi)", p values to two
decimals or as a power of ten when small.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Mapping

DASH = "–"
_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


@dataclass
class Table:
    """A caption, a header row and body rows of text cells; `numeric` marks right-aligned columns."""

    caption: str
    header: list[str]
    rows: list[list[str]]
    numeric: list[bool] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.numeric:
            self.numeric = [i > 0 for i in range(len(self.header))]


@dataclass
class Section:
    """A titled part of the report: a line on method, tables, figures (by key) or, without data, a note."""

    key: str
    title: str
    text: str = ""
    tables: list[Table] = field(default_factory=list)
    figures: list[str] = field(default_factory=list)
    note: str | None = None
    level: int = 2  # 2: a section of the report; 3: one under a suite's part of a mixed report


def _finite(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def pct(x: Any, digits: int = 1) -> str:
    """0.973 -> '97.3'; None -> '–'."""
    return f"{100 * x:.{digits}f}" if _finite(x) else DASH


def pct_ci(value: Any, lo: Any, hi: Any) -> str:
    """'97.3 (92.4–99.4)' in percent."""
    if not _finite(value):
        return DASH
    return f"{pct(value)} ({pct(lo)}–{pct(hi)})"


def estimate(est: Mapping[str, Any] | None) -> str:
    """A {value, lo, hi} proportion as percent with its interval."""
    return DASH if not est else pct_ci(est.get("value"), est.get("lo"), est.get("hi"))


def signed(x: Any, digits: int = 2) -> str:
    if not _finite(x):
        return DASH
    text = f"{x:.{digits}f}"
    if float(text) == 0:  # no "-0.00"
        text = f"{0:.{digits}f}"
    return text.replace("-", "−")


def diff(d: Mapping[str, Any] | None, digits: int = 2) -> str:
    """'0.99 (0.91 to 1.00)' for a J or a difference."""
    if not d or not _finite(d.get("value")):
        return DASH
    return f"{signed(d['value'], digits)} ({signed(d['lo'], digits)} to {signed(d['hi'], digits)})"


def pvalue(p: Any) -> str:
    """'1.00', '0.04', '2×10⁻⁷'."""
    if not _finite(p):
        return DASH
    if p >= 0.01:
        return f"{p:.2f}"
    if p == 0:
        return "0"
    exponent = math.floor(math.log10(p))
    mantissa = round(p / 10**exponent)
    if mantissa == 10:
        mantissa, exponent = 1, exponent + 1
    return f"{mantissa}×10{str(exponent).translate(_SUPERSCRIPT)}"


def frac(k: Any, n: Any) -> str:
    return f"{k}/{n}" if isinstance(n, int) and n > 0 else DASH


def frac_of(d: Mapping[str, Any] | None) -> str:
    return DASH if not d else frac(d.get("k"), d.get("n"))


def pct_n(k: int, n: int) -> str:
    """'93 (83)': percent (no decimals) and its denominator, as seed 000 Table 20 prints them."""
    return f"{100 * k / n:.0f} ({n})" if n else DASH


def number(x: Any, digits: int = 2) -> str:
    return f"{x:.{digits}f}" if _finite(x) else DASH


def plural(n: int, word: str, many: str | None = None) -> str:
    """'1 repeat', '2 repeats'."""
    return f"{n} {word if n == 1 else many or word + 's'}"


def money(x: Any) -> str:
    return f"{x:.2f}" if _finite(x) else DASH
