"""What a perfect model says: the expected answer in words and as template-shaped code.

`expected_text` writes the ANSWER for oracle carryover ("The correct answer is: ...", issue 15);
`oracle_code` writes a formatting reply whose `answer` returns the stored value.
"""

from __future__ import annotations

from typing import Any

from physbench.suites.research.answer_types import (BooleanAnswer, CompositeAnswer, DictAnswer, FunctionAnswer,
                                                    IntegerAnswer, IntervalAnswer, NumericAnswer, SetAnswer,
                                                    StringAnswer, SymbolicAnswer, call_symbols)
from physbench.suites.research.problem import Step


def answer_text(a: Any) -> str:
    if isinstance(a, SymbolicAnswer):
        return a.expr
    if isinstance(a, (NumericAnswer, IntegerAnswer, BooleanAnswer)):
        return repr(a.value)
    if isinstance(a, StringAnswer):
        return a.value
    if isinstance(a, FunctionAnswer):
        return "the function\n```python\n" + a.reference.strip() + "\n```"
    if isinstance(a, CompositeAnswer):
        return "(" + ", ".join(answer_text(p) for p in a.parts) + ")"
    if isinstance(a, SetAnswer):
        if a.element_type == "answer":
            return "{" + ", ".join(answer_text(i) for i in a.items) + "}"
        return "{" + ", ".join(repr(e) for e in a.elements) + "}"
    if isinstance(a, DictAnswer):
        return "{" + ", ".join(f"{k!r}: {answer_text(v)}" for k, v in a.entries) + "}"
    if isinstance(a, IntervalAnswer):
        lo = "-oo" if a.lower is None else (a.lower if isinstance(a.lower, str) else repr(a.lower))
        hi = "oo" if a.upper is None else (a.upper if isinstance(a.upper, str) else repr(a.upper))
        left, right = ("[", "]") if a.closed is None else ("[" if a.closed[0] else "(", "]" if a.closed[1] else ")")
        return f"{left}{lo}, {hi}{right}"
    raise TypeError(f"unknown answer {a!r}")


def expert_answer(step: Step) -> str:
    """The step's answer as oracle carryover shows it: the problem's own statement where there is
    one, else the stored ANSWER written out; a placeholder when the answer is not public."""
    if step.answer_text:
        return step.answer_text.strip()
    return answer_text(step.answer) if step.answer is not None else "(not public)"


def expected_text(step: Step) -> str:
    return f"The correct answer is: {expert_answer(step)}"


def _literal(a: Any, names: tuple[str, ...]) -> str:
    if isinstance(a, SymbolicAnswer):
        table = "{" + ", ".join(f"{n!r}: {n}" for n in names) + "}"
        return f"sp.sympify({a.expr!r}, {table})"
    if isinstance(a, DictAnswer):
        return "{" + ", ".join(f"{k!r}: {_literal(v, names)}" for k, v in a.entries) + "}"
    if isinstance(a, NumericAnswer):
        return repr(a.value)
    if isinstance(a, (IntegerAnswer, BooleanAnswer, StringAnswer)):
        return repr(a.value)
    if isinstance(a, CompositeAnswer):
        return "(" + ", ".join(_literal(p, names) for p in a.parts) + ",)"
    if isinstance(a, SetAnswer):
        if a.element_type == "answer":
            return "{" + ", ".join(_literal(i, names) for i in a.items) + "}"
        return "[" + ", ".join(repr(e) for e in a.elements) + "]"
    if isinstance(a, IntervalAnswer):
        def end(x: Any, inf: str) -> str:
            if x is None:
                return inf
            return _literal(SymbolicAnswer(x, a.symbols), names) if isinstance(x, str) else repr(x)
        lo, hi = end(a.lower, "-1e999"), end(a.upper, "1e999")
        return f"[{lo}, {hi}]" if a.closed is None else f"[{lo}, {hi}, {a.closed[0]}, {a.closed[1]}]"
    raise TypeError(f"unknown answer {a!r}")


def oracle_code(step: Step) -> str:
    """A formatting reply (fenced code) that the grader marks correct."""
    a = step.answer
    if a is None:  # the answer is not public: the template as given, filled with nothing
        return "```python\n" + step.template.strip() + "\n```"
    if isinstance(a, FunctionAnswer):
        return "```python\n" + a.reference.strip() + "\n```"
    names = call_symbols(a).args
    head = "import sympy as sp\n\n" if "sympy" in step.template_imports() else ""
    return f"```python\n{head}def answer({', '.join(names)}):\n    return {_literal(a, names)}\n```"
