"""The official MedCalc-Bench scoring, verdict for verdict (`--option scoring=official`): how the upstream
evaluation (evaluation/run.py `extract_answer`, evaluation/evaluate.py `check_correctness`, commit 0eb5960)
reads a reply and judges it, quirks included, reimplemented here without evaluating any model text.

What it does, as read from that code: the answer is the last `answer": ...}` of the reply (JSON style),
placeholders count as none; dates must open the answer (M/D/YYYY); gestational ages take the first two
integers; integer scores take 'N out of', else a comma list's length, else the last number, then round
(2.4 is 2); decimals take a `str(...)` expression, else a number before 'mL/min/1.73', else the last
'N%' divided by 100, else the last number (so '20.53 kg/m^2' is 2); Python literal rules apply where
the script evals a number (a leading zero such as '05' is a syntax error: incorrect). Any failure is
'Incorrect', as in the script's own try/except.
"""

from __future__ import annotations

import ast
import datetime as dt
import math
import operator
import re
from typing import Any

DATE_IDS = (13, 68)
GESTATION_IDS = (69,)
INTEGER_IDS = (4, 15, 16, 17, 18, 20, 21, 25, 27, 28, 29, 32, 33, 36, 43, 45, 48, 51)
DECIMAL_IDS = (2, 3, 5, 6, 7, 8, 9, 10, 11, 19, 22, 23, 24, 26, 30, 31, 38, 39, 40, 44, 46, 49, 56, 57, 58,
               59, 60, 61, 62, 63, 64, 65, 66, 67)
PLACEHOLDERS = ("str(short_and_direct_answer_of_the_question)", "str(value which is the answer to the question)",
                "X.XX")
MAX_CHARS = 200_000


class _Invalid(Exception):
    """Where the official script raises: the reply is scored incorrect."""


_ANSWER_FIELD = re.compile(r'[Aa]nswer":\s*(.*?)\}')
_NUM = r"-?\d+(?:\.\d+)?"
_DATE_START = re.compile(r"^(0?[1-9]|1[0-2])/(0?[1-9]|[12][0-9]|3[01])/(\d{4})")
_WEEKS_DAYS = re.compile(r"\(?[\"']?(\d+)\s*(?:weeks?)?[\"']?,?\s*[\"']?(\d+)\s*(?:days?)?[\"']?\s*\)?")
_OUT_OF = re.compile(r"(\d+) out of")
_COMMA_LIST = re.compile(r"-?\d+(?:, ?-?\d+)+")
_EXPRESSION = re.compile(r"str\((.*)\)")
_GFR_UNIT = re.compile(rf"({_NUM})\s*mL/min/1.73")
_PERCENT = re.compile(rf"({_NUM})%")
_NUMBER = re.compile(_NUM)
# the words the script deletes from a str(...) expression, in its order (so every 'g' goes too)
_DELETED = ("weight", "height", "mg/dl", "g/dl", "mmol/L", "kg", "g", "mEq/L")


def extracted_answer(reply: str) -> str:
    """The text of the reply's last `answer": ...}` field, stripped of quotes; 'Not Found' without one."""
    found = _ANSWER_FIELD.findall(reply[-MAX_CHARS:])
    if not found:
        return "Not Found"
    text = found[-1].strip().strip('"')
    return "Not Found" if text in PLACEHOLDERS else text


_INT_LITERAL = re.compile(r"[-+]?\d+")
_FLOAT_LITERAL = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def _literal(text: str) -> float:
    """A number as Python's eval reads it: '05' is a syntax error, '-3', '2.50' and '1e-05' are numbers."""
    t = text.strip()
    if _INT_LITERAL.fullmatch(t):
        digits = t.lstrip("+-")
        if len(digits) > 1 and digits[0] == "0" and digits.strip("0"):
            raise _Invalid(f"{t!r} is not a Python literal")
        return int(t)
    if not _FLOAT_LITERAL.fullmatch(t):
        raise _Invalid(f"{t!r} is not a number")
    return float(t)


def _extract(text: str, calc_id: int) -> Any:
    """The official `extract_answer` on an extracted answer: a string, a tuple or a number."""
    if calc_id in DATE_IDS:
        m = _DATE_START.search(text)
        if not m:
            raise _Invalid("no M/D/YYYY date at the start of the answer")
        return f"{int(m.group(1)):02}/{int(m.group(2)):02}/{m.group(3)}"
    if calc_id in GESTATION_IDS:
        if not _WEEKS_DAYS.search(text):
            raise _Invalid("no weeks and days")  # the script reads a match it did not check
        cleaned = text.replace("[", "(").replace("]", ")").replace("'", "").replace('"', "")
        m = _WEEKS_DAYS.search(cleaned)
        if not m:
            raise _Invalid("no weeks and days")
        return (int(m.group(1)), int(m.group(2)))
    if calc_id in INTEGER_IDS:
        m = _OUT_OF.search(text)
        if m:
            return _literal(m.group(1))
        m = _COMMA_LIST.search(text)
        if m:
            return len(m.group(0).split(","))
        numbers = _NUMBER.findall(text)
        if not numbers:
            raise _Invalid("no number")
        return _literal(numbers[-1])
    if calc_id in DECIMAL_IDS:
        m = _EXPRESSION.search(text)
        if m:
            return _expression(m.group(1))
        m = _GFR_UNIT.search(text)
        if m:
            return _literal(m.group(1))
        percents = _PERCENT.findall(text)
        if percents:
            return _literal(percents[-1]) / 100
        numbers = _NUMBER.findall(text)
        if not numbers:
            raise _Invalid("no number")
        return _literal(numbers[-1])
    raise _Invalid(f"unknown calculator id {calc_id}")


def verdict(reply: Any, calc_id: int, gold: str, lower: str = "", upper: str = "") -> bool:
    """True where the official script scores the reply Correct."""
    if not isinstance(reply, str):
        return False
    try:
        answer = _extract(extracted_answer(reply), int(calc_id))
        return _check(answer, int(calc_id), gold, lower, upper)
    except (_Invalid, ValueError, TypeError, ArithmeticError, OverflowError, RecursionError):
        return False


def _check(answer: Any, calc_id: int, gold: str, lower: str, upper: str) -> bool:
    """The official `check_correctness` on an extracted answer."""
    if calc_id in DATE_IDS:
        return dt.datetime.strptime(answer, "%m/%d/%Y").date() == dt.datetime.strptime(gold.strip(), "%m/%d/%Y").date()
    if calc_id in GESTATION_IDS:
        m = _WEEKS_DAYS.search(gold)
        if not m:
            raise _Invalid("gold is not a weeks and days pair")
        return answer == (int(m.group(1)), int(m.group(2)))
    if calc_id in INTEGER_IDS:
        return round(answer) == _literal(gold.strip())
    x = float(answer)
    return _literal(lower.strip()) <= x <= _literal(upper.strip())


# ---- the str(...) expressions the script evaluates, read here by a small arithmetic reader --------

_BINARY = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
           ast.Pow: operator.pow, ast.Mod: operator.mod, ast.FloorDiv: operator.floordiv}
_CALLS = {"min": min, "max": None, "pow": pow, "round": round, "abs": abs, "int": int, "float": float,
          "math.sqrt": math.sqrt, "math.log": math.log, "math.exp": math.exp, "math.log10": math.log10}
MAX_EXPRESSION_CHARS = 2_000


def _expression(text: str) -> float:
    """What the script's restricted eval gives for a `str(...)` answer, for plain arithmetic; anything
    else (names, attributes, huge powers) is treated as the script failing (incorrect)."""
    expr = text
    for old, new in (("^", "**"), ("is odd", "% 2 == 1"), ("is even", "% 2 == 0"), ("sqrt", "math.sqrt"),
                     (".math", "")):
        expr = expr.replace(old, new)
    for word in _DELETED:
        expr = expr.replace(word, "")
    expr = expr.split("#")[0]
    opened, closed = expr.count("("), expr.count(")")
    expr = expr + ")" * (opened - closed) if opened > closed else "(" * (closed - opened) + expr
    if len(expr) > MAX_EXPRESSION_CHARS:
        raise _Invalid("expression too long")
    try:
        tree = ast.parse(expr.strip(), mode="eval")
    except (SyntaxError, ValueError):
        raise _Invalid("not an expression") from None
    return _value(tree.body)


def _value(node: ast.AST) -> Any:
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        v = _value(node.operand)
        return -v if isinstance(node.op, ast.USub) else v
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _value(node.left), _value(node.right)
        if isinstance(node.op, ast.Pow) and (abs(right) > 1000 or abs(left) > 10 ** 6):
            left, right = float(left), float(right)  # floats overflow at once instead of growing huge integers
        return _BINARY[type(node.op)](left, right)
    if isinstance(node, ast.Call) and not node.keywords:
        name = ast.unparse(node.func)
        fn = _CALLS.get(name)
        if fn is not None:
            return fn(*[_value(a) for a in node.args])
    raise _Invalid(f"the expression holds {type(node).__name__}")
