"""Reading numbers, labelled values, tables and the requested unit out of a prompt's text.

Every reader either finds exactly what it was asked for or raises :class:`PromptDefect`,
so a solver never guesses. Patterns are anchored to one line and the text is capped in
size, so every search is bounded.
"""

from __future__ import annotations

import math
import re
from typing import Callable

from physbench.suites.medphys.verify.independent.errors import PromptDefect

MAX_PROMPT_CHARS = 50_000

# A decimal number as printed: optional sign (ASCII hyphen or U+2212 minus), digits, optional
# fraction, optional "× 10^n" (the caret form used by the items).
NUMBER = r"[-\u2212+]?\d+(?:\.\d+)?"
SCIENTIFIC = NUMBER + r"(?:\s*[×x]\s*10\^\s*[-\u2212+]?\d+)?"


def checked(prompt: str) -> str:
    """The prompt with its size checked; NUL-free text only."""
    if not isinstance(prompt, str) or not prompt.strip():
        raise PromptDefect("the prompt is empty")
    if len(prompt) > MAX_PROMPT_CHARS:
        raise PromptDefect(f"the prompt is longer than {MAX_PROMPT_CHARS} characters")
    return prompt


def to_float(text: str) -> float:
    """A printed number (with an optional '× 10^n') as a float."""
    text = text.strip().replace("\u2212", "-")
    m = re.fullmatch(r"([-+]?\d+(?:\.\d+)?)(?:\s*[×x]\s*10\^\s*([-+]?\d{1,3}))?", text)
    if m is None:
        raise PromptDefect(f"cannot read {text!r} as a number")
    value = float(m.group(1))
    if m.group(2) is not None:
        value *= 10.0 ** int(m.group(2))
    return value


def one_match(text: str, pattern: str, what: str, flags: int = 0) -> re.Match[str]:
    """The single match of ``pattern``; a defect when the prompt has none or several."""
    found = list(re.finditer(pattern, text, flags))
    if not found:
        raise PromptDefect(f"the prompt does not state {what}")
    if len(found) > 1:
        values = sorted({m.group(0).strip() for m in found})
        if len(values) > 1:
            raise PromptDefect(f"the prompt states {what} more than once, differently: {values}")
    return found[0]


def labelled(text: str, label: str, what: str, unit: str | None = None) -> float:
    """The number after ``label`` on one line, e.g. ``- Air pressure: 101.5 kPa``.

    ``label`` is a regular expression; ``unit``, when given, must follow the number.
    """
    tail = r"[ \t]*" + (re.escape(unit) if unit else "")
    m = one_match(text, label + r"[ \t]*(" + SCIENTIFIC + r")" + tail, what)
    return to_float(m.group(1))


def labelled_with_unit(text: str, label: str, units: tuple[str, ...], what: str) -> tuple[float, str]:
    """The number after ``label`` and which of ``units`` follows it."""
    alternatives = "|".join(re.escape(u) for u in sorted(units, key=len, reverse=True))
    pattern = label + r"[ \t]*(" + SCIENTIFIC + r")[ \t]*(" + alternatives + r")(?![\w/])"
    m = one_match(text, pattern, what)
    return to_float(m.group(1)), m.group(2)


def requires(text: str, pattern: str, why: str) -> None:
    """A defect unless the prompt contains ``pattern`` (a stated convention)."""
    if re.search(pattern, text) is None:
        raise PromptDefect(why)


def table_after(text: str, header: str, what: str) -> list[list[str]]:
    """The body rows of the Markdown table whose header line matches ``header``.

    Each row is its list of stripped cells; the separator row is skipped.
    """
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if re.search(header, line)]
    if len(starts) != 1:
        raise PromptDefect(f"the prompt has {len(starts)} tables of {what}, expected one")
    rows: list[list[str]] = []
    for line in lines[starts[0] + 1 :]:
        line = line.strip()
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        if all(re.fullmatch(r":?-+:?", c) for c in cells):
            continue
        if rows and len(cells) != len(rows[0]):
            raise PromptDefect(f"the rows of the table of {what} have different numbers of cells")
        rows.append(cells)
    if not rows:
        raise PromptDefect(f"the table of {what} has no rows")
    width = len(lines[starts[0]].strip().strip("|").split("|"))
    if len(rows[0]) != width:
        raise PromptDefect(f"the rows of the table of {what} do not have the {width} cells of its header")
    return rows


def boxed_unit(text: str) -> str:
    r"""The unit the prompt asks for in ``\boxed{value UNIT}``."""
    found = {m.group(1).strip() for m in re.finditer(r"\\boxed\{value[ \t]+([^{}\n]{1,40})\}", text)}
    found.discard("unit")  # the system prompt's placeholder, "\boxed{value unit}"
    if len(found) != 1:
        raise PromptDefect(f"the prompt asks for the answer in {sorted(found) or 'no'} unit(s), expected one")
    return found.pop()


def interpolate(x: float, xs: list[float], ys: list[float], what: str) -> float:
    """Linear interpolation in a table; outside the table is a defect (no rule for it)."""
    pairs = sorted(zip(xs, ys))
    if len(pairs) < 2 or any(a[0] == b[0] for a, b in zip(pairs, pairs[1:])):
        raise PromptDefect(f"the table of {what} needs at least two distinct rows")
    if not pairs[0][0] <= x <= pairs[-1][0]:
        raise PromptDefect(
            f"{x:g} lies outside the table of {what} ({pairs[0][0]:g}-{pairs[-1][0]:g}); "
            "the prompt gives no rule for extrapolation"
        )
    for (x0, y0), (x1, y1) in zip(pairs, pairs[1:]):
        if x0 <= x <= x1:
            return y0 + (y1 - y0) * (x - x0) / (x1 - x0)
    raise AssertionError("unreachable")  # pragma: no cover


def finite_answer(compute: Callable[[str], tuple[float, str]], text: str) -> tuple[float, str]:
    """Run a level's solver; printed inputs that admit no finite answer (a zero pressure, a
    reading ratio that makes P_ion singular) are a defect of the prompt, not a crash."""
    try:
        value, unit = compute(text)
    except (ZeroDivisionError, OverflowError) as exc:
        raise PromptDefect(f"the printed inputs give no finite answer ({exc})") from None
    except ValueError as exc:
        if "math domain" not in str(exc):  # only sqrt/log of a negative number is the prompt's fault
            raise
        raise PromptDefect(f"the printed inputs give no real answer ({exc})") from None
    if not math.isfinite(value):
        raise PromptDefect("the printed inputs give no finite answer")
    return value, unit
