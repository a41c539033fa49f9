"""What a verdict phrase says: correct, incorrect, a choice left open, or nothing clear.

MedPhysBench ("Grading details") accepts synonyms ("wrong", "error", "pass") and booleans. A
phrase is not decided by its first word (issue 14): "error-free" and "failed to find any errors"
say there is no error; "wrong? No, it is correct" retracts its question. The rules:

- words carry a polarity (correct, pass, ok / incorrect, wrong, error); "X-free", "free of X",
  "errorless", "flawless" invert a fault word into approval;
- a negation ("not", "no", "never", "without", "nothing", "n't", "failed to", "unable to") flips
  the next polarity word of its clause ("not correct", "no errors", "failed to find any errors");
  a negated "verified"/"confirmed" is only a lack of confirmation, not a finding;
- clauses end at ".", ",", ";", ":", "!", "?" and at contrast words ("but", "however", ...); a
  clause ending in "?" is a question and asserts nothing ("wrong? No, it is correct");
- a fault named after a contrast overrides an earlier approval: "ok but step 3 is wrong" is a
  reservation, so incorrect. Any other disagreement ("incorrect, but the result is right",
  "correct; wrong") is ambiguous, and an ambiguous verdict is no verdict, never a guessed one;
- an approval hedged as partial ("partially correct", "mostly right") is ambiguous;
- both polarities offered as a choice ("correct or incorrect", "pass/fail") is a template left
  open (an echo of the prompt's schema), which the reader skips.
"""

from __future__ import annotations

import re
from typing import Literal

MAX_PHRASE = 200  # characters of a verdict value that are read

Polarity = Literal["correct", "incorrect", "open", "unclear"]

_POSITIVE = frozenset({"correct", "pass", "passed", "passes", "right", "ok", "okay", "valid", "true", "accept",
                       "accepted", "approved", "verified", "confirmed", "fine", "accurate", "flawless",
                       "faultless", "errorless", "good", "sound"})
_NEGATIVE = frozenset({"incorrect", "wrong", "error", "errors", "erroneous", "fail", "failed", "fails", "false",
                       "invalid", "reject", "rejected", "flawed", "mistake", "mistakes", "inaccurate", "faulty",
                       "fault", "faults", "flaw", "flaws", "incorrectly", "wrongly", "failing"})
_WEAK_POSITIVE = frozenset({"verified", "confirmed"})  # negated: not confirmed, which is not a finding
_NEGATORS = frozenset({"not", "no", "never", "without", "nothing", "none", "zero", "neither", "nor", "cannot"})
_NEGATING_VERBS = frozenset({"fail", "failed", "fails", "unable"})  # followed by "to": "failed to find"
_PARTIAL = frozenset({"partially", "partly", "mostly", "largely", "almost", "nearly", "somewhat", "half",
                      "semi", "mainly", "generally", "essentially"})
_CONTRAST = frozenset({"but", "however", "although", "though", "yet", "except", "whereas", "nevertheless",
                       "nonetheless", "still"})
_SCOPE = 4  # a negation reaches this many words ahead in its clause

# "error-free", "mistake free", "free of errors", "free from mistakes": approval
_FREE = re.compile(r"\b(?:errors?|mistakes?|faults?|flaws?|issues?|problems?)[\s-]*free\b"
                   r"|\bfree\s+(?:of|from)\s+(?:any\s+)?(?:errors?|mistakes?|faults?|flaws?)\b"
                   # "errors: none", "errors found: 0", "mistakes - nil"
                   r"|\b(?:errors?|mistakes?|faults?|flaws?)(?:\s+found)?\s*[:=-]\s*(?:none|nil|zero|0)\b")
_DASH = re.compile(r"\s[-–—]+\s")  # a spaced dash separates clauses: "Incorrect? No - correct."
_TOKEN = re.compile(r"[a-z]+|[?.!;,:]")
_OPEN_CHOICE = re.compile(r"/|\||\bor\b")
_CHOICE_WORDS = frozenset({"or", "either", ",", ":"})


def _word_polarity(word: str) -> int:
    if word in _POSITIVE:
        return 1
    if word in _NEGATIVE:
        return -1
    return 0


def _clauses(tokens: list[str]) -> list[tuple[list[str], bool, bool]]:
    """(words, is a question, follows a contrast word) for each clause."""
    out: list[tuple[list[str], bool, bool]] = []
    words: list[str] = []
    contrast = False
    for tok in tokens:
        if tok in "?.!;,:" or tok in _CONTRAST:
            if words:
                out.append((words, tok == "?", contrast))
                words = []
                contrast = False
            if tok in _CONTRAST:
                contrast = True
            continue
        words.append(tok)
    if words:
        out.append((words, False, contrast))
    return out


def _clause_polarity(words: list[str]) -> tuple[int, bool]:
    """(+1, -1 or 0, unclear) for one clause: its polarity words after their negations, which must
    agree; a partial approval, a negated confirmation or a choice ("correct or not") is unclear."""
    found: list[int] = []
    unclear = choice = False
    negate_until = -1
    for i, w in enumerate(words):
        if w in ("or", "either") and i > negate_until and found:
            choice = True  # "correct or not": what follows is offered instead
            continue
        if w in _NEGATORS:
            unclear = unclear or choice
            negate_until = i + _SCOPE
            continue
        if w in _NEGATING_VERBS and i + 1 < len(words) and words[i + 1] == "to":
            negate_until = i + 1 + _SCOPE  # "failed to find any errors"
            continue
        p = _word_polarity(w)
        if p == 0:
            continue
        unclear = unclear or choice
        if i <= negate_until:
            if w in _WEAK_POSITIVE:  # "not verified": no confirmation, which is not a finding either
                unclear = True
                continue
            p = -p
            if not (i + 1 < len(words) and words[i + 1] in ("or", "nor")):
                negate_until = -1  # "no errors or mistakes" keeps the negation over the list
        elif p > 0 and i and words[i - 1] in _PARTIAL:
            unclear = True  # "partially correct"
        found.append(p)
    if unclear or not found:
        return 0, unclear
    if all(p == found[0] for p in found):
        return found[0], False
    return 0, True  # one clause says both


def polarity(value: str) -> Polarity:
    """Read one verdict phrase (see the module docstring)."""
    text = value[:MAX_PHRASE].lower()
    text = _DASH.sub(" , ", _FREE.sub(" errorless ", text))
    tokens = _TOKEN.findall(text.replace("n't", " not").replace("n’t", " not").replace("cannot", "can not"))
    if not tokens:
        return "unclear"
    flat = [_word_polarity(t) for t in tokens]
    if 1 in flat and -1 in flat and _OPEN_CHOICE.search(text) \
            and all(p or t in _CHOICE_WORDS for t, p in zip(tokens, flat)):
        return "open"  # "correct or incorrect", "pass/fail": a schema echoed with its choice left open
    decided, pending = 0, False  # pending: an unclear clause that only a later reservation overrides
    for words, question, contrast in _clauses(tokens):
        if question:
            continue  # a question asserts nothing: "wrong? No, it is correct"
        p, unclear = _clause_polarity(words)
        if unclear:
            pending = True
            continue
        if p == 0:
            continue
        if contrast and p < 0:
            decided, pending = p, False  # a fault named after a contrast is a reservation: "ok but step 3 is wrong"
        elif pending or (decided != 0 and p != decided):
            return "unclear"
        else:
            decided = p
    if pending or decided == 0:
        return "unclear"
    return "correct" if decided > 0 else "incorrect"
