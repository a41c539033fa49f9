"""Run-time guards a program's compiled code calls (instrument.py inserts the calls).

- Attribute stores and deletes (`x.a = v`, `x.a += v`, `del x.a`, `for x.a in ...`) first pass
  `x` through `attribute_store`: modules, classes and every object a proxy module hands out are
  read-only, so `sp.simplify = ...`, `sp.Basic.subs = ...` or `np.random.x = ...` end the run with
  status `rejected` and the reason (issue 33).
- Reads of the attributes that expose an array's raw memory (`tobytes`, `view`, `data`, ...) pass
  the object through `raw_memory_read`: on an array or scalar holding Python objects, or on an
  array class itself (`np.ndarray.tobytes(a)`), they raise, and `.view` refuses object dtypes. An
  object array's bytes are addresses; a view of chosen bytes as objects is a forged pointer.
  `bytes(a)` of an object array is refused by the `bytes` stand-in in the program's builtins, the
  methods that copy their arguments' bytes (`b"".join`, `find`, `int.from_bytes`, BUFFER_METHODS)
  refuse such arguments, and `refcheck=` (in-place resize past live views) is refused as a keyword.
- `fresh_random_state` reseeds `random` and numpy's global generator in each forked process, so
  two programs served by one warm parent never share a random stream.
"""

from __future__ import annotations

import os
import sys
import types
from typing import Any, Callable, NoReturn

# ndarray / numpy scalar attributes that hand out or reinterpret raw bytes
RAW_MEMORY_ATTRS = frozenset({"tobytes", "tostring", "view", "data", "getfield", "setfield", "byteswap",
                              "newbyteorder"})
# methods that read their arguments' bytes through the buffer protocol: on bytes (and bytearray)
# objects and classes, and `int.from_bytes`; read through `raw_memory_read`, they refuse an
# argument whose memory holds object pointers
BUFFER_METHODS = frozenset({
    "from_bytes", "join", "find", "rfind", "index", "rindex", "count", "startswith", "endswith",
    "replace", "split", "rsplit", "strip", "lstrip", "rstrip", "partition", "rpartition",
    "removeprefix", "removesuffix", "translate", "maketrans", "center", "ljust", "rjust",
})
# keyword arguments refused wherever they appear (static check and f(**m)): `a.resize(n,
# refcheck=False)` frees memory that views of `a` still point to
DENIED_KEYWORDS = frozenset({"refcheck"})


def read_only_ids(proxies: dict[str, types.ModuleType]) -> frozenset[int]:
    """ids of the proxy modules and of every value they hold (computed once in the warm parent)."""
    out: set[int] = set()
    for proxy in proxies.values():
        out.add(id(proxy))
        out.update(id(v) for v in vars(proxy).values())
    return frozenset(out)


def attribute_store(read_only: frozenset[int], refuse: Callable[[str], NoReturn]) -> Callable[[Any, str], Any]:
    """The `__pb_store(obj, name)` a program's attribute targets go through."""
    module_type, type_type, ident = types.ModuleType, type, id

    def store(obj: Any, name: str) -> Any:
        if isinstance(obj, (module_type, type_type)) or ident(obj) in read_only:
            what = "a module" if isinstance(obj, module_type) else (
                "a class" if isinstance(obj, type_type) else "an object the sandbox's modules provide")
            refuse(f"the program assigns or deletes attribute {str(name)[:40]!r} of {what}; modules, classes "
                   "and library objects are read-only in the sandbox")
        return obj

    return store


def raw_memory_read(obj: Any, name: str) -> Any:
    """The `__pb_raw(obj, name)` a read of a RAW_MEMORY_ATTRS or BUFFER_METHODS name goes through."""
    np = sys.modules.get("numpy")
    if np is None:  # no numpy, no array of objects
        return obj
    if name in BUFFER_METHODS:
        return _BufferArgs(obj) if _reads_buffers(obj, name) else obj
    if isinstance(obj, type):
        real = obj.__dict__.get("_real", obj)  # the proxies' stand-in for an array class
        if isinstance(real, type) and issubclass(real, (np.ndarray, np.generic)):
            raise TypeError(f"sandbox: {name} read from an array class is not allowed (call it on an array)")
        return obj
    if isinstance(obj, (np.ndarray, np.generic)):
        if obj.dtype.hasobject:
            raise TypeError(f"sandbox: {name} is not allowed on an array of Python objects (its bytes are "
                            "memory addresses)")
        if name == "view":
            return _View(obj)
    return obj


def _reads_buffers(obj: Any, name: str) -> bool:
    """Whether `obj.name` is a method that copies its arguments' bytes (bytes, bytearray, int)."""
    cls = obj if isinstance(obj, type) else type(obj)
    cls = cls.__dict__.get("_real", cls)  # the `bytes` stand-in of the program's builtins
    if not isinstance(cls, type):
        return False
    return issubclass(cls, (bytes, bytearray)) or (name == "from_bytes" and issubclass(cls, int))


def _holds_objects(np: Any, value: Any) -> bool:
    return isinstance(value, (np.ndarray, np.generic)) and value.dtype.hasobject


class _BufferArgs:
    """`x.join`, `x.find`, `int.from_bytes`, ... whose arguments (and a join's items) may not be
    arrays or scalars holding Python objects: their bytes are memory addresses."""

    __slots__ = ("target",)

    def __init__(self, target: Any) -> None:
        self.target = target

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.target, name)

        def checked(*args: Any, **kwargs: Any) -> Any:
            np = sys.modules["numpy"]
            items = [*args, *kwargs.values()]
            if name == "join" and args:  # the iterable is the last argument (`bytes.join(sep, it)`)
                parts = args[-1] if isinstance(args[-1], (list, tuple)) else list(args[-1])
                args = (*args[:-1], parts)
                items += parts
            for value in items:
                parts = value if isinstance(value, tuple) else (value,)  # startswith((a, b))
                if any(_holds_objects(np, p) for p in parts):
                    raise TypeError(f"sandbox: {name} of an array of Python objects is not allowed (its "
                                    "bytes are memory addresses)")
            return method(*args, **kwargs)

        return checked


def _dtype_has_objects(np: Any, spec: Any) -> bool:
    if isinstance(spec, type) and issubclass(spec, np.ndarray):
        return False
    try:
        return bool(np.dtype(spec).hasobject)
    except (TypeError, ValueError):
        return False


class _View:
    """An array's `.view` that refuses every dtype holding Python objects."""

    __slots__ = ("array",)

    def __init__(self, array: Any) -> None:
        self.array = array

    def view(self, *args: Any, **kwargs: Any) -> Any:
        np = sys.modules["numpy"]
        if any(_dtype_has_objects(np, a) for a in (*args, *kwargs.values())):
            raise TypeError("sandbox: viewing an array's bytes as Python objects is not allowed")
        return self.array.view(*args, **kwargs)


class _BufferReader(type):
    """Stands for `bytes` in a program's builtins: isinstance, issubclass and attributes behave as
    the real type's, but `bytes(a)` of an array holding Python objects (its pointers) is refused."""

    def __instancecheck__(cls, obj: Any) -> bool:
        return isinstance(obj, cls.__dict__["_real"])

    def __subclasscheck__(cls, sub: Any) -> bool:
        return issubclass(sub, cls.__dict__["_real"])

    def __getattr__(cls, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(cls.__dict__["_real"], name)

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        np = sys.modules.get("numpy")
        if np is not None and args and isinstance(args[0], (np.ndarray, np.generic)) and args[0].dtype.hasobject:
            raise TypeError("sandbox: the bytes of an array of Python objects are not available")
        return cls.__dict__["_real"](*args, **kwargs)


def buffer_reader(real: type) -> type:
    """The stand-in for `real` (bytes) in a program's builtins."""
    return _BufferReader(real.__name__, (), {"_real": real, "__doc__": real.__doc__})


def fresh_random_state() -> None:
    """Reseed the stdlib and numpy global generators from the OS (in a freshly forked process)."""
    rnd = sys.modules.get("random")
    if rnd is not None:
        rnd.seed(os.urandom(16))
    np = sys.modules.get("numpy")
    if np is not None:
        np.random.seed(int.from_bytes(os.urandom(4), "little"))
