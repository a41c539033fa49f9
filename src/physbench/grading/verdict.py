"""The verdict of a checking response: the last JSON object that contains one.

MedPhysBench ("Grading details", checking items): synonyms ("wrong", "error", "pass") and
booleans are accepted, and a step written "Step 4" counts as 4. A verdict phrase is read by
`polarity` (negations, questions, contrasts); an unclear one is no verdict. The object may sit inside a
code fence or in prose; it may be loose JSON (single quotes, Python literals, trailing commas).
Every scan is bounded: a few candidate objects of at most MAX_OBJECT characters each.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from physbench.grading.extract import last_match
from physbench.grading.polarity import polarity

MAX_OBJECT = 8000      # characters of one JSON object
MAX_BACK = 3000        # how far before the key its opening brace may be
MAX_CANDIDATES = 8     # verdict keys tried, from the last

_KEY = re.compile(r"""["']?\bverdict\b["']?\s*:""", re.I)
_STRUCT = re.compile(r'[{}"\\]')

_CORRECTED_KEYS = ("corrected_result", "corrected_value", "correct_result", "corrected_answer",
                   "correct_value", "corrected")
_STEP_KEYS = ("first_error_step", "first_wrong_step", "error_step", "step")


@dataclass(frozen=True, slots=True)
class CheckReading:
    """What a checking response says: verdict, first wrong step, corrected result (as text)."""

    verdict: str | None            # "correct", "incorrect" or None
    first_error_step: int | None
    corrected: str | None          # "317 MU" or None when absent or null
    raw: str = ""                  # the object as found (cut to 300 characters)


def _polarity(value: Any) -> str:
    if isinstance(value, bool):
        return "correct" if value else "incorrect"
    if not isinstance(value, str):
        return "unclear"
    return polarity(value)


def verdict_word(value: Any) -> str | None:
    """"correct"/"incorrect" for a verdict value ("Wrong.", "pass", True, "not correct",
    "error-free"), else None (see `polarity` for how a phrase is read)."""
    p = _polarity(value)
    return p if p in ("correct", "incorrect") else None


_STEP_NUMBER = re.compile(r"(?<![\d_.^])\d{1,6}(?:\.\d+)?")  # not a subscript ("P_1")


def step_number(value: Any) -> int | None:
    """A step given as 4, 4.0, "4" or "Step 4" -> 4; a list names its first entry; anything else,
    and a string that names more than one step ("3 (or maybe 4)", "steps 3-4"), -> None."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return value if abs(value) < 10**6 else None
    if isinstance(value, float):
        return int(value) if value.is_integer() and abs(value) < 10**6 else None
    if isinstance(value, (list, tuple)) and value:
        return step_number(value[0])
    if isinstance(value, str):
        numbers = {float(n) for n in _STEP_NUMBER.findall(value[:80])}
        if len(numbers) != 1:
            return None  # none, or a hedge or range between steps: not one step
        n = numbers.pop()
        return int(n) if n.is_integer() else None
    return None


def _corrected_text(value: Any) -> str | None:
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        v = value.strip()[:300]
        return v if v and v.lower() not in ("null", "none", "n/a", "na", "-") else None
    if isinstance(value, dict):
        v, u = value.get("value"), value.get("unit")
        if isinstance(v, (int, float, str)) and not isinstance(v, bool):
            return f"{v} {u if isinstance(u, str) else ''}".strip()
    return None


def _opening_brace(text: str, key_at: int) -> int | None:
    """The "{" that opens the object in which the key at `key_at` stands."""
    depth = 0
    braces = [m for m in re.finditer(r"[{}]", text[max(0, key_at - MAX_BACK): key_at])]
    base = max(0, key_at - MAX_BACK)
    for m in reversed(braces):
        if m.group() == "}":
            depth += 1
        elif depth == 0:
            return base + m.start()
        else:
            depth -= 1
    return None


def _closing_brace(text: str, open_at: int) -> int | None:
    """The "}" that closes the object opened at `open_at`, skipping braces inside strings."""
    depth, in_string, skip = 0, False, -1
    for m in _STRUCT.finditer(text, open_at, min(len(text), open_at + MAX_OBJECT)):
        i, c = m.start(), m.group()
        if i == skip:
            continue
        if in_string:
            if c == "\\":
                skip = i + 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i
    return None


_PY_LITERALS = re.compile(r"\b(True|False|None)\b")
_TRAILING_COMMA = re.compile(r",\s*([}\]])")


def _load(obj: str) -> dict[str, Any] | None:
    """The object as a dict: strict JSON first, then loose JSON; None if neither reads."""
    tries = [obj]
    loose = _TRAILING_COMMA.sub(r"\1", _PY_LITERALS.sub(lambda m: {"True": "true", "False": "false",
                                                                    "None": "null"}[m.group()], obj))
    tries.append(loose)
    if "'" in loose and '"' not in loose:
        tries.append(loose.replace("'", '"'))
    for t in tries:
        try:
            out = json.loads(t)
        except (ValueError, RecursionError):
            continue
        if isinstance(out, dict):
            return {str(k).strip().lower(): v for k, v in out.items()}
    return None


_FIELD = r"""["']?\b%s\b["']?\s*:\s*(?:"([^"\n]{0,300})"|'([^'\n]{0,300})'|([^,}\n]{0,80}))"""


def _fields_by_regex(obj: str) -> dict[str, Any]:
    """Last resort for an object that is not JSON: read the three fields one by one."""
    out: dict[str, Any] = {}
    for key in ("verdict", *_STEP_KEYS, *_CORRECTED_KEYS):
        m = re.search(_FIELD % key, obj, re.I)
        if m and key not in out:
            raw = next(g for g in m.groups() if g is not None).strip()
            rest = re.match(r"[^,}\n]{0,40}", obj[m.end():])
            if rest is not None and rest.group().strip():
                raw = raw + " " + rest.group().strip()  # e.g. "correct" or "incorrect": left open
            out[key] = None if raw.lower() in ("null", "none") else raw
    return out


def read_verdict(text: str) -> CheckReading | None:
    """The last JSON object holding a "verdict" key, read; None when there is none."""
    if "erdict" not in text and "ERDICT" not in text:
        return None
    end = len(text)
    for _ in range(MAX_CANDIDATES):
        key = last_match(_KEY, text, end)
        if key is None:
            return None
        end = key.start()
        start = _opening_brace(text, key.start())
        if start is None:
            continue
        close = _closing_brace(text, start)
        obj = text[start: close + 1] if close is not None else text[start: start + MAX_OBJECT]
        fields = _load(obj) if close is not None else None
        if fields is None or "verdict" not in fields:
            fields = _fields_by_regex(obj)
        if "verdict" not in fields:
            continue
        said = _polarity(fields["verdict"])
        if said == "open":
            continue  # a template echoed with its choice left open: the model's verdict is earlier
        # the last verdict the model wrote decides; when it is unclear there is no verdict, and an
        # earlier draft is not taken in its place
        step = next((fields[k] for k in _STEP_KEYS if k in fields), None)
        corrected = next((fields[k] for k in _CORRECTED_KEYS if k in fields), None)
        verdict = said if said in ("correct", "incorrect") else None
        return CheckReading(verdict, step_number(step), _corrected_text(corrected), obj[:300])
    return None
