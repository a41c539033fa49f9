"""A small suite for the runner's tests: calculation and checking items with known references.

Each user message names its item id (so the mock server's fault rules can pick items) and holds a
`mock-reply:` line that the mock server answers with: even calculation items get the right answer,
odd ones a wrong one, so a run against the mock has a known accuracy.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
from typing import Any, Iterable

from physbench.core import Item, Message, Reference, UserError, register
from physbench.grading.types import Grade

# (value, unit, band) of the calculation items
CALCS = [(1.018, "cGy/MU", 0.005), (307.7, "MU", 0.01), (54.28, "cm", 0.01), (2.0, "Gy", 0.01),
         (17273.0, "MBq h", 0.02), (0.4521, "cm", 0.01), (6.25, "mGy", 0.01), (3.2e-5, "Gy", 0.01)]
CHECKS = [("worksheet_check", True, 3), ("worksheet_check", False, None), ("result_check", True, None),
          ("result_check", False, None)]
SYSTEM = "You are a medical physicist. Give the final answer as \\boxed{value unit}."


def _calc(index: int, prefix: str) -> Item:
    value, unit, band = CALCS[index % len(CALCS)]
    item_id = f"{prefix}/calc/{index}"
    right = index % 2 == 0
    shown = value if right else value * 1.5
    reply = f"The result is \\boxed{{{shown:.6g} {unit}}}"
    user = f"Item {item_id}: compute the quantity ({unit}).\nmock-reply: {reply}"
    group = f"gen{'ab'[index % 2]}/L{1 + index % 3}"
    messages = (Message("system", SYSTEM), Message("user", user))
    return Item(id=item_id, suite="fixture", kind="calculation", messages=messages,
                reference=Reference(value=value, unit=unit), band=band, params={"i": index, "p": prefix},
                meta={"generator": f"gen{'ab'[index % 2]}", "level": 1 + index % 3, "group": group, "seed": index})


def _check(index: int, prefix: str) -> Item:
    kind, planted, step = CHECKS[index % len(CHECKS)]
    value, unit, band = CALCS[index % len(CALCS)]
    item_id = f"{prefix}/{kind}/{index}"
    verdict = {"verdict": "incorrect" if planted else "correct"}
    if kind == "worksheet_check":
        verdict["first_error_step"] = step
    reply = "```json " + json.dumps(verdict) + " ```"
    user = f"Item {item_id}: check your colleague's work.\nmock-reply: {reply}"
    return Item(id=item_id, suite="fixture", kind=kind, messages=(Message("system", SYSTEM), Message("user", user)),
                reference=Reference(value=value, unit=unit, planted=planted, first_error_step=step,
                                    shown_value=value * (1.3 if planted else 1.0)),
                band=band, params={"i": index, "p": prefix, "k": kind},
                meta={"generator": "check", "level": 1, "group": f"check/{kind}", "seed": index})


class FixtureSuite:
    """`fixture`: dev = 8 calculation + 4 checking items; test = the same shapes from a key.

    The number of calculation items can be raised with the option `n_calc` or $FIXTURE_N_CALC.
    """

    name = "fixture"

    def items(self, split: str = "dev", *, key: bytes | None = None, limit: int | None = None,
              **options: Any) -> Iterable[Item]:
        n_calc = int(options.get("n_calc", os.environ.get("FIXTURE_N_CALC", 8)))
        if split == "dev":
            prefix = "dev"
        elif split == "test":
            if not key:
                raise UserError("the test split needs a key")
            prefix = "t" + hmac.new(key, b"fixture", hashlib.sha256).hexdigest()[:8]
        else:
            raise UserError(f"fixture suite has no split {split!r}")
        items = [_calc(i, prefix) for i in range(n_calc)] + [_check(i, prefix) for i in range(len(CHECKS))]
        return items[:limit] if limit else items

    def grade(self, item: Item, text: str, finish_reason: str | None = None) -> Grade:
        from physbench import grading

        real = getattr(grading, "grade_item", None)
        if real is not None:
            return real(item, text, finish_reason)  # type: ignore[no-any-return]
        return tiny_grade(item, text, finish_reason)


_BOX = re.compile(r"\\boxed\{([^{}]*(?:\{[^{}]*\}[^{}]*)*)\}")
_NUM = re.compile(r"^\s*([-+]?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?)(?:\s*\\times\s*10\^\{(-?\d+)\})?\s*(.*)$")


def tiny_grade(item: Item, text: str, finish_reason: str | None = None) -> Grade:
    """A stand-in grader for when physbench.grading.grade_item is not there yet (bounded regexes)."""
    text = text[:100_000]
    if finish_reason == "length":
        return Grade(0.0, False, "truncated")
    ref = item.reference
    if item.kind == "calculation":
        boxes = _BOX.findall(text)
        if not boxes:
            return Grade(0.0, False, "no_answer")
        m = _NUM.match(boxes[-1])
        if not m:
            return Grade(0.0, False, "format_error")
        value = float(m.group(1)) * (10.0 ** int(m.group(2)) if m.group(2) else 1.0)
        unit = m.group(3).strip()
        rel = abs(value - ref.value) / abs(ref.value)
        ok = unit == (ref.unit or "") and rel <= item.band
        return Grade(float(ok), ok, "correct" if ok else "wrong", value=value, unit=unit, rel_error=rel)
    start = text.rfind("{")
    end = text.find("}", start)
    try:
        verdict = json.loads(text[start:end + 1]) if start >= 0 and end > start else None
    except ValueError:
        verdict = None
    if not isinstance(verdict, dict) or "verdict" not in verdict:
        return Grade(0.0, False, "unparsable")
    flagged = verdict["verdict"] == "incorrect"
    ok = flagged == bool(ref.planted)
    if ok and ref.planted and item.kind == "worksheet_check":
        ok = verdict.get("first_error_step") == ref.first_error_step
    return Grade(float(ok), ok, "correct" if ok else "wrong", verdict=verdict["verdict"], flagged=flagged)


SUITE = register(FixtureSuite())
