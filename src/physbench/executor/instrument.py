"""Executed-line counting compiled into the program itself.

Before every statement (passing its line number), and on every comprehension step and lambda
call, the program calls a counter that ends the run once the cap is passed. Every `f(**m)` is
rewritten to `f(**__pb_kwargs(m))`, which refuses keys that are not strings or start with '_'
(a written keyword such as `__dict__=` is already refused by the static check). Every attribute
target `x.a` (assignment, augmented assignment, deletion, loop or `with` target) becomes
`__pb_store(x, "a").a`, and every read of a raw-memory attribute or of a method that copies its
arguments' bytes (guards.RAW_MEMORY_ATTRS, guards.BUFFER_METHODS) `__pb_raw(x, "a").a`. The
counter's name starts with an underscore, which the static check forbids in programs, so a
program can neither call, rebind nor disable it;
library code runs uncounted and at full speed (unlike a global trace function).
"""

from __future__ import annotations

import ast

from physbench.executor.guards import BUFFER_METHODS, RAW_MEMORY_ATTRS

_GUARDED_READS = RAW_MEMORY_ATTRS | BUFFER_METHODS

LINE = "__pb_line"    # statement counter: __pb_line()
STEP = "__pb_step"    # comprehension filter that counts and returns True
VALUE = "__pb_value"  # lambda body wrapper that counts and returns its argument
KWARGS = "__pb_kwargs"  # f(**m): returns m as a dict after checking every key is a public name
STORE = "__pb_store"  # x.a = v / del x.a: x passes __pb_store(x, "a"), which refuses read-only objects
RAW = "__pb_raw"      # x.tobytes, x.view, ...: x passes __pb_raw(x, "tobytes") (guards.py)

_BODY_FIELDS = ("body", "orelse", "finalbody")


def instrument(tree: ast.Module) -> ast.Module:
    """Return `tree` with counters inserted (the tree is modified in place)."""
    _Counter().visit(tree)
    return ast.fix_missing_locations(tree)


def _call(name: str, node: ast.AST, *args: ast.expr) -> ast.Call:
    if name == LINE:  # the statement's line: the program's last line when it raises
        args = (ast.Constant(getattr(node, "lineno", 0)),)
    call = ast.Call(func=ast.Name(id=name, ctx=ast.Load()), args=list(args), keywords=[])
    return ast.copy_location(call, node)


class _Counter(ast.NodeTransformer):
    def generic_visit(self, node: ast.AST) -> ast.AST:
        super().generic_visit(node)
        for field in _BODY_FIELDS:
            stmts = getattr(node, field, None)
            if isinstance(stmts, list) and stmts and isinstance(stmts[0], ast.stmt):
                counted: list[ast.stmt] = []
                for stmt in stmts:
                    counted.append(ast.copy_location(ast.Expr(value=_call(LINE, stmt)), stmt))
                    counted.append(stmt)
                setattr(node, field, counted)
        return node

    def visit_comprehension(self, node: ast.comprehension) -> ast.comprehension:
        self.generic_visit(node)
        node.ifs.append(_call(STEP, node.iter))
        return node

    def visit_Call(self, node: ast.Call) -> ast.Call:
        # f(**mapping): keyword names chosen at run time pass the same check as written ones
        self.generic_visit(node)
        for kw in node.keywords:
            if kw.arg is None:
                kw.value = _call(KWARGS, kw.value, kw.value)
        return node

    def visit_Attribute(self, node: ast.Attribute) -> ast.Attribute:
        self.generic_visit(node)
        if isinstance(node.ctx, (ast.Store, ast.Del)):
            node.value = _call(STORE, node.value, node.value, ast.Constant(node.attr))
        elif node.attr in _GUARDED_READS:
            node.value = _call(RAW, node.value, node.value, ast.Constant(node.attr))
        return node

    def visit_Lambda(self, node: ast.Lambda) -> ast.Lambda:
        self.generic_visit(node)
        node.body = _call(VALUE, node.body, node.body)
        return node
