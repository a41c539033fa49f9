"""Rebuild a SymPy object from the `srepr` text a program returned, without eval or compile.

The text is split by the standard tokenizer and read by a small recursive parser: calls of the
node classes and functions in `sympy_names.SREPR_CALLS` (plus `Function('f')(...)`), the bare
constants in `CONSTANTS`, integer and string literals where srepr prints them, lists, tuples and
the keyword arguments in `SREPR_KEYWORDS`. Anything else is refused with a reason. A Symbol whose
name is one of the step's arguments becomes that argument (the model's own assumptions on it are
dropped), and `Function('tr')` an argument function of that name. Text, depth and node count are
capped before anything is built. Runs in the judge's process (judges.py), never beside a program.
"""

from __future__ import annotations

import io
import tokenize
from typing import Any

from physbench.suites.research.sympy_names import CONSTANTS, SREPR_CALLS, SREPR_KEYWORDS

MAX_CHARS = 200_000
MAX_DEPTH = 80
MAX_NODES = 20_000
_STRING_ARG = frozenset({"Symbol", "Dummy", "Function", "Float"})  # srepr quotes only their first argument


class NotExpression(ValueError):
    """The text is not an srepr the grader accepts; the message says why."""


def parse_srepr(text: str, table: dict[str, Any]) -> Any:
    """The SymPy object `text` stands for; `table` maps argument names to their symbols/functions."""
    if not isinstance(text, str) or len(text) > MAX_CHARS:
        raise NotExpression(f"expression text is longer than {MAX_CHARS} characters")
    try:
        toks = [(t.type, t.string) for t in tokenize.generate_tokens(io.StringIO(text.strip()).readline)
                if t.type not in (tokenize.NEWLINE, tokenize.NL, tokenize.ENDMARKER, tokenize.INDENT,
                                  tokenize.DEDENT)]
    except (tokenize.TokenError, IndentationError, SyntaxError) as exc:
        raise NotExpression(f"cannot read expression text: {exc}") from None
    if len(toks) > 6 * MAX_NODES:
        raise NotExpression("expression text has too many parts")
    reader = _Reader(toks, table)
    value = reader.value(0)
    if reader.i != len(toks):
        raise NotExpression(f"unexpected {toks[reader.i][1]!r} in expression text")
    return value


class _Reader:
    def __init__(self, toks: list[tuple[int, str]], table: dict[str, Any]) -> None:
        import sympy

        self.sp = sympy
        self.toks = toks
        self.table = table
        self.i = 0
        self.nodes = 0

    def peek(self) -> str | None:
        return self.toks[self.i][1] if self.i < len(self.toks) else None

    def take(self, want: str | None = None) -> tuple[int, str]:
        if self.i >= len(self.toks):
            raise NotExpression("expression text ends too early")
        tok = self.toks[self.i]
        if want is not None and tok[1] != want:
            raise NotExpression(f"expected {want!r}, found {tok[1]!r} in expression text")
        self.i += 1
        return tok

    def value(self, depth: int) -> Any:
        if depth > MAX_DEPTH:
            raise NotExpression(f"expression is nested more than {MAX_DEPTH} levels deep")
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise NotExpression(f"expression has more than {MAX_NODES} nodes")
        kind, text = self.take()
        if text == "-":
            inner = self.value(depth + 1)
            if not isinstance(inner, (int, self.sp.Expr)):
                raise NotExpression("a minus sign before something that is not a number")
            return -inner
        if kind == tokenize.NUMBER:
            if not text.isdigit() or len(text) > 4_000:
                raise NotExpression(f"number literal {text[:20]!r} is not a plain integer")
            return int(text)
        if text in ("[", "("):
            return self.sequence(depth, "]" if text == "[" else ")", text == "(")
        if kind != tokenize.NAME:
            raise NotExpression(f"{text[:20]!r} is not allowed in expression text")
        if self.peek() != "(":
            return self.constant(text)
        node = self.call(text, depth)
        while self.peek() == "(":  # Function('f')(x): an undefined function applied
            if not isinstance(node, self.sp.FunctionClass):
                raise NotExpression("only a function can be applied")
            args, _ = self.arguments(depth, None)
            node = node(*args)
        return node

    def sequence(self, depth: int, close: str, is_tuple: bool) -> Any:
        items = []
        while self.peek() != close:
            items.append(self.value(depth + 1))
            if self.peek() != close:
                self.take(",")
        self.take(close)
        return tuple(items) if is_tuple else items

    def constant(self, name: str) -> Any:
        if name in ("True", "False"):
            return name == "True"
        if name not in CONSTANTS:
            raise NotExpression(f"name {name[:40]!r} is not a SymPy constant")
        return getattr(self.sp.S, {"pi": "Pi", "E": "Exp1", "I": "ImaginaryUnit", "oo": "Infinity",
                                   "zoo": "ComplexInfinity", "nan": "NaN"}.get(name, name))

    def arguments(self, depth: int, head: str | None) -> tuple[list[Any], dict[str, Any]]:
        self.take("(")
        args: list[Any] = []
        kwargs: dict[str, Any] = {}
        while self.peek() != ")":
            if self.i + 1 < len(self.toks) and self.toks[self.i][0] == tokenize.NAME and self.toks[self.i + 1][1] == "=":
                key = self.take()[1]
                self.take("=")
                if key not in SREPR_KEYWORDS:
                    raise NotExpression(f"keyword {key[:40]!r} is not allowed in expression text")
                val = self.value(depth + 1)
                if not isinstance(val, (bool, int)):
                    raise NotExpression(f"keyword {key!r} takes a literal")
                kwargs[key] = val
            elif self.toks[self.i][0] == tokenize.STRING:
                if head not in _STRING_ARG or args:
                    raise NotExpression("a quoted string is only allowed as a symbol or function name")
                args.append(_string(self.take()[1]))
            else:
                args.append(self.value(depth + 1))
            if self.peek() != ")":
                self.take(",")
        self.take(")")
        return args, kwargs

    def call(self, name: str, depth: int) -> Any:
        sp = self.sp
        if name not in SREPR_CALLS and name not in ("Function", "Dummy"):
            raise NotExpression(f"{name[:40]!r} is not a SymPy class or function the grader accepts")
        args, kwargs = self.arguments(depth, name)
        if name in ("Symbol", "Dummy", "Function"):
            if len(args) != 1 or not isinstance(args[0], str):
                raise NotExpression(f"{name} takes one quoted name")
            known = self.table.get(args[0])
            if name == "Function":
                return known if isinstance(known, sp.FunctionClass) else sp.Function(args[0])
            if name == "Symbol" and isinstance(known, sp.Symbol):
                return known
            facts = {k: v for k, v in kwargs.items() if k not in ("dummy_index", "precision") and isinstance(v, bool)}
            return sp.Dummy(args[0], **facts) if name == "Dummy" else sp.Symbol(args[0], **facts)
        if name == "Float":
            if len(args) != 1 or not isinstance(args[0], str):
                raise NotExpression("Float takes one quoted number")
            precision = kwargs.get("precision", 53)
            if not isinstance(precision, int) or not 1 <= precision <= 3_400:
                raise NotExpression("Float precision out of range")
            return sp.Float(args[0], precision=precision) if precision != 53 else sp.Float(args[0])
        if kwargs:
            raise NotExpression(f"{name} takes no keyword arguments")
        if name in ("Integer", "Rational"):
            if not all(isinstance(a, int) and not isinstance(a, bool) for a in args) or not 1 <= len(args) <= 2:
                raise NotExpression(f"{name} takes integer literals")
            return sp.Integer(args[0]) if name == "Integer" else sp.Rational(*args)
        if any(isinstance(a, str) for a in args):
            raise NotExpression(f"{name} takes no quoted strings")
        target = getattr(sp, name, None)
        if target is None:
            raise NotExpression(f"{name!r} is not available in this SymPy")
        if name in ("ImmutableDenseMatrix", "MutableDenseMatrix"):
            return sp.ImmutableMatrix(*args)
        return target(*(_sympy_arg(sp, a) for a in args))


def _sympy_arg(sp: Any, a: Any) -> Any:
    if isinstance(a, bool):
        return sp.true if a else sp.false
    if isinstance(a, (list, tuple)) and not isinstance(a, str):
        return sp.Tuple(*(_sympy_arg(sp, x) for x in a))
    return a


def _string(token: str) -> str:
    """A quoted literal's text without eval: plain single- or double-quoted, no prefixes, no escapes."""
    if len(token) < 2 or token[0] not in "'\"" or token[-1] != token[0] or "\\" in token \
            or token.startswith(("'''", '"""')):
        raise NotExpression("only plain quoted names are allowed in expression text")
    return token[1:-1]
