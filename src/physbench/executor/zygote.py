"""The warm parent: imports the policy's modules once, then forks one child per program.

Started by the pool as its own single-threaded interpreter with a scrubbed environment, so that
fork() is safe and a child inherits no secrets. The protocol (wire.py) is framed on stdin/stdout:
a small control message (limits, payload size), then the caller's payload, which is moved to the
child with splice(2) and never parsed or held here; the child's reply is moved back the same way.
One forked spare always waits, already locked down, for the next program. The zygote enforces the
wall clock, kills the whole job (the process, its group, and with a PID namespace everything in
it) on every exit path, reads at most a capped reply, and takes CPU time and peak memory from
wait4() when the child could not report them. Nothing here raises out of the request loop.
"""

from __future__ import annotations

import math
import os
import resource
import select
import signal
import sys
import time
from typing import Any, NoReturn

from physbench.executor import wire


class Zygote:
    """Holds the prepared context and runs requests one at a time."""

    def __init__(self, policy: str, disabled: set[str]) -> None:
        import ctypes
        import gc

        from physbench.executor import child, gadgets, guards, judges, lambdify, layers, namespaces, proxies, warmup

        self.policy = policy
        self.pending: int | None = None
        self.spare: tuple[int, int, int] | None = None
        if policy in ("scientific", "symbolic"):  # before the proxies copy the libraries' names
            gadgets.install_scientific(with_scipy=policy == "scientific")
        self.proxy_map = proxies.build_proxies(policy)
        if policy in ("scientific", "symbolic"):  # lambdify resolves function names in the proxies only
            lambdify.use_modules(self.proxy_map)
        warmup.run(policy)
        importer = proxies.make_importer(self.proxy_map, policy)
        libc = ctypes.CDLL(None, use_errno=True)
        libc.syscall.restype = ctypes.c_long
        self.ctx = child.ChildContext(policy=policy, proxies=self.proxy_map, importer=importer, libc=libc,
                                      judges=judges.load(policy), read_only=guards.read_only_ids(self.proxy_map))
        self.ctx.builtins = child.safe_builtins(importer)
        self.subreaper = namespaces.become_subreaper(libc)
        # the probes below then see exactly what programs get
        self.ctx.shared_net = "namespaces" not in disabled and namespaces.isolate_parent(libc)
        self.layers = layers.detect(self.ctx, disabled, policy)
        self.forker = namespaces.Prepared(libc, pid_namespace=True) if self.ctx.pid_namespace else None
        for key in [k for k in os.environ if k != "TZ"]:  # children inherit only TZ=UTC
            del os.environ[key]
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past RLIMIT_FSIZE fails instead of killing
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
        try:
            pid = self.forker.fork() if self.forker is not None else os.fork()
        except OSError:
            pid = os.fork()  # no new PID namespace this time; every other layer still applies
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

    def handle(self, control: dict[str, Any], in_fd: int, out_fd: int) -> dict[str, Any]:
        """Hand the request to the spare, enforce the wall clock, forward the reply; return meta."""
        limits = control["limits"]
        size = int(control["payload"])
        cap = int(limits["max_value_chars"]) + 4 * int(limits["max_output_chars"]) + 65_536
        header = wire.HEADER.pack(0)
        for attempt in (1, 2):
            if self.spare is None:
                self._spawn_spare()
            assert self.spare is not None
            pid, req_w, rep_r = self.spare
            self.spare = None
            start = time.monotonic()
            deadline = start + float(limits["wall_s"])
            if _set_limits(pid, limits) and _send_control(req_w, control):
                break
            os.close(req_w)
            os.close(rep_r)
            kill_job(pid)
            _reap(pid)
        else:
            _drain(in_fd, size)  # drop the payload unread
            wire.write_all(out_fd, header)
            return {"killed": None, "wall_s": 0.0, "cpu_s": 0.0, "max_rss_mb": 0.0,
                    "exit": {"code": None, "error": "sandbox process would not take the program"}}
        moved = _forward_payload(in_fd, req_w, size)
        os.close(req_w)
        if moved < size:  # the caller went away mid-request
            kill_job(pid)
            os.close(rep_r)
            _reap(pid)
            raise wire.WireError("request truncated")
        killed = _forward_reply(rep_r, out_fd, pid, deadline, cap)
        wall = time.monotonic() - start
        os.close(rep_r)
        kill_job(pid)  # whatever it does after replying, the job is over
        if killed is None:
            self.pending = pid  # the child reported its own usage; reap it after answering
            return {"killed": None, "wall_s": wall, "replied": True}
        usage, status = _reap(pid)
        return {"killed": killed if killed != "no_reply" else None, "wall_s": wall,
                "cpu_s": usage.ru_utime + usage.ru_stime if usage else 0.0,
                "max_rss_mb": usage.ru_maxrss / 1024.0 if usage else 0.0, "exit": _describe_exit(status)}

    def reap(self) -> None:
        """After answering: collect the last child, then fork the next spare."""
        if self.pending is not None:
            _reap(self.pending)
            self.pending = None
        _reap_strays()
        if self.spare is None:
            self._spawn_spare()

    def close(self) -> None:
        if self.spare is not None:
            pid, req_w, rep_r = self.spare
            self.spare = None
            for fd in (req_w, rep_r):
                try:
                    os.close(fd)
                except OSError:
                    pass
            kill_job(pid)
            _reap(pid)


def _drain(in_fd: int, size: int) -> int:
    """Discard `size` bytes of the caller's stream without reading them into memory."""
    with open(os.devnull, "wb") as sink:
        return wire.move(in_fd, sink.fileno(), size)


def kill_job(pid: int) -> None:
    """SIGKILL the program's process and its process group; never raises."""
    for kill, target in ((os.kill, pid), (os.killpg, pid)):
        try:
            kill(target, signal.SIGKILL)
        except OSError:  # already gone (ProcessLookupError) or not ours
            pass


def _reap(pid: int) -> tuple[Any, int]:
    """Wait for a killed (or exiting) child; (rusage or None, wait status). Never raises."""
    try:
        _, status, usage = os.wait4(pid, 0)
        return usage, status
    except ChildProcessError:
        return None, 0
    except OSError:
        return None, 0


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


def _send_control(fd: int, control: dict[str, Any]) -> bool:
    try:
        wire.write_json(fd, control)
        return True
    except OSError:  # EPIPE: the spare died
        return False


def _forward_payload(in_fd: int, req_w: int, size: int) -> int:
    """Move the caller's payload into the child's pipe; a dead child's share is drained."""
    try:
        return wire.move(in_fd, req_w, size)
    except OSError:
        return _drain(in_fd, size)


def _forward_reply(rfd: int, out_fd: int, pid: int, deadline: float, cap: int) -> str | None:
    """Move the child's framed reply to the caller as one frame; None when it came whole, else why
    not ('timeout', 'reply_too_long', 'no_reply'). A short reply is padded so framing holds."""
    try:
        head = wire.read_exact(rfd, wire.HEADER.size, deadline)
    except wire.WireError as exc:
        kill_job(pid)
        wire.write_all(out_fd, wire.HEADER.pack(0))
        return "timeout" if "timed out" in str(exc) else "no_reply"
    except OSError:
        kill_job(pid)
        wire.write_all(out_fd, wire.HEADER.pack(0))
        return "no_reply"
    (size,) = wire.HEADER.unpack(head)
    if size > cap:
        kill_job(pid)
        wire.write_all(out_fd, wire.HEADER.pack(0))
        return "reply_too_long"
    wire.write_all(out_fd, head)
    moved = 0
    why = None
    while moved < size:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([rfd], [], [], left)[0]:
            why = "timeout"
            break
        try:
            k = os.splice(rfd, out_fd, size - moved)
        except OSError:
            why = "no_reply"
            break
        if k == 0:
            why = "no_reply"
            break
        moved += k
    if why:
        kill_job(pid)
        while moved < size:  # keep the caller's framing whole; it discards this reply
            n = min(size - moved, 1 << 16)
            wire.write_all(out_fd, bytes(n))
            moved += n
    return why


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
    """Collect any orphan re-parented to us (we are a subreaper); kill it first."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        except OSError:
            return
        if pid == 0:
            return


def main() -> None:
    """`python -c ...zygote.main()` POLICY DISABLED_LAYERS: serve requests until stdin closes."""
    policy = sys.argv[1]
    disabled = set(filter(None, sys.argv[2].split(","))) if len(sys.argv) > 2 else set()
    # the protocol owns the real stdout; stray prints from libraries go to stderr instead
    out_fd = os.dup(1)
    os.dup2(2, 1)
    in_fd = 0
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        zygote = Zygote(policy, disabled)
    except BaseException as exc:
        wire.write_json(out_fd, {"ready": False, "error": f"{type(exc).__name__}: {exc}"})
        raise
    zygote.reap()  # fork the first spare
    wire.write_json(out_fd, zygote.hello())
    while True:
        try:
            control = wire.read_json(in_fd)
        except (wire.WireError, ValueError, OSError):
            _exit(zygote)
        if not isinstance(control, dict) or control.get("quit"):
            _exit(zygote)
        try:
            meta = zygote.handle(control, in_fd, out_fd)
            wire.write_json(out_fd, meta)
        except (wire.WireError, OSError, KeyError, ValueError, TypeError):
            _exit(zygote)
        del control, meta
        zygote.reap()


def _exit(zygote: Zygote) -> NoReturn:
    """Kill the spare and end at once: the caller waits for this exit, and tearing down an
    interpreter holding sympy (or numpy and scipy) takes tens of milliseconds for nothing."""
    zygote.close()
    sys.stderr.flush()
    os._exit(0)
