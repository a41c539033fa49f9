"""Static checks on a program's syntax tree before it runs.

The tree is read after Python has NFKC-normalised identifiers, so fullwidth or other
look-alike spellings of `__class__` are caught as the name they become. Every place a name
can appear is checked, including the ones a naive walk over `ast.Name` misses: match-class
keyword patterns, keyword arguments, import aliases, parameters, global/nonlocal.
"""

from __future__ import annotations

import ast
import string
from typing import Iterator

from physbench.executor.guards import BUFFER_METHODS, DENIED_KEYWORDS, RAW_MEMORY_ATTRS
from physbench.executor.policy import allowed_modules, denied_attribute

# builtins that must not even be named: reflection, dynamic code, I/O, the interpreter itself
DENIED_NAMES = frozenset({
    "getattr", "setattr", "delattr", "hasattr", "vars", "dir", "globals", "locals", "type", "object",
    "super", "compile", "exec", "eval", "open", "input", "breakpoint", "help", "memoryview",
    "exit", "quit", "classmethod", "staticmethod", "property", "id", "copyright", "credits", "license",
})

_FORBIDDEN_NODES: dict[type, str] = {
    ast.AsyncFunctionDef: "async functions are not allowed",
    ast.AsyncFor: "async for is not allowed",
    ast.AsyncWith: "async with is not allowed",
    ast.Await: "await is not allowed",
    ast.Yield: "yield (generator functions) is not allowed",
    ast.YieldFrom: "yield from (generator functions) is not allowed",
    ast.ClassDef: "class definitions are not allowed",
}
if hasattr(ast, "TryStar"):
    _FORBIDDEN_NODES[ast.TryStar] = "try/except* is not allowed"

_FORMATTER = string.Formatter()


def check_source(source: str, policy: str = "strict", max_chars: int | None = None) -> list[str]:
    """Every reason `source` may not run under `policy` (empty when it may), each 'line N: why'."""
    if not isinstance(source, str):
        return ["program source must be text"]
    if max_chars is not None and len(source) > max_chars:
        return [f"program is {len(source)} characters; the limit is {max_chars}"]
    try:
        tree = ast.parse(source, filename="<program>", mode="exec")
    except SyntaxError as exc:
        return [f"line {exc.lineno or 0}: SyntaxError: {exc.msg}"]
    except (ValueError, RecursionError, MemoryError) as exc:
        return [f"program cannot be parsed: {type(exc).__name__}: {str(exc)[:200]}"]
    return check_tree(tree, policy)


def check_tree(tree: ast.AST, policy: str) -> list[str]:
    """Violations in an already parsed module, in source order, at most 20."""
    modules = allowed_modules(policy)
    problems: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        for why in _node_problems(node, modules, policy):
            problems.append((getattr(node, "lineno", 0), why))
    problems.sort(key=lambda p: p[0])
    return [f"line {line}: {why}" for line, why in problems[:20]]


def _node_problems(node: ast.AST, modules: frozenset[str], policy: str) -> Iterator[str]:
    kind = type(node)
    if kind in _FORBIDDEN_NODES:
        yield _FORBIDDEN_NODES[kind]
    if kind is ast.keyword:  # f(type=2): a parameter name, not a lookup; only '_' names are refused
        arg = node.arg  # type: ignore[attr-defined]
        if arg is not None and arg.startswith("_"):
            yield f"keyword {arg!r}: names starting with an underscore are not allowed"
        elif arg in DENIED_KEYWORDS:
            yield f"keyword {arg!r} is not allowed in the sandbox"
    for name in _names_in(node):
        yield from _name_problems(name)
    if kind is ast.Attribute:
        yield from _attribute_problems(node)  # type: ignore[arg-type]
    elif kind is ast.MatchClass:  # `case C(attr=...)` reads attr from the subject: same rules
        for attr in node.kwd_attrs:  # type: ignore[attr-defined]
            why = denied_attribute(attr)
            if why and not attr.startswith("_"):  # underscores are already reported as names
                yield f"pattern attribute {attr!r}: {why}"
            elif attr == "format":  # str.format read off a subject, with no literal to check
                yield "pattern attribute 'format': str.format is only allowed on a string literal"
            elif attr in RAW_MEMORY_ATTRS or attr in BUFFER_METHODS:  # read without the run-time guard
                yield f"pattern attribute {attr!r}: raw memory attributes and buffer-reading methods are " \
                      "not allowed in patterns"
    elif kind is ast.Import:
        for alias in node.names:  # type: ignore[attr-defined]
            if alias.name not in modules:
                yield f"import of {alias.name!r} is not allowed under the {policy} policy"
    elif kind is ast.ImportFrom:
        if node.level:  # type: ignore[attr-defined]
            yield "relative imports are not allowed"
        elif node.module not in modules:  # type: ignore[attr-defined]
            yield f"import from {node.module!r} is not allowed under the {policy} policy"  # type: ignore[attr-defined]
        for alias in node.names:  # type: ignore[attr-defined]
            if alias.name == "*":
                yield "star imports are not allowed"
            elif denied_attribute(alias.name):
                yield f"import of {alias.name!r}: {denied_attribute(alias.name)}"


def _names_in(node: ast.AST) -> Iterator[str]:
    """Every identifier the node introduces or reads, wherever the grammar puts it."""
    if isinstance(node, ast.Name):
        yield node.id
    elif isinstance(node, ast.arg):
        yield node.arg
    elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        yield node.name
    elif isinstance(node, ast.alias):
        if node.name != "*":
            yield from node.name.split(".")
        if node.asname:
            yield node.asname
    elif isinstance(node, ast.ImportFrom) and node.module:
        yield from node.module.split(".")
    elif isinstance(node, (ast.Global, ast.Nonlocal)):
        yield from node.names
    elif isinstance(node, ast.ExceptHandler) and node.name:
        yield node.name
    elif isinstance(node, ast.MatchAs) and node.name:
        yield node.name
    elif isinstance(node, ast.MatchStar) and node.name:
        yield node.name
    elif isinstance(node, ast.MatchMapping) and node.rest:
        yield node.rest
    elif isinstance(node, ast.MatchClass):
        yield from node.kwd_attrs


def _name_problems(name: str) -> Iterator[str]:
    if name.startswith("_") and name != "_":  # a lone "_" is the usual throwaway loop variable
        yield f"name {name!r}: names starting with an underscore are not allowed"
    elif name in DENIED_NAMES:
        yield f"name {name!r} is not available in the sandbox"


def _attribute_problems(node: ast.Attribute) -> Iterator[str]:
    why = denied_attribute(node.attr)
    if why:
        yield f"attribute {node.attr!r}: {why}"
    elif node.attr == "format" and not _is_plain_format_literal(node.value):
        yield "str.format is only allowed on a string literal whose fields name no attributes or items"


def _is_plain_format_literal(value: ast.expr) -> bool:
    """True for "...".format where every field is positional/named with no '.', '[' walks."""
    if not (isinstance(value, ast.Constant) and isinstance(value.value, str)):
        return False
    return _plain_fields(value.value, depth=0)


def _plain_fields(template: str, depth: int) -> bool:
    if depth > 2:
        return False
    try:
        parts = list(_FORMATTER.parse(template))
    except (ValueError, TypeError):
        return False
    for _literal, field, spec, _conversion in parts:
        if field is None:
            continue
        if "." in field or "[" in field or field.startswith("_"):
            return False
        if spec and not _plain_fields(spec, depth + 1):
            return False
    return True
