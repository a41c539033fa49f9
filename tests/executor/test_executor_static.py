"""Static checks: every place a name can hide is checked, and ordinary code passes."""

from __future__ import annotations

import pytest

from physbench.executor import check_source
from physbench.executor.instrument import instrument

import ast


@pytest.mark.parametrize("source, fragment", [
    ("x = ().__class__", "'__class__'"),
    ("match 1:\n    case int(__class__=c):\n        pass", "'__class__'"),
    ("f(__x=1)", "'__x'"),
    ("import math as __m", "'__m'"),
    ("def f(__a): pass", "'__a'"),
    ("def f(*, __a): pass", "'__a'"),
    ("def f(*__a): pass", "'__a'"),
    ("lambda __a: 0", "'__a'"),
    ("def f():\n    global __builtins__", "'__builtins__'"),
    ("def f():\n    x = 1\n    def g():\n        nonlocal _x", "'_x'"),
    ("try:\n    pass\nexcept Exception as __e:\n    pass", "'__e'"),
    ("match {}:\n    case {**__r}:\n        pass", "'__r'"),
    ("match []:\n    case [*__r]:\n        pass", "'__r'"),
    ("from math import _x", "'_x'"),
    ("g.gi_frame", "frame"),
    ("match g:\n    case int(gi_frame=f):\n        pass", "frame"),
    ("match a:\n    case int(tofile=f):\n        pass", "'tofile'"),
    ("e.tb_frame", "frame"),
    ("f.f_back", "frame"),
    ("c.co_consts", "frame"),
    ("x.cr_frame", "frame"),
    ("'{0.real}'.format(1)", "str.format"),
    ("s.format(1)", "str.format"),
    ("'{a}'.format_map({})", "format_map"),
    ("getattr(1, 'real')", "getattr"),
    ("ｇｅｔａｔｔｒ(1, 'real')", "getattr"),
    ("().__ｃｌａｓｓ__", "'__class__'"),
    ("import os", "'os'"),
    ("import numpy", "'numpy'"),
    ("from . import x", "relative"),
    ("from math import *", "star"),
    ("async def f(): pass", "async"),
    ("def f():\n    yield 1", "yield"),
    ("def f():\n    yield from []", "yield"),
    ("class A: pass", "class"),
    ("try:\n    pass\nexcept* ValueError:\n    pass", "except*"),
    ("import calendar\ncalendar.datetime.sys", "'sys'"),
    ("x = 1 +", "SyntaxError"),
    ("x = '\0'", ""),
])
def test_rejected_sources_name_the_reason(source, fragment):
    problems = check_source(source, "strict")
    assert problems, source
    assert fragment in " ".join(problems)
    assert all(p.startswith(("line ", "program")) for p in problems)


@pytest.mark.parametrize("source", [
    "import math\nfrom datetime import date, timedelta\nimport calendar, time",
    "for _ in range(3):\n    pass",
    "x = [i * i for i in range(5) if i % 2]\ny = {k: v for k, v in zip('ab', (1, 2))}",
    "s = sum(x for x in range(4))",
    "msg = '{:.2f} Gy in {} fractions'.format(2.0, 30)",
    "msg = '{dose:>{width}}'.format(dose=2, width=5)",
    "msg = f'{2.0:.1f}'",
    "match (1, 2):\n    case (a, b):\n        pass\n    case _:\n        pass",
    "def f(a, *args, b=1, **kw):\n    return a",
    "try:\n    x = 1 / 0\nexcept ZeroDivisionError as err:\n    x = None\nfinally:\n    y = 2",
    "f = lambda t: t * 2\nassert f(1) == 2",
])
def test_ordinary_sources_pass(source):
    assert check_source(source, "strict") == []


def test_scientific_imports_only_under_scientific_policy():
    src = "import numpy as np\nimport scipy.optimize\nfrom scipy import integrate\nimport sympy"
    assert check_source(src, "scientific") == []
    assert check_source(src, "strict")
    assert check_source("import scipy.io", "scientific")
    assert check_source("import numpy.lib", "scientific")


def test_source_length_cap():
    assert check_source("x = 1\n" * 10, "strict", max_chars=20)
    assert check_source("x = 1\n", "strict", max_chars=20) == []


def test_instrumentation_counts_statements_comprehensions_and_lambdas():
    tree = instrument(ast.parse("def f(x):\n    y = [i for i in x if i]\n    return (lambda z: z)(y)\n"))
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    assert {"__pb_line", "__pb_step", "__pb_value"} <= names
    compile(tree, "<program>", "exec")


def test_keyword_names_are_parameters_not_lookups():
    from physbench.executor import check_source

    assert check_source("import scipy.fft\nx = scipy.fft.dct([1.0], type=2, norm=None)\n", "scientific") == []
    assert check_source("f = dict(locals=1, eval=2, type=3)\n") == []
    assert check_source("f = dict(__dict__=1)\n")
    assert check_source("def f(type=1):\n    return type\n")  # a parameter binds the name: refused


def test_match_class_keyword_patterns_follow_attribute_rules():
    from physbench.executor import check_source

    assert check_source('match "x":\n    case str(format=f):\n        pass\n')
    assert check_source("match 1:\n    case object(tb_frame=f):\n        pass\n")
    assert check_source("match 1:\n    case int(real=r):\n        pass\n") == []


def test_audit_hook_reads_no_global_state():
    """Rebinding the audit module's tables cannot switch the hook off: it reads only its own
    default arguments (rewriting those is itself refused by the hook)."""
    import dis

    from physbench.executor import audit

    ops = {i.opname for i in dis.get_instructions(audit._hook)}
    assert not ops & {"LOAD_GLOBAL", "LOAD_NAME", "LOAD_DEREF", "LOAD_CLASSDEREF"}, ops
    assert audit._hook.__closure__ is None
    for value in audit._hook.__defaults__:
        assert isinstance(value, (frozenset, tuple, int, type, type(len))), value
