"""A Python audit hook (PEP 578) that refuses side effects inside a sandboxed program's process.

Installed before the program arrives; an audit hook cannot be removed from Python code. It
refuses compiling source text (the road from sympify/lambdify strings to eval; only the sandbox's
own compile of the checked program gets through), writes, process creation, sockets, ctypes,
pickles and frame/trace access, whichever library the program reaches them through. Reads stay
allowed so that libraries may import lazily.
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Any, Iterator

_DENIED = frozenset({
    "pickle.find_class", "marshal.dumps", "sys._getframe", "sys._current_frames",
    "sys.settrace", "sys.setprofile", "sys._getframemodulename", "sys.addaudithook",
    "sys.set_asyncgen_hooks_firstiter", "sys.set_asyncgen_hooks_finalizer", "code.__new__",
    "function.__new__", "builtins.input", "builtins.breakpoint", "gc.get_objects", "gc.get_referrers",
    "gc.get_referents", "resource.setrlimit", "resource.prlimit", "_thread.start_new_thread",
    "signal.pthread_kill", "cpython.run_command", "cpython.run_file", "cpython.run_module",
    "cpython.run_startup", "cpython.run_interactivehook", "mmap.__new__", "tempfile.mkstemp",
    "tempfile.mkdtemp", "setopencookie",
})
_DENIED_PREFIXES = ("subprocess.", "socket.", "ctypes.", "shutil.", "pty.", "webbrowser.", "urllib.",
                    "http.", "ftplib.", "smtplib.", "poplib.", "imaplib.", "nntplib.", "telnetlib.",
                    "sqlite3.", "winreg.", "msvcrt.", "syslog.", "fcntl.", "glob.", "os.", "shelve.",
                    "dbm.", "multiprocessing.")
_ALLOWED_OS = frozenset({"os.listdir", "os.scandir", "os.walk", "os.fwalk", "os.listxattr", "os.getxattr"})
_DENIED_IMPORTS = frozenset({"ctypes", "_ctypes", "subprocess", "_posixsubprocess", "socket", "_socket",
                             "pty", "multiprocessing", "_multiprocessing", "mmap", "pdb", "webbrowser",
                             "ssl", "_ssl"})
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND


class SandboxViolation(PermissionError):
    """Raised into the program when it reaches an operation the sandbox refuses."""


_compile_allowed = [False]  # true only inside allow_compile(), while no program code runs


@contextlib.contextmanager
def allow_compile() -> Iterator[None]:
    """Let our own parse/compile through: the checked program before it runs, or the syntax
    tree safe_sympify walks (compiling an AST reports no file name, so none is checked)."""
    _compile_allowed[0] = True
    try:
        yield
    finally:
        _compile_allowed[0] = False


def _hook(event: str, args: tuple[Any, ...]) -> None:
    if event == "compile":
        if not _compile_allowed[0]:
            raise SandboxViolation("sandbox: compiling code at run time is not allowed")
        return
    if event == "open":
        mode = args[1] if len(args) > 1 else None
        flags = args[2] if len(args) > 2 else 0
        if (isinstance(mode, str) and any(c in mode for c in "wax+")) or (isinstance(flags, int) and flags & _WRITE_FLAGS):
            raise SandboxViolation("sandbox: opening files for writing is not allowed")
        return
    if event == "import":
        top = str(args[0]).split(".", 1)[0] if args else ""
        if top in _DENIED_IMPORTS:
            raise SandboxViolation(f"sandbox: importing {top} is not allowed")
        return
    if event in _DENIED or (event.startswith(_DENIED_PREFIXES) and event not in _ALLOWED_OS):
        raise SandboxViolation(f"sandbox: {event} is not allowed")


def install() -> None:
    """Add the hook to this process (irreversible)."""
    sys.addaudithook(_hook)
