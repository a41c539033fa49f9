"""The answer types of a research step as data: what each holds, and its JSON form (`to_dict`).

answers.py reads and checks these from a problem file (`parse_answer`); the grader, the judge and the
oracle read them. The types and their JSON are described there.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Union

from physbench.suites.research.symbols import Symbols

DEFAULT_RTOL = 1e-12           # "a default precision of 12 significant digits" (002_* section 3.2)
DEFAULT_SAMPLES = 6            # random points for the numeric rung of the symbolic ladder
MAX_TESTS = 1_000
MAX_ELEMENTS = 1_000
MAX_PARTS = 50
MAX_CODE_CHARS = 16_000        # the scientific policy's source limit

ANSWER_TYPES = ("symbolic", "numeric", "integer", "boolean", "string", "function", "composite", "set",
                "dict", "interval")
SET_ELEMENT_TYPES = ("numeric", "integer", "string")


@dataclass(frozen=True)
class SymbolicAnswer:
    expr: str
    symbols: Symbols
    rtol: float = DEFAULT_RTOL
    samples: int = DEFAULT_SAMPLES
    up_to_sign: bool = False
    type: str = "symbolic"

    def to_dict(self) -> dict[str, Any]:
        out = {"type": self.type, **self.symbols.to_dict(), "expr": self.expr}
        if self.rtol != DEFAULT_RTOL:
            out["rtol"] = self.rtol
        if self.samples != DEFAULT_SAMPLES:
            out["samples"] = self.samples
        if self.up_to_sign:
            out["up_to_sign"] = True
        return out


@dataclass(frozen=True)
class NumericAnswer:
    value: float | complex
    rtol: float = DEFAULT_RTOL
    atol: float = 0.0
    up_to_sign: bool = False
    type: str = "numeric"

    def to_dict(self) -> dict[str, Any]:
        v = self.value
        out: dict[str, Any] = {"type": self.type,
                               "value": {"real": v.real, "imag": v.imag} if isinstance(v, complex) else v,
                               "rtol": self.rtol}
        if self.atol:
            out["atol"] = self.atol
        if self.up_to_sign:
            out["up_to_sign"] = True
        return out


@dataclass(frozen=True)
class IntegerAnswer:
    value: int
    type: str = "integer"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "value": self.value}


@dataclass(frozen=True)
class BooleanAnswer:
    value: bool
    type: str = "boolean"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "value": self.value}


@dataclass(frozen=True)
class StringAnswer:
    """Matched after collapsing whitespace, and case-blind unless `case_sensitive`."""

    value: str
    aliases: tuple[str, ...] = ()
    case_sensitive: bool = False
    type: str = "string"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "value": self.value}
        if self.aliases:
            out["aliases"] = list(self.aliases)
        if self.case_sensitive:
            out["case_sensitive"] = True
        return out


@dataclass(frozen=True)
class FunctionAnswer:
    """`reference` is Python defining `answer(...)`; `tests` are argument lists to call it with."""

    reference: str
    tests: tuple[tuple[Any, ...], ...]
    rtol: float = DEFAULT_RTOL
    atol: float = 0.0
    type: str = "function"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "reference": self.reference,
                               "tests": [list(t) for t in self.tests], "rtol": self.rtol}
        if self.atol:
            out["atol"] = self.atol
        return out


@dataclass(frozen=True)
class CompositeAnswer:
    """A tuple answer: `answer(*symbols)` returns one value per part, in order."""

    parts: tuple["Answer", ...]
    symbols: Symbols = field(default_factory=Symbols)
    up_to_sign: bool = False  # the numeric, integer and symbolic parts may all be negated together
    type: str = "composite"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        if self.symbols.args:
            out.update(self.symbols.to_dict())
        out["parts"] = [p.to_dict() for p in self.parts]
        if self.up_to_sign:
            out["up_to_sign"] = True
        return out


@dataclass(frozen=True)
class SetAnswer:
    """Unordered elements (numbers, integers or strings), each matched to one expected element.

    Duplicates in the model's value are merged unless `multiset`, where counts must agree.
    """

    elements: tuple[Any, ...]
    element_type: str = "numeric"
    rtol: float = DEFAULT_RTOL
    atol: float = 0.0
    multiset: bool = False
    items: tuple["Answer", ...] = ()  # element_type "answer": each element is an answer of its own
    symbols: Symbols = field(default_factory=Symbols)
    type: str = "set"

    def to_dict(self) -> dict[str, Any]:
        if self.element_type == "answer":
            out = {"type": self.type, **(self.symbols.to_dict() if self.symbols.args else {}),
                   "items": [i.to_dict() for i in self.items]}
            if self.multiset:
                out["multiset"] = True
            return out
        enc = [{"real": e.real, "imag": e.imag} if isinstance(e, complex) else e for e in self.elements]
        out = {"type": self.type, "element_type": self.element_type, "elements": enc}
        if self.element_type == "numeric":
            out["rtol"] = self.rtol
            if self.atol:
                out["atol"] = self.atol
        if self.multiset:
            out["multiset"] = True
        return out


@dataclass(frozen=True)
class IntervalAnswer:
    """Endpoints (None = infinite); `closed` = (lower closed, upper closed) when openness is graded."""

    lower: float | str | None  # a string is an expression in the symbols
    upper: float | str | None
    closed: tuple[bool, bool] | None = None
    rtol: float = DEFAULT_RTOL
    atol: float = 0.0
    symbols: Symbols = field(default_factory=Symbols)
    type: str = "interval"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, **(self.symbols.to_dict() if self.symbols.args else {}),
                               "lower": self.lower, "upper": self.upper, "rtol": self.rtol}
        if self.closed is not None:
            out["closed"] = list(self.closed)
        if self.atol:
            out["atol"] = self.atol
        return out


@dataclass(frozen=True)
class DictAnswer:
    """Named entries (keys are strings; a SymPy symbol key matches by its name), each an answer."""

    entries: tuple[tuple[str, "Answer"], ...]
    symbols: Symbols = field(default_factory=Symbols)
    type: str = "dict"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, **(self.symbols.to_dict() if self.symbols.args else {})}
        out["entries"] = {k: a.to_dict() for k, a in self.entries}
        return out


Answer = Union[SymbolicAnswer, NumericAnswer, IntegerAnswer, BooleanAnswer, StringAnswer, FunctionAnswer,
               CompositeAnswer, SetAnswer, DictAnswer, IntervalAnswer]


def call_symbols(answer: Answer) -> Symbols:
    """The arguments `answer(...)` takes (none for types without symbols)."""
    return getattr(answer, "symbols", None) or Symbols()
