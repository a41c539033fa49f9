"""Reading answers: numbers, calendar dates and gestational ages from model text, gold cells and values.

Every reader is bounded (input cut to MAX_CHARS, linear regular expressions) and returns None
instead of raising on text it cannot read.
"""

from __future__ import annotations

import datetime as dt
import math
import re

MAX_CHARS = 200_000

_NUMBER = re.compile(r"[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?|[-+]?\.\d+")
_MONTHS = {m: i for i, m in enumerate(("january", "february", "march", "april", "may", "june", "july", "august",
                                         "september", "october", "november", "december"), start=1)}
_MONTHS.update({name[:3]: i for name, i in list(_MONTHS.items())})
_MDY = re.compile(r"(?<!\d)(\d{1,2})\s*[/\-.]\s*(\d{1,2})\s*[/\-.]\s*(\d{4})(?!\d)")
_ISO = re.compile(r"(?<!\d)(\d{4})-(\d{1,2})-(\d{1,2})(?!\d)")
_NAMED = re.compile(r"(?i)\b([a-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})(?!\d)")
_NAMED_DMY = re.compile(r"(?i)(?<!\d)(\d{1,2})(?:st|nd|rd|th)?\s+([a-z]{3,9})\.?,?\s+(\d{4})(?!\d)")
_WEEKS = re.compile(r"(?i)(\d+)\s*(?:weeks?|wks?|w)(?![a-z])")
_DAYS = re.compile(r"(?i)(\d+)\s*(?:days?|d)(?![a-z])")
_PAIR = re.compile(r"[(\[]\s*['\"]?\s*(\d+)\s*['\"]?\s*,\s*['\"]?\s*(\d+)\s*['\"]?\s*[)\]]")
_ISO_DURATION = re.compile(r"P(?:(\d+)W)?(?:(\d+)D)?(?:T[\d.HMS]*)?")


def _clip(text: str) -> str:
    return text if len(text) <= MAX_CHARS else text[-MAX_CHARS:]


def _numbers(text: str) -> "list[re.Match[str]]":
    """Numbers in `text` that are not part of a name (CHA2DS2, FIB-4, CURB-65, QTc2...)."""
    out = []
    for m in _NUMBER.finditer(text):
        s = m.start()
        before = text[s - 1] if s else " "
        if before.isalnum() or before in "_.":
            continue
        if text[s] not in "+-" and before == "-" and s >= 2 and text[s - 2].isalnum():
            continue  # the digits of a hyphenated name such as FIB-4 or CURB-65
        if text[s] in "+-" and s and text[s - 1].isalnum():
            continue
        try:
            x = float(m.group(0).replace(",", ""))
        except ValueError:
            continue
        if math.isfinite(x):
            out.append(m)
    return out


def _plain(text: str) -> str:
    return _clip(text).replace("−", "-").replace("\u2009", "")


def first_number(text: str) -> float | None:
    """The first number in `text` that is not part of a name (CHA2DS2, FIB-4, CURB-65, QTc2...)."""
    found = _numbers(_plain(text))
    return float(found[0].group(0).replace(",", "")) if found else None


_EQUALS = ("=", "≈", "≅", "→")
_RANGE_AFTER = re.compile(r"(?i)\s*(?:-|–|—|to|or|and|,)\s*[-+]?\.?\d")
_BETWEEN_BEFORE = re.compile(r"(?i)\b(?:between|from|range[sd]?|of)\s*$")


def _after_last_equals(line: str) -> str:
    """What follows the last '=' (or '≈', '→') outside brackets, when a number follows it; else the line."""
    depth, cut = 0, -1
    for i, ch in enumerate(line):
        depth += ch in "([{"
        depth -= ch in ")]}" and depth > 0
        if depth == 0 and ch in _EQUALS:
            cut = i
    if cut >= 0 and _numbers(line[cut + 1:]):
        return line[cut + 1:]
    return line


def answer_number(line: str) -> float | None:
    """The number a final-answer line gives: the result after its last '=' (not the first number of
    the working), None for a range ('38-42', 'between 38 and 42') or a list ('1, 2, 3, 4')."""
    text = _after_last_equals(_plain(line))
    found = _numbers(text)
    if not found:
        return None
    m = found[0]
    if _RANGE_AFTER.match(text, m.end()) or _BETWEEN_BEFORE.search(text[:m.start()]):
        return None
    return float(m.group(0).replace(",", ""))


def strict_number(text: str) -> float | None:
    """`text` read as one number and nothing else, or None."""
    t = _clip(text).strip().replace("−", "-")
    m = _NUMBER.fullmatch(t)
    if not m:
        return None
    x = float(t.replace(",", ""))
    return x if math.isfinite(x) else None


def _date(y: int, m: int, d: int) -> dt.date | None:
    try:
        return dt.date(y, m, d)
    except ValueError:
        return None


def first_date(text: str) -> dt.date | None:
    """The first calendar date: M/D/YYYY (the benchmark's order), YYYY-MM-DD, or a month name."""
    text = _clip(text)
    found: list[tuple[int, dt.date]] = []
    for m in _MDY.finditer(text):
        d = _date(int(m.group(3)), int(m.group(1)), int(m.group(2)))
        if d:
            found.append((m.start(), d))
            break
    for m in _ISO.finditer(text):
        d = _date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        if d:
            found.append((m.start(), d))
            break
    for rx, month_at, day_at in ((_NAMED, 1, 2), (_NAMED_DMY, 2, 1)):
        for m in rx.finditer(text):
            month = _MONTHS.get(m.group(month_at).lower())
            d = _date(int(m.group(3)), month, int(m.group(day_at))) if month else None
            if d:
                found.append((m.start(), d))
                break
    return min(found, key=lambda t: t[0])[1] if found else None


def gestational_age(text: str) -> tuple[int, int] | None:
    """(weeks, days) from '(34 weeks, 3 days)', "('34 weeks', '3 days')", '34 weeks and 3 days',
    '(34, 3)', '[34, 3]', '34w3d' or an ISO duration such as 'P241D'; days alone are split into weeks."""
    text = _clip(text)
    iso = _ISO_DURATION.fullmatch(text.strip())
    if iso and (iso.group(1) or iso.group(2)):
        return divmod(int(iso.group(1) or 0) * 7 + int(iso.group(2) or 0), 7)
    weeks, days = _WEEKS.search(text), _DAYS.search(text)
    if weeks:
        after = _DAYS.search(text, weeks.end())
        return int(weeks.group(1)), int(after.group(1)) if after else 0
    pair = _PAIR.search(text)
    if pair:
        return int(pair.group(1)), int(pair.group(2))
    if days:
        return divmod(int(days.group(1)), 7)
    return None


_MARKER = re.compile(r"(?i)(?:\bfinal\s+answer\b|\banswer\b)\s*(?:is\b)?\s*\**\s*[:=]|[\"']answer[\"']\s*:")


def final_answer_text(reply: str) -> str:
    """The reply's final-answer line: what follows the last 'answer:' marker on its line (or the next
    non-empty line when the marker ends its line), else the last non-empty line; lines after it that
    continue the working ('= 40') are joined to it."""
    text = _clip(reply)
    markers = list(_MARKER.finditer(text))
    if markers:
        lines = text[markers[-1].end():].split("\n")
        for i, line in enumerate(lines[:3]):
            if line.strip(" *\t\"'`{}"):
                return _with_continuations(line, lines[i + 1:])
        return ""
    lines = [ln for ln in text.split("\n") if ln.strip()]
    return lines[-1] if lines else ""


def _with_continuations(line: str, rest: list[str]) -> str:
    for more in rest[:5]:
        if not more.strip().startswith(_EQUALS):
            break
        line += " " + more.strip()
    return line
