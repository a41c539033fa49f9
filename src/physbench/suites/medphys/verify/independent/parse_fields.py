"""Reading a calculation prompt as a reader does: labelled bullet lines, markdown tables,
numbers with units, and the unit the final answer is asked in (used by ``mu`` and ``hvl``).

Every reader raises :class:`PromptDefect` when what it is asked for is absent, repeated or
unreadable, so a solver never guesses an input. All patterns are linear and the prompt
length is capped, so parsing is bounded in time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from physbench.suites.medphys.verify.independent.errors import PromptDefect

MAX_PROMPT_CHARS = 200_000

# A decimal number: optional sign (ASCII or Unicode minus), digits, optional fraction and
# optional e-exponent; a following "× 10^n" / "× 10⁻³" / "× 10$^{n}$" is read as well.
_NUMBER = re.compile(
    r"(?<![\w.])(?P<sign>[-−+]?)(?P<mant>\d+(?:\.\d*)?|\.\d+)(?:[eE](?P<exp>[-−+]?\d{1,3}))?"
    r"(?:\s*×\s*10(?:(?:\^|\$\^\{)(?P<pow>[-−+]?\d{1,3})\}?\$?|(?P<sup>[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]{1,3})))?"
)
_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_BULLET = re.compile(r"^\s*[-•*]\s+(?P<label>[^:\n]{1,200}?):\s*(?P<value>.*\S)\s*$")
_BOXED_UNIT = re.compile(r"\\boxed\{\s*value\s*(?P<unit>[^{}]{0,40}?)\s*\}")


def check_size(prompt: str) -> str:
    """The prompt itself, refused when it is too long to be a calculation item."""
    if len(prompt) > MAX_PROMPT_CHARS:
        raise PromptDefect(f"prompt of {len(prompt)} characters is longer than any item")
    return prompt


def numbers(text: str) -> list[float]:
    """Every number in ``text``, in order, with scientific notation applied."""
    found = []
    for m in _NUMBER.finditer(text):
        value = float(m.group("mant"))
        if m.group("exp"):
            value *= 10.0 ** int(m.group("exp").replace("−", "-"))
        if m.group("pow"):
            value *= 10.0 ** int(m.group("pow").replace("−", "-"))
        if m.group("sup"):
            value *= 10.0 ** int(m.group("sup").translate(_SUPERSCRIPT))
        found.append(-value if m.group("sign") in ("-", "−") else value)
    return found


def one_number(text: str, what: str) -> float:
    """The single number in ``text``; a defect when there is none or more than one."""
    found = numbers(text)
    if len(found) != 1:
        raise PromptDefect(f"{what}: expected one number in {text!r}, found {len(found)}")
    return found[0]


def after(text: str, marker: str, what: str) -> str:
    """The text that follows ``marker`` (which must occur exactly once in ``text``)."""
    if text.count(marker) != 1:
        raise PromptDefect(f"{what}: {marker!r} occurs {text.count(marker)} times in {text!r}")
    return text.split(marker, 1)[1]


def bullets(prompt: str) -> dict[str, str]:
    """Labelled bullet lines ("- Label: value") keyed by label; a repeated label is a defect."""
    found: dict[str, str] = {}
    for line in prompt.splitlines():
        m = _BULLET.match(line)
        if not m:
            continue
        label = m.group("label").strip()
        if label in found:
            raise PromptDefect(f"the input {label!r} is given twice")
        found[label] = m.group("value")
    return found


def pick(items: dict[str, str], label: str) -> str:
    """The value of one bullet, which the calculation needs."""
    if label not in items:
        raise PromptDefect(f"the prompt does not give {label!r}")
    return items[label]


@dataclass(frozen=True)
class Table:
    """A markdown table and the paragraph printed just above it (its caption)."""

    caption: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]

    def column(self, index: int, what: str) -> list[float]:
        """One column as numbers."""
        return [one_number(row[index], f"{what}, row {i + 1}") for i, row in enumerate(self.rows)]


def _cells(line: str) -> tuple[str, ...]:
    return tuple(cell.strip() for cell in line.strip().strip("|").split("|"))


def _is_rule(line: str) -> bool:
    """The |---|---| line under a markdown table header (checked without a regex)."""
    text = line.strip()
    return text.startswith("|") and "---" in text and set(text) <= set("|-: ")


def tables(prompt: str) -> list[Table]:
    """Every markdown table in the prompt, in order, each with its caption."""
    lines = prompt.splitlines()
    found: list[Table] = []
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        is_rule = i + 1 < len(lines) and _is_rule(lines[i + 1])
        if line.startswith("|") and is_rule:
            header = _cells(line)
            j = i + 2
            rows = []
            while j < len(lines) and lines[j].strip().startswith("|"):
                row = _cells(lines[j])
                if len(row) != len(header):
                    raise PromptDefect(f"table row {lines[j]!r} has {len(row)} cells, header {len(header)}")
                rows.append(row)
                j += 1
            k = i - 1
            while k >= 0 and not lines[k].strip():
                k -= 1
            caption = lines[k].strip() if k >= 0 else ""
            found.append(Table(caption, header, tuple(rows)))
            i = j
        else:
            i += 1
    return found


def table_captioned(prompt: str, caption_start: str) -> Table:
    """The one table whose caption starts with ``caption_start``."""
    hits = [t for t in tables(prompt) if t.caption.startswith(caption_start)]
    if len(hits) != 1:
        raise PromptDefect(f"expected one table captioned {caption_start!r}..., found {len(hits)}")
    return hits[0]


def asked_unit(prompt: str) -> str:
    """The unit the final answer is asked in, from "\\boxed{value UNIT}" ('' for a pure number)."""
    # The system message's generic "\boxed{value unit}" names no unit; the item's own request does.
    units = {m.group("unit").strip() for m in _BOXED_UNIT.finditer(prompt)} - {"unit"}
    if len(units) != 1:
        raise PromptDefect(f"the prompt asks for the answer in {len(units)} different units: {sorted(units)}")
    return units.pop()


# Units as printed, in the solver's working units (mm for thickness, cm for depth and field,
# cGy for dose, mGy for air kerma, per cm for attenuation). Micro: micro sign or Greek mu.
LENGTH_MM = {"mm": 1.0, "cm": 10.0, "m": 1000.0}
LENGTH_CM = {k: v / 10.0 for k, v in LENGTH_MM.items()}
DOSE_CGY = {"cGy": 1.0, "Gy": 100.0, "mGy": 0.1}
KERMA_MGY = {"Gy": 1000.0, "cGy": 10.0, "mGy": 1.0, "µGy": 1e-3, "μGy": 1e-3, "uGy": 1e-3, "nGy": 1e-6}
PER_CM = {"cm⁻¹": 1.0, "cm^-1": 1.0, "/cm": 1.0, "1/cm": 1.0, "mm⁻¹": 10.0, "mm^-1": 10.0,
          "/mm": 10.0, "1/mm": 10.0, "m⁻¹": 0.01, "m^-1": 0.01, "/m": 0.01}


def quantity(text: str, scale: dict[str, float], what: str) -> float:
    """A single "number unit" in ``text`` converted with ``scale`` (unit -> factor)."""
    m = re.fullmatch(r"\s*(?P<num>[-−+]?[\d.]+(?:[eE][-−+]?\d+)?)\s*(?P<unit>\S+)\s*", text)
    if not m:
        raise PromptDefect(f"{what}: cannot read a number with a unit in {text!r}")
    unit = m.group("unit")
    if unit not in scale:
        raise PromptDefect(f"{what}: unit {unit!r} not understood (in {text!r})")
    return one_number(m.group("num"), what) * scale[unit]


def positive(value: float, what: str) -> float:
    """A printed quantity that must be above zero for the calculation to mean anything."""
    if not value > 0.0:
        raise PromptDefect(f"{what} is {value:g}, not a positive number")
    return value


def require(prompt: str, phrase: str, convention: str) -> None:
    """A convention the calculation depends on must be stated in the prompt."""
    if phrase not in prompt:
        raise PromptDefect(f"the prompt does not state {convention} (expected wording {phrase!r})")
