"""The forked process that runs one program: lock itself down, wait, check, run, report, exit.

The warm parent forks this process *before* the program arrives (a spare), so that the fork and
the lock-down are off the critical path. While idle, the spare moves into its own process group,
drops every file descriptor but its two pipes, applies the fixed rlimits, then enters Landlock,
seccomp and the audit hook, in that order (the audit hook forbids the ctypes calls the other two
make). Only then does it read its request; the parent has just set its address-space and CPU
caps from outside (prlimit). It checks and compiles the program (the one compile the audit hook
lets through) and runs it. It always ends with os._exit; its only output is one JSON reply on
`reply_fd`, closed before exiting so the parent can answer without waiting for the teardown.
(Warming the spare further, by compiling a sample program, cost more CPU than it saved.)
"""

from __future__ import annotations

import ast
import json
import os
import resource
import signal
import sys
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Callable, NoReturn

from physbench.executor import audit, guards, instrument, landlock, namespaces, seccomp, values, wire
from physbench.executor.policy import SAFE_BUILTINS
from physbench.executor.static import check_tree

_PR_SET_PDEATHSIG = 1
_NOFILE = 64


@dataclass
class ChildContext:
    """What the warm parent prepared once for every program it forks."""

    policy: str
    proxies: dict[str, ModuleType]
    importer: Callable[..., ModuleType]
    seccomp: "seccomp.Prepared | None" = None
    landlock_fd: int | None = None
    namespaces: "namespaces.Prepared | None" = None
    pid_namespace: bool = False
    shared_net: bool = False  # the warm parent already sits in empty network/IPC/UTS namespaces
    libc: Any = None
    builtins: dict[str, Any] = field(default_factory=dict)
    judges: dict[str, Callable[..., Any]] = field(default_factory=dict)
    read_only: frozenset[int] = frozenset()  # ids of what the proxies hand out (see guards.py)


def safe_builtins(importer: Callable[..., ModuleType]) -> dict[str, Any]:
    """The builtins dict programs run with (the counters are added per run)."""
    import builtins

    table = {name: getattr(builtins, name) for name in SAFE_BUILTINS}
    table["bytes"] = guards.buffer_reader(builtins.bytes)
    table["__import__"] = importer
    return table


def checked_kwargs(mapping: Any) -> dict[str, Any]:
    """`f(**mapping)` in a program: every key must be a name the static check would accept."""
    out = dict(mapping)
    for key in out:
        if type(key) is not str or key.startswith("_"):
            raise TypeError(f"keyword argument {key!r} is not allowed (names starting with '_' are refused)")
        if key in guards.DENIED_KEYWORDS:
            raise TypeError(f"keyword argument {key!r} is not allowed in the sandbox")
    return out


class _Reporter:
    """Writes the single reply and ends the process; used from anywhere in the run."""

    def __init__(self, fd: int, output: "_Output | None" = None) -> None:
        self.fd = fd
        self.output = output
        self.last_line = 0

    def finish(self, status: str, error: str | None = None, value_text: str = "null") -> NoReturn:
        out = self.output.text() if self.output else ""
        usage = resource.getrusage(resource.RUSAGE_SELF)
        msg = '{"status":%s,"error":%s,"output":%s,"cpu_s":%.6f,"max_rss_mb":%.3f,"value":%s}' % (
            json.dumps(status), json.dumps(error), json.dumps(out), usage.ru_utime + usage.ru_stime,
            usage.ru_maxrss / 1024.0, value_text)
        data = msg.encode("utf-8", "replace")
        try:
            wire.write_all(self.fd, wire.HEADER.pack(len(data)) + data)
            os.close(self.fd)
        except OSError:
            pass
        os._exit(0)


class _Output:
    """sys.stdout/sys.stderr stand-in: keeps printed text up to the cap, then stops the run, or
    with `truncate` drops the rest and lets the program go on (its value is then unaffected)."""

    def __init__(self, cap: int, reporter: _Reporter, truncate: bool = False) -> None:
        self.cap = cap
        self.parts: list[str] = []
        self.size = 0
        self.reporter = reporter
        self.truncate = truncate

    def write(self, text: str) -> int:
        text = str(text)
        self.size += len(text)
        if self.size > self.cap:
            keep = self.cap - (self.size - len(text))
            if keep > 0:
                self.parts.append(text[:keep])
                if self.truncate:
                    self.parts.append(f"\n[printed output past {self.cap} characters dropped]\n")
            if self.truncate:
                return len(text)
            self.reporter.finish("output_limit", f"printed output passed the cap of {self.cap} characters")
        self.parts.append(text)
        return len(text)

    def flush(self) -> None:
        pass

    def text(self) -> str:
        return "".join(self.parts)


def serve(ctx: ChildContext, request_fd: int, reply_fd: int) -> NoReturn:
    """Entry point right after fork(); never returns."""
    reporter = _Reporter(reply_fd)
    setup_error = None
    try:
        guards.fresh_random_state()  # every program its own random streams, not the parent's
        _lock_down_process(ctx, request_fd, reply_fd)
        if ctx.namespaces is not None:  # before Landlock, which forbids mounting
            ctx.namespaces.enter()
        if ctx.landlock_fd is not None:
            landlock.restrict_self(ctx.landlock_fd, ctx.libc)
            os.close(ctx.landlock_fd)
        if ctx.seccomp is not None:
            ctx.seccomp.load(os.getpid())
    except BaseException as exc:  # fail closed: report it, never run a program with a layer missing
        setup_error = f"sandbox setup failed: {type(exc).__name__}: {exc}"
    ctx.libc = None  # nothing after this point calls C directly
    request = _read_request(request_fd)
    if request is None:  # the parent gave up on this spare
        os._exit(0)
    if setup_error:
        reporter.finish("raised", setup_error)
    limits = request["limits"]  # address space and CPU caps were set by the parent (prlimit)
    judge = request.get("judge")
    code = None
    if judge is None:
        try:
            code = _compile(request["source"], ctx.policy, limits)
        except _Rejected as exc:
            reporter.finish("rejected", str(exc))
        except MemoryError:
            reporter.finish("memory", "out of memory while compiling the program")
    elif judge not in ctx.judges:
        reporter.finish("rejected", f"no trusted judge named {str(judge)[:40]!r}")
    try:
        audit.install()  # after our one compile: from here on nothing compiles source
    except BaseException as exc:
        reporter.finish("raised", f"sandbox setup failed: {type(exc).__name__}: {exc}")
    output = _Output(limits["max_output_chars"], reporter, bool(limits.get("truncate_output")))
    reporter.output = output
    sys.stdout = sys.stderr = output  # type: ignore[assignment]
    if judge is not None:
        _run_judge(ctx.judges[judge], request, limits, reporter)
    _execute(code, _namespace(ctx, limits, reporter), request, limits, reporter)


def _lock_down_process(ctx: ChildContext, request_fd: int, reply_fd: int) -> None:
    """Own process group, die with the parent, no inherited descriptors or environment, fixed rlimits."""
    os.setpgid(0, 0)
    if ctx.libc is not None:
        ctx.libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    keep = sorted({request_fd, reply_fd} | ({ctx.landlock_fd} if ctx.landlock_fd is not None else set()))
    low = 3
    for fd in keep + [1 << 20]:
        os.closerange(low, fd)
        low = fd + 1
    if len(os.environ) > 1:  # the zygote normally left only TZ; a program never sees the caller's
        os.environ.clear()
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
    resource.setrlimit(resource.RLIMIT_NOFILE, (_NOFILE, _NOFILE))
    resource.setrlimit(resource.RLIMIT_NPROC, (0, 0))


def _read_request(fd: int) -> dict[str, Any] | None:
    """Control header (limits) from the warm parent, then the caller's payload (source, args)."""
    try:
        control = json.loads(wire.read_frame(fd))
        payload = json.loads(wire.read_exact(fd, int(control["payload"])))
    except (wire.WireError, OSError, ValueError, KeyError, TypeError):
        return None
    os.close(fd)
    if not isinstance(payload, dict):
        return None
    payload["limits"] = control["limits"]
    return payload


class _Rejected(Exception):
    pass


def _compile(source: Any, policy: str, limits: dict[str, Any]) -> Any:
    if not isinstance(source, str):
        raise _Rejected("program source must be text")
    if len(source) > limits["max_source_chars"]:
        raise _Rejected(f"program is {len(source)} characters; the limit is {limits['max_source_chars']}")
    try:
        tree = ast.parse(source, filename="<program>", mode="exec")
    except SyntaxError as exc:
        raise _Rejected(f"line {exc.lineno or 0}: SyntaxError: {exc.msg}") from None
    except (ValueError, RecursionError) as exc:
        raise _Rejected(f"program cannot be parsed: {type(exc).__name__}: {str(exc)[:200]}") from None
    problems = check_tree(tree, policy)
    if problems:
        raise _Rejected("; ".join(problems[:5]))
    try:
        return compile(instrument.instrument(tree), "<program>", "exec", dont_inherit=True)
    except (SyntaxError, ValueError, RecursionError) as exc:
        raise _Rejected(f"program cannot be compiled: {type(exc).__name__}: {str(exc)[:200]}") from None


def _namespace(ctx: ChildContext, limits: dict[str, Any], reporter: _Reporter) -> dict[str, Any]:
    cap = int(limits["max_lines"])
    count = 0

    def line(lineno: int = 0) -> None:
        nonlocal count
        count += 1
        if lineno:
            reporter.last_line = lineno
        if count > cap:
            reporter.finish("line_limit", f"the program executed more than {cap} lines")

    def step() -> bool:
        line()
        return True

    def value(v: Any) -> Any:
        line()
        return v

    def refuse(why: str) -> NoReturn:
        reporter.finish("rejected", why)

    table = dict(ctx.builtins)
    table.update({instrument.LINE: line, instrument.STEP: step, instrument.VALUE: value,
                  instrument.KWARGS: checked_kwargs,
                  instrument.STORE: guards.attribute_store(ctx.read_only, refuse),
                  instrument.RAW: guards.raw_memory_read})
    return {"__builtins__": table, "__name__": "program"}


def _execute(code: Any, namespace: dict[str, Any], request: dict[str, Any], limits: dict[str, Any],
             reporter: _Reporter) -> NoReturn:
    try:
        exec(code, namespace)
        call = request.get("call")
        if call is None:
            result = None
        else:
            target = namespace.get(call)
            if not callable(target):
                reporter.finish("raised", f"the program defines no function named {call!r}")
            result = target(*values.decode_args(request["args"]))
    except MemoryError:
        reporter.finish("memory", f"the program ran out of memory ({limits['memory_mb']} MB cap)")
    except BaseException as exc:
        reporter.finish("raised", describe_exception(exc, reporter.last_line))
    try:
        text = values.encode(result, int(limits["max_value_chars"]))
    except values.BadValue as exc:
        reporter.finish("bad_return", str(exc))
    except MemoryError:
        reporter.finish("memory", "out of memory while converting the returned value")
    except BaseException as exc:
        reporter.finish("bad_return", f"returned value cannot be converted: {describe_exception(exc, 0)}")
    reporter.finish("ok", None, text)


def _run_judge(judge: Callable[..., Any], request: dict[str, Any], limits: dict[str, Any],
               reporter: _Reporter) -> NoReturn:
    """A trusted comparison in a process where no program ran: its arguments are inert data."""
    try:
        result = judge(*values.decode_tree(request["args"]))
        text = values.encode(result, int(limits["max_value_chars"]))
    except MemoryError:
        reporter.finish("memory", f"the judge ran out of memory ({limits['memory_mb']} MB cap)")
    except values.BadValue as exc:
        reporter.finish("bad_return", str(exc))
    except BaseException as exc:
        reporter.finish("raised", describe_exception(exc, 0))
    reporter.finish("ok", None, text)


def describe_exception(exc: BaseException, line: int) -> str:
    """'line N: TypeName: message' with N the program's last line started (tracebacks are not
    walked: the audit hook refuses frame access to everyone in this process, us included)."""
    try:
        message = str(exc)
    except Exception:
        message = "<unprintable message>"
    if len(message) > 500:
        message = message[:500] + "..."
    where = f"line {line}: " if line else ""
    return f"{where}{type(exc).__name__}: {message}"
