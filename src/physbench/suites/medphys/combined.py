"""Two error modes applied to one draw at once, `A+B` (seed 000, Figure 8: two TG-51 errors that offset
within the band when made together).

Every generator's calculation chain asks for its error with `mode == NAME` (or `mode != NAME` for an
omitted factor), step by step. A `BothModes` name compares equal to each of its two parts, so one run
of the chain makes both mistakes, each at its own step, and every later step follows from both. Where
the two modes change the same step the chain's first test decides, as with a single mode.
"""

from __future__ import annotations

from functools import partial
from typing import Any, Callable

from physbench.core.errors import UserError
from physbench.suites.medphys.base import ErrorMode, Generator

SEPARATOR = "+"


class BothModes(str):
    """The name `A+B`, equal to `A+B`, to `A` and to `B` (and unequal to any other name).

    It hashes as the text `A+B`, so it is meant for the chains' comparisons, not as a dict key.
    """

    parts: tuple[str, str]

    def __new__(cls, first: str, second: str) -> "BothModes":
        obj = super().__new__(cls, f"{first}{SEPARATOR}{second}")
        obj.parts = (first, second)
        return obj

    def __eq__(self, other: object) -> bool:
        return isinstance(other, str) and (str.__eq__(self, other) or other in self.parts)

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    __hash__ = str.__hash__


def split_pair(name: str) -> tuple[str, str] | None:
    """(A, B) of a name `A+B`; None for a single mode name."""
    if SEPARATOR not in name:
        return None
    first, _, second = name.partition(SEPARATOR)
    if not first or not second or SEPARATOR in second:
        raise UserError(f"a pair of error modes is written A+B with two names, got {name!r}")
    if first == second:
        raise UserError(f"a pair of error modes needs two different modes, got {name!r}")
    return first, second


def _chain(mode: ErrorMode) -> Callable[[str, int, Any], float]:
    """The generator's mode solver behind `mode.answer` (every generator builds it as partial(solver, name))."""
    answer = mode.answer
    if isinstance(answer, partial) and answer.args == (mode.name,) and not answer.keywords:
        return answer.func
    raise UserError(f"error mode {mode.name!r} cannot be combined with another")


def both(gen: Generator, first: str, second: str) -> ErrorMode:
    """The error mode making `first` and `second` at once, at the levels where both apply."""
    a, b = gen.mode(first), gen.mode(second)
    solver = _chain(a)
    if _chain(b) is not solver:
        raise UserError(f"error modes {first!r} and {second!r} of {gen.name} run different solvers")
    levels = tuple(lv for lv in a.levels if lv in b.levels)
    if not levels:
        raise UserError(f"error modes {first!r} and {second!r} of {gen.name} never apply at the same level")
    category = a.category if a.category == b.category else "conceptual"  # two kinds of mistake: a method error
    return ErrorMode(BothModes(first, second), f"{a.description}; and {b.description}", category, levels,
                     partial(solver, BothModes(first, second)))


def find_mode(gen: Generator, name: str) -> ErrorMode:
    """The error mode `name` of `gen`: one of its named modes, or a pair `A+B` of them made at once."""
    pair = split_pair(name)
    return gen.mode(name) if pair is None else both(gen, *pair)


def has_modes(gen: Generator, name: str) -> bool:
    """Whether every mode that `name` names (one, or both of a pair) is one of `gen`'s."""
    names = {m.name for m in gen.error_modes}
    pair = split_pair(name)
    return all(n in names for n in (pair or (name,)))
