"""Ordinary programs return the right values (003_* returns: a number, a date, a (weeks, days)
tuple; 002_* section 3.2: numeric, symbolic and function answers under the scientific policy)."""

from __future__ import annotations

import math

import pytest


def test_arithmetic_with_math_and_helpers(strict_ex):
    src = """
import math
def bmi(weight_kg, height_m):
    return weight_kg / height_m ** 2
def solve(weight_kg, height_cm):
    return round(bmi(weight_kg, height_cm / 100), 2), math.sqrt(16)
"""
    r = strict_ex.run(src, args=(70, 175))
    assert r.status == "ok", r.error
    assert r.value == (22.86, 4.0)


def test_due_date_returns_iso_date_and_gestational_age_tuple(strict_ex):
    """Naegele's rule: estimated due date = last menstrual period + 280 days; gestational age as
    (weeks, days) on a given day (the seed's date and tuple answer kinds)."""
    src = """
from datetime import date, timedelta
def solve(lmp_m, lmp_d, lmp_y, today_m, today_d, today_y):
    lmp = date(lmp_y, lmp_m, lmp_d)
    due = lmp + timedelta(days=280)
    age = (date(today_y, today_m, today_d) - lmp).days
    return {"due": due, "age": divmod(age, 7)}
"""
    r = strict_ex.run(src, args=(5, 17, 2023, 9, 1, 2023))
    assert r.status == "ok", r.error
    assert r.value == {"due": "2024-02-21", "age": (15, 2)}  # 107 days after 17 May


def test_comprehensions_loops_and_match(strict_ex):
    src = """
def grade(score):
    match score:
        case s if s >= 90:
            return "A"
        case _:
            return "B"
def solve(scores):
    evens = [s for s in scores if s % 2 == 0]
    total = 0
    for _ in range(3):
        total += sum(x * x for x in evens)
    return total, {k: grade(k) for k in scores}, sorted(set(scores))
"""
    r = strict_ex.run(src, args=([91, 2, 4, 4],))
    assert r.status == "ok", r.error
    assert r.value == (3 * (4 + 16 + 16), {91: "A", 2: "B", 4: "B"}, [2, 4, 91])


def test_calendar_time_and_format_literals(strict_ex):
    src = """
import calendar, time
def solve():
    days = calendar.monthrange(2024, 2)[1]
    t = time.strptime("2024-03-01", "%Y-%m-%d")
    return days, calendar.isleap(2023), t.tm_yday, "{:.3f}".format(2 / 3), f"{7:03d}"
"""
    r = strict_ex.run(src)
    assert r.status == "ok", r.error
    assert r.value == (29, False, 61, "0.667", "007")


def test_printed_output_is_returned_and_exceptions_are_reported_with_line(strict_ex):
    r = strict_ex.run("def solve():\n    print('dose', 2.0)\n    return 1 / 0\n")
    assert r.status == "raised"
    assert r.error == "line 3: ZeroDivisionError: division by zero"
    assert r.output == "dose 2.0\n"


def test_call_none_runs_the_module_only(strict_ex):
    r = strict_ex.run("x = 2\nprint(x * 21)\n", call=None)
    assert (r.status, r.value, r.output) == ("ok", None, "42\n")


def test_missing_function_is_a_raised_status(strict_ex):
    r = strict_ex.run("def answer():\n    return 1\n")
    assert r.status == "raised" and "solve" in r.error


def test_resource_use_is_reported(strict_ex):
    r = strict_ex.run("def solve():\n    return sum(i for i in range(20000))\n")
    assert r.status == "ok" and r.value == sum(range(20000))
    assert 0 < r.wall_s < 5 and r.cpu_s > 0 and r.max_rss_mb > 1


def test_same_program_is_deterministic_across_runs(strict_ex):
    src = "def solve():\n    return list({'kerma', 'dose', 'fluence', 'exposure'})\n"
    values = {tuple(strict_ex.run(src).value) for _ in range(3)}
    assert len(values) == 1


def test_numpy_linear_algebra(scientific_ex):
    src = """
import numpy as np
def solve():
    a = np.array([[4.0, 1.0], [2.0, 3.0]])
    x = np.linalg.solve(a, np.array([1.0, 2.0]))
    return x, float(np.linalg.det(a)), np.int64(7), np.float32(0.5)
"""
    r = scientific_ex.run(src)
    assert r.status == "ok", r.error
    x, det, seven, half = r.value
    assert x == pytest.approx([0.1, 0.6]) and det == pytest.approx(10.0)
    assert (seven, half) == (7, 0.5)


def test_scipy_quadrature_root_and_special_functions(scientific_ex):
    src = """
import math
from scipy import integrate, optimize, special
import scipy.constants as const
def solve():
    gauss, _ = integrate.quad(lambda x: math.exp(-x * x), -math.inf, math.inf)
    root = optimize.brentq(lambda x: x ** 3 - 2, 0, 2)
    return gauss, root, float(special.erf(1.0)), const.c
"""
    r = scientific_ex.run(src)
    assert r.status == "ok", r.error
    gauss, root, erf1, c = r.value
    assert gauss == pytest.approx(math.sqrt(math.pi))
    assert root == pytest.approx(2 ** (1 / 3))
    assert erf1 == pytest.approx(math.erf(1.0))
    assert c == 299792458.0


def test_sympy_answers_come_back_as_srepr(scientific_ex):
    src = """
import sympy as sp
def solve():
    x = sp.Symbol("x", positive=True)
    return sp.integrate(sp.exp(-x ** 2), (x, 0, sp.oo)), sp.diff(sp.sin(x) * x, x)
"""
    r = scientific_ex.run(src)
    assert r.status == "ok", r.error
    assert r.value[0] == "Mul(Rational(1, 2), Pow(pi, Rational(1, 2)))"
    assert r.value[1].startswith("Add(")


def test_sympify_of_text_is_parsed_without_eval(scientific_ex):
    src = """
import sympy
def solve():
    x = sympy.Symbol("x")
    e = sympy.sympify("x^2 + 2*x + 1")
    return sympy.factor(e), e.subs(x, 2)
"""
    r = scientific_ex.run(src)
    assert r.status == "ok", r.error
    assert r.value == ("Pow(Add(Symbol('x'), Integer(1)), Integer(2))", 9)  # sympy integers come back as int


def test_function_answer_graded_on_test_cases(scientific_ex):
    """002_* section 3.2: a function answer is run on expert test cases."""
    src = """
import numpy as np
def answer(t, tau):
    return float(np.exp(-t / tau))
"""
    results = scientific_ex.map([(src, (t, 2.0)) for t in (0.0, 1.0, 2.0)], call="answer")
    assert [r.status for r in results] == ["ok"] * 3
    assert [r.value for r in results] == pytest.approx([1.0, math.exp(-0.5), math.exp(-1.0)])


def test_complex_and_non_finite_values_survive(scientific_ex):
    r = scientific_ex.run("import numpy as np\ndef solve():\n    return complex(1, -2), float('nan'), np.inf\n")
    assert r.status == "ok", r.error
    c, nan, inf = r.value
    assert c == complex(1, -2) and math.isnan(nan) and inf == math.inf


def test_sympy_solution_dicts_keep_their_symbol_keys(scientific_ex):
    src = """
import sympy as sp
def solve():
    x, y = sp.symbols("x y")
    return sp.solve([x + y - 3, x - y - 1], [x, y])
"""
    r = scientific_ex.run(src)
    assert r.status == "ok", r.error
    assert r.value == {"Symbol('x')": 2, "Symbol('y')": 1}


def test_common_scipy_fits_and_ode_solvers_work_inside_the_sandbox(scientific_ex):
    src = """
import numpy as np
from scipy.optimize import curve_fit
from scipy.integrate import odeint
def solve():
    t = np.linspace(0, 4, 50)
    p, _ = curve_fit(lambda s, a, b: a * np.exp(-b * s), t, 2.5 * np.exp(-1.3 * t), p0=(1, 1))
    y = odeint(lambda v, s: -2 * v, 1.0, [0, 1])[-1][0]
    return [float(v) for v in p], float(y)
"""
    r = scientific_ex.run(src)
    assert r.status == "ok", r.error
    assert r.value[0] == pytest.approx([2.5, 1.3], rel=1e-6)
    assert r.value[1] == pytest.approx(math.exp(-2), rel=1e-6)


BENIGN_SCIENTIFIC = {
    # the false refusals of issue 14, and common model-written calls (002_* section 3.2 answers)
    "nsolve": ("import sympy as sp\ndef solve():\n    x = sp.Symbol('x')\n"
               "    return round(float(sp.nsolve(sp.cos(x) - x, x, 0.5)), 9)\n", 0.739085133),
    "nsolve_system": ("import sympy as sp\ndef solve():\n    x, y = sp.symbols('x y')\n"
                      "    r = sp.nsolve([x**2 + y**2 - 4, x - y], [x, y], [1, 1])\n"
                      "    return [round(float(v), 9) for v in r]\n", [1.414213562, 1.414213562]),
    "dct_type_keyword": ("import numpy as np\nimport scipy.fft\ndef solve():\n"
                         "    return round(float(scipy.fft.dct(np.arange(4.0), type=2)[0]), 9)\n", 12.0),
    "locals_keyword": ("import sympy as sp\ndef solve():\n"
                       "    return str(sp.sympify('a + b', locals={'a': sp.Symbol('q')}))\n", "b + q"),
    "frozen_distribution": ("from scipy import stats\ndef solve():\n"
                            "    return round(float(stats.norm(1, 2).pdf(1.0)), 9)\n", 0.19947114),
    "simplify_integrate_series": ("import sympy as sp\ndef solve():\n    x = sp.symbols('x', real=True)\n"
                                  "    e = sp.sin(x)**2 + sp.cos(x)**2 + sp.integrate(x**2, x)\n"
                                  "    return str(sp.simplify(e + sp.series(sp.exp(x), x, 0, 2).removeO()))\n",
                                  "x**3/3 + x + 2"),
    "matrix_eigenvals": ("import sympy as sp\ndef solve():\n    a, b = sp.symbols('a b', positive=True)\n"
                         "    return sorted(str(k) for k in sp.Matrix([[a, b], [b, a]]).eigenvals())\n",
                         ["a + b", "a - b"]),
    "eigh": ("import numpy as np\ndef solve():\n"
             "    return np.linalg.eigh(np.array([[2.0, 1.0], [1.0, 2.0]]))[0].round(9).tolist()\n", [1.0, 3.0]),
    "quad": ("import numpy as np\nfrom scipy.integrate import quad\ndef solve():\n"
             "    return round(quad(lambda t: np.exp(-t * t), -np.inf, np.inf)[0] ** 2, 9)\n", 3.141592654),
    "brentq": ("from scipy.optimize import brentq\ndef solve():\n"
               "    return round(brentq(lambda t: t ** 3 - 8, 0, 3), 9)\n", 2.0),
    "special": ("from scipy import special\ndef solve():\n    return round(float(special.gamma(0.5)) ** 2, 9)\n",
                3.141592654),
    "complex_numbers": ("import cmath\nimport numpy as np\ndef solve():\n    z = 3 + 4j\n"
                        "    return abs(z), z.conjugate(), cmath.sqrt(-4), complex(np.exp(1j * np.pi).round(9))\n",
                        (5.0, 3 - 4j, 2j, -1 + 0j)),
    "lambdify_numpy": ("import numpy as np\nimport sympy as sp\ndef solve():\n    x = sp.Symbol('x')\n"
                       "    f = sp.lambdify(x, x ** 2 + sp.sin(x) * 0, 'numpy')\n"
                       "    return f(np.array([1.0, 2.0])).tolist()\n", [1.0, 4.0]),
    "curve_fit": ("import numpy as np\nfrom scipy.optimize import curve_fit\ndef solve():\n"
                  "    t = np.linspace(0, 1, 20)\n    p, _ = curve_fit(lambda s, a, b: a * s + b, t, 3 * t + 1)\n"
                  "    return [round(float(v), 6) for v in p]\n", [3.0, 1.0]),
    "kwargs_unpacking": ("import sympy as sp\ndef solve():\n    opts = {'real': True}\n"
                         "    x = sp.Symbol('x', **opts)\n    return bool(x.is_real)\n", True),
}


@pytest.mark.parametrize("name", sorted(BENIGN_SCIENTIFIC))
def test_common_scientific_calls_are_not_refused(scientific_ex, name):
    source, expected = BENIGN_SCIENTIFIC[name]
    r = scientific_ex.run(source)
    assert r.status == "ok", r.error
    assert r.value == expected
