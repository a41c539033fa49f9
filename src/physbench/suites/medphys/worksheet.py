"""The worksheet engine: one step chain serves the reference solver, error modes and worksheets.

A checking generator writes its calculation once, as a chain of `sheet.step(...)` calls. With an
exact sheet the chain is the reference solver (no rounding); with a display sheet every step's
result is rounded to the precision shown and later steps use the shown values, so a correct
worksheet is consistent at the precision shown (seed 000, "Checking items"). A planted error
is the chain run with an error mode, or with an arithmetic slip applied to one step's result.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from typing import Callable, Sequence, TypeVar

from physbench.suites.medphys.numbers import fmt_dec, fmt_sci, fmt_sig

T = TypeVar("T")


class Shown(float):
    """A float that remembers how it is printed on the worksheet."""

    text: str

    def __new__(cls, value: float, text: str) -> "Shown":
        obj = super().__new__(cls, value)
        obj.text = text
        return obj


def _format(value: float, sig: int | None, dec: int | None, sci: int | None) -> str:
    if sig is not None:
        return fmt_sig(value, sig)
    if dec is not None:
        return fmt_dec(value, dec)
    if sci is not None:
        return fmt_sci(value, sci)
    raise ValueError("give one of sig=, dec= or sci= for a shown number")


def show(value: float, *, sig: int | None = None, dec: int | None = None, sci: int | None = None) -> Shown:
    """An input or constant as printed: `Shown(value, text)`; the value is the printed value."""
    text = _format(value, sig, dec, sci)
    return Shown(float(text.replace(" × 10^", "e")), text)


@dataclass(frozen=True)
class Step:
    """One displayed worksheet step."""

    number: int
    key: str  # name of the step in the chain, unique within a sheet, e.g. "p_ion"
    title: str
    formula: str
    substitution: str
    result: str  # shown result with its unit
    value: float  # shown value
    titled: bool = True  # a terse layout leaves step titles out

    def render(self) -> str:
        parts = [p for p in (self.formula, self.substitution, self.result) if p]
        head = f"Step {self.number}. {self.title}: " if self.titled else f"Step {self.number}. "
        return head + " = ".join(parts)


Slip = Callable[[int, Shown], float]  # (step number, shown result) -> slipped value


class Sheet:
    """Collects steps. `display=False` is the exact solver: no rounding, no layout variation."""

    def __init__(self, display: bool = False, *, variant: int | None = None, slip: Slip | None = None) -> None:
        self.display = display
        self.variant = variant
        self.slip = slip
        self.steps: list[Step] = []

    def step(self, key: str, title: str, formula: str, substitution: str, value: float, unit: str = "", *,
             sig: int | None = None, dec: int | None = None, sci: int | None = None) -> Shown:
        """Record one step and return its result: exact, or rounded as shown on a display sheet."""
        if not self.display:
            return Shown(value, "")
        shown = show(value, sig=sig, dec=dec, sci=sci)
        number = len(self.steps) + 1
        if self.slip is not None:
            slipped = self.slip(number, shown)
            if slipped != float(shown):
                shown = show(slipped, sig=sig, dec=dec, sci=sci)
        result = f"{shown.text} {unit}".strip()
        titled = not self.vary("terse", 0.35)
        self.steps.append(Step(number, key, title, formula, substitution, result, float(shown), titled))
        return shown

    def given(self, value: float, *, sig: int | None = None, dec: int | None = None, sci: int | None = None) -> Shown:
        """An input as the worksheet prints it; an exact sheet keeps the value unrounded, so that a
        params file with more digits than the prompt prints is solved as given."""
        text = _format(value, sig, dec, sci)
        if self.display:
            return Shown(float(text.replace(" × 10^", "e")), text)
        return Shown(value, text)

    def vary(self, name: str, share: float = 0.5) -> bool:
        """A layout choice (show an optional step, merge two steps...): False unless this is a
        display sheet with a variant, where it is a stable draw from (variant, name)."""
        if not self.display or self.variant is None:
            return False
        return self._rng(name).random() < share

    def order(self, name: str, items: Sequence[T]) -> list[T]:
        """Independent factors in canonical order, or shuffled by (variant, name) on a display variant."""
        out = list(items)
        if self.display and self.variant is not None:
            self._rng(name).shuffle(out)
        return out

    def _rng(self, name: str) -> random.Random:
        digest = hashlib.sha256(f"layout/{self.variant}/{name}".encode()).digest()
        return random.Random(int.from_bytes(digest[:8], "big"))

    def render(self) -> str:
        return "\n\n".join(step.render() for step in self.steps)


def first_difference(correct: Sequence[Step], planted: Sequence[Step]) -> int | None:
    """Number of the first planted step that differs from the correct step with the same key.

    Steps are matched by key, not position, so that a step the error removes (or an optional
    step the error makes meaningless) does not shift the blame onto an earlier, correct step.
    """
    twins = {step.key: step for step in correct}
    for step in planted:
        twin = twins.get(step.key)
        if twin is None or (twin.title, twin.formula, twin.substitution, twin.result) != (
                step.title, step.formula, step.substitution, step.result):
            return step.number
    return None
