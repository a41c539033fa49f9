"""A parser for sympy's string input that builds expressions without eval or compile.

sympy's own `parse_expr` turns text into Python source and evals it, so `sympify("...")` (and
every sympy function that accepts strings) is a way to run arbitrary code. In the sandbox it is
replaced by this one: the text is split by the standard tokenizer (regular expressions, no
compile) and a small precedence-climbing parser builds only numbers, names, + - * / // % ** ^,
unary signs, calls of public sympy functions with positional arguments, tuples and lists. Names
that are not sympy's become Symbols, as in sympy ("yotta" -> Symbol('yotta')).
"""

from __future__ import annotations

import io
import operator
import tokenize
from typing import Any, Callable

MAX_CHARS = 4_000
MAX_DEPTH = 60

_BINARY: dict[str, tuple[int, Callable[[Any, Any], Any]]] = {
    "+": (1, operator.add), "-": (1, operator.sub), "*": (2, operator.mul), "/": (2, operator.truediv),
    "//": (2, operator.floordiv), "%": (2, operator.mod),
}
_POW = 4  # binds tighter than unary minus on its left: -x**2 is -(x**2)


def install(denied: frozenset[str]) -> None:
    """Replace sympy.parsing.sympy_parser.parse_expr (sympify imports it at every call)."""
    import sympy
    from sympy.parsing import sympy_parser

    from physbench.executor.proxies import dangerous

    # the names `import sympy` offers a program, no more (no metaclasses such as FunctionClass)
    namespace = {k: v for k, v in vars(sympy).items()
                 if not k.startswith("_") and k not in denied and not isinstance(v, type(sympy))
                 and not dangerous(v)}

    def parse_expr(s: Any, local_dict: dict | None = None, transformations: Any = None,
                   global_dict: dict | None = None, evaluate: Any = True) -> Any:
        if not isinstance(s, str):
            raise TypeError("parse_expr needs a string")
        if len(s) > MAX_CHARS:
            raise ValueError(f"expression text longer than {MAX_CHARS} characters")
        return _Parser(sympy, namespace, dict(local_dict or {}), s.replace("^", "**")).parse()

    sympy_parser.parse_expr = parse_expr


class _Parser:
    def __init__(self, sympy: Any, namespace: dict[str, Any], local: dict[str, Any], text: str) -> None:
        self.sp, self.namespace, self.local = sympy, namespace, local
        try:
            toks = [t for t in tokenize.generate_tokens(io.StringIO(text.strip()).readline)
                    if t.type not in (tokenize.NEWLINE, tokenize.NL, tokenize.ENDMARKER, tokenize.INDENT,
                                      tokenize.DEDENT)]
        except (tokenize.TokenError, IndentationError, SyntaxError) as exc:
            raise ValueError(f"cannot parse expression text: {exc}") from None
        self.toks = [(t.type, t.string) for t in toks]
        self.i = 0

    def parse(self) -> Any:
        if not self.toks:
            raise ValueError("empty expression text")
        value = self.sequence(0, end=None)
        if self.i != len(self.toks):
            raise ValueError(f"unexpected {self.toks[self.i][1]!r} in expression text")
        return value

    def peek(self) -> str | None:
        return self.toks[self.i][1] if self.i < len(self.toks) else None

    def take(self, want: str | None = None) -> tuple[int, str]:
        if self.i >= len(self.toks):
            raise ValueError("expression text ends too early")
        tok = self.toks[self.i]
        if want is not None and tok[1] != want:
            raise ValueError(f"expected {want!r}, found {tok[1]!r} in expression text")
        self.i += 1
        return tok

    def sequence(self, depth: int, end: str | None) -> Any:
        """expr (',' expr)* ; a trailing comma or several items make a tuple."""
        items = [self.expr(0, depth)]
        tuple_form = False
        while self.peek() == ",":
            self.take(",")
            tuple_form = True
            if self.peek() == end:
                break
            items.append(self.expr(0, depth))
        return tuple(items) if tuple_form else items[0]

    def expr(self, min_prec: int, depth: int) -> Any:
        if depth > MAX_DEPTH:
            raise ValueError("expression text is nested too deeply")
        left = self.unary(depth + 1)
        while True:
            op = self.peek()
            if op not in _BINARY or _BINARY[op][0] < min_prec:
                return left
            prec, fn = _BINARY[op]
            self.take()
            left = fn(left, self.expr(prec + 1, depth + 1))

    def unary(self, depth: int) -> Any:
        if depth > MAX_DEPTH:
            raise ValueError("expression text is nested too deeply")
        op = self.peek()
        if op in ("-", "+"):
            self.take()
            operand = self.expr(3, depth + 1)
            return -operand if op == "-" else +operand
        base = self.atom(depth + 1)
        if self.peek() == "**":  # right-associative; the exponent may carry its own sign
            self.take()
            return base ** self.unary(depth + 1)
        return base

    def atom(self, depth: int) -> Any:
        kind, text = self.take()
        sp = self.sp
        if kind == tokenize.NUMBER:
            value = _number(text)
            if isinstance(value, complex):
                return sp.Float(value.imag) * sp.I
            return sp.Integer(value) if isinstance(value, int) else sp.Float(text)
        if kind == tokenize.NAME:
            if self.peek() == "(":
                func = self.name(text)
                if not callable(func) or isinstance(func, sp.Symbol):
                    raise ValueError(f"{text!r} is not a sympy function")
                self.take("(")
                args: list[Any] = []
                while self.peek() != ")":
                    args.append(self.expr(0, depth + 1))
                    if self.peek() != ")":
                        self.take(",")
                self.take(")")
                return func(*args)
            return self.name(text)
        if text in ("(", "["):
            close = ")" if text == "(" else "]"
            if self.peek() == close:
                self.take(close)
                return () if close == ")" else []
            value = self.sequence(depth + 1, end=close)
            self.take(close)
            if close == "]":
                return list(value) if isinstance(value, tuple) else [value]
            return value
        raise ValueError(f"{text!r} is not allowed in expression text")

    def name(self, ident: str) -> Any:
        if ident.startswith("_"):
            raise ValueError("names starting with an underscore are not allowed in expression text")
        if ident in ("True", "False", "None"):
            return self.sp.sympify({"True": True, "False": False, "None": None}[ident])
        if ident in self.local:
            return self.local[ident]
        if ident in self.namespace:
            return self.namespace[ident]
        return self.sp.Symbol(ident)


def _number(text: str) -> int | float | complex:
    """A numeric literal's value without eval (underscores allowed as in Python)."""
    t = text.replace("_", "").lower()
    if t.endswith("j"):
        return complex(0, float(t[:-1]))
    if t.startswith(("0x", "0o", "0b")):
        return int(t, 0)
    if any(c in t for c in ".e"):
        return float(t)
    return int(t)
