"""Formulate-Solve tree: read a model's structured reply holding an expression tree and evaluate it exactly.

Seed 003, Appendix A.1 ("Formulate-Solve tree"): one greedy call over the whole note, with no
variables, calculator name or formula given, asks for the calculation name, a one-line formula,
the numeric variables, a list of missing variables and an expression tree over basic arithmetic
operators and comparisons; the tree is evaluated exactly. The arm abstains when the tree or the
variables are invalid, when a referenced variable is listed as missing, or when evaluation raises
(date cases abstain before any call; that is the arm's rule, not this module's).

The reply (`REPLY_SCHEMA` is its JSON Schema, `describe()` a plain text for a prompt):

    {"calculation": "Mean Arterial Pressure", "formula": "MAP = (2 * DBP + SBP) / 3",
     "variables": {"sbp": 120, "dbp": 75}, "missing": [],
     "tree": {"op": "/", "args": [{"op": "+", "args": [{"op": "*", "args": [2, {"var": "dbp"}]},
                                                       {"var": "sbp"}]}, 3]}}

A node is a JSON number, {"var": name} or {"op": name, "args": [node, ...]}.
The paper names only arithmetic and comparisons; the operator set below adds what the benchmark's
formulas need (powers and roots for BSA, QTc and eGFR, logarithms and exponentials for MELD and
Framingham, min/max for caps, conditionals for banded scores).

Exactness rule: numbers are fractions.Fraction, read from the JSON text digit for digit; + - * /,
integer powers, min, max, abs, floor, ceil, round and comparisons are exact. An operation whose
result is irrational (sqrt, a fractional power, exp, ln, log10 that is not a whole power of ten) is
computed to 50 significant digits (decimal module) and the result is marked `exact=False`;
it is exact whenever the true result is rational (sqrt(9/4) = 3/2, 8^(1/3) = 2, ln(1) = 0).
Comparisons, "and", "or", "not" give 1 or 0. "round" rounds half away from zero. "log" is the
natural logarithm, as in mathematics and Python.

Model text is never evaluated as code: it is parsed as JSON (bounded size and nesting, duplicate
keys refused), checked node by node, and walked by this interpreter under bounds on nodes, depth,
number size and time. Nothing here raises on model text; every failure is an abstention reason.
"""

from __future__ import annotations

import decimal
import json
import math
import re
import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping

from physbench.suites.clincalc.tree_eval import Abstain, Walker, constant, context, is_number

MAX_REPLY_CHARS = 20_000
MAX_NODES = 5_000
MAX_DEPTH = 100           # tree levels; the JSON nesting allowed is twice this plus the reply's own levels
MAX_VARIABLES = 500
MAX_NAME_CHARS = 100
MAX_NUMBER_CHARS = 60     # one JSON number literal
TIME_LIMIT_S = 1.0

ABSTAIN_REASONS = (
    "not_json",            # no JSON object in the reply
    "invalid_reply",       # JSON, but not an object with a "tree"
    "invalid_tree",        # a node that breaks the schema: unknown operator, wrong arity, bad constant
    "invalid_variables",   # "variables" or "missing" is not what the schema says
    "missing_variable",    # the tree uses a variable the reply lists as missing
    "undefined_variable",  # the tree uses a variable the reply neither gives nor lists as missing
    "evaluation_error",    # division by zero, a logarithm of a non-positive number, overflow
    "too_large",           # over a bound on text, nodes, depth or number size
    "timeout",             # over the time limit
)

# name: (fewest arguments, most arguments or None for any number, description for the prompt)
OPERATORS: dict[str, tuple[int, int | None, str]] = {
    "+": (1, None, "sum of the arguments"),
    "-": (1, 2, "a - b, or -a with one argument"),
    "*": (1, None, "product of the arguments"),
    "/": (2, 2, "a / b"),
    "pow": (2, 2, "a raised to the power b"),
    "sqrt": (1, 1, "square root"),
    "exp": (1, 1, "e to the power a"),
    "ln": (1, 1, "natural logarithm"),
    "log": (1, 1, "natural logarithm (same as ln)"),
    "log10": (1, 1, "base-10 logarithm"),
    "abs": (1, 1, "absolute value"),
    "min": (1, None, "smallest argument"),
    "max": (1, None, "largest argument"),
    "round": (1, 2, "a rounded half away from zero to b decimal places (b a whole number, default 0)"),
    "floor": (1, 1, "largest whole number not above a"),
    "ceil": (1, 1, "smallest whole number not below a"),
    "<": (2, 2, "1 if a < b else 0"),
    "<=": (2, 2, "1 if a <= b else 0"),
    ">": (2, 2, "1 if a > b else 0"),
    ">=": (2, 2, "1 if a >= b else 0"),
    "==": (2, 2, "1 if a equals b else 0"),
    "!=": (2, 2, "1 if a differs from b else 0"),
    "and": (1, None, "1 if every argument is non-zero else 0"),
    "or": (1, None, "1 if any argument is non-zero else 0"),
    "not": (1, 1, "1 if a is zero else 0"),
    "if": (3, 3, "b if a is non-zero else c (only the branch taken is evaluated)"),
}

_NODE = {"$ref": "#/$defs/node"}
REPLY_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Formulate-Solve reply",
    "type": "object",
    "required": ["tree"],
    "properties": {
        "calculation": {"type": "string", "description": "name of the calculation"},
        "formula": {"type": "string", "description": "the formula on one line"},
        "variables": {
            "type": "object", "description": "value of each variable read from the note (true/false count as 1/0)",
            "additionalProperties": {"type": ["number", "boolean", "null"]},
        },
        "missing": {"type": "array", "items": {"type": "string"}, "description": "variables the note does not give"},
        "tree": _NODE,
    },
    "$defs": {
        "node": {"oneOf": [
            {"type": "number"},
            {"type": "object", "required": ["var"], "additionalProperties": False,
             "properties": {"var": {"type": "string"}}},
            {"type": "object", "required": ["op", "args"], "additionalProperties": False,
             "properties": {"op": {"enum": list(OPERATORS)}, "args": {"type": "array", "items": _NODE}}},
        ]},
    },
}


def describe() -> str:
    """The reply format and the operators in plain text, for a prompt."""
    lines = [
        'Reply with one JSON object: {"calculation": NAME, "formula": ONE LINE, "variables": {NAME: NUMBER, ...},',
        '"missing": [NAME, ...], "tree": NODE}. A NODE is a number, {"var": NAME} (a key of "variables"),',
        'or {"op": OPERATOR, "args": [NODE, ...]}. Operators:',
    ]
    lines += [f"  {name} ({_arity(low, high)} args): {text}" for name, (low, high, text) in OPERATORS.items()]
    return "\n".join(lines)


def _arity(low: int, high: int | None) -> str:
    return f"{low}+" if high is None else (str(low) if low == high else f"{low}-{high}")


@dataclass(frozen=True)
class TreeResult:
    """The tree's value (a Fraction) or the reason the arm abstains, with the reply's name and formula."""

    value: Fraction | None
    exact: bool
    abstain: str | None
    detail: str = ""
    calculation: str | None = None
    formula: str | None = None

    @property
    def number(self) -> float | None:
        return None if self.value is None else float(self.value)


def evaluate_reply(reply: str | Mapping[str, Any], *, time_limit: float = TIME_LIMIT_S) -> TreeResult:
    """Parse a model's reply (text, or JSON already parsed) and evaluate its tree; never raises on model text."""
    name = formula = None
    try:
        data = _parse(reply) if isinstance(reply, str) else reply
        if not isinstance(data, Mapping) or "tree" not in data:
            raise Abstain("invalid_reply", 'the reply is not a JSON object with a "tree"')
        name, formula = (data[k][:500] if isinstance(data.get(k), str) else None for k in ("calculation", "formula"))
        value, exact = _evaluate(data["tree"], data.get("variables", {}), data.get("missing", []), time_limit)
    except Abstain as exc:
        return TreeResult(None, False, exc.reason, exc.detail, name, formula)
    except (RecursionError, MemoryError):
        return TreeResult(None, False, "too_large", "the reply is nested too deeply", name, formula)
    return TreeResult(value, exact, None, "", name, formula)


def evaluate_tree(
    tree: Any, variables: Mapping[str, Any] | None = None, missing: Any = (), *, time_limit: float = TIME_LIMIT_S
) -> TreeResult:
    """Evaluate a tree (parsed JSON) with its variables and missing list; an abstention reason instead of raising."""
    try:
        value, exact = _evaluate(tree, {} if variables is None else variables, missing, time_limit)
    except Abstain as exc:
        return TreeResult(None, False, exc.reason, exc.detail)
    return TreeResult(value, exact, None)


# ---- parsing -------------------------------------------------------------------------------------

_FENCE = re.compile(r"```(?:json|JSON)?[ \t]*\n?(.*?)```", re.DOTALL)


def _parse(text: str) -> Any:
    if len(text) > MAX_REPLY_CHARS:
        raise Abstain("too_large", f"the reply has {len(text)} characters (at most {MAX_REPLY_CHARS})")
    candidates = [m.group(1) for m in _FENCE.finditer(text)] + [text]
    if "{" in text:
        candidates.append(text[text.index("{"):])          # the first object; text after it is cut below
    for candidate in candidates:
        candidate = candidate.strip()
        if not candidate.startswith("{"):
            continue
        end, deepest = _scan(candidate)
        if deepest > 2 * MAX_DEPTH + 8:
            raise Abstain("too_large", f"the JSON is nested deeper than the tree depth bound ({MAX_DEPTH})")
        try:
            return json.loads(candidate[:end], parse_float=_number, parse_int=_number,
                              parse_constant=_no_constant, object_pairs_hook=_unique_keys)
        except (ValueError, RecursionError):
            continue
    raise Abstain("not_json", "no JSON object could be read from the reply")


def _scan(text: str) -> tuple[int, int]:
    """Where the value opening `text` closes (strings skipped; the text's end if never) and its deepest nesting."""
    depth = deepest = 0
    in_string = escaped = False
    for i, ch in enumerate(text):
        if in_string:
            escaped = ch == "\\" and not escaped
            in_string = not (ch == '"' and not escaped)
        elif ch == '"':
            in_string = True
        elif ch in "{[":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "}]":
            depth -= 1
            if depth == 0:
                return i + 1, deepest
    return len(text), deepest


def _number(literal: str) -> Fraction:
    if len(literal) > MAX_NUMBER_CHARS:
        raise Abstain("too_large", f"a number literal of {len(literal)} characters (at most {MAX_NUMBER_CHARS})")
    exponent = literal.lower().partition("e")[2]
    if exponent and abs(int(exponent)) > 300:
        raise Abstain("too_large", f"the number {literal} is outside the evaluator's range")
    return Fraction(literal)


def _no_constant(name: str) -> None:
    raise Abstain("invalid_tree", f"{name} is not a number")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise Abstain("invalid_reply", f"the key {key!r} appears twice in one object")
        out[key] = value
    return out


# ---- checking ------------------------------------------------------------------------------------

def _evaluate(tree: Any, variables: Any, missing: Any, time_limit: float) -> tuple[Fraction, bool]:
    used: set[str] = set()
    _check(tree, 1, used, [0])
    values, listed = _variables(variables, missing)
    absent = sorted(used & listed)
    if absent:
        raise Abstain("missing_variable", "the tree uses variables listed as missing: " + ", ".join(absent))
    unknown = sorted(used - set(values))
    if unknown:
        raise Abstain("undefined_variable", "the tree uses variables the reply does not give: " + ", ".join(unknown))
    walker = Walker(values, time.monotonic() + float(time_limit))
    with decimal.localcontext(context()):
        value = walker.eval(tree)
    return value, walker.exact


def _check(node: Any, depth: int, used: set[str], count: list[int]) -> None:
    """Check one node against the schema (recursively), counting nodes and collecting variable names."""
    count[0] += 1
    if count[0] > MAX_NODES:
        raise Abstain("too_large", f"the tree has more than {MAX_NODES} nodes")
    if depth > MAX_DEPTH:
        raise Abstain("too_large", f"the tree is deeper than {MAX_DEPTH} levels")
    if is_number(node):
        constant(node)
        return
    if not isinstance(node, Mapping):
        raise Abstain("invalid_tree", f"a node must be a number or an object, got {_show(node)}")
    keys = set(node)
    if keys == {"var"}:
        name = node["var"]
        if not isinstance(name, str) or not 0 < len(name) <= MAX_NAME_CHARS:
            raise Abstain("invalid_tree", f"a variable reference needs a name, got {_show(name)}")
        used.add(name)
    elif keys == {"op", "args"}:
        op, args = node["op"], node["args"]
        if not isinstance(op, str) or op not in OPERATORS:
            raise Abstain("invalid_tree", f"unknown operator {_show(op)}")
        if not isinstance(args, list):
            raise Abstain("invalid_tree", f'"args" of {op} must be a list')
        low, high, _ = OPERATORS[op]
        if len(args) < low or (high is not None and len(args) > high):
            raise Abstain("invalid_tree", f"{op} takes {_arity(low, high)} arguments, got {len(args)}")
        for arg in args:
            _check(arg, depth + 1, used, count)
    else:
        raise Abstain("invalid_tree", f"a node has the keys {sorted(map(str, keys))}; expected var, or op and args")


def _variables(variables: Any, missing: Any) -> tuple[dict[str, Fraction], set[str]]:
    if not isinstance(variables, Mapping):
        raise Abstain("invalid_variables", '"variables" must be an object of name: number')
    if not isinstance(missing, (list, tuple)) or not all(isinstance(m, str) for m in missing):
        raise Abstain("invalid_variables", '"missing" must be a list of names')
    if len(variables) > MAX_VARIABLES or len(missing) > MAX_VARIABLES:
        raise Abstain("too_large", f"more than {MAX_VARIABLES} variables")
    values: dict[str, Fraction] = {}
    listed = set(missing)
    for name, raw in variables.items():
        if not isinstance(name, str) or not 0 < len(name) <= MAX_NAME_CHARS:
            raise Abstain("invalid_variables", f"a variable needs a name of 1-{MAX_NAME_CHARS} characters")
        if raw is None:
            listed.add(name)               # a null value says the note does not give it
        elif isinstance(raw, bool):
            values[name] = Fraction(int(raw))
        elif is_number(raw) and not (isinstance(raw, (float, decimal.Decimal)) and not math.isfinite(raw)):
            values[name] = constant(raw)
        else:
            raise Abstain("invalid_variables", f"variable {name!r} must be a number, true/false or null, got {_show(raw)}")
    return values, listed


def _show(x: Any) -> str:
    text = repr(x)
    return text if len(text) <= 60 else text[:57] + "..."
