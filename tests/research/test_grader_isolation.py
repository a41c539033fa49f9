"""Issue 33 item 1: a reply cannot change how it is judged. Its code only produces a value; the
comparison runs where no model code ran. Each attack below made a wrong answer correct, or a right
one `raised`, when the verdict was computed in the model's own namespace (main before this change)."""

from __future__ import annotations

import json

import pytest

from physbench.suites.research.answers import parse_answer
from physbench.suites.research.grader import grade_steps
from physbench.suites.research.problem import Step
from physbench.suites.research.schema import Where

TEMPLATE = "import math\nimport numpy as np\nimport sympy as sp\n\n\ndef answer(*args):\n    ...\n"
P = {"type": "symbolic", "args": ["p"], "assumptions": {"p": {"real": True}}, "domain": {"p": [0, 1]},
     "expr": "(1 - 4*p/5)**2"}
RIGHT, WRONG = "(1 - 4*p/5)**2", "p"


def step(answer: dict) -> Step:
    return Step("challenge", "q", TEMPLATE, parse_answer(answer, Where("t.json", "answer")), wall_s=10)


@pytest.fixture(scope="module")
def ex():
    from physbench.executor import Executor

    with Executor("scientific", workers=2) as e:
        yield e


def program(prelude: str, body: str, args: str = "p") -> str:
    return f"```python\nimport sympy as sp\nimport numpy as np\n{prelude}\n\ndef answer({args}):\n    return {body}\n```"


def grades(ex, s: Step, replies: list[str]):
    return grade_steps([s] * len(replies), replies, ex)


# preludes that tried to change the grader: each must end `rejected` with its reason
TAMPERING = {
    "simplify": "sp.simplify = lambda e: 0",
    "N": "sp.N = lambda e, n=15: 0",
    "subs": "sp.Basic.subs = lambda self, *a: 0",
    "sympify": "real = sp.sympify\nsp.sympify = lambda *a, **k: real(*a, **k)",
    "Expr.__eq__ via class attr": "sp.Expr.equals = lambda self, other: True",
    "numpy": "np.isclose = lambda *a, **k: True",
    "S registry": "sp.S.Zero = sp.Integer(1)",
    "del": "del sp.simplify",
    "augmented": "sp.Integer.precedence += 1",
    "loop target": "for sp.nsimplify in [abs]:\n    pass",
}


@pytest.mark.parametrize("name", list(TAMPERING))
def test_a_reply_that_patches_sympy_or_the_proxies_is_rejected_with_its_reason(ex, name):
    (g,) = grades(ex, step(P), [program(TAMPERING[name], WRONG)])
    assert g.outcome == "rejected", g
    assert "read-only" in g.detail["error"]


def test_tampering_inside_answer_is_rejected_too(ex):
    reply = "```python\nimport sympy as sp\n\ndef answer(p):\n    m = sp\n    m.simplify = abs\n    return p\n```"
    (g,) = grades(ex, step(P), [reply])
    assert g.outcome == "rejected" and "'simplify' of a module" in g.detail["error"]


# redefined or rebound names: a wrong answer stays wrong, a right answer stays right
SHADOWS = ["def abs(z):\n    return 0", "def complex(*a):\n    return 0", "def max(*a):\n    return 0",
           "max = 4", "str = 'IXYZ'", "isinstance = 0", "list = None", "float = 1", "int = 2", "len = 3",
           "sp = None\nimport sympy as sp", "def answer_check(*a):\n    return True",
           "physbench_symbolic = physbench_plain = None"]


@pytest.mark.parametrize("prelude", SHADOWS)
def test_redefined_builtins_and_names_never_change_the_verdict(ex, prelude):
    right, wrong = grades(ex, step(P), [program(prelude, RIGHT), program(prelude, WRONG)])
    assert (right.outcome, wrong.outcome) == ("correct", "wrong"), (right, wrong)


def test_rebinding_the_module_with_global_changes_nothing(ex):
    reply = ("```python\nimport sympy as sp\n\ndef answer(p):\n    global sp\n    sp = None\n"
             "    return (1 - 4*p/5)**2\n```")
    wrong = reply.replace("(1 - 4*p/5)**2", "p")
    assert [g.outcome for g in grades(ex, step(P), [reply, wrong])] == ["correct", "wrong"]


def test_innocent_shadowing_in_value_answers_is_fine(ex):
    s = step({"type": "composite", "parts": [{"type": "numeric", "value": 0.5}, {"type": "string", "value": "IXYZ"}]})
    body = "```python\nstr = 'IXYZ'\nmax = 4\nfloat = None\ntuple = list\n\ndef answer():\n    return (0.5, str)\n```"
    assert [g.outcome for g in grades(ex, s, [body, body.replace("0.5", "0.6")])] == ["correct", "wrong"]


def test_integer_domains_sample_zero_and_their_ends(ex):
    """`+ KroneckerDelta(n, 0)` differs only at n = 0; `+ KroneckerDelta(n, 6)` only at the end."""
    s = step({"type": "symbolic", "args": ["n"], "assumptions": {"n": {"integer": True}}, "expr": "n**2"})
    replies = [program("", "n**2", "n"), program("", "n**2 + sp.KroneckerDelta(n, 0)", "n"),
               program("", "n**2 + sp.KroneckerDelta(n, 6)", "n"), program("", "n**2 + sp.KroneckerDelta(n, -6)", "n")]
    assert [g.outcome for g in grades(ex, s, replies)] == ["correct", "wrong", "wrong", "wrong"]
    big = step({"type": "symbolic", "args": ["n"], "assumptions": {"n": {"integer": True}}, "domain": {"n": [2, 90]},
                "expr": "n"})
    assert [g.outcome for g in grades(ex, big, [program("", "n + sp.KroneckerDelta(n, 90)", "n"),
                                                program("", "n + sp.KroneckerDelta(n, 2)", "n")])] == ["wrong", "wrong"]


def test_debug_prints_never_change_the_verdict(ex):
    """Issue 37 item 7: 90 KB of prints beside a right answer is still correct (the rest is dropped)."""
    reply = program("print('x' * 90_000)", RIGHT)
    loud = "```python\nimport sympy as sp\n\ndef answer(p):\n    for i in range(3000):\n        print('debug', i, 'x' * 40)\n    return (1 - 4*p/5)**2\n```"
    assert [g.outcome for g in grades(ex, step(P), [reply, loud])] == ["correct", "correct"]


def test_the_line_cap_is_reported_as_line_limit(ex):
    (g,) = grades(ex, step(P), ["```python\ndef answer(p):\n    while True:\n        pass\n```"])
    assert g.outcome == "line_limit" and "lines" in g.detail["error"]


def test_function_answers_are_compared_apart_from_the_model(ex):
    ref = "import math\n\ndef answer(x):\n    return math.sin(x)\n"
    s = step({"type": "function", "reference": ref, "tests": [[0.5], [1.0]], "rtol": 1e-9})
    good = "import math\nabs = None\nstr = 'x'\n\ndef answer(x):\n    return math.sin(x)\n"
    bad = "import math\n\ndef abs(z):\n    return 0\n\ndef answer(x):\n    return 0.0\n"
    sym = "import sympy as sp\n\ndef answer(x):\n    return sp.sin(sp.Float(x, 30))\n"
    assert [g.outcome for g in grades(ex, s, [good, bad, sym])] == ["correct", "wrong", "correct"]


def test_research_grade_cli_refuses_tampering_and_keeps_innocent_names(cli, tmp_path):
    problem = tmp_path / "p.json"
    problem.write_text(json.dumps({
        "id": "iso", "title": "t", "areas": ["a"], "setup": "s",
        "challenge": {"id": "challenge", "question": "q", "template": "import sympy as sp\n\ndef answer(p):\n    ...\n",
                      "answer": P},
        "checkpoints": [{"id": f"checkpoint-{i}", "question": "q", "template": "def answer():\n    ...\n",
                         "answer": {"type": "integer", "value": i}} for i in (1, 2)]}))
    rows = [{"id": "patch", "response": program("sp.simplify = lambda e: 0", WRONG).replace("import numpy as np\n", "")},
            {"id": "abs", "response": program("def abs(z):\n    return 0", WRONG).replace("import numpy as np\n", "")},
            {"id": "max", "response": program("max = 4\nstr = 'IXYZ'", RIGHT).replace("import numpy as np\n", "")}]
    f = tmp_path / "r.jsonl"
    f.write_text("\n".join(json.dumps(r) for r in rows))
    r = cli("research", "grade", str(problem), "--responses", str(f), "--json")
    assert r.returncode == 0, r.stderr
    got = {x["id"]: x["outcome"] for x in map(json.loads, r.stdout.splitlines())}
    assert got == {"patch": "rejected", "abs": "wrong", "max": "correct"}


def test_the_integrations_reward_through_the_same_isolated_grading():
    """Inspect scorers and verifiers rewards call integrations.common.grade_reply -> the suite's grade."""
    from physbench.integrations.common import grade_reply, suite_items

    (item,) = suite_items("research", "dev", 1, {"mode": "challenge"})
    from physbench.core.registry import get_suite

    _, (s,) = get_suite("research").steps_of(item)
    from physbench.suites.research.oracle import oracle_code

    right = oracle_code(s)
    tamper = "```python\nimport sympy as sp\nsp.simplify = lambda e: 0\nsp.N = lambda *a, **k: 0\n\n" \
             "def answer(*a):\n    return 0\n```"
    assert grade_reply("research", item, right, "stop").passed
    g = grade_reply("research", item, tamper, "stop")
    assert not g.passed and g.outcome == "rejected"


def test_one_bad_value_in_a_judged_batch_costs_only_itself(ex):
    """Judge calls go in batches; an object the grader does not accept is bad_kind, the rest unharmed."""
    s = step(P)
    replies = [program("", RIGHT), program("", "sp.Lambda(p, p)"), program("", "sp.Integral(p, p)"),
               program("", WRONG), program("", "sp.expand(" + RIGHT + ")")]
    assert [g.outcome for g in grades(ex, s, replies)] == ["correct", "bad_kind", "bad_kind", "wrong", "correct"]


def test_an_answer_built_to_vanish_at_the_seeded_points_is_still_wrong(ex):
    """The seeded sample points are public (seed 0); fresh points drawn in the judge catch a
    wrong answer that agrees with the reference exactly there."""
    from physbench.suites.research.sampling import sample_points

    s = step(P)
    roots = [pt["p"] for pt in sample_points(s.answer.symbols, s.answer.samples, 0)]
    trap = RIGHT + " + " + "*".join(f"(p - sp.Rational('{x}'))" for x in roots)
    assert [g.outcome for g in grades(ex, s, [program("", trap), program("", RIGHT)])] == ["wrong", "correct"]


def test_sympy_only_steps_are_graded_in_the_symbolic_sandbox_with_the_same_results():
    """A template importing only sympy is graded by the light `symbolic` pool; the attacks fare
    exactly as in the scientific one."""
    from physbench.executor import Executor
    from physbench.suites.research.grader import step_policy

    sympy_only = Step("challenge", "q", "import sympy as sp\n\ndef answer(p):\n    ...\n",
                      parse_answer(P, Where("t.json", "answer")), wall_s=10)
    assert step_policy(sympy_only) == "symbolic" and step_policy(step(P)) == "scientific"
    body = lambda prelude, b: f"```python\nimport sympy as sp\n{prelude}\n\ndef answer(p):\n    return {b}\n```"
    replies = [body("", RIGHT), body("", WRONG), body("sp.simplify = lambda e: 0", WRONG),
               body("def abs(z):\n    return 0", WRONG), body("max = 4\nstr = 'IXYZ'", RIGHT),
               body("import numpy as np", RIGHT)]
    with Executor("symbolic", workers=1) as ex:
        got = [g.outcome for g in grade_steps([sympy_only] * len(replies), replies, ex)]
    assert got == ["correct", "wrong", "rejected", "wrong", "correct", "rejected"]
