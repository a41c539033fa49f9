"""Exact evaluation of a checked Formulate-Solve tree (seed 003, Appendix A.1): fractions, bounded.

`tree.py` parses and checks the model's reply; this module walks the checked tree. Every failure is
an `Abstain` carrying one of `tree.ABSTAIN_REASONS`; see `tree.py` for the exactness rule.
"""

from __future__ import annotations

import decimal
import math
import re
import time
from fractions import Fraction
from typing import Any

MAX_BITS = 16_384         # numerator plus denominator bits of any value met during evaluation
DIGITS = 50               # significant digits of an operation whose result is irrational


class Abstain(Exception):
    """Why the arm abstains on this reply: a reason from ABSTAIN_REASONS and a detail."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(detail)
        self.reason, self.detail = reason, detail


def is_number(x: Any) -> bool:
    return isinstance(x, (int, float, Fraction, decimal.Decimal)) and not isinstance(x, bool)


def constant(x: Any) -> Fraction:
    if isinstance(x, float):
        if not math.isfinite(x):
            raise Abstain("invalid_tree", f"{x} is not a finite number")
        x = repr(x)                        # the decimal the float was written as, not its binary expansion
    elif isinstance(x, decimal.Decimal) and not x.is_finite():
        raise Abstain("invalid_tree", f"{x} is not a finite number")
    return bounded(Fraction(x))


def context() -> decimal.Context:
    return decimal.Context(prec=DIGITS, Emax=999, Emin=-999, rounding=decimal.ROUND_HALF_EVEN,
                           traps=[decimal.InvalidOperation, decimal.DivisionByZero, decimal.Overflow])


def bounded(x: Fraction) -> Fraction:
    if x.numerator.bit_length() + x.denominator.bit_length() > MAX_BITS:
        raise Abstain("too_large", "a value during evaluation is larger or finer than the evaluator's bound")
    return x


def _fail(detail: str) -> Abstain:
    return Abstain("evaluation_error", detail)


class Walker:
    """Evaluates a checked tree; `exact` turns False once an irrational result has been rounded."""

    def __init__(self, values: dict[str, Fraction], deadline: float) -> None:
        self.values, self.deadline, self.exact = values, deadline, True

    def eval(self, node: Any) -> Fraction:
        if time.monotonic() > self.deadline:
            raise Abstain("timeout", "evaluation took longer than the time limit")
        if is_number(node):
            return constant(node)
        if "var" in node:
            return self.values[node["var"]]
        op, args = node["op"], node["args"]
        if op == "if":
            return self.eval(args[1] if self.eval(args[0]) != 0 else args[2])
        if op == "and":
            return Fraction(int(all(self.eval(a) != 0 for a in args)))
        if op == "or":
            return Fraction(int(any(self.eval(a) != 0 for a in args)))
        return self.bound(self.apply(op, [self.eval(a) for a in args]))

    def bound(self, x: Fraction) -> Fraction:
        """Exact values stay under MAX_BITS or the tree abstains; a value already inexact is cut to DIGITS instead."""
        if self.exact or x.numerator.bit_length() + x.denominator.bit_length() <= MAX_BITS:
            return bounded(x)
        try:
            return bounded(Fraction(_decimal(x)))
        except decimal.DecimalException:
            raise Abstain("too_large", "a value during evaluation is outside the evaluator's range") from None

    def apply(self, op: str, x: list[Fraction]) -> Fraction:
        if op in ("+", "*"):                      # bounded after every step, not only at the end
            total = x[0]
            for term in x[1:]:
                total = self.bound(total + term if op == "+" else total * term)
            return total
        if op in _SIMPLE:
            return _SIMPLE[op](x)
        if op == "pow":
            return self.power(x[0], x[1])
        if op == "sqrt":
            return self.power(x[0], Fraction(1, 2))
        if op == "exp":
            return Fraction(1) if x[0] == 0 else self.rounded(decimal.getcontext().exp, x[0], "exp")
        if op in ("ln", "log", "log10"):
            return self.log(x[0], op)
        raise Abstain("invalid_tree", f"unknown operator {op!r}")   # unreachable: _check refuses it

    def power(self, base: Fraction, exponent: Fraction) -> Fraction:
        if exponent.denominator == 1:
            e = exponent.numerator
            if base == 0 and e < 0:
                raise _fail("zero raised to a negative power")
            if abs(base) != 1 and base != 0:
                size = max(base.numerator.bit_length(), base.denominator.bit_length())
                if size * abs(e) > MAX_BITS:
                    raise Abstain("too_large", "a power whose exact value exceeds the evaluator's bound")
            return base ** e
        if base < 0:
            raise _fail("a negative number raised to a fractional power")
        if base == 0:
            if exponent < 0:
                raise _fail("zero raised to a negative power")
            return Fraction(0)
        root = _exact_root(base, exponent.denominator)
        if root is not None:
            return self.power(root, Fraction(exponent.numerator))
        return self.rounded(lambda b: decimal.getcontext().power(b, _decimal(exponent)), base, "pow")

    def log(self, x: Fraction, op: str) -> Fraction:
        if x <= 0:
            raise _fail(f"{op} of a number that is not positive")
        if x == 1:
            return Fraction(0)
        if op == "log10":
            for whole in (x, 1 / x):                  # exact for a whole power of ten
                if whole.denominator == 1 and re.fullmatch(r"10*", str(whole.numerator)):
                    k = len(str(whole.numerator)) - 1
                    return Fraction(k if whole == x else -k)
        ctx = decimal.getcontext()
        return self.rounded(ctx.log10 if op == "log10" else ctx.ln, x, op)

    def rounded(self, fn: Any, x: Fraction, op: str) -> Fraction:
        """An irrational result to DIGITS significant digits; the tree's value is no longer exact."""
        try:
            result = fn(_decimal(x))
        except decimal.Overflow:
            raise _fail(f"{op} overflows the evaluator's range") from None
        except decimal.DecimalException as exc:
            raise _fail(f"{op} failed: {type(exc).__name__}") from None
        self.exact = False
        return Fraction(result)


def _divide(x: list[Fraction]) -> Fraction:
    if x[1] == 0:
        raise _fail("division by zero")
    return x[0] / x[1]


_SIMPLE: dict[str, Any] = {   # exact operations on the evaluated arguments
    "-": lambda x: -x[0] if len(x) == 1 else x[0] - x[1], "/": _divide,
    "min": min, "max": max, "abs": lambda x: abs(x[0]),
    "floor": lambda x: Fraction(math.floor(x[0])), "ceil": lambda x: Fraction(math.ceil(x[0])),
    "round": lambda x: _round(x[0], x[1] if len(x) == 2 else Fraction(0)),
    "not": lambda x: Fraction(int(x[0] == 0)),
    "<": lambda x: Fraction(int(x[0] < x[1])), "<=": lambda x: Fraction(int(x[0] <= x[1])),
    ">": lambda x: Fraction(int(x[0] > x[1])), ">=": lambda x: Fraction(int(x[0] >= x[1])),
    "==": lambda x: Fraction(int(x[0] == x[1])), "!=": lambda x: Fraction(int(x[0] != x[1])),
}


def _decimal(x: Fraction) -> decimal.Decimal:
    ctx = decimal.getcontext()
    return ctx.divide(decimal.Decimal(x.numerator), decimal.Decimal(x.denominator))


def _round(x: Fraction, digits: Fraction) -> Fraction:
    """Round half away from zero to `digits` decimal places (a whole number in [-12, 12])."""
    if digits.denominator != 1 or abs(digits) > 12:
        raise _fail("round takes a whole number of decimal places between -12 and 12")
    scale = Fraction(10) ** int(digits)
    scaled = abs(x) * scale
    whole = math.floor(scaled + Fraction(1, 2))
    return (whole if x >= 0 else -whole) / scale


def _exact_root(x: Fraction, n: int) -> Fraction | None:
    """The rational n-th root of a positive x when there is one (n at most 64), else None."""
    if n > 64:
        return None
    roots = [_int_root(part, n) for part in (x.numerator, x.denominator)]
    if any(r is None for r in roots):
        return None
    return Fraction(roots[0], roots[1])  # type: ignore[arg-type]


def _int_root(value: int, n: int) -> int | None:
    """Exact integer n-th root of value >= 1, or None (Newton's method on integers)."""
    guess = 1 << -(-value.bit_length() // n)      # at least the root
    while True:
        better = ((n - 1) * guess + value // guess ** (n - 1)) // n
        if better >= guess:
            break
        guess = better
    return guess if guess**n == value else None
