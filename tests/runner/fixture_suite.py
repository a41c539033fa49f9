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
from typing import Any, Iterable

from physbench.core import Item, Message, UserError, register
from physbench.grading import CheckKey, grade_calculation, grade_check
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
    # $FIXTURE_TWO_STEP=1: a formatting turn for the two-step protocol, answered with the same reply
    data = {"format": f"Give the final answer boxed.\nmock-reply: {reply}"} if os.environ.get("FIXTURE_TWO_STEP") else {}
    return Item(id=item_id, suite="fixture", kind="calculation", messages=messages, protocol_data=data,
                reference={"value": value, "unit": unit, "band": band}, params={"i": index, "p": prefix},
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
                reference={"value": value, "unit": unit, "band": band, "planted": planted, "first_error_step": step,
                           "shown_value": value * (1.3 if planted else 1.0)},
                params={"i": index, "p": prefix, "k": kind},
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

    def grade(self, item: Item, answer: Any) -> Grade:
        """The core's unit-aware and verdict graders, with the reference this suite stores."""
        ref = item.reference
        if item.kind == "calculation":
            return grade_calculation(answer.text, (ref["value"], ref["unit"]), ref["band"],
                                     finish_reason=answer.finish_reason)
        key = CheckKey(ref["value"], ref["unit"], ref["planted"], ref["first_error_step"])
        return grade_check(answer.text, key, ref["band"], item.kind, finish_reason=answer.finish_reason)

    def oracle(self, item: Item) -> str | None:
        """The `mock-reply:` line of an even calculation item is right; answer every item rightly."""
        ref = item.reference
        if item.kind == "calculation":
            return f"\\boxed{{{ref['value']:.6g} {ref['unit']}}}"
        verdict = {"verdict": "incorrect" if ref["planted"] else "correct"}
        if item.kind == "worksheet_check":
            verdict["first_error_step"] = ref["first_error_step"]
        return "```json " + json.dumps(verdict) + " ```"


SUITE = register(FixtureSuite())


class CalcHarness:
    """A two-tool harness for the agent protocol: `add(a, b)` and the terminal `submit(value)`."""

    def __init__(self, item: Item) -> None:
        from physbench.core.tools import ToolSpec

        self.item = item
        number = {"type": "number"}
        self.tools = (ToolSpec("add", "a + b", {"type": "object", "properties": {"a": number, "b": number}}),
                      ToolSpec("submit", "final value", {"type": "object", "properties": {"value": number}}))
        self.limits = {"tool_calls": 4, "turns": 6, "wall_s": 60}
        self.submitted: Any = None

    def call(self, name: str, arguments: Any) -> Any:
        if name == "add":
            try:
                return {"sum": float(arguments["a"]) + float(arguments["b"])}
            except (KeyError, TypeError, ValueError):
                return {"error": "add needs numbers a and b"}
        if name == "submit":
            self.submitted = arguments.get("value")
            return {"ok": True}
        return {"error": f"unknown tool {name!r}"}

    @property
    def finished(self) -> bool:
        return self.submitted is not None

    def result(self) -> dict[str, Any]:
        return {"submitted": self.submitted}


def protocol_item(item_id: str, script: list[Any], protocol_data: dict[str, Any]) -> Item:
    """An item whose mock replies follow `script` (see the mock server's mock-script)."""
    user = f"Item {item_id}: compute.\nmock-script: {json.dumps(script)}"
    return Item(id=item_id, suite="fixture", kind="calculation", messages=(Message("system", SYSTEM), Message("user", user)),
                reference={"value": 2.0, "unit": "Gy", "band": 0.01}, protocol_data=protocol_data)


def _harness(item: Item) -> CalcHarness:
    return CalcHarness(item)


FixtureSuite.harness = staticmethod(_harness)  # type: ignore[attr-defined]
