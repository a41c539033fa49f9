"""Read the printed inputs of the shielding prompts (NCRP 147 and 151): bulleted fields,
markdown tables, numbers as printed ("1/4", "8.64 × 10^-4", "0.1%") and the requested unit.

Every reader raises PromptDefect when what it looks for is absent or appears more than once,
so a solver never falls back on a default the prompt did not state.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from physbench.suites.medphys.verify.independent.errors import PromptDefect

MAX_PROMPT_CHARS = 50_000

# A printed number: decimal, optionally "× 10^-4" (or "x 10^-4", "e-4"); or a fraction "1/40".
_DECIMAL = r"[-+−]?\d+(?:\.\d+)?"
_POWER = r"(?:\s*[×x*]\s*10\s*\^\s*\(?\s*([-+−]?\d+)\s*\)?|[eE]([-+−]?\d+))?"
NUMBER = rf"(?:(\d+)\s*/\s*(\d+)(?![\d.])|({_DECIMAL}){_POWER})"
_NUMBER_RE = re.compile(NUMBER)


def checked_text(prompt: str) -> str:
    """The prompt, refused if it is not text or too long to be an item."""
    if not isinstance(prompt, str):
        raise PromptDefect(f"prompt is {type(prompt).__name__}, not text")
    if len(prompt) > MAX_PROMPT_CHARS:
        raise PromptDefect(f"prompt has {len(prompt)} characters, more than {MAX_PROMPT_CHARS}")
    return prompt


def _minus(text: str) -> str:
    return text.replace("−", "-")


def number_from_match(match: re.Match[str], offset: int = 0) -> float:
    """The value of a NUMBER match whose first group is group ``offset + 1``."""
    num, den, dec, power, e_power = match.groups()[offset : offset + 5]
    if num is not None:
        if int(den) == 0:
            raise PromptDefect(f"fraction with zero denominator: {match.group(0)!r}")
        return float(Fraction(int(num), int(den)))
    value = float(_minus(dec))
    exponent = power if power is not None else e_power
    if exponent is not None:
        value *= 10.0 ** int(_minus(exponent))
    return value


def parse_number(text: str, what: str) -> float:
    """The single number that ``text`` consists of (surrounding spaces allowed)."""
    match = _NUMBER_RE.fullmatch(text.strip())
    if match is None:
        raise PromptDefect(f"{what}: {text.strip()!r} is not a number")
    return number_from_match(match)


def one_match(pattern: str, text: str, what: str, flags: int = re.MULTILINE) -> re.Match[str]:
    """The only match of ``pattern`` in ``text``; a defect if there is none or several."""
    found = list(re.finditer(pattern, text, flags))
    if not found:
        raise PromptDefect(f"{what} is not stated in the prompt")
    if len(found) > 1:
        raise PromptDefect(f"{what} is stated {len(found)} times in the prompt")
    return found[0]


def field(text: str, label: str, what: str) -> str:
    """Value of the bulleted line "- <label>: value"; ``label`` is a regular expression."""
    match = one_match(rf"^[ \t]*[-*•][ \t]*{label}[ \t]*:[ \t]*(.+?)[ \t]*$", text, what)
    return match.group(1)


def quantity(value: str, units: dict[str, float], what: str) -> float:
    """A printed "number unit" at the start of ``value``, converted by the factor of its unit.

    ``units`` maps each accepted unit spelling to its factor into the unit the solver uses.
    The longest spelling wins, so "mSv/week" is not read as "Sv/week".
    """
    spellings = "|".join(re.escape(u) for u in sorted(units, key=len, reverse=True))
    match = re.match(rf"\s*{NUMBER}\s*({spellings})(?![\w/])", value)
    if match is None:
        raise PromptDefect(f"{what}: cannot read a value in {' or '.join(units)} from {value!r}")
    return number_from_match(match) * units[match.group(6)]


def statement(text: str, pattern: str, what: str) -> re.Match[str]:
    """A sentence the method depends on (a convention); a defect if it is missing or repeated."""
    return one_match(pattern, text, what, flags=re.MULTILINE | re.IGNORECASE)


@dataclass(frozen=True)
class Table:
    """A markdown table as printed: header cells and body rows of cell strings."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


def tables(text: str) -> list[Table]:
    """Every markdown table in ``text`` (consecutive lines starting with '|')."""
    found: list[Table] = []
    block: list[list[str]] = []
    for line in text.splitlines() + [""]:
        stripped = line.strip()
        if stripped.startswith("|") and stripped.endswith("|") and len(stripped) > 1:
            block.append([cell.strip() for cell in stripped[1:-1].split("|")])
            continue
        if block:
            found.append(_table(block))
            block = []
    return found


def _table(block: list[list[str]]) -> Table:
    if len(block) < 2 or not all(re.fullmatch(r":?-{3,}:?", c) for c in block[1]):
        raise PromptDefect(f"a table has no header separator: {' | '.join(block[0])!r}")
    width = len(block[0])
    for row in block[2:]:
        if len(row) != width:
            raise PromptDefect(f"a table row has {len(row)} cells, its header {width}: {row!r}")
    return Table(header=tuple(block[0]), rows=tuple(tuple(r) for r in block[2:]))


def table_with_header(text: str, first_cell: str, what: str) -> Table:
    """The only table whose first header cell matches ``first_cell`` (a regular expression)."""
    matching = [t for t in tables(text) if re.fullmatch(first_cell, t.header[0])]
    if len(matching) != 1:
        raise PromptDefect(f"{what}: expected one table, found {len(matching)}")
    return matching[0]


def column(table: Table, header: str, what: str) -> int:
    """Index of the only column whose header matches ``header`` (a regular expression)."""
    hits = [i for i, h in enumerate(table.header) if re.fullmatch(header, h)]
    if len(hits) != 1:
        raise PromptDefect(f"{what}: no single column headed like {header!r} in {table.header!r}")
    return hits[0]


LENGTH_CM = {"mm": 0.1, "cm": 1.0, "m": 100.0}


def requested_unit(text: str, allowed: tuple[str, ...]) -> str:
    r"""The unit the final \boxed{value unit} must carry; "" for a pure number."""
    # The system message's generic "\boxed{value unit}" names no unit; the task sentence does.
    units = {
        (m.group(1) or "").strip()
        for m in re.finditer(r"\\boxed\{value(?:\s+([^{}]*?))?\s*\}", text)
    } - {"unit"}
    if len(units) != 1:
        raise PromptDefect(f"the unit of the requested answer is not stated once: {sorted(units)!r}")
    unit = units.pop()
    if unit not in allowed:
        raise PromptDefect(f"the answer is requested in {unit!r}, not one of {allowed!r}")
    return unit


def stated_number(text: str, pattern: str, what: str, flags: int = re.MULTILINE) -> float:
    """The number at the placeholder ``{N}`` of the only match of ``pattern`` in ``text``."""
    match = one_match(pattern.replace("{N}", f"(?P<n>{NUMBER})"), text, what, flags)
    return parse_number(match.group("n"), what)
