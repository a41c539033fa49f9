"""Proxy modules: what `import math` (or numpy, scipy, sympy) hands a sandboxed program.

A proxy is a fresh module object holding only allow-listed attributes of the real one. The real
`datetime` and `calendar` modules expose `sys`; numpy, scipy and sympy expose file I/O, ctypes
and eval-based parsing. None of that is copied. Built once in the warm parent; every program
gets its own copy-on-write copy through fork, so one program's changes never reach the next.
"""

from __future__ import annotations

import functools
import importlib
import types
from typing import Any, Callable

from physbench.executor.policy import SCIENTIFIC_DENIED, STRICT_MODULES, library_modules

# explicit allow-lists for the standard modules (names absent from this Python are skipped)
_STRICT_ATTRS: dict[str, tuple[str, ...] | None] = {
    "math": None,  # every public name: pure functions and constants
    "datetime": ("date", "datetime", "time", "timedelta", "timezone", "tzinfo", "MINYEAR", "MAXYEAR",
                 "UTC"),
    "time": ("time", "time_ns", "monotonic", "monotonic_ns", "perf_counter", "perf_counter_ns",
             "process_time", "process_time_ns", "thread_time", "thread_time_ns", "sleep", "gmtime",
             "localtime", "mktime", "strftime", "strptime", "asctime", "ctime", "struct_time",
             "timezone", "altzone", "daylight", "tzname", "get_clock_info"),
    "calendar": ("isleap", "leapdays", "monthrange", "weekday", "monthcalendar", "month_name",
                 "month_abbr", "day_name", "day_abbr", "MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY",
                 "FRIDAY", "SATURDAY", "SUNDAY", "timegm", "Calendar", "TextCalendar", "HTMLCalendar",
                 "month", "calendar", "firstweekday", "setfirstweekday", "weekheader",
                 "IllegalMonthError", "IllegalWeekdayError", "EPOCH", "Month", "Day", "JANUARY",
                 "FEBRUARY"),
}


def build_proxies(policy: str) -> dict[str, types.ModuleType]:
    """Import the policy's modules and return proxies keyed by (dotted) import name."""
    proxies: dict[str, types.ModuleType] = {}
    for name in STRICT_MODULES:
        real = importlib.import_module(name)
        proxies[name] = _proxy(name, real, _listed(_STRICT_ATTRS[name]))
    if library_modules(policy):
        for top, subs in library_modules(policy).items():
            real_top = importlib.import_module(top)
            denied = SCIENTIFIC_DENIED[top]
            sub_proxies = {}
            for sub in subs:
                real_sub = getattr(real_top, sub, None)  # numpy.emath is an alias, not importable
                if not isinstance(real_sub, types.ModuleType):
                    real_sub = importlib.import_module(f"{top}.{sub}")
                sub_proxies[sub] = proxies[f"{top}.{sub}"] = _proxy(f"{top}.{sub}", real_sub,
                                                                  _public_except(denied))
            top_proxy = _proxy(top, real_top, _public_except(denied))
            for sub, proxy in sub_proxies.items():
                setattr(top_proxy, sub, proxy)
            proxies[top] = top_proxy
    return proxies


def _listed(names: tuple[str, ...] | None) -> Callable[[str, Any], bool]:
    if names is None:
        return lambda name, value: not name.startswith("_") and not isinstance(value, types.ModuleType)
    allowed = frozenset(names)
    return lambda name, value: name in allowed and not isinstance(value, types.ModuleType)


def _public_except(denied: frozenset[str]) -> Callable[[str, Any], bool]:
    def keep(name: str, value: Any) -> bool:
        return not name.startswith("_") and name not in denied and not isinstance(value, types.ModuleType) \
            and not dangerous(value)
    return keep


def dangerous(value: Any) -> bool:
    """Values no program is handed under any name: class factories (metaclasses, enums without
    members), capsules (raw C pointers), and the raw-memory helpers of numpy and scipy."""
    if isinstance(value, type):
        if issubclass(value, type):
            return True
        enum = __import__("sys").modules.get("enum")
        if enum is not None and isinstance(value, enum.EnumMeta) and not len(value):  # type: ignore[arg-type]
            return True
    if type(value).__name__ == "PyCapsule":
        return True
    return any(value is v for v in _raw_memory())


@functools.lru_cache(maxsize=1)
def _raw_memory() -> tuple[Any, ...]:
    import sys
    out = []
    np = sys.modules.get("numpy")
    if np is not None:
        from numpy.lib import stride_tricks
        out += [stride_tricks.as_strided, getattr(np, "ctypeslib", None), np.memmap]
    scipy = sys.modules.get("scipy")
    if scipy is not None:
        out.append(scipy.LowLevelCallable)
    return tuple(v for v in out if v is not None)


class _GuardedType(type):
    """Stands for a numpy array type in a proxy: isinstance/issubclass and attributes behave as
    the real type's, but constructing one that holds objects over a caller's buffer is refused."""

    def __instancecheck__(cls, obj: Any) -> bool:
        return isinstance(obj, cls._real)  # type: ignore[attr-defined]

    def __subclasscheck__(cls, sub: Any) -> bool:
        return issubclass(sub, cls._real)  # type: ignore[attr-defined]

    def __getattr__(cls, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(cls._real, name)  # type: ignore[attr-defined]

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        buffer = kwargs.get("buffer", kwargs.get("buf", args[2] if len(args) > 2 else None))
        if _holds_objects(buffer):
            raise TypeError("sandbox: an array cannot be built over the memory of an array of Python objects")
        array = cls._real(*args, **kwargs)  # type: ignore[attr-defined]
        if buffer is not None and array.dtype.hasobject:
            raise TypeError("sandbox: an array of Python objects cannot be built over a buffer")
        return array


def _holds_objects(value: Any) -> bool:
    """Whether `value` is a numpy array or scalar whose memory holds object pointers."""
    import sys
    np = sys.modules.get("numpy")
    return np is not None and isinstance(value, (np.ndarray, np.generic)) and value.dtype.hasobject


def _guarded_frombuffer(real: Callable[..., Any]) -> Callable[..., Any]:
    """numpy.frombuffer that refuses an object array as its source (its bytes are addresses)."""
    def frombuffer(buffer: Any, *args: Any, **kwargs: Any) -> Any:
        if _holds_objects(buffer):
            raise TypeError("sandbox: frombuffer of an array of Python objects is not allowed")
        return real(buffer, *args, **kwargs)
    frombuffer.__doc__ = real.__doc__
    return frombuffer


def _guarded(real: type) -> type:
    return _GuardedType(real.__name__, (), {"_real": real, "__doc__": real.__doc__})


# A proxy's __name__ must not be a key of sys.modules: when `from numpy import lib` finds no
# attribute, the interpreter falls back to sys.modules["<__name__>.lib"], the real submodule.
PROXY_PREFIX = "sandboxed:"


def _proxy(name: str, real: types.ModuleType, keep: Callable[[str, Any], bool]) -> types.ModuleType:
    proxy = types.ModuleType(PROXY_PREFIX + name, getattr(real, "__doc__", None))
    for attr in dir(real):
        try:
            value = getattr(real, attr)
        except Exception:  # lazily loaded or deprecated attributes that fail on access
            continue
        if keep(attr, value):
            if isinstance(value, type) and _is_array_type(value):
                value = _guarded(value)
            elif attr == "frombuffer" and name == "numpy":
                value = _guarded_frombuffer(value)
            setattr(proxy, attr, value)
    return proxy


def _is_array_type(value: type) -> bool:
    import sys
    np = sys.modules.get("numpy")
    return np is not None and issubclass(value, np.ndarray)


def make_importer(proxies: dict[str, types.ModuleType], policy: str) -> Callable[..., types.ModuleType]:
    """The `__import__` a program's import statements call: proxies only, absolute only."""

    def importer(name: str, globals: Any = None, locals: Any = None, fromlist: Any = (), level: int = 0):
        if isinstance(fromlist, list) and not level:
            # C code (e.g. time.strptime loading _strptime) imports through the calling frame's
            # builtins with a list fromlist; import statements always pass a tuple or None. The
            # caller then reads sys.modules itself, so the program receives nothing from here.
            return importlib.import_module(name)
        if level:
            raise ImportError("relative imports are not allowed")
        if name not in proxies:
            raise ImportError(f"module {name!r} is not available under the {policy} policy")
        if fromlist:
            return proxies[name]
        return proxies[name.split(".", 1)[0]]

    return importer
