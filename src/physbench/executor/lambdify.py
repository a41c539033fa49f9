"""`sympy.lambdify` without exec: a callable that walks the expression tree.

sympy's lambdify prints the expression as Python source and execs it (names from the expression
end up in that source), so it is an eval road. In the sandbox `sympy.lambdify`, and the
lambdify inside `nsolve`, are replaced by this evaluator: numbers, symbols, +, *, **, the
functions sympy's own printers translate (numpy, math, mpmath, scipy names), Piecewise,
relations and boolean operators; any other function is evaluated by sympy itself, element by
element. Results follow the module asked for (numpy by default, as in sympy).

A function's name is only ever looked up in sympy's own translation tables, and the name found
there only in the sandbox's proxy modules (`use_modules`): a user-defined `Function('fromfile')`
or `Function('ndarray')` reaches nothing that `import numpy` would not give (issue 33).
"""

from __future__ import annotations

import math
import operator
from typing import Any, Callable, Sequence

_PROXIES: dict[str, Any] = {}


def use_modules(proxies: dict[str, Any]) -> None:
    """Resolve translated names in these proxy modules ("numpy", "scipy.special", "math", ...)."""
    _PROXIES.clear()
    _PROXIES.update(proxies)


_REL = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
        ">=": operator.ge}


def install() -> None:
    import sympy
    from sympy.solvers import solvers
    from sympy.utilities import lambdify as real

    sympy.lambdify = lambdify
    solvers.lambdify = lambdify
    real.lambdify = lambdify


def lambdify(args: Any, expr: Any, modules: Any = None, printer: Any = None, use_imps: bool = True,
             dummify: bool = False, cse: bool = False, docstring_limit: int | None = 1000) -> Callable[..., Any]:
    """A numeric function of `args` computing `expr` (sympy's signature; printer/cse are ignored)."""
    import sympy

    kind = _kind(modules)
    params = args if isinstance(args, (list, tuple)) else (args,)
    walker = _Walker(kind)
    expr = sympy.sympify(expr) if isinstance(expr, (int, float, complex, str)) else expr

    def function(*values: Any) -> Any:
        if len(values) != len(params):
            raise TypeError(f"expected {len(params)} arguments, got {len(values)}")
        env: dict[Any, Any] = {}
        for p, v in zip(params, values):
            _bind(p, v, env)
        return walker.result(expr, env)

    return function


def _kind(modules: Any) -> str:
    import sys

    names = modules if isinstance(modules, (list, tuple)) else [modules]
    for name in names:
        if name in ("mpmath", "math", "sympy", "numpy", "scipy", "jax"):
            return "numpy" if name in ("scipy", "jax") else name
    return "numpy" if "numpy" in sys.modules else "mpmath"  # as sympy does without numpy


def _bind(param: Any, value: Any, env: dict[Any, Any]) -> None:
    if isinstance(param, (list, tuple)):
        for p, v in zip(param, value):
            _bind(p, v, env)
    else:
        env[param] = value


class _Walker:
    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.lookups: list[tuple[Any, dict[str, str]]] = []  # (module, sympy name -> attribute name)
        if kind == "numpy":
            import numpy
            from sympy.printing.numpy import _known_functions_numpy, _known_functions_scipy_special
            from sympy.utilities.lambdify import NUMPY_TRANSLATIONS, SCIPY_TRANSLATIONS
            self.mod: Any = numpy
            table = {**{k: v.split(".")[-1] for k, v in _known_functions_numpy.items()}, **NUMPY_TRANSLATIONS}
            special = {**{k: v for k, v in _known_functions_scipy_special.items() if "." not in v},
                       **SCIPY_TRANSLATIONS}
            self.lookups = [(_module("numpy", numpy), table), (_module("scipy.special", None), special)]
        elif kind == "mpmath":
            import mpmath
            from sympy.printing.pycode import _known_functions_mpmath
            from sympy.utilities.lambdify import MPMATH_TRANSLATIONS
            self.mod = mpmath
            self.lookups = [(mpmath, {**{k: v.split(".")[-1] for k, v in _known_functions_mpmath.items()},
                                      **MPMATH_TRANSLATIONS})]
        elif kind == "math":
            from sympy.printing.pycode import _known_functions_math
            from sympy.utilities.lambdify import MATH_TRANSLATIONS
            self.mod = math
            self.lookups = [(_module("math", math), {**_known_functions_math, **MATH_TRANSLATIONS})]
        else:
            self.mod = None

    def result(self, expr: Any, env: dict[Any, Any]) -> Any:
        import sympy

        if self.kind == "sympy":
            return sympy.sympify(expr).xreplace({k: sympy.sympify(v) for k, v in env.items()})
        if isinstance(expr, (list, tuple)):
            return type(expr)(self.result(e, env) for e in expr)
        if isinstance(expr, sympy.MatrixBase):
            rows = [[self.value(expr[i, j], env) for j in range(expr.cols)] for i in range(expr.rows)]
            if self.kind == "mpmath":
                return self.mod.matrix(rows)
            if self.kind == "numpy":
                return self.mod.array(rows)
            return rows
        return self.value(sympy.sympify(expr), env)

    def number(self, e: Any) -> Any:
        if self.kind == "mpmath":
            return self.mod.mpmathify(e.evalf(self.mod.mp.dps + 5))
        if e.is_Integer:
            return int(e)
        value = complex(e)
        return value.real if value.imag == 0 and e.is_extended_real is not False else value

    def value(self, e: Any, env: dict[Any, Any]) -> Any:
        import sympy

        if e in env:
            return env[e]
        if e.is_Number or e.is_NumberSymbol or e is sympy.I or (e.is_number and not e.free_symbols
                                                                 and not e.atoms(sympy.Piecewise)):
            return self.number(e)
        if e.is_Add:
            return _fold(operator.add, [self.value(a, env) for a in e.args])
        if e.is_Mul:
            return _fold(operator.mul, [self.value(a, env) for a in e.args])
        if e.is_Pow:
            base, exp = e.args
            if exp == sympy.S.Half:
                return self.call("sqrt", [self.value(base, env)], e)
            return self.value(base, env) ** self.value(exp, env)
        if isinstance(e, sympy.Piecewise):
            return self.piecewise(e, env)
        if e.is_Relational:
            return _REL[e.rel_op](self.value(e.lhs, env), self.value(e.rhs, env))
        if isinstance(e, (sympy.And, sympy.Or, sympy.Not)):
            vals = [self.value(a, env) for a in e.args]
            if self.kind == "numpy":
                np = self.mod
                return np.logical_not(vals[0]) if isinstance(e, sympy.Not) else \
                    _fold(np.logical_and if isinstance(e, sympy.And) else np.logical_or, vals)
            return (not vals[0]) if isinstance(e, sympy.Not) else (all(vals) if isinstance(e, sympy.And) else any(vals))
        if e is sympy.true or e is sympy.false:
            return bool(e)
        if e.is_Function:
            return self.call(type(e).__name__, [self.value(a, env) for a in e.args], e)
        if e.is_Symbol:
            raise NameError(f"symbol {e} has no value (not among lambdify's arguments)")
        raise TypeError(f"lambdify cannot evaluate {type(e).__name__}")

    def call(self, name: str, args: Sequence[Any], e: Any) -> Any:
        """A function of the expression by its sympy class name: through the translation tables
        into the proxy modules, else sympy's own numeric evaluation (never a free name lookup)."""
        import sympy

        if isinstance(e, sympy.core.function.AppliedUndef):
            raise NameError(f"function {name!r} has no numeric implementation")
        for module, table in self.lookups:
            target = table.get(name)
            if module is None or not isinstance(target, str) or target.startswith("_") or "." in target:
                continue
            func = vars(module).get(target)
            if callable(func) and not isinstance(func, type):
                return func(*args)
        return self.by_sympy(type(e), args)

    def by_sympy(self, func: Any, args: Sequence[Any]) -> Any:
        import sympy

        def one(*vals: Any) -> Any:
            return self.number(func(*[sympy.sympify(v) for v in vals]).evalf())

        if self.kind == "numpy" and any(getattr(a, "shape", ()) for a in args):
            return self.mod.vectorize(one)(*args)
        return one(*args)

    def piecewise(self, e: Any, env: dict[Any, Any]) -> Any:
        pieces = [(self.value(expr, env), self.value(cond, env)) for expr, cond in e.args]
        if self.kind == "numpy" and any(getattr(v, "shape", ()) or getattr(c, "shape", ()) for v, c in pieces):
            np = self.mod
            return np.select([np.asarray(c, dtype=bool) for _, c in pieces], [v for v, _ in pieces], default=np.nan)
        for v, c in pieces:
            if bool(c):
                return v
        return math.nan


def _module(name: str, fallback: Any) -> Any:
    """The sandbox's proxy for `name` (set by use_modules), else `fallback` outside the sandbox."""
    return _PROXIES.get(name, fallback)


def _fold(fn: Callable[[Any, Any], Any], values: list[Any]) -> Any:
    out = values[0]
    for v in values[1:]:
        out = fn(out, v)
    return out
