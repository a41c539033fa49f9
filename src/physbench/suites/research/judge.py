"""Compare a returned value with a step's ANSWER, where no model code runs (issue 33).

The value is inert data from the sandbox (numbers, strings, tuples, lists, sets, dicts and the
`srepr` text of SymPy objects, values.SymPyText). Plain values are compared in the grading
process itself (`verdict(..., sympy=False)`); when SymPy is needed (an expression to rebuild, a
symbolic answer), the grader sends the same call to the executor's judge process instead
(judges.py: `judge`), a fresh fork with the sandbox's limits in which no program ever ran. There
the text is rebuilt by srepr.py and compared: structure, then numeric sampling at 30 digits
(integer arguments at every integer of a small domain, else its ends, 0 and +-1 plus random
ones), then `simplify` only when no sample point could be evaluated. Undefined-function arguments
are replaced by fixed smooth functions for sampling.
"""

from __future__ import annotations

import random
from typing import Any

from physbench.executor.values import SymPyText
from physbench.suites.research.answer_types import (Answer, BooleanAnswer, CompositeAnswer, DictAnswer, IntegerAnswer,
                                                    IntervalAnswer, NumericAnswer, SetAnswer, StringAnswer,
                                                    SymbolicAnswer)
from physbench.suites.research.answers import rebuild
from physbench.suites.research.compare import numbers_close, strings_match
from physbench.suites.research.sampling import evaluate, perfect_matching, sample_points, stand_ins
from physbench.suites.research.srepr import NotExpression, parse_srepr  # here: the judge's process reads no source
from physbench.suites.research.symbols import Symbols

MAX_OPS = 5_000          # cap on a returned expression's size before it is compared
MAX_SET_ITEMS = 1_000
EXTRA_POINTS = 2         # sample points drawn afresh for each comparison


class NeedsSympy(Exception):
    """Raised by a plain comparison that cannot go on without SymPy (then the judge decides)."""


def judge(kind: str, *args: Any) -> dict[str, Any]:
    """Entry point in the judge process: ("answer", answer_json, value, seed) or
    ("trees", got, expected, rtol, atol) -> {"verdict": correct|wrong|bad_kind, "why": ...}."""
    if kind == "answer":
        answer_json, value, seed = args
        answer = rebuild(answer_json)
        return verdict(answer, value, int(seed), sympy=True)
    if kind == "trees":
        got, expected, rtol, atol = args
        return trees_verdict(got, expected, float(rtol), float(atol), sympy=True)
    raise ValueError(f"unknown judge call {kind!r}")


def judge_batch(calls: Any) -> list[dict[str, Any]]:
    """Several judge calls in one process (one fork for a batch of replies); a call that raises
    comes back as {"retry": ...}, for the grader to run alone and report faithfully."""
    out = []
    for call in calls:
        try:
            out.append(judge(*call))
        except MemoryError:
            raise
        except Exception as exc:
            out.append({"retry": f"{type(exc).__name__}: {str(exc)[:200]}"})
    return out


def verdict(answer: Answer, value: Any, seed: int = 0, sympy: bool = False) -> dict[str, Any]:
    """The verdict of `value` for `answer`; with sympy=False raises NeedsSympy when SymPy is needed."""
    try:
        return _result(_Matcher(sympy, seed).match(answer, value, answer_symbols(answer)))
    except NotExpression as exc:
        return _result(_bad(f"returned SymPy object not accepted: {exc}"))


def trees_verdict(got: Any, expected: Any, rtol: float, atol: float, sympy: bool = False) -> dict[str, Any]:
    """Function answers: the returned tree equals the reference's, numbers within tolerance."""
    try:
        return _result(_Matcher(sympy, 0).trees(got, expected, rtol, atol))
    except NotExpression as exc:
        return _result(_bad(f"returned SymPy object not accepted: {exc}"))


def answer_symbols(answer: Answer) -> Symbols:
    return getattr(answer, "symbols", None) or Symbols()


def _result(out: tuple[str, str]) -> dict[str, Any]:
    return {"verdict": out[0], "why": out[1][:300]} if out[1] else {"verdict": out[0]}


OK = ("correct", "")


def _bad(why: str) -> tuple[str, str]:
    return ("bad_kind", why)


def _wrong(why: str) -> tuple[str, str]:
    return ("wrong", why)


class _Matcher:
    def __init__(self, sympy: bool, seed: int) -> None:
        self.sympy = sympy
        self.seed = seed
        self.sp: Any = None
        self.tables: dict[int, dict[str, Any]] = {}

    # ---- values ------------------------------------------------------------------------------
    def need(self) -> Any:
        if not self.sympy:
            raise NeedsSympy()
        if self.sp is None:
            import sympy
            self.sp = sympy
        return self.sp

    def table(self, symbols: Symbols) -> dict[str, Any]:
        key = id(symbols)
        if key not in self.tables:
            sp = self.need()
            t: dict[str, Any] = {}
            for name in symbols.args:
                if name in symbols.functions:
                    t[name] = sp.Function(name)
                elif name not in symbols.values:
                    t[name] = sp.Symbol(name, **symbols.assumptions.get(name, {}))
            self.tables[key] = t
        return self.tables[key]

    def native(self, v: Any, symbols: Symbols) -> Any:
        """SymPy text rebuilt and unwrapped: Tuple -> tuple, FiniteSet -> frozenset, Matrix ->
        list of rows, Integer -> int, booleans -> bool; other objects stay SymPy."""
        if not isinstance(v, SymPyText):
            return v
        self.need()
        return self.unwrap(parse_srepr(str(v), self.table(symbols)))

    def unwrap(self, obj: Any) -> Any:
        sp = self.sp
        if obj is sp.true or obj is sp.false:
            return bool(obj)
        if isinstance(obj, sp.Integer):
            return int(obj)
        if isinstance(obj, (sp.Tuple, tuple, list)):
            return tuple(self.unwrap(x) for x in obj)
        if isinstance(obj, sp.FiniteSet):
            return frozenset(self.unwrap(x) for x in obj.args)
        if isinstance(obj, sp.MatrixBase):
            return [[self.unwrap(obj[i, j]) for j in range(obj.cols)] for i in range(obj.rows)]
        return obj

    def number(self, v: Any) -> complex | float | int | None:
        """A real or complex number, or None (SymPy numbers evaluated at 30 digits)."""
        if isinstance(v, bool):
            return None
        if isinstance(v, (int, float, complex)):
            return v
        if isinstance(v, SymPyText):
            v = self.native(v, Symbols())
            if not self.is_expr(v):
                return self.number(v)
        if self.is_expr(v) and v.is_number and self.count(v) <= MAX_OPS:
            try:
                z = complex(self.sp.N(v, 30))
            except (TypeError, ValueError, OverflowError, ZeroDivisionError):
                return None
            return z.real if z.imag == 0 else z
        return None

    def is_expr(self, v: Any) -> bool:
        return self.sp is not None and isinstance(v, self.sp.Expr)

    def count(self, e: Any) -> int:
        return int(self.sp.count_ops(e, visual=False)) if len(str(e)) < 200_000 else MAX_OPS + 1

    # ---- answers -----------------------------------------------------------------------------
    def match(self, a: Answer, v: Any, symbols: Symbols) -> tuple[str, str]:
        if isinstance(v, SymPyText) and not isinstance(a, StringAnswer):
            v = self.native(v, answer_symbols(a) if getattr(a, "symbols", None) is not None else symbols)
        if isinstance(a, NumericAnswer):
            return self.numeric(a, v)
        if isinstance(a, IntegerAnswer):
            if isinstance(v, bool) or not isinstance(v, int):
                return _bad(f"expected an integer, got {type(v).__name__}")
            return OK if v == a.value else _wrong("a different integer")
        if isinstance(a, BooleanAnswer):
            if not isinstance(v, bool):
                return _bad(f"expected a boolean, got {type(v).__name__}")
            return OK if v == a.value else _wrong("the other boolean")
        if isinstance(a, StringAnswer):
            if self.sp is not None and isinstance(v, self.sp.Symbol):  # sp.Tuple('Yes', ...) made it a Symbol
                v = str(v.name)
            if not isinstance(v, str) or isinstance(v, SymPyText):
                return _bad(f"expected a string, got {type(v).__name__}")
            ok = any(strings_match(v, s, a.case_sensitive) for s in (a.value, *a.aliases))
            return OK if ok else _wrong("a different string")
        if isinstance(a, SymbolicAnswer):
            return self.symbolic(a, v)
        if isinstance(a, CompositeAnswer):
            return self.composite(a, v)
        if isinstance(a, SetAnswer):
            return self.set(a, v)
        if isinstance(a, DictAnswer):
            return self.dict(a, v)
        if isinstance(a, IntervalAnswer):
            return self.interval(a, v)
        return _bad(f"answer type {a.type} is not compared here")

    def numeric(self, a: NumericAnswer, v: Any, sign: int = 1) -> tuple[str, str]:
        x = self.number(v)
        if x is None:
            return _bad(f"expected a number, got {type(v).__name__}")
        if numbers_close(sign * x, a.value, a.rtol, a.atol) or (a.up_to_sign and numbers_close(-sign * x, a.value,
                                                                                                a.rtol, a.atol)):
            return OK
        return _wrong(f"{x!r} is not within the tolerance")

    def composite(self, a: CompositeAnswer, v: Any) -> tuple[str, str]:
        if isinstance(v, (dict, str, frozenset)) or not isinstance(v, (list, tuple)):
            return _bad(f"expected a sequence of {len(a.parts)}, got {type(v).__name__}")
        if len(v) != len(a.parts):
            return _wrong(f"{len(v)} parts instead of {len(a.parts)}")
        first = ("wrong", "")
        for sign in ((1, -1) if a.up_to_sign else (1,)):
            results = [self.part(p, x, a.symbols, sign) for p, x in zip(a.parts, v)]
            bad = next((r for r in results if r[0] != "correct"), None)
            if bad is None:
                return OK
            if sign == 1:
                first = bad
        return first

    def part(self, a: Answer, v: Any, symbols: Symbols, sign: int) -> tuple[str, str]:
        if sign == 1:
            return self.match(a, v, symbols)
        if isinstance(v, SymPyText):
            v = self.native(v, symbols)
        if isinstance(a, NumericAnswer):
            return self.numeric(a, v, -1)
        if isinstance(a, IntegerAnswer) and isinstance(v, int) and not isinstance(v, bool):
            return self.match(a, -v, symbols)
        if isinstance(a, SymbolicAnswer):
            return self.symbolic(a, v, -1)
        return self.match(a, v, symbols)

    def set(self, a: SetAnswer, v: Any) -> tuple[str, str]:
        if isinstance(v, str) or not isinstance(v, (list, tuple, frozenset, set)):
            return _bad(f"expected a set, got {type(v).__name__}")
        items = list(v)[:MAX_SET_ITEMS + 1]
        if len(items) > MAX_SET_ITEMS:
            return _wrong("too many elements")
        expected = list(a.items) if a.element_type == "answer" else [_element(a, e) for e in a.elements]
        symbols = a.symbols

        hits: list[set[int]] = []
        for x in items:  # every element must equal some expected one; stop at the first that does not
            h = {j for j, e in enumerate(expected) if self.match(e, x, symbols)[0] == "correct"}
            if not h:
                return _wrong(f"{str(x)[:60]} is none of the expected elements")
            hits.append(h)
        if not a.multiset:  # merge duplicates: values equal to the same expected element count once
            kept: list[set[int]] = []
            for h in hits:
                if not any(h & k for k in kept):
                    kept.append(h)
            hits = kept
        if len(hits) != len(expected):
            return _wrong(f"{len(hits)} distinct elements instead of {len(expected)}")
        return OK if perfect_matching([sorted(h) for h in hits], len(expected)) else _wrong("the elements differ")

    def dict(self, a: DictAnswer, v: Any) -> tuple[str, str]:
        if not isinstance(v, dict):
            return _bad(f"expected a dict, got {type(v).__name__}")
        keyed: dict[str, Any] = {}
        for k, x in v.items():
            name = self.key(k, a.symbols)
            if name is None or name in keyed:
                return _wrong(f"key {str(k)[:40]!r} is not one of the expected keys")
            keyed[name] = x
        want = dict(a.entries)
        if set(keyed) != set(want):
            return _wrong(f"keys {sorted(keyed)[:10]} instead of {sorted(want)[:10]}")
        for k, sub in a.entries:
            r = self.match(sub, keyed[k], a.symbols)
            if r[0] != "correct":
                return (r[0], f"entry {k!r}: {r[1]}")
        return OK

    def key(self, k: Any, symbols: Symbols) -> str | None:
        if isinstance(k, SymPyText):
            k = self.native(k, symbols)
            return str(k.name) if self.sp is not None and isinstance(k, (self.sp.Symbol, self.sp.Function)) \
                else (str(k) if isinstance(k, int) else None)
        if isinstance(k, str):
            return k
        if isinstance(k, int) and not isinstance(k, bool):
            return str(k)
        return None

    def interval(self, a: IntervalAnswer, v: Any) -> tuple[str, str]:
        closed: tuple[bool, bool] | None = None
        if self.sp is not None and isinstance(v, self.sp.Interval):
            lo, hi, closed = v.start, v.end, (not v.left_open, not v.right_open)
        elif isinstance(v, (list, tuple)) and len(v) in (2, 4):
            lo, hi = v[0], v[1]
            if len(v) == 4:
                if not all(isinstance(c, bool) for c in v[2:]):
                    return _bad("interval openness must be booleans")
                closed = (v[2], v[3])
        else:
            return _bad(f"expected an interval, got {type(v).__name__}")
        for want, got, side in ((a.lower, lo, "lower"), (a.upper, hi, "upper")):
            r = self.endpoint(a, want, got)
            if r[0] != "correct":
                return (r[0], f"{side} end: {r[1]}")
        if a.closed is not None and closed is not None and closed != a.closed:
            return _wrong("the openness of an end differs")
        if a.closed is not None and closed is None:
            return _bad("the interval does not say which ends are open")
        return OK

    def endpoint(self, a: IntervalAnswer, want: Any, got: Any) -> tuple[str, str]:
        if want is None:
            if got is None or (isinstance(got, float) and got in (float("inf"), float("-inf"))):
                return OK
            if self.is_expr(got) and got in (self.sp.oo, -self.sp.oo):
                return OK
            return _wrong("expected an infinite end")
        if isinstance(want, str):
            return self.symbolic(SymbolicAnswer(want, a.symbols, a.rtol), got)
        return self.numeric(NumericAnswer(want, a.rtol, a.atol), got)

    def symbolic(self, a: SymbolicAnswer, v: Any, sign: int = 1) -> tuple[str, str]:
        sp = self.need()
        if isinstance(v, SymPyText):
            v = self.native(v, a.symbols)
        if isinstance(v, bool) or not isinstance(v, (int, float)) and not isinstance(v, sp.Expr):
            return _bad(f"expected a SymPy expression, got {type(v).__name__}")
        got = sp.nsimplify(v) if isinstance(v, float) else sp.sympify(v)
        if self.count(got) > MAX_OPS:
            return _wrong("expression too large")
        table = self.table(a.symbols)
        ref = sp.sympify(a.expr.replace("^", "**"), locals=dict(table))
        allowed = {s for s in table.values() if isinstance(s, sp.Symbol)}
        extra = got.free_symbols - allowed
        if extra:
            return _wrong("unknown symbols " + ", ".join(sorted(str(s) for s in extra))[:200])
        signs = (sign, -sign) if a.up_to_sign else (sign,)
        first = ("wrong", "")
        for s in signs:
            r = self.equal(got if s == 1 else -got, ref, a)
            if r[0] == "correct":
                return r
            if s == sign:
                first = r
        return first

    def equal(self, got: Any, ref: Any, a: SymbolicAnswer) -> tuple[str, str]:
        sp = self.sp
        if got == ref:
            return OK
        got_n, ref_n = stand_ins(sp, got, a.symbols), stand_ins(sp, ref, a.symbols)
        valid = 0
        # the seeded points make a verdict reproducible; two more from the OS make it unguessable
        # (an answer built to vanish at the published points still differs at these)
        points = sample_points(a.symbols, a.samples, self.seed) + \
            sample_points(a.symbols, EXTRA_POINTS, random.SystemRandom().randrange(2**62), specials=False)
        for point in points:
            subs = {self.table(a.symbols)[n]: sp.Rational(x) for n, x in point.items()}
            x, y = evaluate(sp, got_n, subs), evaluate(sp, ref_n, subs)
            if x is None and y is None:
                continue
            if x is None or y is None or abs(x - y) > a.rtol * max(abs(y), 1e-300):
                return _wrong("differs at " + ", ".join(f"{k}={v}" for k, v in point.items()))
            valid += 1
        if valid:
            return OK
        try:
            return OK if sp.simplify(got - ref) == 0 else _wrong("no sample point could be evaluated and "
                                                                 "simplify does not show equality")
        except (TypeError, ValueError, RecursionError):
            return _wrong("cannot be compared")

    def trees(self, got: Any, ref: Any, rtol: float, atol: float) -> tuple[str, str]:
        got, ref = self.native(got, Symbols()), self.native(ref, Symbols())
        if isinstance(ref, (list, tuple)):
            if not isinstance(got, (list, tuple)):
                return _bad(f"expected a sequence, got {type(got).__name__}")
            if len(got) != len(ref):
                return _wrong(f"{len(got)} items instead of {len(ref)}")
            for g, r in zip(got, ref):
                o = self.trees(g, r, rtol, atol)
                if o[0] != "correct":
                    return o
            return OK
        if isinstance(ref, (bool, str)) or ref is None:
            if got == ref and type(got) is type(ref):
                return OK
            return _wrong("differs") if type(got) is type(ref) else _bad(f"expected {type(ref).__name__}")
        x, y = self.number(got), self.number(ref)
        if y is None:
            return _bad("the reference is not a number")
        if x is None:
            return _bad(f"expected a number, got {type(got).__name__}")
        return OK if numbers_close(x, y, rtol, atol) else _wrong(f"{x!r} is not within the tolerance")


def _element(a: SetAnswer, e: Any) -> Answer:
    if a.element_type == "numeric":
        return NumericAnswer(e, a.rtol, a.atol)
    return IntegerAnswer(e) if a.element_type == "integer" else StringAnswer(e)
