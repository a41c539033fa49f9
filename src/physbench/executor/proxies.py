"""Proxy modules: what `import math` (or numpy, scipy, sympy) hands a sandboxed program.

A proxy is a fresh module object holding only allow-listed attributes of the real one. The real
`datetime` and `calendar` modules expose `sys`; numpy, scipy and sympy expose file I/O, ctypes
and eval-based parsing. None of that is copied. Built once in the warm parent; every program
gets its own copy-on-write copy through fork, so one program's changes never reach the next.
"""

from __future__ import annotations

import importlib
import types
from typing import Any, Callable

from physbench.executor.policy import SCIENTIFIC_DENIED, SCIENTIFIC_SUBMODULES, STRICT_MODULES

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
    if policy == "scientific":
        for top, subs in SCIENTIFIC_SUBMODULES.items():
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
        return not name.startswith("_") and name not in denied and not isinstance(value, types.ModuleType)
    return keep


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
            setattr(proxy, attr, value)
    return proxy


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
