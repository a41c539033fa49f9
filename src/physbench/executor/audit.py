"""A Python audit hook (PEP 578) that refuses side effects inside a sandboxed program's process.

Installed after the program is compiled and before it runs; an audit hook cannot be removed from
Python code. It refuses every compile of source text (the road from sympify/lambdify strings to
eval), frame access (`tb_frame`, `gi_frame`, `f_code`...: the road from a traceback to real
builtins), rewriting a function's code or defaults, writes, process creation, sockets, ctypes,
pickles, whichever library the program reaches them through. Reads stay allowed so that
libraries may import lazily (Landlock narrows where).

The hook keeps no state and reads no global name: every table it consults is a default argument
(immutable frozensets and tuples), and rebinding a function's `__defaults__` or `__code__` is
itself an audited event that the hook refuses. Rebinding this module's names changes nothing.
"""

from __future__ import annotations

import os
import sys

DENIED = frozenset({
    "pickle.find_class", "marshal.dumps", "sys._getframe",
    "sys._current_frames", "sys._current_exceptions", "sys.settrace", "sys.setprofile",
    "sys._getframemodulename", "sys.addaudithook", "sys.set_asyncgen_hooks_firstiter",
    "sys.set_asyncgen_hooks_finalizer", "code.__new__", "function.__new__", "builtins.input",
    "builtins.breakpoint", "gc.get_objects", "gc.get_referrers", "gc.get_referents",
    "resource.setrlimit", "resource.prlimit", "_thread.start_new_thread", "signal.pthread_kill",
    "cpython.run_command", "cpython.run_file", "cpython.run_module", "cpython.run_startup",
    "cpython.run_interactivehook", "mmap.__new__", "tempfile.mkstemp", "tempfile.mkdtemp",
    "setopencookie", "compile", "cpython._PySys_ClearAuditHooks",
})
DENIED_PREFIXES = ("subprocess.", "socket.", "ctypes.", "shutil.", "pty.", "webbrowser.", "urllib.",
                   "http.", "ftplib.", "smtplib.", "poplib.", "imaplib.", "nntplib.", "telnetlib.",
                   "sqlite3.", "winreg.", "msvcrt.", "syslog.", "fcntl.", "glob.", "os.", "shelve.",
                   "dbm.", "multiprocessing.", "_posixsubprocess.")
ALLOWED_OS = frozenset({"os.listdir", "os.scandir", "os.walk", "os.fwalk", "os.listxattr", "os.getxattr"})
DENIED_IMPORTS = frozenset({"ctypes", "_ctypes", "subprocess", "_posixsubprocess", "socket", "_socket",
                            "pty", "multiprocessing", "_multiprocessing", "mmap", "pdb", "webbrowser",
                            "ssl", "_ssl", "gc", "code", "codeop", "marshal", "pickle", "_pickle", "runpy"})
# attribute reads that hand out frames (audited as object.__getattr__ by CPython)
FRAME_READS = frozenset({"tb_frame", "gi_frame", "cr_frame", "ag_frame", "f_code", "f_back", "f_globals",
                         "f_builtins", "f_locals"})
# attribute writes that would swap a function's code or defaults (this hook's among them)
FUNCTION_WRITES = frozenset({"__code__", "__defaults__", "__kwdefaults__", "__globals__", "__closure__"})
WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND


class SandboxViolation(PermissionError):
    """Raised into the program when it reaches an operation the sandbox refuses."""


def _hook(event, args, _denied=DENIED, _prefixes=DENIED_PREFIXES, _allowed_os=ALLOWED_OS,
          _imports=DENIED_IMPORTS, _frames=FRAME_READS, _writes=FUNCTION_WRITES, _flags=WRITE_FLAGS,
          _error=SandboxViolation, _str=str, _int=int, _len=len, _type=type):
    if event == "open":
        mode = args[1] if _len(args) > 1 else None
        flags = args[2] if _len(args) > 2 else 0
        if (_type(mode) is _str and ("w" in mode or "a" in mode or "x" in mode or "+" in mode)) \
                or (_type(flags) is _int and flags & _flags):
            raise _error("sandbox: opening files for writing is not allowed")
        return
    if event == "object.__getattr__":
        if _len(args) > 1 and args[1] in _frames:
            raise _error("sandbox: frame access is not allowed")
        return
    if event == "object.__setattr__":
        if _len(args) > 1 and args[1] in _writes:
            raise _error("sandbox: rewriting a function's code or defaults is not allowed")
        return
    if event == "import":
        top = _str(args[0]).split(".", 1)[0] if args else ""
        if top in _imports:
            raise _error(f"sandbox: importing {top} is not allowed")
        return
    if event in _denied:
        if event == "compile":
            raise _error("sandbox: compiling code at run time is not allowed")
        raise _error(f"sandbox: {event} is not allowed")
    if event.startswith(_prefixes) and event not in _allowed_os:
        raise _error(f"sandbox: {event} is not allowed")


def install() -> None:
    """Add the hook to this process (irreversible)."""
    sys.addaudithook(_hook)
