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
from typing import NamedTuple

from physbench.grading.alternatives import HEDGE
from physbench.grading.normalize import MAX_ANSWER, RELATION, after_last_relation

MAX_RESPONSE = 1 << 20   # characters graded: the tail of a longer response
MAX_BOX = 2000           # a box longer than this is not an answer
MAX_BOX_TRIES = 16       # unbalanced boxes skipped before giving up
MAX_EQUATION_TRIES = 16
MAX_LABEL_TRIES = 32    # occurrences of "answer" tried from the end before a full scan
SEARCH_SPAN = 1 << 16    # regex searches look no further back than this from the end
_WINDOWS = (160, 2048, 16384, SEARCH_SPAN)


class Candidate(NamedTuple):
    """The answer string a response offers and where it came from."""

    source: str          # "boxed", "answer_line", "equation" or "last_number"
    text: str            # the answer string (already cut at the last top-level "=")
    after: str = ""      # for a box: what follows it on its line (a unit written outside the box)
    joined: bool = False  # a range or a hedged alternative leads up to it in its sentence

    @property
    def strong(self) -> bool:
        """A boxed answer or an answer line (what keeps a short response from being 'stopped_short')."""
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
def _closing_brace(text: str, open_at: int) -> int | None:
    """Index of the brace that closes text[open_at] == "{", within MAX_BOX characters: from one
    "}" to the next, the "{" between them deepen the nesting."""
    limit = min(len(text), open_at + MAX_BOX)
    depth, pos = 1, open_at + 1
    while True:
        close = text.find("}", pos, limit)
        if close < 0:
            return None
        depth += text.count("{", pos, close) - 1
        if depth == 0:
            return close
        pos = close + 1


# An empty box ("\\boxed{}", "\\boxed{\\ }") states nothing: it is most often the prompt's
# instruction echoed ("put the answer in \\boxed{}"). It neither answers nor withdraws an earlier
# answer, so it is skipped and the last box with content counts. (A box with content but no
# number, "\\boxed{\\text{see above}}", is an answer without a value and still ends the search.)
_EMPTY_BOX = re.compile(r"(?:\s|\\[,;:! ]|\\q?quad\b|[{}$~]|\\(?:text|mathrm|mbox|displaystyle)\b)*")


def _empty_box(content: str) -> bool:
    return len(content) < 200 and not _DIGIT.search(content) and _EMPTY_BOX.fullmatch(content) is not None


def last_box(text: str) -> tuple[str, int] | None:
    """Content and end index of the last balanced, non-empty \\boxed{...}."""
    box = _last_box(text)
    return None if box is None else box[:2]


def _last_box(text: str) -> tuple[str, int, int] | None:
    """Content, end index and start index of the last balanced, non-empty box."""
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
                content = text[j + 1: close]
                if not _empty_box(content):
                    return content, close + 1, i
        end = i
    return None


# --- answer lines ---------------------------------------------------------------------------
_ANSWER_LINE = re.compile(
    r"^[ \t>*_#•+-]{0,8}(?:(?:the|my|our)[ \t]+)?(?:final[ \t]+)?answer\b"
    r"(?:[ \t]*(?:\*\*|__|[:=–—-]|is\b|\\?\)|\$)){0,4}[ \t]*(?P<rest>[^\n]{0,%d})" % MAX_ANSWER,
    re.I | re.M,
)
_DIGIT = re.compile(r"\d")


def _last_answer_line(text: str) -> re.Match[str] | None:
    """The last line that begins with the label: from the last "answer" (found by rfind) back to
    its line's start, tried there; then the occurrence before it (as `last_match` would find)."""
    floor = max(0, len(text) - SEARCH_SPAN)
    end = len(text)
    for _ in range(MAX_LABEL_TRIES):
        i = max(text.rfind("nswer", floor, end), text.rfind("NSWER", floor, end))
        if i < 0:
            return None
        line_start = max(floor, text.rfind("\n", floor, i) + 1)
        m = _ANSWER_LINE.match(text, line_start)
        if m is not None:
            return m
        end = i
    return last_match(_ANSWER_LINE, text, lines=True)


def answer_line(text: str) -> str | None:
    """What follows the label on the last "answer"/"final answer" line (or on the next lines
    when the label stands alone, as in a "**Final answer:**" heading); None if no such line."""
    m = _last_answer_line(text)
    if m is None:
        return None
    rest = m["rest"]
    if not _DIGIT.search(rest):  # a label on its own line: the answer is on the next lines, up to
        following = text[m.end(): m.end() + MAX_ANSWER].lstrip("\n").split("\n")  # the first with a number
        taken = []
        for line in [line for line in following if line.strip()][:3]:
            taken.append(line)
            if _DIGIT.search(line):
                break
        rest = " ".join([rest, *taken])
    return rest[:MAX_ANSWER]


# --- equations and numbers ------------------------------------------------------------------
def last_equation(text: str) -> str | None:
    """The right-hand side of the last relation ("=", "≈", ...) that has a number after it."""
    found = _equation(text)
    return None if found is None else found[0]


def _last_relation(text: str, end: int) -> re.Match[str] | None:
    """The last relation in text[:end] (as `last_match(RELATION, ...)`): most are "=", so the scan
    starts just before the last "=" (a ":=" or "<=" may begin there) and reads the few after it."""
    floor = max(0, len(text) - SEARCH_SPAN)
    p = text.rfind("=", floor, end)
    if p < 0:
        return last_match(RELATION, text, end)
    last = None
    for last in RELATION.finditer(text, max(floor, p - 2), end):
        pass
    return last


def _equation(text: str) -> tuple[str, int] | None:
    """The last equation's right-hand side and where it starts in `text`."""
    end = len(text)
    for _ in range(MAX_EQUATION_TRIES):
        m = _last_relation(text, end)
        if m is None:
            return None
        line_start = text.rfind("\n", 0, m.start()) + 1
        line_end = text.find("\n", m.end())
        line_end = len(text) if line_end < 0 else line_end
        first = max(line_start, m.start() - MAX_ANSWER)
        line = text[first: min(line_end, m.end() + MAX_ANSWER)]
        head = text[first: m.start()]
        if end == len(text) and not ("{" in head or "(" in head or "[" in head):
            rhs = text[m.end(): first + len(line)]  # the text's last relation, at the top level
        else:
            rhs = after_last_relation(line)
        if _DIGIT.search(rhs):
            return rhs, first + len(line) - len(rhs)
        end = line_start if line_start < m.start() else m.start()
        if end <= 0:
            return None
    return None


# a number that is not part of a word, an exponent, a subscript, a digit group or a denominator
_LAST_NUMBER = re.compile(
    r"(?:(?<![\w.^_{}/])[-+−](?=\.?\d)|(?<![\w.^_{}/+−-])(?<!\d,)(?<!\d\u2009)(?<!\d\u202f))"
    r"(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d+)?"
)
_HEDGE_CHAR = re.compile(r"[A-Za-z→⇒⟶↦?|]")  # what every HEDGE match starts with
_LAST_DIGIT = re.compile(r"\d[^\d]*\Z")
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
    joined = bool(_JOINED_BEFORE.search(before)) or _listed_before(before, answer) or _hedged_before(text, m.start())
    return Candidate("last_number", answer, joined=joined)


# "0.5 Gy, 1 Gy", "0.5 (1 Gy)", "0.5 Gy \\ 1 Gy": a number of the same unit (or none) listed just before
_LISTED_BEFORE = re.compile(r"(?<![\w.])\d+(?:\.\d+)?[^\S\n]*([A-Za-zµ%][\w/µ%^{}-]*)?[^\S\n]*"
                            r"(?:,|;|/|\||\\\\|\\newline|\(|\[)[^\S\n]*$")
_UNIT_AFTER = re.compile(r"[-+]?[\d.]+(?:[eE][-+]?\d+)?[^\S\n]*([A-Za-zµ%][\w/µ%^{}-]*)?")


def _listed_before(before: str, answer: str) -> bool:
    m = _LISTED_BEFORE.search(before)
    if m is None:
        return False
    after = _UNIT_AFTER.match(answer)
    return m.group(1) is None or (after is not None and after.group(1) == m.group(1))


_GAP = r"(?:[^)\]\w.!?]|[.!?](?!\s))*"  # between words, with no closing bracket and no sentence end
_LEADS_UP = re.compile(_GAP + r"(?:\w+" + _GAP + r"){0,3}")


def _hedged_before(text: str, at: int) -> bool:
    """The value at `at` is offered as another value's alternative in its sentence:
    "2.0 cGy/MU, or maybe 1.018 cGy/MU", "\\boxed{317} or \\boxed{318}"."""
    line_start = max(text.rfind("\n", 0, at) + 1, at - 240)
    last = _LAST_DIGIT.search(text, line_start, at)  # the previous number's end, if any
    if last is None:
        return False
    tail = text[last.start(): at]
    if not _HEDGE_CHAR.search(tail):
        return False  # no word or mark of hedging
    hedge = None
    for hedge in HEDGE.finditer(tail):
        pass
    # the hedge must lead up to the value within its sentence, not close an aside ("2.0 Gy (or maybe
    # more) gives 317 MU") or end a sentence of its own ("Or maybe not. The MU is 317 MU")
    return hedge is not None and bool(_LEADS_UP.fullmatch(tail, hedge.end()))


def find_answer(text: str) -> Candidate | None:
    """The answer a response offers, by the seed's order of sources; None if it has no number."""
    box = _last_box(text) if "\\boxed" in text else None
    if box is not None:
        content, end, start = box
        value = after_last_relation(content)
        if _DIGIT.search(value):
            line_end = text.find("\n", end, end + 120)
            after = text[end: line_end if line_end >= 0 else end + 120]
            # "\\boxed{317} or \\boxed{318}": another value offered just before the box
            return Candidate("boxed", value[:MAX_ANSWER], after, _hedged_before(text, start))
    line = answer_line(text)
    if line is not None:
        value = after_last_relation(line)
        if _DIGIT.search(value):
            return Candidate("answer_line", value)
    equation = _equation(text)
    if equation is not None:
        rhs, at = equation  # "D = 1.018 cGy/MU or maybe D = 2.0 cGy/MU" offers two values
        return Candidate("equation", rhs[:MAX_ANSWER], joined=_hedged_before(text, at))
    return last_number(text)

