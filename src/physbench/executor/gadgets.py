"""Run-time guards on the scientific libraries, installed once in the warm parent.

The static check cannot see names chosen at run time, and numpy reads special attributes
(`__array_interface__`, `__array_struct__`, `__array_function__`...) from any object it is
handed, so an object whose attributes a program controls is a road to raw memory. Here each such
road is closed where it starts:
- classes of numpy/scipy/sympy/mpmath whose `__getattr__`/`__getattribute__` serve attributes
  from data (OptimizeResult, Bunch, numpy records...) no longer answer names starting with '__';
- sympy's class factory (`Function(name, **kw)`, `symbols(..., cls=Function)`) takes assumption
  keywords only: no `__dict__`, no `bases`, no arbitrary class attributes;
- library code generation from fixed templates (scipy.stats argument parsers, sympy monomial
  operations) runs from code compiled here, before any program, so nothing compiles at run time;
- `sympy.lambdify` and `nsolve` evaluate the expression tree (lambdify.py) instead of exec.
Object arrays over caller-chosen bytes are refused by the proxies' ndarray (proxies.py).
"""

from __future__ import annotations

import builtins
import sys
from typing import Any, Callable

LIBRARIES = ("numpy", "scipy", "sympy", "mpmath")
GUARDED: list[str] = []  # "module.Class.method" of every guard installed (read by the tests)
_CODE: dict[str, Any] = {}


def install_scientific(with_scipy: bool = True) -> None:
    """Install every guard (idempotent enough for one warm parent); `symbolic` has no scipy."""
    from physbench.executor import lambdify, safe_sympify
    from physbench.executor.policy import SCIENTIFIC_DENIED

    safe_sympify.install(SCIENTIFIC_DENIED["sympy"])
    _restrict_function_factory()
    _install_code_cache(with_scipy)
    lambdify.install()
    guard_dynamic_attributes()


def guard_dynamic_attributes() -> None:
    """Every library class with a Python-level attribute hook refuses dunder names through it."""
    seen: set[int] = set()
    for name, module in list(sys.modules.items()):
        if module is None or name.split(".", 1)[0] not in LIBRARIES:
            continue
        for value in list(vars(module).values()):
            if isinstance(value, type) and id(value) not in seen \
                    and str(getattr(value, "__module__", "")).split(".", 1)[0] in LIBRARIES:
                seen.add(id(value))
                _guard_class(value)


def _guard_class(cls: type) -> None:
    own = cls.__dict__
    hook = own.get("__getattr__")
    if _python_function(hook) and not getattr(hook, "_pb_guard", False):
        def __getattr__(self: Any, name: str, _orig: Callable = hook) -> Any:
            if name[:2] == "__":
                raise AttributeError(name)
            return _orig(self, name)
        __getattr__._pb_guard = True  # type: ignore[attr-defined]
        _set(cls, "__getattr__", __getattr__)
    hook = own.get("__getattribute__")
    if _python_function(hook) and not getattr(hook, "_pb_guard", False):
        base = next(k.__dict__["__getattribute__"] for k in cls.__mro__[1:] if "__getattribute__" in k.__dict__)

        def __getattribute__(self: Any, name: str, _orig: Callable = hook, _base: Callable = base) -> Any:
            if name[:2] == "__":
                return _base(self, name)
            return _orig(self, name)
        __getattribute__._pb_guard = True  # type: ignore[attr-defined]
        _set(cls, "__getattribute__", __getattribute__)


def _python_function(value: Any) -> bool:
    return isinstance(value, type(_python_function))


def _set(cls: type, name: str, value: Any) -> None:
    try:
        setattr(cls, name, value)
        GUARDED.append(f"{cls.__module__}.{cls.__qualname__}.{name}")
    except (TypeError, AttributeError):
        pass


def _restrict_function_factory() -> None:
    from sympy.core import function
    from sympy.core.assumptions import _assume_defined

    allowed = frozenset(_assume_defined) | {"nargs"}
    original = function.UndefinedFunction.__new__
    default_bases = original.__defaults__[0] if original.__defaults__ else None

    def __new__(mcl: Any, name: Any, bases: Any = default_bases, __dict__: Any = None, **kwargs: Any) -> Any:
        if __dict__ is not None or bases != default_bases:
            raise TypeError("sandbox: Function() takes a name and assumption keywords only")
        bad = [k for k in kwargs if k not in allowed]
        if bad:
            raise TypeError(f"sandbox: Function() keyword {bad[0]!r} is not an assumption")
        return original(mcl, name, **kwargs)

    function.UndefinedFunction.__new__ = __new__  # type: ignore[method-assign]
    GUARDED.append("sympy.core.function.UndefinedFunction.__new__")


def cached_exec(source: Any, globals: Any = None, locals: Any = None) -> None:
    """`exec` for library templates: reuse code compiled in the warm parent; a new text compiles,
    which the audit hook refuses in a program's process."""
    code = _CODE.get(source) if isinstance(source, str) else None
    if code is None:
        code = builtins.compile(source, "<library template>", "exec")
        if isinstance(source, str) and len(_CODE) < 10_000:
            _CODE[source] = code
    builtins.exec(code, globals, locals)


def _install_code_cache(with_scipy: bool = True) -> None:
    from sympy.polys import monomials

    monomials.exec = cached_exec  # type: ignore[attr-defined]
    if with_scipy:
        import scipy.stats
        from scipy.stats import _distn_infrastructure

        _distn_infrastructure.exec = cached_exec  # type: ignore[attr-defined]
        # fill the cache: every distribution's argument parser
        for value in vars(scipy.stats).values():
            if isinstance(value, _distn_infrastructure.rv_generic):
                try:
                    value.__class__(**value._updated_ctor_param())
                except Exception:
                    pass
    # and monomial code for up to 12 generators
    for n in range(1, 13):
        ops = monomials.MonomialOps(n)
        for build in (ops.mul, ops.pow, ops.mulpow, ops.ldiv, ops.div, ops.lcm, ops.gcd):
            build()
