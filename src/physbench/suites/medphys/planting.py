"""The planted error of a parameter draw: a named error mode or an arithmetic slip, always visible.

Seed 000, "Checking items": a planted error changes its own step's displayed result and moves the
final result outside the calculation band; every later step follows from it; inputs are never
altered. Every draw of a checking generator has one designated planted error (so the targeted test
can select draws by it); whether an item shows it is decided by the split (correct and planted
items alternate).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from physbench.suites.medphys.base import Generator, rng_for
from physbench.suites.medphys.numbers import fmt_sig
from physbench.suites.medphys.worksheet import Sheet, Shown, Step, first_difference

SLIP_SHARE = 0.2  # share of planted errors that are arithmetic slips rather than named modes
SLIP_TRANSPOSE = "slip:transposed_digits"
SLIP_PRODUCT = "slip:wrong_product"


@dataclass(frozen=True)
class Planted:
    """What is wrong with a planted worksheet: `mode` (an error mode name or a slip), the step
    where it first shows, the layout variant, and the relative change of the final result."""

    mode: str
    step: int
    category: str
    variant: int | None
    slip_step: int | None = None  # the step a slip was applied to (slips only)
    slip_digit: int | None = None  # which digit a slip changed (slips only)
    size: float = 0.0  # (planted final - reference) / reference

    def to_meta(self) -> dict[str, Any]:
        return {"mode": self.mode, "step": self.step, "category": self.category, "size": self.size}


@dataclass(frozen=True)
class Worksheet:
    """A rendered worksheet and its final shown value."""

    steps: tuple[Step, ...]
    final: float

    def render(self) -> str:
        return "\n\n".join(step.render() for step in self.steps)


def layout_variant(gen: Generator, level: int, seed: int) -> int:
    """The layout variant of a draw's worksheets (shared by its correct and planted sheets)."""
    return rng_for(gen.name, level, seed, "layout").randrange(1 << 30)


def write_sheet(gen: Generator, level: int, p: Any, *, mode: str | None = None, variant: int | None = None,
                slip: Callable[[int, Shown], float] | None = None) -> Worksheet:
    """Run the level's step chain on a display sheet."""
    chain = gen.level(level).worksheet
    if chain is None:
        raise ValueError(f"{gen.name} has no worksheets")
    sheet = Sheet(display=True, variant=variant, slip=slip)
    final = chain(p, sheet, mode)
    return Worksheet(tuple(sheet.steps), float(final))


def _slip_fn(kind: str, target: int, digit: int) -> Callable[[int, Shown], float]:
    """A slip applied to the shown result of step `target`."""

    def slip(number: int, shown: Shown) -> float:
        if number != target:
            return float(shown)
        return _slipped_text(shown.text, kind, digit)

    return slip


def _slipped_text(text: str, kind: str, digit: int) -> float:
    """Swap significant digits `digit` and `digit+1` (transposed) or change digit `digit` (product).

    Returns the unchanged value when the slip does not apply (equal digits, a zero moved in front),
    so that the caller moves on to another digit or step.
    """
    chars = list(text.replace(" × 10^", "e"))
    end = chars.index("e") if "e" in chars else len(chars)
    positions = [i for i in range(end) if chars[i].isdigit()]
    while positions and chars[positions[0]] == "0":
        positions.pop(0)
    unchanged = float("".join(chars))
    if digit + 1 >= len(positions):
        return unchanged
    a, b = positions[digit], positions[digit + 1]
    if kind == SLIP_TRANSPOSE:
        if digit == 0 and chars[b] == "0":
            return unchanged
        chars[a], chars[b] = chars[b], chars[a]
    else:
        chars[a] = str((int(chars[a]) + 3) % 10) if digit else str(int(chars[a]) % 9 + 1)
    return float("".join(chars))


def _visible(correct: Worksheet, planted: Worksheet, reference: float, band: float) -> int | None:
    """The first error step if the planted sheet's error is visible, else None."""
    step = first_difference(correct.steps, planted.steps)
    if step is None or abs(planted.final - reference) <= band * abs(reference):
        return None
    own = planted.steps[step - 1]
    twin = next((s for s in correct.steps if s.key == own.key), None)
    if twin is not None and twin.result == own.result and own.value == twin.value:
        return None  # the step's formula changed but its shown result did not
    return step


def planted_error(gen: Generator, level: int, seed: int, p: Any, *, layout: bool = True) -> Planted:
    """The designated planted error of one draw (deterministic in (generator, level, seed)).

    `layout=False` uses the canonical worksheet layout (no variation), for the cue audit.
    """
    spec = gen.level(level)
    reference = spec.solve(p)
    variant = layout_variant(gen, level, seed) if layout else None
    correct = write_sheet(gen, level, p, variant=variant)
    rng = rng_for(gen.name, level, seed, "planted")
    candidates: list[Planted] = []
    for m in gen.modes_at(level):
        sheet = write_sheet(gen, level, p, mode=m.name, variant=variant)
        step = _visible(correct, sheet, reference, gen.band)
        if step is not None:
            candidates.append(Planted(m.name, step, m.category, variant, size=sheet.final / reference - 1))
    if not candidates or rng.random() < SLIP_SHARE:
        slip = _pick_slip(gen, level, p, correct, reference, variant, rng)
        if slip is not None:
            return slip
    if not candidates:
        raise RuntimeError(f"{gen.name} L{level} seed {seed}: no visible planted error")
    return candidates[rng.randrange(len(candidates))]


def _pick_slip(gen: Generator, level: int, p: Any, correct: Worksheet, reference: float, variant: int | None,
               rng: Any) -> Planted | None:
    """An arithmetic slip at a random step that visibly moves the final result, or None."""
    kind = SLIP_TRANSPOSE if rng.random() < 0.5 else SLIP_PRODUCT
    steps = list(range(1, len(correct.steps) + 1))
    rng.shuffle(steps)
    for target in steps:
        for digit in (0, 1, 2):
            sheet = write_sheet(gen, level, p, variant=variant, slip=_slip_fn(kind, target, digit))
            step = _visible(correct, sheet, reference, gen.band)
            if step == target:
                return Planted(kind, step, "arithmetic", variant, target, digit, sheet.final / reference - 1)
    return None


def planted_sheet(gen: Generator, level: int, p: Any, planted: Planted) -> Worksheet:
    """The worksheet that carries `planted`."""
    if planted.mode.startswith("slip:"):
        slip = _slip_fn(planted.mode, planted.slip_step or 0, planted.slip_digit or 0)
        return write_sheet(gen, level, p, variant=planted.variant, slip=slip)
    return write_sheet(gen, level, p, mode=planted.mode, variant=planted.variant)


def sig_text(value: float) -> str:
    """The colleague's reported value as printed in a result check (four significant figures)."""
    return fmt_sig(value, 4)
