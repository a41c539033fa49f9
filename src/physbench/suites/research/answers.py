"""The ANSWER of a step: what a right answer is and how closely it must be matched.

Types (002_* section 3.2 and issue 15): `symbolic` (a SymPy expression in named arguments),
`numeric` (a real or complex number within a relative tolerance, 12 significant digits by
default), `integer`, `boolean`, `string`, `function` (the model's `answer(...)` must agree with
reference code on every test input), `composite` (a tuple or list, every part must match; parts may be any answer but a
function), `set` (unordered elements, matched one to one: numbers, integers, strings, or any
answers such as expressions and tuples under "items"), `dict` (named entries, each an answer) and
`interval` (two endpoints, numbers or expressions, infinite ends allowed, openness graded only
when the answer states it). `symbolic`, `numeric` and `composite` may hold "up to an overall
sign". Arguments are SymPy symbols by default; `functions` names arguments that are undefined
SymPy functions and `values` arguments passed as plain numbers (CritPt's `answer(phi, k,
k_value)`). `parse_answer` checks a JSON object and builds one; `to_dict` gives the same JSON back.
"""

from __future__ import annotations

import ast
import math
from dataclasses import dataclass, field
from typing import Any, Union

from physbench.suites.research.exprtext import expression_problem
from physbench.suites.research.schema import (Where, array, boolean, complex_number, integer, mapping,
                                              real, text)
from physbench.suites.research.sympy_names import ASSUMPTIONS, is_plain_identifier

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
class Symbols:
    """The SymPy symbols `answer` is called with: names, their assumptions and sampling domains."""

    args: tuple[str, ...] = ()
    assumptions: dict[str, dict[str, bool]] = field(default_factory=dict)
    domain: dict[str, tuple[float, float]] = field(default_factory=dict)
    functions: tuple[str, ...] = ()                      # arguments passed as sympy.Function(name)
    values: dict[str, Any] = field(default_factory=dict)  # arguments passed as plain numbers

    def call_args(self) -> tuple[Any, ...]:
        """What `answer(...)` is called with, in the sandbox's argument form."""
        from physbench.executor.values import SymbolArg

        out: list[Any] = []
        for name in self.args:
            if name in self.values:
                out.append(self.values[name])
            else:
                out.append(SymbolArg(name, tuple(sorted(self.assumptions.get(name, {}).items())),
                                     name in self.functions))
        return tuple(out)

    def symbol_names(self) -> tuple[str, ...]:
        """The arguments that are SymPy symbols (not functions, not plain values)."""
        return tuple(n for n in self.args if n not in self.functions and n not in self.values)

    def sampling_range(self, name: str) -> tuple[float, float]:
        """The domain given for `name`, else one that its assumptions allow."""
        if name in self.domain:
            return self.domain[name]
        a = self.assumptions.get(name, {})
        if a.get("positive") or a.get("nonnegative"):
            return (0.1, 5.0)
        if a.get("negative") or a.get("nonpositive"):
            return (-5.0, -0.1)
        return (-5.0, 5.0)

    def is_integer(self, name: str) -> bool:
        return bool(self.assumptions.get(name, {}).get("integer"))

    def integer_range(self, name: str) -> tuple[int, int]:
        """The integers an integer symbol is sampled from: its domain, else what its assumptions
        allow within [-6, 6] (documented default for an integer argument without a domain)."""
        if name in self.domain:
            lo, hi = self.domain[name]
            return math.ceil(lo), math.floor(hi)
        a = self.assumptions.get(name, {})
        if a.get("positive"):
            return 1, 6
        if a.get("nonnegative"):
            return 0, 6
        if a.get("negative"):
            return -6, -1
        if a.get("nonpositive"):
            return -6, 0
        return -6, 6

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"args": list(self.args)}
        if self.assumptions:
            out["assumptions"] = {k: dict(v) for k, v in self.assumptions.items()}
        if self.domain:
            out["domain"] = {k: list(v) for k, v in self.domain.items()}
        if self.functions:
            out["functions"] = list(self.functions)
        if self.values:
            out["values"] = dict(self.values)
        return out


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


_CHECKED = [True]  # False while `rebuild` re-reads an answer that parse_answer already checked


def rebuild(d: Any) -> Answer:
    """An answer from the JSON `to_dict` wrote for it, without re-checking expression text (the
    judge's process may not compile, and `ast.parse` compiles)."""
    _CHECKED[0] = False
    try:
        return parse_answer(d, Where("answer", "answer"))
    finally:
        _CHECKED[0] = True


def parse_answer(d: Any, where: Where, outer: Symbols | None = None) -> Answer:
    """Check one ANSWER object and build it; `outer` holds a composite's symbols for its parts."""
    if not isinstance(d, dict):
        raise where.fail("must be a JSON object with a \"type\"")
    kind = d.get("type")
    if kind not in ANSWER_TYPES:
        raise where.at("type").fail(f"unknown answer type {kind!r}; known: {', '.join(ANSWER_TYPES)}")
    return _PARSERS[kind](d, where, outer)


def _tolerances(d: dict, where: Where) -> tuple[float, float]:
    rtol = real(d.get("rtol", DEFAULT_RTOL), where.at("rtol"), 0.0, 0.5)
    atol = real(d.get("atol", 0.0), where.at("atol"), 0.0)
    if rtol == 0 and atol == 0:
        raise where.at("rtol").fail("rtol and atol are both 0; exact float equality is not gradable")
    return rtol, atol


def _symbols(d: dict, where: Where, outer: Symbols | None) -> Symbols:
    if "args" not in d and outer is not None:
        if "assumptions" in d or "domain" in d:
            raise where.at("assumptions").fail("a part without its own args takes the composite's symbols")
        return outer
    args = array(d.get("args", []), where.at("args"), 0, 20)
    for i, name in enumerate(args):
        if not is_plain_identifier(name):
            raise where.at("args").at(i).fail(f"{name!r} is not a plain identifier")
    if len(set(args)) != len(args):
        raise where.at("args").fail("names an argument twice")
    if outer is not None and not set(args) <= set(outer.args):
        raise where.at("args").fail(f"a part's args must be among the composite's: {', '.join(outer.args)}")
    assumptions: dict[str, dict[str, bool]] = {}
    raw = mapping(d.get("assumptions", {}), where.at("assumptions"), args)
    for name, facts in raw.items():
        w = where.at("assumptions").at(name)
        mapping(facts, w, ASSUMPTIONS)
        assumptions[name] = {k: boolean(v, w.at(k)) for k, v in facts.items()}
    if outer is not None:
        for name in args:
            if name in outer.assumptions and assumptions.get(name, outer.assumptions[name]) != outer.assumptions[name]:
                raise where.at("assumptions").at(name).fail("differs from the composite's assumptions")
            assumptions.setdefault(name, outer.assumptions.get(name, {}))
    domain: dict[str, tuple[float, float]] = {}
    for name, rng in mapping(d.get("domain", {}), where.at("domain"), args).items():
        w = where.at("domain").at(name)
        lo, hi = (real(x, w.at(i)) for i, x in enumerate(array(rng, w, 2, 2)))
        if not lo < hi:
            raise w.fail("must be [low, high] with low < high")
        facts = assumptions.get(name, {})
        if (facts.get("positive") and lo <= 0) or (facts.get("nonnegative") and lo < 0) \
                or (facts.get("negative") and hi >= 0) or (facts.get("nonpositive") and hi > 0):
            raise w.fail("lies outside what the assumptions allow")
        if facts.get("integer") and math.floor(hi) - math.ceil(lo) < 2:
            raise w.fail("holds fewer than three integers to sample")
        domain[name] = (lo, hi)
    if outer is not None:
        domain = {**{k: v for k, v in outer.domain.items() if k in args}, **domain}
    functions = tuple(text(f, where.at("functions").at(i), 40)
                      for i, f in enumerate(array(d.get("functions", []), where.at("functions"), 0, 20)))
    values: dict[str, Any] = {}
    for name, v in mapping(d.get("values", {}), where.at("values"), args).items():
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise where.at("values").at(name).fail("must be a finite number")
        values[name] = v
    for i, f in enumerate(functions):
        if f not in args or f in values or assumptions.get(f) or f in domain:
            raise where.at("functions").at(i).fail(f"{f!r} must be an argument without assumptions, domain or value")
    if outer is not None:
        functions = tuple(f for f in outer.functions if f in args) + tuple(f for f in functions if f not in outer.functions)
        values = {**{k: v for k, v in outer.values.items() if k in args}, **values}
    return Symbols(tuple(args), {k: v for k, v in assumptions.items() if v}, domain, functions, values)


_SYMBOL_KEYS = ("args", "assumptions", "domain", "functions", "values")


def _expression(raw: Any, where: Where, symbols: Symbols) -> str:
    expr = text(raw, where, 4_000)
    if not _CHECKED[0]:
        return expr
    why = expression_problem(expr, set(symbols.symbol_names()), set(symbols.functions))
    if why:
        raise where.fail(why)
    return expr


def _symbolic(d: dict, where: Where, outer: Symbols | None) -> SymbolicAnswer:
    mapping(d, where, ("type", *_SYMBOL_KEYS, "expr", "rtol", "samples", "up_to_sign"), ("expr",))
    symbols = _symbols(d, where, outer)
    expr = _expression(d["expr"], where.at("expr"), symbols)
    rtol = real(d.get("rtol", DEFAULT_RTOL), where.at("rtol"), 0.0, 0.5, low_open=True)
    samples = integer(d.get("samples", DEFAULT_SAMPLES), where.at("samples"), 1, 50)
    return SymbolicAnswer(expr, symbols, rtol, samples, boolean(d.get("up_to_sign", False), where.at("up_to_sign")))


def _numeric(d: dict, where: Where, outer: Symbols | None) -> NumericAnswer:
    mapping(d, where, ("type", "value", "rtol", "atol", "up_to_sign"), ("value",))
    value = complex_number(d["value"], where.at("value"))
    rtol, atol = _tolerances(d, where)
    if value == 0 and atol == 0:
        raise where.at("atol").fail("a zero value needs an absolute tolerance")
    return NumericAnswer(value, rtol, atol, boolean(d.get("up_to_sign", False), where.at("up_to_sign")))


def _integer(d: dict, where: Where, outer: Symbols | None) -> IntegerAnswer:
    mapping(d, where, ("type", "value"), ("value",))
    return IntegerAnswer(integer(d["value"], where.at("value")))


def _boolean(d: dict, where: Where, outer: Symbols | None) -> BooleanAnswer:
    mapping(d, where, ("type", "value"), ("value",))
    return BooleanAnswer(boolean(d["value"], where.at("value")))


def _string(d: dict, where: Where, outer: Symbols | None) -> StringAnswer:
    mapping(d, where, ("type", "value", "aliases", "case_sensitive"), ("value",))
    value = text(d["value"], where.at("value"), 1_000)
    aliases = tuple(text(a, where.at("aliases").at(i), 1_000)
                    for i, a in enumerate(array(d.get("aliases", []), where.at("aliases"), 0, 50)))
    return StringAnswer(value, aliases, boolean(d.get("case_sensitive", False), where.at("case_sensitive")))


def _function(d: dict, where: Where, outer: Symbols | None) -> FunctionAnswer:
    from physbench.executor.static import check_source

    mapping(d, where, ("type", "reference", "tests", "rtol", "atol"), ("reference", "tests"))
    code = text(d["reference"], where.at("reference"), MAX_CODE_CHARS)
    problems = check_source(code, "scientific")
    if problems:
        raise where.at("reference").fail(f"the sandbox would refuse it: {problems[0]}")
    if not any(isinstance(n, ast.FunctionDef) and n.name == "answer" for n in ast.parse(code).body):
        raise where.at("reference").fail("defines no top-level function answer(...)")
    tests = array(d["tests"], where.at("tests"), 1, MAX_TESTS)
    for i, t in enumerate(tests):
        array(t, where.at("tests").at(i), 0, 20)
    rtol, atol = _tolerances(d, where)
    return FunctionAnswer(code, tuple(tuple(t) for t in tests), rtol, atol)


def _members(raws: list, where: Where, symbols: Symbols, what: str) -> list[Answer]:
    out = []
    for i, raw in enumerate(raws):
        part = parse_answer(raw, where.at(i), symbols)
        if isinstance(part, FunctionAnswer):
            raise where.at(i).fail(f"a function cannot be {what}")
        out.append(part)
    return out


def _outer(d: dict, where: Where, outer: Symbols | None) -> Symbols:
    return _symbols(d, where, outer) if ("args" in d or outer is None) else outer


def _composite(d: dict, where: Where, outer: Symbols | None) -> CompositeAnswer:
    mapping(d, where, ("type", "parts", *_SYMBOL_KEYS, "up_to_sign"), ("parts",))
    symbols = _outer(d, where, outer)
    parts = _members(array(d["parts"], where.at("parts"), 1, MAX_PARTS), where.at("parts"), symbols,
                     "one part of a composite answer")
    return CompositeAnswer(tuple(parts), symbols, boolean(d.get("up_to_sign", False), where.at("up_to_sign")))


def _dict(d: dict, where: Where, outer: Symbols | None) -> DictAnswer:
    mapping(d, where, ("type", "entries", *_SYMBOL_KEYS), ("entries",))
    symbols = _outer(d, where, outer)
    raw = d["entries"]
    if not isinstance(raw, dict) or not 1 <= len(raw) <= MAX_PARTS:
        raise where.at("entries").fail(f"must be an object of 1 to {MAX_PARTS} entries")
    entries = [(k, _members([v], where.at("entries").at(k), symbols, "a dict entry")[0]) for k, v in raw.items()]
    return DictAnswer(tuple(entries), symbols)


def _set(d: dict, where: Where, outer: Symbols | None) -> SetAnswer:
    if "items" in d:  # elements that are answers of their own: expressions, tuples, ...
        mapping(d, where, ("type", "items", "multiset", *_SYMBOL_KEYS), ("items",))
        symbols = _outer(d, where, outer)
        items = _members(array(d["items"], where.at("items"), 1, MAX_ELEMENTS), where.at("items"), symbols,
                         "a set element")
        return SetAnswer((), "answer", multiset=boolean(d.get("multiset", False), where.at("multiset")),
                         items=tuple(items), symbols=symbols)
    mapping(d, where, ("type", "elements", "element_type", "rtol", "atol", "multiset"), ("elements",))
    kind = d.get("element_type", "numeric")
    if kind not in SET_ELEMENT_TYPES:
        raise where.at("element_type").fail(f"must be one of {', '.join(SET_ELEMENT_TYPES)}")
    raw = array(d["elements"], where.at("elements"), 1, MAX_ELEMENTS)
    w = where.at("elements")
    if kind == "numeric":
        elements: list[Any] = [complex_number(e, w.at(i)) for i, e in enumerate(raw)]
    elif kind == "integer":
        elements = [integer(e, w.at(i)) for i, e in enumerate(raw)]
    else:
        elements = [text(e, w.at(i), 1_000) for i, e in enumerate(raw)]
    rtol, atol = _tolerances(d, where) if kind == "numeric" else (DEFAULT_RTOL, 0.0)
    multiset = boolean(d.get("multiset", False), where.at("multiset"))
    if not multiset:
        from physbench.suites.research.compare import numbers_close

        for i, a in enumerate(elements):
            for j in range(i):
                b = elements[j]
                same = numbers_close(a, b, rtol, atol) if kind == "numeric" else a == b
                if same:
                    raise w.at(i).fail(f"equals element {j} within the tolerance; a set holds distinct elements")
    return SetAnswer(tuple(elements), kind, rtol, atol, multiset)


def _interval(d: dict, where: Where, outer: Symbols | None) -> IntervalAnswer:
    mapping(d, where, ("type", "lower", "upper", "closed", "rtol", "atol", *_SYMBOL_KEYS), ("lower", "upper"))
    symbols = _outer(d, where, outer)

    def end(key: str) -> float | str | None:
        raw = d[key]
        if raw is None:
            return None
        return _expression(raw, where.at(key), symbols) if isinstance(raw, str) else real(raw, where.at(key))

    lower, upper = end("lower"), end("upper")
    if isinstance(lower, float) and isinstance(upper, float) and not lower < upper:
        raise where.at("upper").fail("must be greater than lower")
    closed = None
    if "closed" in d:
        flags = array(d["closed"], where.at("closed"), 2, 2)
        closed = (boolean(flags[0], where.at("closed").at(0)), boolean(flags[1], where.at("closed").at(1)))
        if (lower is None and closed[0]) or (upper is None and closed[1]):
            raise where.at("closed").fail("an infinite end cannot be closed")
    rtol, atol = _tolerances(d, where)
    if 0.0 in (lower, upper) and atol == 0:
        raise where.at("atol").fail("a zero endpoint needs an absolute tolerance")
    return IntervalAnswer(lower, upper, closed, rtol, atol, symbols)


_PARSERS = {"symbolic": _symbolic, "numeric": _numeric, "integer": _integer, "boolean": _boolean,
            "string": _string, "function": _function, "composite": _composite, "set": _set,
            "dict": _dict, "interval": _interval}
