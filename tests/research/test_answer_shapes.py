"""Issue 37 item 3: every answer shape CritPt's official templates use is graded: equal forms pass,
near misses fail. The shapes of the 70 public test templates (counted from the official notebooks):
one float (14), one int (1), one expression (16), a tuple of plain values (13, one a sp.Tuple of
strings and floats), list[float] (4), a tuple of expressions (8), (expression, str, str) (1), a set
of tuples (3, one of them two sets in a tuple), a tuple up to an overall sign (1), (set[str],
float, float) and set[str] (2), a set of expressions (2, one with a function argument), a set of
expression pairs (1), (expression, Interval.open with symbolic ends, expression) with symbol,
integer-symbol and plain-integer arguments (1), numeric functions of numbers (2), (list[float],
list[float]) (1). Dicts appear in none of them but are graded too."""

from __future__ import annotations

import json

import pytest

from physbench.suites.research.answers import parse_answer
from physbench.suites.research.grader import grade_steps
from physbench.suites.research.problem import Step
from physbench.suites.research.schema import Where

TEMPLATE = "import math\nimport numpy as np\nimport sympy as sp\n\n\ndef answer(*args):\n    ...\n"


def step(answer: dict) -> Step:
    return Step("challenge", "q", TEMPLATE, parse_answer(answer, Where("t.json", "answer")), wall_s=20)


def reply(args: str, body: str, prelude: str = "") -> str:
    return f"```python\nimport numpy as np\nimport sympy as sp\n{prelude}\n\ndef answer({args}):\n    return {body}\n```"


SYM = {"args": ["a", "b"], "assumptions": {"a": {"positive": True}, "b": {"real": True}}}
PAIR = {"type": "composite", "parts": [{"type": "integer", "value": 1}, {"type": "string", "value": "pi"}]}

# name: (answer, call arguments, bodies that must pass, bodies that must fail)
SHAPES = {
    "float": ({"type": "numeric", "value": 1 / 3, "rtol": 1e-9}, "",
              ["1/3", "sp.Rational(1, 3)", "np.float64(1/3)", "sp.Float(1/3, 30)"], ["0.3333", "sp.Rational(1, 4)"]),
    "int": ({"type": "integer", "value": 12}, "", ["12", "sp.Integer(12)", "np.int64(12)"], ["13", "12.0", "'12'"]),
    "expression": ({"type": "symbolic", **SYM, "expr": "a**2*sin(b)/(1 + a)"}, "a, b",
                   ["a**2*sp.sin(b)/(1 + a)", "sp.expand(a**2*sp.sin(b)/(1 + a))", "(a**3 + a**2)*sp.sin(b)/(a + 1)**2"],
                   ["a**2*sp.sin(b)/(2 + a)", "a**2*sp.cos(b)/(1 + a)", "sp.Symbol('c')*a"]),
    "tuple of plain values": (
        {"type": "composite", "parts": [{"type": "string", "value": "Yes"}, {"type": "numeric", "value": 0.1234, "rtol": 1e-6},
                                        {"type": "string", "value": "Trivial"}, {"type": "boolean", "value": True}]}, "",
        ["('Yes', 0.1234, 'Trivial', True)", "['yes', np.float64(0.1234), 'Trivial', np.bool_(True)]",
         "sp.Tuple('Yes', 0.1234, 'Trivial', True)"],
        ["('No', 0.1234, 'Trivial', True)", "('Yes', 0.1235, 'Trivial', True)", "('Yes', 0.1234, 'Trivial')",
         "('Yes', 0.1234, 'Trivial', 1)"]),
    "list of floats": ({"type": "composite", "parts": [{"type": "numeric", "value": v, "rtol": 1e-6} for v in (1.5, -2.0, 0.25)]},
                       "", ["[1.5, -2.0, 0.25]", "np.array([1.5, -2.0, 0.25])", "(1.5, -2, sp.Rational(1, 4))"],
                       ["[1.5, -2.0]", "[1.5, 2.0, 0.25]", "[0.25, -2.0, 1.5]"]),
    "tuple of expressions": (
        {"type": "composite", **SYM, "parts": [{"type": "symbolic", "expr": "a + b"}, {"type": "symbolic", "expr": "a*b**2"}]},
        "a, b", ["(a + b, a*b**2)", "sp.Tuple(b + a, b*a*b)", "[sp.expand((a + b)), sp.factor(a*b**2)]"],
        ["(a*b**2, a + b)", "(a + b, a*b**3)", "(a + b,)"]),
    "expression and two strings": (
        {"type": "composite", **SYM, "parts": [{"type": "symbolic", "expr": "exp(-a)*b"}, {"type": "string", "value": "A"},
                                               {"type": "string", "value": "D"}]},
        "a, b", ["(b*sp.exp(-a), 'A', 'D')", "(b/sp.exp(a), 'a', 'd')"], ["(b*sp.exp(a), 'A', 'D')", "(b*sp.exp(-a), 'D', 'A')"]),
    "set of integer pairs": (
        {"type": "set", "items": [{"type": "composite", "parts": [{"type": "integer", "value": x}, {"type": "integer", "value": y}]}
                                  for x, y in ((1, 1), (-1, -1), (2, -1))]}, "",
        ["{(1, 1), (-1, -1), (2, -1)}", "[(2, -1), (1, 1), (-1, -1)]", "sp.FiniteSet((1, 1), (-1, -1), (2, -1))",
         "{(1, 1), (-1, -1), (2, -1), (1, 1)}"],
        ["{(1, 1), (-1, -1)}", "{(1, 1), (-1, -1), (2, 1)}", "{(1, 1), (-1, -1), (2, -1), (0, 0)}", "(1, 1)"]),
    "set of mixed tuples with complex": (
        {"type": "set", "items": [{"type": "composite", "parts": [{"type": "numeric", "value": 0.5, "rtol": 1e-9},
                                                                  {"type": "integer", "value": n},
                                                                  {"type": "numeric", "value": {"real": 0.0, "imag": float(n)},
                                                                   "rtol": 1e-9}]} for n in (1, 2)]}, "",
        ["{(0.5, 1, 1j), (0.5, 2, 2j)}", "[(sp.Rational(1, 2), 2, 2*sp.I), (0.5, 1, complex(0, 1))]"],
        ["{(0.5, 1, 1j), (0.5, 2, -2j)}", "{(0.5, 1, 1j)}"]),
    "two sets of (int, str)": (
        {"type": "composite", "parts": [{"type": "set", "items": [PAIR]},
                                        {"type": "set", "items": [PAIR, {**PAIR, "parts": [{"type": "integer", "value": 2},
                                                                                           {"type": "string", "value": "sigma"}]}]}]},
        "", ["({(1, 'pi')}, {(2, 'sigma'), (1, 'pi')})"], ["({(1, 'pi')}, {(2, 'pi'), (1, 'pi')})", "({(1, 'pi')}, {(1, 'pi')})"]),
    "tuple up to an overall sign": (
        {"type": "composite", "parts": [{"type": "composite", "up_to_sign": True,
                                         "parts": [{"type": "integer", "value": v} for v in (1, -2, 1)]},
                                        {"type": "numeric", "value": 0.37, "rtol": 1e-6}]}, "",
        ["((1, -2, 1), 0.37)", "((-1, 2, -1), 0.37)"], ["((1, 2, 1), 0.37)", "((-1, 2, 1), 0.37)", "((-1, 2, -1), -0.37)"]),
    "set of strings with floats": (
        {"type": "composite", "parts": [{"type": "set", "element_type": "string", "elements": ["A", "C"]},
                                        {"type": "numeric", "value": 12.0, "rtol": 1e-9}, {"type": "numeric", "value": -0.5, "rtol": 1e-9}]},
        "", ["({'C', 'A'}, 12, -0.5)", "(['A', 'C'], 12.0, -sp.Rational(1, 2))"], ["({'A'}, 12, -0.5)", "({'A', 'B'}, 12, -0.5)"]),
    "set of expressions": (
        {"type": "set", **SYM, "items": [{"type": "symbolic", "expr": e} for e in ("-I*a*b**2", "a*b", "0")]}, "a, b",
        ["{-sp.I*a*b**2, a*b, 0}", "[b*a, sp.S.Zero, -sp.I*b*b*a]", "sp.FiniteSet(a*b, 0, -sp.I*a*b**2)"],
        ["{sp.I*a*b**2, a*b, 0}", "{-sp.I*a*b**2, a*b}", "{-sp.I*a*b**2, a*b, 0, b}"]),
    "set of expressions of a function argument": (
        {"type": "set", "args": ["psi", "tr"], "functions": ["tr"],
         "items": [{"type": "symbolic", "expr": e} for e in ("tr(psi)", "tr(psi**2)", "tr(psi)**2")]}, "psi, tr",
        ["{tr(psi), tr(psi**2), tr(psi)**2}", "[tr(psi)*tr(psi), tr(psi*psi), tr(psi)]"],
        ["{tr(psi), tr(psi**2), tr(psi)**3}", "{tr(psi), tr(psi**3), tr(psi)**2}", "{tr(psi), tr(psi**2)}"]),
    "set of expression pairs": (
        {"type": "set", "args": ["M", "epsilon"], "assumptions": {"M": {"positive": True, "integer": True}},
         "items": [{"type": "composite", "parts": [{"type": "symbolic", "expr": x}, {"type": "symbolic", "expr": y}]}
                   for x, y in (("M - 1", "epsilon/2"), ("M + 1", "-epsilon/2"))]}, "M, epsilon",
        ["{(M + 1, -epsilon/2), (M - 1, epsilon/2)}", "[(M - 1, epsilon*sp.Rational(1, 2)), (1 + M, -epsilon/2)]"],
        ["{(M + 1, epsilon/2), (M - 1, epsilon/2)}", "{(M - 1, epsilon/2)}"]),
    "expression, open interval with symbolic ends, expression": (
        {"type": "composite", "args": ["phi", "k", "k_value"], "assumptions": {"k": {"integer": True, "positive": True}},
         "values": {"k_value": 1},
         "parts": [{"type": "symbolic", "expr": "cos(phi) - 1/2"},
                   {"type": "interval", "lower": "0", "upper": "pi/(2*k + 1)", "closed": [False, False]},
                   {"type": "symbolic", "expr": "pi/(4*k + 2)"}]}, "phi, k, k_value",
        ["(sp.cos(phi) - sp.Rational(1, 2), sp.Interval.open(0, sp.pi/(2*k + 1)), sp.pi/(4*k + 2))",
         "(sp.cos(phi) - 0.5, sp.Interval(0, sp.pi/(2*k + 1), True, True), sp.pi/(2*(2*k + 1))) if k_value == 1 else None"],
        ["(sp.cos(phi) - sp.Rational(1, 2), sp.Interval(0, sp.pi/(2*k + 1)), sp.pi/(4*k + 2))",
         "(sp.cos(phi) - sp.Rational(1, 2), sp.Interval.open(0, sp.pi/(2*k)), sp.pi/(4*k + 2))",
         "(sp.cos(phi) - sp.Rational(1, 2), sp.Interval.open(0, sp.pi/(2*k + 1)), sp.pi/(4*k + 2)) if k_value == 2 else None"]),
    "two lists of floats": (
        {"type": "composite", "parts": [{"type": "composite", "parts": [{"type": "numeric", "value": v, "rtol": 1e-6} for v in vs]}
                                        for vs in ((1.0, 2.0), (-0.5, -1.5))]}, "",
        ["([1.0, 2.0], [-0.5, -1.5])", "(np.array([1.0, 2.0]), (-0.5, -1.5))"], ["([1.0, 2.0], [-1.5, -0.5])", "[1.0, 2.0, -0.5, -1.5]"]),
    "open numeric interval": (
        {"type": "interval", "lower": 0.5, "upper": None, "closed": [False, False]}, "",
        ["sp.Interval.open(sp.Rational(1, 2), sp.oo)", "[0.5, float('inf'), False, False]"],
        ["sp.Interval(sp.Rational(1, 2), sp.oo)", "sp.Interval.open(0.4, sp.oo)", "[0.5, float('inf')]"]),
    "expression up to an overall sign": (
        {"type": "symbolic", **SYM, "expr": "a - b", "up_to_sign": True}, "a, b", ["a - b", "b - a"], ["a + b", "2*(a - b)"]),
    "dict of named values": (
        {"type": "dict", "args": ["x"], "entries": {"x": {"type": "symbolic", "expr": "2"}, "gap": {"type": "numeric", "value": 0.25,
                                                                                                  "rtol": 1e-9}}}, "x",
        ["{x: 2, 'gap': 0.25}", "{'x': sp.Integer(2), 'gap': sp.Rational(1, 4)}", "dict(sp.solve([x - 2], [x]), gap=0.25)"],
        ["{x: 3, 'gap': 0.25}", "{'x': 2}", "{'x': 2, 'gap': 0.25, 'y': 1}"]),
}


@pytest.fixture(scope="module")
def ex():
    from physbench.executor import Executor

    with Executor("scientific", workers=2) as e:
        yield e


@pytest.fixture(scope="module")
def verdicts(ex):
    """Every shape's replies graded in one batch: {(shape, body): outcome}."""
    steps, replies, keys = [], [], []
    for name, (answer, args, good, bad) in SHAPES.items():
        s = step(answer)
        for body in good + bad:
            steps.append(s)
            replies.append(reply(args, body))
            keys.append((name, body))
    return {k: g for k, g in zip(keys, grade_steps(steps, replies, ex))}


@pytest.mark.parametrize("name", list(SHAPES))
def test_equal_forms_pass_and_near_misses_fail(verdicts, name):
    _, _, good, bad = SHAPES[name]
    passed = {b: verdicts[(name, b)] for b in good if not verdicts[(name, b)].correct}
    assert not passed, passed
    wrongly = {b: verdicts[(name, b)] for b in bad if verdicts[(name, b)].correct}
    assert not wrongly, wrongly


def test_a_numeric_function_of_numbers_returning_a_bool(ex):
    ref = "def answer(mc_x, mc_y, mv_x, mv_y):\n    return mc_x * mv_y < 0\n"
    s = step({"type": "function", "reference": ref, "tests": [[1.0, 2.0, 3.0, -1.0], [1.0, 2.0, 3.0, 1.0]], "rtol": 1e-9})
    good = "def answer(mc_x, mc_y, mv_x, mv_y):\n    return bool(mc_x * mv_y < 0)\n"
    bad = "def answer(mc_x, mc_y, mv_x, mv_y):\n    return True\n"
    assert [g.outcome for g in grade_steps([s, s], [good, bad], ex)] == ["correct", "wrong"]


def test_research_check_grades_the_stored_answer_of_every_shape(cli, tmp_path):
    """The oracle reply of each shape's stored answer grades correct (a composite of expressions
    crashed `research check` before)."""
    from physbench.suites.research.oracle import oracle_code

    names = ["tuple of expressions", "set of expressions", "set of integer pairs", "dict of named values"]
    steps = [{"id": "challenge" if i == 0 else f"checkpoint-{i}", "question": "q", "template": TEMPLATE,
              "answer": SHAPES[n][0]} for i, n in enumerate(names)]
    problem = tmp_path / "shapes.json"
    problem.write_text(json.dumps({"id": "shapes", "title": "t", "areas": ["a"], "setup": "s", "challenge": steps[0],
                                   "checkpoints": steps[1:]}))
    r = cli("research", "check", str(problem), "--json")
    assert r.returncode == 0, r.stdout + r.stderr
    from physbench.executor import Executor
    with Executor("scientific", workers=2) as ex:
        all_steps = [step(SHAPES[n][0]) for n in SHAPES]
        got = grade_steps(all_steps, [oracle_code(s) for s in all_steps], ex)
    assert [g.outcome for g in got] == ["correct"] * len(SHAPES), [(n, g) for n, g in zip(SHAPES, got) if not g.correct]


def test_a_thousand_element_set_is_matched_here_without_sympy():
    """Plain sets are compared in the grading process: no recursion limit, garbage stops early."""
    from physbench.suites.research.judge import verdict

    a = parse_answer({"type": "set", "element_type": "integer", "elements": list(range(1000))}, Where("t", "a"))
    assert verdict(a, frozenset(range(999, -1, -1)))["verdict"] == "correct"
    assert verdict(a, list(range(999)) + [5])["verdict"] == "wrong"
    assert verdict(a, ["x"] * 1000)["verdict"] == "wrong"
    pairs = parse_answer({"type": "set", "items": [{"type": "composite", "parts": [{"type": "integer", "value": i},
                                                                                  {"type": "integer", "value": -i}]}
                                                   for i in range(300)]}, Where("t", "a"))
    assert verdict(pairs, {(i, -i) for i in range(300)})["verdict"] == "correct"
