"""Reading a calculation prompt: labelled bullet lines, printed numbers, markdown tables and
the unit the answer is asked in (helpers for the mird, decay and tg43 second solvers).

Every function is linear in the prompt's length and refuses prompts longer than
``MAX_PROMPT_CHARS``; anything that cannot be read raises :class:`PromptDefect`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from physbench.suites.medphys.verify.independent.errors import PromptDefect

MAX_PROMPT_CHARS = 50_000

_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
# a decimal, optionally times a power of ten written "× 10^-5", "x 10^-5", "×10⁻⁵" or "e-5"
_NUMBER = re.compile(
    r"(?P<mant>[-+]?(?:\d+\.?\d*|\.\d+))"
    r"(?:\s*(?:[×x*]\s*10\s*\^?\s*(?P<exp10>[-+]?\d{1,3})|[eE](?P<expe>[-+]?\d{1,3})))?"
)
_BULLET = re.compile(r"^\s*[-•*]\s+(?P<body>.+?)\s*$")
_BOXED_UNIT = re.compile(r"\\boxed\{value\s+(?P<unit>[^{}]{1,40})\}")
_CALCULATE = re.compile(r"Calculate (?P<what>[^\n]{1,400}?), in (?P<unit>[^.,\n]{1,40})\.")


def checked(prompt: str) -> str:
    """The prompt with unicode minus signs made ASCII; refuses oversize or non-text input."""
    if not isinstance(prompt, str):
        raise PromptDefect("the prompt is not text")
    if len(prompt) > MAX_PROMPT_CHARS:
        raise PromptDefect(f"the prompt is longer than {MAX_PROMPT_CHARS} characters")
    return prompt.replace("\u2212", "-")


def number(text: str, what: str) -> float:
    """The first number printed in ``text`` (decimal or scientific notation)."""
    match = _NUMBER.search(text.translate(_SUPERSCRIPT))
    if match is None:
        raise PromptDefect(f"{what}: no number in {text!r}")
    return _to_float(match)


def numbers(text: str) -> list[float]:
    """Every number printed in ``text``, in order."""
    return [_to_float(m) for m in _NUMBER.finditer(text.translate(_SUPERSCRIPT))]


def quantity(text: str, what: str) -> tuple[float, str]:
    """A printed quantity "value unit" (the unit is everything after the number, stripped)."""
    flat = text.translate(_SUPERSCRIPT)
    match = _NUMBER.match(flat.strip())
    if match is None:
        raise PromptDefect(f"{what}: {text!r} does not start with a number")
    unit = flat.strip()[match.end():].strip()
    if not unit:
        raise PromptDefect(f"{what}: {text!r} has no unit")
    return _to_float(match), unit


def _to_float(match: re.Match[str]) -> float:
    exponent = match.group("exp10") or match.group("expe")
    value = float(match.group("mant"))
    return value * 10.0 ** int(exponent) if exponent else value


@dataclass(frozen=True)
class Bullet:
    """One "- label: value" line of the prompt's input list."""

    label: str
    value: str


def bullets(prompt: str) -> list[Bullet]:
    """The prompt's bullet lines split at their first colon (lines without one keep an empty value)."""
    found = []
    for line in checked(prompt).splitlines():
        match = _BULLET.match(line)
        if match is None:
            continue
        label, sep, value = match.group("body").partition(":")
        found.append(Bullet(label.strip(), value.strip() if sep else ""))
    return found


def matching(items: list[Bullet], pattern: str) -> list[tuple[re.Match[str], Bullet]]:
    """The bullets whose whole label matches ``pattern`` (case-insensitive), with the match."""
    regex = re.compile(pattern, re.IGNORECASE)
    out = []
    for item in items:
        match = regex.fullmatch(item.label)
        if match is not None:
            out.append((match, item))
    return out


def one(items: list[Bullet], pattern: str, what: str) -> tuple[re.Match[str], Bullet]:
    """The single bullet whose label matches ``pattern``; a defect when absent or repeated."""
    found = matching(items, pattern)
    if not found:
        raise PromptDefect(f"{what} is not stated")
    if len(found) > 1:
        raise PromptDefect(f"{what} is stated {len(found)} times")
    return found[0]


def optional(items: list[Bullet], pattern: str, what: str) -> tuple[re.Match[str], Bullet] | None:
    """Like :func:`one`, but ``None`` when no bullet matches."""
    found = matching(items, pattern)
    if len(found) > 1:
        raise PromptDefect(f"{what} is stated {len(found)} times")
    return found[0] if found else None


def asked(prompt: str) -> tuple[str, str]:
    """(what is asked, unit) from the "Calculate ..., in UNIT." sentence, checked against the
    unit in the requested \\boxed{value UNIT}."""
    text = checked(prompt)
    sentences = list(_CALCULATE.finditer(text))
    if len(sentences) != 1:
        raise PromptDefect(f"expected one 'Calculate ..., in UNIT.' sentence, found {len(sentences)}")
    what, unit = sentences[0].group("what").strip(), sentences[0].group("unit").strip()
    boxes = {m.group("unit").strip() for m in _BOXED_UNIT.finditer(text)}
    if boxes and boxes != {unit}:
        raise PromptDefect(f"the answer is asked in {unit!r} but the box format says {sorted(boxes)}")
    return what, unit


def markdown_tables(prompt: str) -> list[list[list[str]]]:
    """Every markdown table (header row first, the |---| rule dropped) as rows of stripped cells."""
    tables: list[list[list[str]]] = []
    current: list[list[str]] = []
    for line in checked(prompt).splitlines() + [""]:
        stripped = line.strip()
        if stripped.startswith("|") and stripped.endswith("|") and len(stripped) > 1:
            cells = [c.strip() for c in stripped[1:-1].split("|")]
            if not all(set(c) <= set("-: ") for c in cells):
                current.append(cells)
        elif current:
            tables.append(current)
            current = []
    return tables


def has(prompt: str, *phrases: str) -> bool:
    """Whether every phrase occurs in the prompt (case-insensitive, whitespace-normalised)."""
    flat = " ".join(checked(prompt).split()).lower()
    return all(" ".join(p.split()).lower() in flat for p in phrases)
