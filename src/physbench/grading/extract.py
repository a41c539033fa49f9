"""Where the answer is in a response (MedPhysBench, "Grading details", calculation items).

In order: the last balanced \\boxed{}; the last line beginning "answer" or "final answer";
the last equation; the last number. Inside a box, an answer line or an equation the value
is what follows the last top-level "=". Searches run from the end of the text in growing
windows, so a long response costs little more than a short one. Bounds: boxes are found in
the last MAX_RESPONSE characters; answer lines, equations and numbers in the last
SEARCH_SPAN characters (a 32k-token response's final part); a box holds at most MAX_BOX.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from physbench.grading.normalize import MAX_ANSWER, RELATION, after_last_relation

MAX_RESPONSE = 1 << 20   # characters graded: the tail of a longer response
MAX_BOX = 2000           # a box longer than this is not an answer
MAX_BOX_TRIES = 16       # unbalanced boxes skipped before giving up
MAX_EQUATION_TRIES = 16
SEARCH_SPAN = 1 << 16    # regex searches look no further back than this from the end
_WINDOWS = (160, 2048, 16384, SEARCH_SPAN)


@dataclass(frozen=True, slots=True)
class Candidate:
    """The answer string a response offers and where it came from."""

    source: str          # "boxed", "answer_line", "equation" or "last_number"
    text: str            # the answer string (already cut at the last top-level "=")
    after: str = ""      # for a box: what follows it on its line (a unit written outside the box)
    joined: bool = False  # for the last number: a range or alternative leads up to it

    @property
    def strong(self) -> bool:
        """A boxed answer or an answer line (what keeps a short response from being 'interrupted')."""
        return self.source in ("boxed", "answer_line")


def last_match(pattern: re.Pattern[str], text: str, end: int | None = None, *,
               lines: bool = False) -> re.Match[str] | None:
    """The last match of `pattern` in text[:end], searching windows that grow from the end,
    at most SEARCH_SPAN characters back."""
    end = len(text) if end is None else end
    floor = max(0, len(text) - SEARCH_SPAN)
    for size in _WINDOWS:
        start = max(floor, end - size)
        if lines and start > floor:
            start = max(floor, text.rfind("\n", 0, start) + 1)
        last = None
        for m in pattern.finditer(text, start, end):
            last = m
        if last is not None and (start == floor or last.start() > start):
            return last
        if start == floor:
            return None
    return None


# --- boxes --------------------------------------------------------------------------------
_BRACE = re.compile(r"[{}]")


def _closing_brace(text: str, open_at: int) -> int | None:
    """Index of the brace that closes text[open_at] == "{", within MAX_BOX characters."""
    depth = 0
    for m in _BRACE.finditer(text, open_at, min(len(text), open_at + MAX_BOX)):
        depth += 1 if m.group() == "{" else -1
        if depth == 0:
            return m.start()
    return None


def last_box(text: str) -> tuple[str, int] | None:
    """Content and end index of the last balanced \\boxed{...}."""
    end = len(text)
    for _ in range(MAX_BOX_TRIES):
        i = text.rfind("\\boxed", 0, end)
        if i < 0:
            return None
        j = i + 6
        while j < len(text) and j < i + 16 and text[j] in " \t":
            j += 1
        if j < len(text) and text[j] == "{":
            close = _closing_brace(text, j)
            if close is not None:
                return text[j + 1: close], close + 1
        end = i
    return None


# --- answer lines ---------------------------------------------------------------------------
_ANSWER_LINE = re.compile(
    r"^[ \t>*_#•+-]{0,8}(?:(?:the|my|our)[ \t]+)?(?:final[ \t]+)?answer\b"
    r"(?:[ \t]*(?:\*\*|__|[:=–—-]|is\b|\\?\)|\$)){0,4}[ \t]*(?P<rest>[^\n]{0,%d})" % MAX_ANSWER,
    re.I | re.M,
)
_DIGIT = re.compile(r"\d")


def answer_line(text: str) -> str | None:
    """What follows the label on the last "answer"/"final answer" line (or on the next lines
    when the label stands alone, as in a "**Final answer:**" heading); None if no such line."""
    if "nswer" not in text and "NSWER" not in text:
        return None
    m = last_match(_ANSWER_LINE, text, lines=True)
    if m is None:
        return None
    rest = m["rest"]
    if not _DIGIT.search(rest):
        following = text[m.end(): m.end() + MAX_ANSWER].lstrip("\n").split("\n")
        rest = " ".join([rest, *[line for line in following if line.strip()][:2]])
    return rest[:MAX_ANSWER]


# --- equations and numbers ------------------------------------------------------------------
def last_equation(text: str) -> str | None:
    """The right-hand side of the last relation ("=", "≈", ...) that has a number after it."""
    end = len(text)
    for _ in range(MAX_EQUATION_TRIES):
        m = last_match(RELATION, text, end)
        if m is None:
            return None
        line_start = text.rfind("\n", 0, m.start()) + 1
        line_end = text.find("\n", m.end())
        line_end = len(text) if line_end < 0 else line_end
        line = text[max(line_start, m.start() - MAX_ANSWER): min(line_end, m.end() + MAX_ANSWER)]
        rhs = after_last_relation(line)
        if _DIGIT.search(rhs):
            return rhs
        end = line_start if line_start < m.start() else m.start()
        if end <= 0:
            return None
    return None


# a number that is not part of a word, an exponent, a subscript, a digit group or a denominator
_LAST_NUMBER = re.compile(
    r"(?:(?<![\w.^_{}/])[-+−](?=\.?\d)|(?<![\w.^_{}/+−-])(?<!\d,)(?<!\d\u2009)(?<!\d\u202f))"
    r"(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d{1,4})?"
)
_JOINED_BEFORE = re.compile(r"\d[^\S\n]*[A-Za-z%µ/]{0,12}[^\S\n]*(?:-|–|—|\bto|\bor|\band)[^\S\n]*$", re.I)


def last_number(text: str) -> Candidate | None:
    """The last number with what follows it on its line, noting a range that leads up to it."""
    m = last_match(_LAST_NUMBER, text)
    if m is None:
        return None
    line_end = text.find("\n", m.start())
    line_end = len(text) if line_end < 0 else line_end
    answer = text[m.start(): min(line_end, m.start() + MAX_ANSWER)]
    before = text[max(0, m.start() - 40): m.start()]
    return Candidate("last_number", answer, joined=bool(_JOINED_BEFORE.search(before)))


def find_answer(text: str) -> Candidate | None:
    """The answer a response offers, by the seed's order of sources; None if it has no number."""
    box = last_box(text)
    if box is not None:
        content, end = box
        value = after_last_relation(content[:MAX_BOX])
        if _DIGIT.search(value):
            line_end = text.find("\n", end, end + 120)
            after = text[end: line_end if line_end >= 0 else end + 120]
            return Candidate("boxed", value[:MAX_ANSWER], after=after)
    line = answer_line(text)
    if line is not None:
        value = after_last_relation(line)
        if _DIGIT.search(value):
            return Candidate("answer_line", value)
    rhs = last_equation(text)
    if rhs is not None:
        return Candidate("equation", rhs[:MAX_ANSWER])
    return last_number(text)

