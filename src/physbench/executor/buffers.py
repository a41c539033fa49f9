"""Arrays holding Python objects export no buffer (issue 33 item 2), whoever asks.

An object array's bytes are pointers, and every consumer of the buffer protocol copies them out:
`bytes(a)`, `str(a, "latin-1")`, `int.from_bytes(a)`, `b"".join([a])`, `b"%b" % a`, `a in b"..."`,
`b"...".find(a)`, `np.bytes_(a)`, memoryviews. Wrapping each consumer cannot be complete (bytes
literals carry a dozen such methods), so the warm parent interposes where they all meet: the
`bf_getbuffer` slot of `numpy.ndarray`, of numpy's scalar types and of every subclass present
(later subclasses inherit the slot). The interposed function refuses any array or scalar whose
dtype holds references (object fields, StringDType) and calls numpy's own for the rest.

The refusal returns -1 without a Python exception (a ctypes callback cannot leave one set): the
consumer then raises its own TypeError or a SystemError. A buffer numpy itself refuses (a
read-only array asked for writable memory) surfaces the same way. The original functions are
called through ctypes, so the audit hook allows exactly these function addresses (`calls()`).
"""

from __future__ import annotations

import ctypes
import sys
from typing import Any, Callable

_PTR = ctypes.sizeof(ctypes.c_void_p)
# PyTypeObject: tp_as_buffer is the 21st pointer-sized field, tp_flags the 22nd (CPython 3.x)
_AS_BUFFER, _FLAGS = 20 * _PTR, 21 * _PTR
_SIGNATURE = (ctypes.c_int, ctypes.py_object, ctypes.c_void_p, ctypes.c_int)
_CALLBACK = ctypes.CFUNCTYPE(*_SIGNATURE)   # called by C with the GIL held
_ORIGINAL = ctypes.PYFUNCTYPE(*_SIGNATURE)  # numpy's function, called keeping the GIL


class _Procs(ctypes.Structure):
    _fields_ = [("getbuffer", ctypes.c_void_p), ("releasebuffer", ctypes.c_void_p)]


_installed: list[Any] = []  # thunks and slot tables kept alive for the life of the process
_calls: set[int] = set()     # numpy's own functions the thunks call
_ours: set[int] = set()      # the thunks (a type already changed is left as it is)


def calls() -> frozenset[int]:
    """Addresses of numpy's getbuffer functions the interposed slots call (for the audit hook)."""
    return frozenset(_calls)


def refuse_object_buffers() -> int:
    """Interpose on numpy's buffer export in this process; return how many types were changed.
    Does nothing without numpy loaded; raises RuntimeError where the type layout is not CPython's."""
    np = sys.modules.get("numpy")
    if np is None:
        return 0
    for known in (int, bytes, np.ndarray, np.generic):
        if ctypes.c_ulong.from_address(id(known) + _FLAGS).value != known.__flags__:
            raise RuntimeError("unexpected type layout: cannot guard numpy's buffer export")
    thunks: dict[tuple[int, int], Any] = {}
    changed = 0
    for root, dtype_of in ((np.ndarray, np.ndarray.dtype.__get__), (np.generic, np.generic.dtype.__get__)):
        for cls in _subclasses(root):
            slot = ctypes.c_void_p.from_address(id(cls) + _AS_BUFFER)
            if not slot.value:
                continue
            procs = _Procs.from_address(slot.value)
            if not procs.getbuffer or procs.getbuffer in _ours:
                continue
            key = (procs.getbuffer, id(root))
            if key not in thunks:
                callback = _CALLBACK(_refusing(_ORIGINAL(procs.getbuffer), dtype_of))
                table = _Procs(ctypes.cast(callback, ctypes.c_void_p).value, procs.releasebuffer)
                thunks[key] = (callback, table)
                _ours.add(table.getbuffer)
                _installed.append(thunks[key])
                _calls.add(procs.getbuffer)
            slot.value = ctypes.addressof(thunks[key][1])
            changed += 1
    return changed


def _refusing(original: Callable[..., int], dtype_of: Callable[[Any], Any]) -> Callable[[Any, int, int], int]:
    def getbuffer(obj: Any, view: int, flags: int) -> int:
        try:
            if dtype_of(obj).hasobject:
                return -1
            return original(obj, view, flags)
        except BaseException:  # numpy refused (its message cannot cross the callback) or no dtype
            return -1
    return getbuffer


def _subclasses(root: type) -> list[type]:
    seen: list[type] = []
    todo = [root]
    while todo:
        cls = todo.pop()
        if cls not in seen:
            seen.append(cls)
            todo.extend(type.__subclasses__(cls))
    return seen
