"""Scripted models that know the medphys generators: `mode:NAME` answers with a named error."""

from __future__ import annotations

import json
import math
from typing import Any, Sequence

from physbench.core.errors import UserError
from physbench.core.items import Item, Message
from physbench.models.base import Completion
from physbench.suites.medphys.base import params_from_dict
from physbench.suites.medphys.combined import both, has_modes, split_pair
from physbench.suites.medphys.generators import available_generators, get_generator
from physbench.suites.medphys.reference import reference_of

CHECK_KINDS = ("worksheet_check", "result_check")


def plain_number(value: float, sig: int = 6) -> str:
    """`value` with `sig` significant figures, written without an exponent where that reads well.

    Very large or small magnitudes use `\\times 10^{n}`, which the grader reads; a bare `e+04`
    is avoided because it is not how an answer is written.
    """
    if value == 0 or not math.isfinite(value):
        return "0" if value == 0 else repr(value)
    exponent = math.floor(math.log10(abs(value)))
    if -4 <= exponent < 15:
        decimals = max(0, sig - 1 - exponent)
        text = f"{value:.{decimals}f}"
        if "." in text:
            text = text.rstrip("0").rstrip(".")
        return text
    mantissa = value / 10.0**exponent
    return f"{plain_number(mantissa, sig)} \\times 10^{{{exponent}}}"


def quantity_text(value: float, unit: str | None) -> str:
    """'VALUE UNIT' (just the value for a dimensionless answer)."""
    number = plain_number(value)
    return f"{number} {unit}".strip() if unit else number


def oracle_answer(item: "Item") -> str | None:
    """The response a perfect model gives to `item`, in the format the prompts ask for.

    Calculation: `\\boxed{VALUE UNIT}`. Checks: a fenced JSON verdict; result checks leave out
    `first_error_step`. None when the item has no reference to answer from.
    """
    ref = reference_of(item)
    if item.kind in CHECK_KINDS:
        if ref.planted is None:
            return None
        corrected = quantity_text(ref.value, ref.unit) if ref.planted and ref.value is not None else None
        verdict: dict[str, Any] = {"verdict": "incorrect" if ref.planted else "correct"}
        if item.kind == "worksheet_check":
            verdict["first_error_step"] = ref.first_error_step if ref.planted else None
        verdict["corrected_result"] = corrected
        return "```json\n" + json.dumps(verdict) + "\n```"
    if ref.value is None:
        return None
    return f"\\boxed{{{quantity_text(ref.value, ref.unit)}}}"


def boxed(value: float, unit: str) -> str:
    """A final answer as the calculation prompts ask for it."""
    return f"\\boxed{{{value:.6g} {unit}}}" if unit else f"\\boxed{{{value:.6g}}}"


def own_answer(item: Item, mode: str | None, generator: str | None = None) -> float:
    """The answer to `item`'s calculation with error `mode` where it applies, else the reference.

    A pair `A+B` makes both errors where both apply at the item's level, and the one that applies
    where only one does.
    """
    gen = get_generator(item.meta["generator"])
    level = int(item.meta["level"])
    if mode and (generator is None or generator == gen.name) and has_modes(gen, mode):
        names = {m.name for m in gen.modes_at(level)}
        pair = split_pair(mode)
        applied = [n for n in (pair or (mode,)) if n in names]
        if applied:
            chosen = both(gen, *applied) if len(applied) == 2 else gen.mode(applied[0])
            return chosen.answer(level, params_from_dict(gen.level(level).params, item.params))
    return float(reference_of(item).value)  # type: ignore[arg-type]


class MedphysScripted:
    """A scripted model of the medphys suite: `calculation(item)` gives its own answer to an item's
    calculation, `check(item)` its verdict on the colleague's result (flagged, corrected value)."""

    spec: str

    def info(self) -> dict[str, Any]:
        return {"spec": self.spec, "kind": "scripted"}

    async def aclose(self) -> None:
        return None

    def calculation(self, item: Item) -> float:
        raise NotImplementedError

    def check(self, item: Item) -> tuple[bool, float | None]:
        raise NotImplementedError

    async def generate(self, messages: Sequence[Message], *, item: Item | None = None, **params: Any) -> Completion:
        if item is None or item.suite != "medphys":
            return Completion(text="", finish_reason="stop")
        unit = reference_of(item).unit or ""
        if item.kind == "calculation":
            return Completion(text=f"Answer: {boxed(self.calculation(item), unit)}", finish_reason="stop")
        flagged, corrected = self.check(item)
        verdict: dict[str, Any] = {"verdict": "incorrect" if flagged else "correct"}
        if item.kind == "worksheet_check":
            verdict["first_error_step"] = None  # neither checker can name a step
        verdict["corrected_result"] = f"{corrected:.6g} {unit}".strip() if flagged and corrected is not None else None
        return Completion(text="```json\n" + json.dumps(verdict) + "\n```", finish_reason="stop")


class ModeModel(MedphysScripted):
    """`mode:NAME` or `mode:GEN/NAME`: makes the named mistake wherever it applies; `NAME` may be a
    pair `A+B` of one generator's modes, made together where both apply (combined.py).

    Calculation items get the erroneous answer boxed with its unit. Checking items are answered by
    recomputing with the same mistake and flagging the colleague's result when it differs by more
    than the band (such a checker cannot name a step).
    """

    def __init__(self, spec: str) -> None:
        self.spec = spec
        name = spec.split(":", 1)[1]
        self.generator, _, self.mode = name.rpartition("/")
        self.generator = self.generator or None
        gens = [get_generator(self.generator)] if self.generator else available_generators()
        split_pair(self.mode)  # a malformed pair is a clear error
        if not any(has_modes(g, self.mode) for g in gens):
            raise UserError(f"no medphys generator has the error mode {self.mode!r} (see `physbench medphys list`)")

    def calculation(self, item: Item) -> float:
        return own_answer(item, self.mode, self.generator)

    def check(self, item: Item) -> tuple[bool, float | None]:
        value = self.calculation(item)
        ref = reference_of(item)
        return ref.shown_value is None or abs(ref.shown_value - value) > ref.band * abs(value), value
