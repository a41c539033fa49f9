"""Checks on a reference expression's text in the parent: its syntax tree only, never built.

The text is SymPy input (`(1 - 4*p/5)**2`, `^` read as `**`). It is parsed with `ast` and
walked: numbers, the step's argument names, SymPy constants, + - * / **, and calls of the
functions in `sympy_names` are allowed; nothing is evaluated here. The expression itself is
built later inside the sandbox by the executor's safe sympify (no eval there either).
"""

from __future__ import annotations

import ast

from physbench.suites.research.sympy_names import CONSTANTS, FUNCTIONS, TEXT_HELPERS

MAX_EXPR_CHARS = 4_000     # the sandbox's safe sympify takes at most this much text
MAX_DEPTH = 50             # and nests at most 60 levels
MAX_INT_EXPONENT = 1_000   # a literal power above this would make building the reference slow

_BINOPS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow)
_UNARY = (ast.USub, ast.UAdd)


def expression_problem(text: str, names: frozenset[str] | set[str],
                       functions: frozenset[str] | set[str] = frozenset()) -> str | None:
    """Why `text` is not an acceptable reference expression in the argument `names` (symbols) and
    `functions` (undefined functions it may call), or None."""
    if len(text) > MAX_EXPR_CHARS:
        return f"is {len(text)} characters; the limit is {MAX_EXPR_CHARS}"
    try:
        tree = ast.parse(text.strip().replace("^", "**"), "<expr>", mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        return f"is not an expression: {getattr(exc, 'msg', None) or exc}"
    try:
        return _walk(tree.body, names, 0, functions)
    except RecursionError:
        return "is nested too deeply"


def _walk(node: ast.AST, names: frozenset[str] | set[str], depth: int,
          functions: frozenset[str] | set[str] = frozenset()) -> str | None:
    if depth > MAX_DEPTH:
        return f"is nested more than {MAX_DEPTH} levels deep"
    if isinstance(node, ast.Constant):
        if isinstance(node.value, bool) or not isinstance(node.value, (int, float)):
            return f"holds the literal {node.value!r}; only numbers are allowed"
        return None
    if isinstance(node, ast.Name):
        if node.id in names or node.id in CONSTANTS:
            return None
        if node.id in FUNCTIONS or node.id in TEXT_HELPERS or node.id in functions:
            return f"names the function {node.id!r} without calling it"
        return f"names {node.id!r}, which is neither an argument ({', '.join(sorted(names)) or 'none'}) " \
               f"nor a SymPy constant"
    if isinstance(node, ast.BinOp) and isinstance(node.op, _BINOPS):
        if isinstance(node.op, ast.Pow) and _big_literal(node.right):
            return f"raises to a literal power above {MAX_INT_EXPONENT}"
        return _walk(node.left, names, depth + 1, functions) or _walk(node.right, names, depth + 1, functions)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, _UNARY):
        return _walk(node.operand, names, depth + 1, functions)
    if isinstance(node, ast.Tuple):  # Piecewise((value, condition), ...)
        for elt in node.elts:
            why = _walk(elt, names, depth + 1, functions)
            if why:
                return why
        return None
    if isinstance(node, ast.Call):
        if not isinstance(node.func, ast.Name) or node.keywords:
            return "calls something other than a named SymPy function with positional arguments"
        if node.func.id not in FUNCTIONS and node.func.id not in TEXT_HELPERS and node.func.id not in functions:
            return f"calls {node.func.id!r}, which is not an accepted SymPy function"
        for arg in node.args:
            why = _walk(arg, names, depth + 1, functions)
            if why:
                return why
        return None
    return f"uses {type(node).__name__}, which is not allowed (numbers, names, + - * / ** and calls only)"


def _big_literal(node: ast.AST) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, _UNARY):
        node = node.operand
    return isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) \
        and not isinstance(node.value, bool) and abs(node.value) > MAX_INT_EXPONENT
