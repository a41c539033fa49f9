"""Which isolation layers this host supports, verified by trying them.

At start-up the warm parent forks one probe process per kernel layer (seccomp, Landlock). Each
installs only its layer and then attempts what the layer must stop: write a file, read a file
outside the interpreter's directories, open a socket and connect, fork, exec, signal the parent.
A layer is reported active only if it installed; `blocks` lists what it was seen to stop.
Programs then run with every active layer; the Python-level layers are always on.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from typing import Any

from physbench.executor import landlock, seccomp

KERNEL_LAYERS = ("seccomp", "landlock")
EXPECTED_BLOCKS = {
    "seccomp": ("write_file", "socket", "fork", "exec", "signal_parent"),
    "landlock": ("write_file", "read_outside", "exec"),
}


def read_roots() -> list[str]:
    """Directories (and a few files) the interpreter may need to read after the fork."""
    roots = {os.path.realpath(p) for p in sys.path if p and os.path.isdir(p)}
    roots |= {os.path.realpath(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)}
    for extra in ("/usr/lib", "/usr/lib64", "/lib", "/lib64", "/usr/local/lib", "/etc/ld.so.cache",
                  "/usr/share/zoneinfo", "/etc/localtime"):
        if os.path.exists(extra):
            roots.add(os.path.realpath(extra))
    return sorted(roots)


def detect(ctx: Any, disabled: set[str]) -> dict[str, Any]:
    """Probe the kernel layers, record them in `ctx`, and describe every layer."""
    report: dict[str, Any] = {
        "static_checks": {"active": True, "detail": "AST policy: names, attributes, imports, syntax"},
        "proxy_modules": {"active": True, "detail": "imports return allow-listed proxies only"},
        "builtins_allowlist": {"active": True, "detail": "no reflection, dynamic code or I/O builtins"},
        "audit_hook": {"active": True, "detail": "refuses compile, writes, processes, sockets, ctypes"},
        "line_cap": {"active": True, "detail": "counter compiled into the program"},
        "rlimits": {"active": True, "detail": "address space, CPU, core 0, file size 0, files, processes"},
        "wall_clock_kill": {"active": True, "detail": "SIGKILL to the program's process group"},
    }
    tmp = tempfile.mkdtemp(prefix="physbench-probe-")
    try:
        with open(os.path.join(tmp, "outside.txt"), "w") as f:
            f.write("probe")
        for layer in KERNEL_LAYERS:
            report[layer] = _detect_one(layer, ctx, disabled, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return report


def _detect_one(layer: str, ctx: Any, disabled: set[str], tmp: str) -> dict[str, Any]:
    if layer in disabled:
        return {"active": False, "detail": "disabled by PHYSBENCH_SANDBOX_DISABLE", "blocks": []}
    if layer == "landlock":
        try:
            ctx.landlock_fd, abi = landlock.build_ruleset(read_roots())
        except OSError as exc:
            return {"active": False, "detail": f"unavailable: {exc}", "blocks": []}
        detail = f"ABI {abi}: read-only beneath the interpreter's directories"
    else:
        if seccomp.machine() is None:
            return {"active": False, "detail": "unavailable: no syscall table for this machine", "blocks": []}
        detail = f"BPF filter for {seccomp.machine()}"
    outcome = _probe(layer, ctx, tmp)
    if "installed" not in outcome:
        if layer == "landlock" and ctx.landlock_fd is not None:
            os.close(ctx.landlock_fd)
            ctx.landlock_fd = None
        return {"active": False, "detail": f"unavailable: {outcome.get('error', 'probe failed')}", "blocks": []}
    if layer == "seccomp":
        ctx.seccomp = seccomp.Prepared(ctx.libc)
    blocks = sorted(k for k, v in outcome.items() if v == "blocked")
    missing = [b for b in EXPECTED_BLOCKS[layer] if b not in blocks]
    if missing:
        detail += f"; did not stop: {', '.join(missing)}"
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
        except PermissionError:
            say(key, "blocked")
        except OSError as exc:
            say(key, f"allowed ({exc.strerror})")

    attempt("write_file", lambda: open(os.path.join(tmp, f"written-{layer}"), "w").close())
    attempt("read_outside", lambda: open(os.path.join(tmp, "outside.txt")).read())

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
    attempt("signal_parent", lambda: os.kill(parent, 0))
    attempt("exec", lambda: os.execv(sys.executable, [sys.executable, "-c", "pass"]))
