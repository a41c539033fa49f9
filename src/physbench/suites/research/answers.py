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
from typing import Any

from physbench.suites.research.answer_types import (ANSWER_TYPES, DEFAULT_RTOL, DEFAULT_SAMPLES, MAX_CODE_CHARS,
                                                    MAX_ELEMENTS, MAX_PARTS, MAX_TESTS, SET_ELEMENT_TYPES, Answer,
                                                    BooleanAnswer, CompositeAnswer, DictAnswer, FunctionAnswer,
                                                    IntegerAnswer, IntervalAnswer, NumericAnswer, SetAnswer,
                                                    StringAnswer, SymbolicAnswer)
from physbench.suites.research.exprtext import expression_problem
from physbench.suites.research.schema import (Where, array, boolean, complex_number, integer, mapping,
                                              real, text)
from physbench.suites.research.symbols import Symbols, parse_symbols

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
    symbols = parse_symbols(d, where, outer)
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
    return parse_symbols(d, where, outer) if ("args" in d or outer is None) else outer


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
