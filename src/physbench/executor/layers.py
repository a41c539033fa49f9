"""Which isolation layers this host supports, verified by trying them, and which are required.

At start-up the warm parent forks one probe process per kernel layer (namespaces, seccomp,
Landlock). Each installs only its layer and then attempts what the layer must stop: write a
file, read a file outside the interpreter's directories, connect a socket, fork, exec, signal the
parent. A layer is reported active only if it installed; `blocks` lists what it was seen to stop.
Every policy relies on REQUIRED layers: when one is missing the pool refuses to run programs
unless the caller explicitly allowed it (`Executor(..., allow_missing_layers=...)`).
`PHYSBENCH_SANDBOX_DISABLE=seccomp,landlock,namespaces,pid_namespace` simulates missing layers.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import sys
import sysconfig
import tempfile
from typing import Any

from physbench.executor import landlock, namespaces, seccomp

KERNEL_LAYERS = ("namespaces", "pid_namespace", "seccomp", "landlock")
# the layers a policy relies on: without them a Python-level escape would reach the host
REQUIRED = {"strict": ("namespaces", "seccomp", "landlock"),
            "scientific": ("namespaces", "seccomp", "landlock"),
            "symbolic": ("namespaces", "seccomp", "landlock")}
EXPECTED_BLOCKS = {
    "namespaces": ("write_file", "socket", "read_proc"),
    "pid_namespace": (),
    "seccomp": ("write_file", "socket", "fork", "exec", "signal_parent", "setpgid"),
    "landlock": ("write_file", "read_outside", "exec", "read_proc"),
}
_BLOCKED_ERRNOS = {errno.EPERM, errno.EACCES, errno.EROFS, errno.ENETUNREACH, errno.EHOSTUNREACH,
                   errno.EAFNOSUPPORT, errno.ESRCH, errno.ENOENT}
_SCIENTIFIC_PACKAGES = ("numpy", "scipy", "sympy", "mpmath")
_LIBRARY_DIRS = ("/usr/lib", "/usr/lib64", "/lib", "/lib64", "/usr/local/lib")
_DATA_FILES = ("/etc/ld.so.cache", "/usr/share/zoneinfo", "/etc/localtime")


def read_roots(policy: str = "scientific") -> list[str]:
    """What a program's process may read: the standard library without its site-packages, the
    policy's packages (numpy, scipy, sympy, mpmath and their vendored libraries), the system's
    shared-library folders and time zones. Not a site-packages folder as a whole, not another
    Python's packages, not the project tree (issue 33: inside a virtual environment `platstdlib`
    is the venv's lib folder, which holds all of site-packages)."""
    roots: set[str] = set()
    for stdlib in _stdlib_dirs():
        for entry in os.scandir(stdlib):
            if entry.name not in ("site-packages", "dist-packages"):
                roots.add(os.path.realpath(entry.path))
    if policy in ("scientific", "symbolic"):
        for name in (_SCIENTIFIC_PACKAGES if policy == "scientific" else ("sympy", "mpmath")):
            pkg = package_dir(name)
            if pkg is None:
                continue
            roots.add(pkg)
            libs = pkg + ".libs"  # vendored shared libraries of manylinux wheels
            if os.path.isdir(libs):
                roots.add(libs)
    for folder in _LIBRARY_DIRS:
        if os.path.isdir(folder):
            roots.update(os.path.realpath(e.path) for e in os.scandir(folder) if _shared_library(e.name))
    roots.update(os.path.realpath(p) for p in _DATA_FILES if os.path.exists(p))
    return sorted(roots)


def _stdlib_dirs() -> set[str]:
    """The base interpreter's standard library folders (never a venv's lib folder)."""
    base = {"base": sys.base_prefix, "platbase": sys.base_exec_prefix, "installed_base": sys.base_prefix,
            "installed_platbase": sys.base_exec_prefix}
    paths = sysconfig.get_paths(vars=base)
    return {os.path.realpath(paths[k]) for k in ("stdlib", "platstdlib") if os.path.isdir(paths.get(k, ""))}


def package_dir(name: str) -> str | None:
    """The folder of an installed top-level package, found without importing it."""
    from importlib.util import find_spec

    module = sys.modules.get(name)
    try:
        spec = find_spec(name) if module is None else getattr(module, "__spec__", None)
    except (ImportError, ValueError):
        return None
    locations = list(getattr(spec, "submodule_search_locations", None) or ())
    return os.path.realpath(locations[0]) if locations else None


def _shared_library(name: str) -> bool:
    """Multiarch library folders, shared objects and the dynamic loader; not python*/node folders."""
    return "-linux-" in name or ".so" in name or name.startswith("ld-")


def detect(ctx: Any, disabled: set[str], policy: str = "strict") -> dict[str, Any]:
    """Probe the kernel layers, record them in `ctx`, and describe every layer."""
    report: dict[str, Any] = {
        "static_checks": {"active": True, "detail": "AST policy: names, attributes, imports, syntax"},
        "proxy_modules": {"active": True, "detail": "imports return allow-listed proxies only"},
        "builtins_allowlist": {"active": True, "detail": "no reflection, dynamic code or I/O builtins"},
        "runtime_guards": {"active": True, "detail": "keyword-name checks, library gadget guards"},
        "audit_hook": {"active": True, "detail": "refuses compile, frames, writes, processes, sockets, ctypes"},
        "line_cap": {"active": True, "detail": "counter compiled into the program"},
        "rlimits": {"active": True, "detail": "address space, CPU, core 0, file size 0, files, processes"},
        "wall_clock_kill": {"active": True, "detail": "SIGKILL to the program's process and group"},
    }
    roots = read_roots(policy)
    tmp = tempfile.mkdtemp(prefix="physbench-probe-")
    try:
        with open(os.path.join(tmp, "outside.txt"), "w") as f:
            f.write("probe")
        for layer in KERNEL_LAYERS:
            report[layer] = _detect_one(layer, ctx, disabled, tmp, roots)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return report


def missing(report: dict[str, Any], policy: str) -> list[str]:
    """The required layers of `policy` that are not active, each as 'name (why)'."""
    return [f"{name} ({report.get(name, {}).get('detail', 'not probed')})" for name in REQUIRED[policy]
            if not report.get(name, {}).get("active")]


def _detect_one(layer: str, ctx: Any, disabled: set[str], tmp: str, roots: list[str]) -> dict[str, Any]:
    if layer in disabled:
        return {"active": False, "detail": "disabled by PHYSBENCH_SANDBOX_DISABLE", "blocks": []}
    if layer == "pid_namespace":
        why = namespaces.probe_pid_namespace(ctx.libc)
        if why:
            return {"active": False, "detail": f"unavailable: {why}", "blocks": []}
        ctx.pid_namespace = True
        return {"active": True, "detail": "each program is PID 1 of a new PID namespace", "blocks": []}
    if layer == "landlock":
        try:
            ctx.landlock_fd, abi = landlock.build_ruleset(roots)
        except OSError as exc:
            return {"active": False, "detail": f"unavailable: {exc}", "blocks": []}
        detail = f"ABI {abi}: read-only beneath {len(roots)} roots (stdlib, policy packages, shared libraries)"
    elif layer == "namespaces":
        ctx.namespaces = namespaces.Prepared(ctx.libc, pid_namespace=False, keep=tuple(roots))
        detail = "user, mount (read-only, /proc and temp dirs hidden), network, IPC and UTS namespaces"
        if ctx.shared_net:  # network/IPC/UTS: the warm parent's own empty ones, made once
            ctx.namespaces.flags = namespaces.CLONE_NEWUSER | namespaces.CLONE_NEWNS
            detail += " (network, IPC, UTS shared with the warm parent, which has none)"
    else:
        if seccomp.machine() is None:
            return {"active": False, "detail": "unavailable: no syscall table for this machine", "blocks": []}
        detail = f"BPF filter for {seccomp.machine()}"
    outcome = _probe(layer, ctx, tmp)
    if "installed" not in outcome:
        if layer == "landlock" and ctx.landlock_fd is not None:
            os.close(ctx.landlock_fd)
            ctx.landlock_fd = None
        if layer == "namespaces":
            ctx.namespaces = None
        return {"active": False, "detail": f"unavailable: {outcome.get('error', 'probe failed')}", "blocks": []}
    if layer == "seccomp":
        ctx.seccomp = seccomp.Prepared(ctx.libc)
    blocks = sorted(k for k, v in outcome.items() if v == "blocked")
    lacking = [b for b in EXPECTED_BLOCKS[layer] if b not in blocks]
    if lacking:
        detail += f"; did not stop: {', '.join(lacking)}"
    return {"active": True, "detail": detail, "blocks": blocks}


def _probe(layer: str, ctx: Any, tmp: str) -> dict[str, str]:
    """Fork a process that installs `layer` alone and tries each forbidden action."""
    rfd, wfd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(rfd)
        try:
            _probe_child(layer, ctx, tmp, wfd)
        finally:
            os._exit(0)
    os.close(wfd)
    data = b""
    while True:
        chunk = os.read(rfd, 65536)
        if not chunk:
            break
        data += chunk
    os.close(rfd)
    os.waitpid(pid, 0)
    out: dict[str, str] = {}
    for line in data.decode(errors="replace").splitlines():
        try:
            out.update(json.loads(line))
        except ValueError:
            pass
    if "installed" in out and "exec" not in out:
        out["exec"] = "allowed"  # the exec succeeded and replaced the probe
    return out


def _probe_child(layer: str, ctx: Any, tmp: str, wfd: int) -> None:
    import socket

    def say(key: str, value: str) -> None:
        os.write(wfd, (json.dumps({key: value}) + "\n").encode())

    parent = os.getppid()
    try:
        if layer == "seccomp":
            seccomp.install(os.getpid())
        elif layer == "namespaces":
            ctx.namespaces.enter()
        else:
            landlock.restrict_self(ctx.landlock_fd)
    except OSError as exc:
        say("error", str(exc))
        return
    say("installed", "yes")

    def attempt(key: str, action: Any) -> None:
        try:
            action()
            say(key, "allowed")
        except OSError as exc:
            say(key, "blocked" if exc.errno in _BLOCKED_ERRNOS else f"allowed ({exc.strerror})")

    attempt("write_file", lambda: open(os.path.join(tmp, f"written-{layer}"), "w").close())
    attempt("read_outside", lambda: open(os.path.join(tmp, "outside.txt")).read())
    attempt("read_proc", lambda: open(f"/proc/{parent}/environ", "rb").read())

    def connect() -> None:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            s.settimeout(0.5)
            s.connect(("127.0.0.1", 9))

    attempt("socket", connect)

    def fork() -> None:
        child = os.fork()
        if child == 0:
            os._exit(0)
        os.waitpid(child, 0)

    attempt("fork", fork)
    attempt("setpgid", lambda: os.setpgid(0, 0))
    attempt("signal_parent", lambda: os.kill(parent, 0))
    attempt("exec", lambda: os.execv(sys.executable, [sys.executable, "-c", "pass"]))
