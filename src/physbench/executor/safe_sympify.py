"""A parser for sympy's string input that builds expressions without eval.

sympy's own `parse_expr` turns text into Python source and evals it, so `sympify("...")` (and
every sympy function that accepts strings) is a way to run arbitrary code. In the sandbox it is
replaced by this one: the text is parsed to a syntax tree (never compiled to code) and only
numbers, names, arithmetic, comparisons-free calls of public sympy functions, tuples and lists
are built. Names that are not sympy's become Symbols, as in sympy ("yotta" -> Symbol('yotta')).
"""

from __future__ import annotations

import ast
import operator
from typing import Any, Callable

from physbench.executor import audit

MAX_CHARS = 4_000
MAX_DEPTH = 60

_BINARY: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
    ast.Pow: operator.pow,
    ast.Mod: operator.mod, ast.FloorDiv: operator.floordiv,
}
_UNARY: dict[type, Callable[[Any], Any]] = {ast.USub: operator.neg, ast.UAdd: operator.pos}


def install(denied: frozenset[str]) -> None:
    """Replace sympy.parsing.sympy_parser.parse_expr (sympify imports it at every call)."""
    import sympy
    from sympy.parsing import sympy_parser

    namespace = {k: v for k, v in vars(sympy).items()
                 if not k.startswith("_") and k not in denied and not isinstance(v, type(sympy))}

    def parse_expr(s: Any, local_dict: dict | None = None, transformations: Any = None,
                   global_dict: dict | None = None, evaluate: Any = True) -> Any:
        if not isinstance(s, str):
            raise TypeError("parse_expr needs a string")
        if len(s) > MAX_CHARS:
            raise ValueError(f"expression text longer than {MAX_CHARS} characters")
        try:
            with audit.allow_compile():
                # sympify's default convert_xor: x^2 means x**2 (text holds no strings to spoil)
                tree = ast.parse(s.strip().replace("^", "**"), "<sympify>", mode="eval")
        except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
            raise ValueError(f"cannot parse expression text: {exc}") from None
        return _Builder(sympy, namespace, dict(local_dict or {})).build(tree.body, 0)

    sympy_parser.parse_expr = parse_expr


class _Builder:
    def __init__(self, sympy: Any, namespace: dict[str, Any], local: dict[str, Any]) -> None:
        self.sympy = sympy
        self.namespace = namespace
        self.local = local

    def build(self, node: ast.AST, depth: int) -> Any:
        if depth > MAX_DEPTH:
            raise ValueError("expression text is nested too deeply")
        sp = self.sympy
        if isinstance(node, ast.Constant):
            if isinstance(node.value, bool) or node.value is None:
                return sp.sympify(node.value)
            if isinstance(node.value, int):
                return sp.Integer(node.value)
            if isinstance(node.value, float):
                return sp.Float(node.value)
            if isinstance(node.value, complex):
                return sp.Float(node.value.imag) * sp.I
            raise ValueError("only numbers, names and arithmetic may appear in expression text")
        if isinstance(node, ast.Name):
            return self.name(node.id)
        if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
            return _BINARY[type(node.op)](self.build(node.left, depth + 1), self.build(node.right, depth + 1))
        if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
            return _UNARY[type(node.op)](self.build(node.operand, depth + 1))
        if isinstance(node, (ast.Tuple, ast.List)):
            items = [self.build(e, depth + 1) for e in node.elts]
            return tuple(items) if isinstance(node, ast.Tuple) else items
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
            func = self.name(node.func.id)
            if not callable(func) or isinstance(func, sp.Symbol):
                raise ValueError(f"{node.func.id!r} is not a sympy function")
            return func(*(self.build(a, depth + 1) for a in node.args))
        raise ValueError(f"{type(node).__name__} is not allowed in expression text")

    def name(self, ident: str) -> Any:
        if ident.startswith("_"):
            raise ValueError("names starting with an underscore are not allowed in expression text")
        if ident in self.local:
            return self.local[ident]
        if ident in self.namespace:
            return self.namespace[ident]
        return self.sympy.Symbol(ident)
