"""The grader: equivalent forms pass, near misses fail, hostile replies end in outcomes."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from physbench.suites.research.answers import parse_answer
from physbench.suites.research.extract import extract_code
from physbench.suites.research.grader import OUTCOMES, grade_steps, match_value
from physbench.suites.research.problem import Step
from physbench.suites.research.schema import Where

TEMPLATE = "import math\nimport numpy as np\nimport sympy as sp\n\n\ndef answer(*args):\n    ...\n"


def step(answer: dict, template: str = TEMPLATE) -> Step:
    return Step("challenge", "q", template, parse_answer(answer, Where("t.json", "answer")), wall_s=10)


@pytest.fixture(scope="module")
def ex():
    from physbench.executor import Executor

    with Executor("scientific", workers=2) as e:
        yield e


P = {"type": "symbolic", "args": ["p"], "assumptions": {"p": {"real": True}}, "domain": {"p": [0, 1]},
     "expr": "(1 - 4*p/5)**2"}


def fenced(body: str, args: str = "p") -> str:
    return f"Reasoning first.\n```python\nimport sympy as sp\n\ndef answer({args}):\n    return {body}\n```\nThat is all."


def outcomes(ex, s: Step, replies: list[str]) -> list[str]:
    return [g.outcome for g in grade_steps([s] * len(replies), replies, ex)]


def test_equivalent_symbolic_forms_pass(ex):
    """Issue 15: (1-4p/5)**2 equals its expansion 1 - 8p/5 + 16p**2/25; reordered sums too."""
    got = outcomes(ex, step(P), [fenced("(1 - 4*p/5)**2"), fenced("1 - 8*p/5 + 16*p**2/25"),
                                 fenced("16*p**2/25 + 1 - sp.Rational(8, 5)*p")])
    assert got == ["correct"] * 3


def test_a_model_symbol_of_the_same_name_counts_as_the_argument(ex):
    assert outcomes(ex, step(P), [fenced("(1 - 4*sp.Symbol('p')/5)**2")]) == ["correct"]


def test_symbolic_near_misses_fail(ex):
    got = outcomes(ex, step(P), [fenced("1 - 8*p/5 + 15*p**2/25"), fenced("(1 - 4*p/5)**3"),
                                 fenced("(1 - 4*p/5)**2 + sp.Symbol('q')")])
    assert got == ["wrong", "wrong", "wrong"]


def test_a_huge_expression_is_wrong_within_the_limits(ex):
    reply = fenced("sp.Add(*[p**k for k in range(1, 3000)])")
    assert outcomes(ex, step(P), [reply]) == ["wrong"]


def test_numeric_tolerance_and_kinds(ex):
    s = step({"type": "numeric", "value": 1 / 3})
    body = lambda v: f"```python\nimport sympy as sp\n\ndef answer():\n    return {v}\n```"
    assert outcomes(ex, s, [body("sp.Rational(1, 3)"), body("1/3"), body("0.3333333"), body("'1/3'")]) == \
        ["correct", "correct", "wrong", "bad_kind"]


def test_integer_accepts_sympy_integer_and_refuses_a_float(ex):
    s = step({"type": "integer", "value": 1})
    body = lambda v: f"import sympy as sp\ndef answer():\n    return {v}\n"
    assert outcomes(ex, s, [body("sp.Integer(1)"), body("1"), body("1.0"), body("2")]) == \
        ["correct", "correct", "bad_kind", "wrong"]


def test_composite_one_wrong_part_fails(ex):
    s = step({"type": "composite", "parts": [{"type": "integer", "value": 3}, {"type": "numeric", "value": 2.5}]})
    body = lambda v: f"def answer():\n    return {v}\n"
    assert outcomes(ex, s, [body("(3, 2.5)"), body("(3, 2.6)"), body("3")]) == ["correct", "wrong", "bad_kind"]


def test_function_wrong_on_one_test_input_fails(ex):
    ref = "import math\n\ndef answer(x):\n    return math.sin(x) / x if x else 1.0\n"
    s = step({"type": "function", "reference": ref, "tests": [[0.0], [0.5], [1.0], [2.0]], "rtol": 1e-9})
    good = "import numpy as np\n\ndef answer(x):\n    return float(np.sinc(x / np.pi))\n"
    bad = "import math\n\ndef answer(x):\n    return math.sin(x) / x if x != 2.0 else 0.45\n" \
          .replace("if x != 2.0", "if x not in (0.0, 2.0)").replace("else 0.45", "else (1.0 if x == 0 else 0.45)")
    assert outcomes(ex, s, [good, bad]) == ["correct", "wrong"]


def test_hostile_replies_end_in_outcomes(ex):
    s = step(P)
    replies = ["I cannot write code.", fenced("p").replace("import sympy as sp", "import os"),
               "```python\ndef answer(p):\n    while True:\n        pass\n```",
               fenced("'a string'"), fenced("1/0"), "```python\ndef answer(p):\n    return p.__class__\n```"]
    assert outcomes(ex, s, replies) == ["no_code", "rejected", "line_limit", "bad_kind", "raised", "rejected"]


def test_unfenced_code_with_prose_around_is_extracted():
    code = extract_code("Sure.\nimport math\n\ndef answer(x):\n    return x\n\nHope this helps!")
    assert code is not None and "def answer" in code and "Hope" not in code


def test_set_and_interval_matching():
    s = parse_answer({"type": "set", "elements": [1.0, -1.0]}, Where("t", "a"))
    assert match_value(s, [-1.0, 1.0]) == "correct" and match_value(s, [1.0, 1.0, -1.0]) == "correct"
    assert match_value(s, [1.0, -1.1]) == "wrong" and match_value(s, "x") == "bad_kind"
    i = parse_answer({"type": "interval", "lower": 1.0, "upper": None}, Where("t", "a"))
    assert match_value(i, [1.0, float("inf")]) == "correct" and match_value(i, [1.1, float("inf")]) == "wrong"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=400) | st.sampled_from(["```python\n", "```", "def answer(", "import sympy\ndef answer(p):\n  return p"]))
def test_hostile_text_never_raises(ex, reply):
    (g,) = grade_steps([step(P)], [reply], ex)
    assert g.outcome in OUTCOMES


@pytest.mark.slow
def test_a_million_node_expression_ends_in_an_outcome_within_the_wall_clock(ex):
    assert outcomes(ex, step(P), [fenced("sp.Add(*[p**k for k in range(10**6)])")]) in (["timeout"], ["wrong"])
