"""Exercise the allowed modules once in the warm parent, so their lazy imports and caches are
done before the first fork (children then start with them already loaded). The library classes
those imports brought get the same attribute guards as those present before (gadgets.py)."""

from __future__ import annotations


def run(policy: str) -> None:
    import calendar
    import datetime
    import time

    time.strptime("2024-02-29", "%Y-%m-%d")
    datetime.datetime.strptime("2024-02-29 10:30", "%Y-%m-%d %H:%M")
    datetime.date(2024, 2, 29).isoformat()
    calendar.monthrange(2024, 2)
    if policy == "scientific":
        _scientific()
    elif policy == "symbolic":
        _symbolic()
    if policy in ("scientific", "symbolic"):  # the classes of the modules imported just now
        from physbench.executor import gadgets

        gadgets.guard_dynamic_attributes()


def _scientific() -> None:
    import numpy as np
    import scipy.integrate
    import scipy.interpolate
    import scipy.linalg
    import scipy.optimize
    import scipy.special
    import scipy.stats

    a = np.array([[2.0, 1.0], [1.0, 3.0]])
    np.linalg.solve(a, np.ones(2))
    np.linalg.eigvalsh(a)
    np.fft.fft(np.ones(4))
    np.random.default_rng(0).normal(size=3)
    scipy.linalg.expm(a)
    scipy.integrate.quad(lambda t: t * t, 0.0, 1.0)
    scipy.integrate.solve_ivp(lambda t, y: -y, (0.0, 1.0), [1.0])
    scipy.optimize.brentq(lambda t: t * t - 2.0, 0.0, 2.0)
    scipy.optimize.minimize(lambda v: float((v[0] - 1.0) ** 2), [0.0])
    scipy.interpolate.CubicSpline([0.0, 1.0, 2.0], [0.0, 1.0, 4.0])(0.5)
    scipy.special.gamma(2.5)
    scipy.stats.norm.cdf(0.0)
    _symbolic()
    scipy.stats.norm(0.0, 1.0).pdf(0.0)


def _symbolic() -> None:
    import sympy

    x = sympy.Symbol("x")
    expr = sympy.sin(x) ** 2 + sympy.cos(x) ** 2
    sympy.simplify(expr)
    sympy.solve(x**2 - 2, x)
    sympy.integrate(sympy.exp(-x) * x, (x, 0, sympy.oo))
    sympy.diff(sympy.exp(x) * x, x)
    sympy.series(sympy.sin(x), x, 0, 4)
    sympy.limit(sympy.sin(x) / x, x, 0)
    sympy.srepr(sympy.Rational(1, 3) * x)
    sympy.N(sympy.pi, 20)
    # modules sympy imports lazily whose import builds dataclasses or named tuples (code
    # generation the audit hook refuses inside a program's process)
    import sympy.integrals.manualintegrate  # noqa: F401
    sympy.integrate(sympy.sin(x) * sympy.exp(x), x)
    sympy.dsolve(sympy.Function("f")(x).diff(x) + sympy.Function("f")(x))
    sympy.nsolve(sympy.cos(x) - x, x, 0.5)
    sympy.lambdify(x, sympy.sin(x))(0.5)
