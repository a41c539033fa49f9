"""The warm parent: imports the policy's modules once, then forks one child per program.

Started by the pool as its own single-threaded interpreter with a scrubbed environment, so that
fork() is safe and a child inherits no secrets. Requests and replies are length-prefixed JSON on
stdin/stdout. One forked spare always waits, already locked down, for the next program. The
zygote enforces the wall clock (SIGKILL to the child's process group), reads at most a capped
reply, and takes CPU time and peak memory from wait4() when the child could not report them.
"""

from __future__ import annotations

import json
import math
import os
import resource
import select
import signal
import struct
import sys
import time
from typing import Any, BinaryIO

_HEADER = struct.Struct(">I")
MAX_REQUEST = 64 * 1024 * 1024


def read_message(stream: BinaryIO, limit: int = MAX_REQUEST) -> Any | None:
    """One framed JSON message, or None at end of stream."""
    head = stream.read(_HEADER.size)
    if len(head) < _HEADER.size:
        return None
    (size,) = _HEADER.unpack(head)
    if size > limit:
        raise ValueError(f"message of {size} bytes is over the {limit} byte limit")
    body = stream.read(size)
    if len(body) < size:
        return None
    return json.loads(body)


def write_message(stream: BinaryIO, message: Any) -> None:
    body = json.dumps(message, separators=(",", ":")).encode()
    stream.write(_HEADER.pack(len(body)) + body)
    stream.flush()


class Zygote:
    """Holds the prepared context and runs requests one at a time."""

    def __init__(self, policy: str, disabled: set[str]) -> None:
        import ctypes
        import gc

        from physbench.executor import child, layers, proxies, safe_sympify, warmup
        from physbench.executor.policy import SCIENTIFIC_DENIED

        self.policy = policy
        self.pending: int | None = None
        self.spare: tuple[int, int, int] | None = None
        self.proxy_map = proxies.build_proxies(policy)
        if policy == "scientific":
            safe_sympify.install(SCIENTIFIC_DENIED["sympy"])
        warmup.run(policy)
        importer = proxies.make_importer(self.proxy_map, policy)
        libc = ctypes.CDLL(None, use_errno=True)
        libc.syscall.restype = ctypes.c_long
        self.ctx = child.ChildContext(policy=policy, proxies=self.proxy_map, importer=importer, libc=libc)
        self.ctx.builtins = child.safe_builtins(importer)
        self.layers = layers.detect(self.ctx, disabled)
        for key in [k for k in os.environ if k != "TZ"]:  # children inherit only TZ=UTC
            del os.environ[key]
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past RLIMIT_FSIZE fails instead of killing
        gc.collect()
        gc.freeze()  # keep the collector from touching (and so copying) the parent's objects

    def hello(self) -> dict[str, Any]:
        threads = len(os.listdir("/proc/self/task"))
        layers = dict(self.layers, fork_server={
            "active": threads == 1,
            "detail": f"one process forked per program from a warm parent with {threads} thread(s)"})
        return {"ready": True, "pid": os.getpid(), "policy": self.policy, "layers": layers}

    def _spawn_spare(self) -> None:
        """Fork the process that will run the next program; it locks itself down while it waits."""
        from physbench.executor import child

        req_r, req_w = os.pipe()
        rep_r, rep_w = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: never returns
            os.close(req_w)
            os.close(rep_r)
            child.serve(self.ctx, req_r, rep_w)
        os.close(req_r)
        os.close(rep_w)
        try:
            os.setpgid(pid, pid)
        except OSError:
            pass  # the child already did it, or already exited
        self.spare = (pid, req_w, rep_r)

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        """Hand the request to the spare, enforce the wall clock, and collect the reply."""
        limits = request["limits"]
        cap = int(limits["max_value_chars"]) + 4 * int(limits["max_output_chars"]) + 65_536
        data = json.dumps(request, separators=(",", ":")).encode()
        for attempt in (1, 2):
            if self.spare is None:
                self._spawn_spare()
            assert self.spare is not None
            pid, req_w, rep_r = self.spare
            self.spare = None
            start = time.monotonic()
            deadline = start + float(limits["wall_s"])
            if _set_limits(pid, limits) and _send(req_w, data, deadline):
                break
            os.close(rep_r)  # the spare died before taking the request: replace it once
            _kill_and_reap(pid)
        else:
            return {"reply": None, "killed": None, "wall_s": 0.0, "cpu_s": 0.0, "max_rss_mb": 0.0,
                    "exit": {"code": None, "error": "sandbox process would not take the program"}}
        reply, killed = _collect(rep_r, pid, deadline, cap)
        wall = time.monotonic() - start
        os.close(rep_r)
        try:
            os.killpg(pid, signal.SIGKILL)  # anything left in the group; the zombie holds the id
        except OSError:
            pass
        if reply is not None:  # the child reported its own usage; reap it after answering
            self.pending = pid
            return {"reply": reply, "killed": None, "wall_s": wall}
        _, wait_status, usage = os.wait4(pid, 0)
        _reap_strays()
        return {"reply": None, "killed": killed, "wall_s": wall, "cpu_s": usage.ru_utime + usage.ru_stime,
                "max_rss_mb": usage.ru_maxrss / 1024.0, "exit": _describe_exit(wait_status)}

    def reap(self) -> None:
        """After answering: wait for the last child's teardown, then fork the next spare."""
        if self.pending is not None:
            os.waitpid(self.pending, 0)
            self.pending = None
        _reap_strays()
        if self.spare is None:
            self._spawn_spare()

    def close(self) -> None:
        if self.spare is not None:
            pid, req_w, rep_r = self.spare
            self.spare = None
            os.close(req_w)
            os.close(rep_r)
            _kill_and_reap(pid)


def _set_limits(pid: int, limits: dict[str, Any]) -> bool:
    """Cap the spare's address space (its current size plus the program's allowance) and CPU."""
    try:
        with open(f"/proc/{pid}/statm", "rb") as f:
            vm = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        memory = vm + int(limits["memory_mb"]) * 1024 * 1024
        cpu = max(1, math.ceil(float(limits["cpu_s"])))
        resource.prlimit(pid, resource.RLIMIT_AS, (memory, memory))
        resource.prlimit(pid, resource.RLIMIT_CPU, (cpu, cpu + 1))
        return True
    except (OSError, ValueError):
        return False


def _send(fd: int, data: bytes, deadline: float) -> bool:
    """Write the request and close the pipe; False if the spare is gone or never reads it."""
    os.set_blocking(fd, False)
    try:
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(fd, view):]
            except BlockingIOError:
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([], [fd], [], left)[1]:
                    return False
        return True
    except OSError:  # EPIPE: the spare died
        return False
    finally:
        os.close(fd)


def _kill_and_reap(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:
        pass
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass


def _collect(rfd: int, pid: int, deadline: float, cap: int) -> tuple[str | None, str | None]:
    """Read the reply until EOF; kill the group at the deadline or when the reply is too long."""
    chunks: list[bytes] = []
    size = 0
    poller = select.poll()
    poller.register(rfd, select.POLLIN | select.POLLHUP)
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            os.killpg(pid, signal.SIGKILL)
            return None, "timeout"
        if not poller.poll(max(1, int(left * 1000))):
            continue
        data = os.read(rfd, 1 << 16)
        if not data:
            break
        size += len(data)
        if size > cap:
            os.killpg(pid, signal.SIGKILL)
            return None, "reply_too_long"
        chunks.append(data)
    return (b"".join(chunks).decode("utf-8", "replace") if chunks else None), None


def _describe_exit(status: int) -> dict[str, Any]:
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        try:
            name = signal.Signals(sig).name
        except ValueError:
            name = f"signal {sig}"
        return {"signal": sig, "name": name}
    return {"code": os.WEXITSTATUS(status) if os.WIFEXITED(status) else None}


def _reap_strays() -> None:
    """Collect any orphan that ended up as our child (should never happen; cheap to make sure)."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def main() -> None:
    """`python -c ...zygote.main()` POLICY DISABLED_LAYERS: serve requests until stdin closes."""
    policy = sys.argv[1]
    disabled = set(filter(None, sys.argv[2].split(","))) if len(sys.argv) > 2 else set()
    # the protocol owns the real stdout; stray prints from libraries go to stderr instead
    proto_out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    proto_in = sys.stdin.buffer
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        zygote = Zygote(policy, disabled)
    except BaseException as exc:
        write_message(proto_out, {"ready": False, "error": f"{type(exc).__name__}: {exc}"})
        raise
    zygote.reap()  # fork the first spare
    write_message(proto_out, zygote.hello())
    while True:
        try:
            request = read_message(proto_in)
        except ValueError as exc:
            write_message(proto_out, {"error": str(exc)})
            return
        if request is None or request.get("quit"):
            zygote.close()
            return
        write_message(proto_out, zygote.handle(request))
        zygote.reap()
