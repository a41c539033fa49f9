"""The caller's side: a pool of warm zygote processes and the public `run` / `Executor` API.

Each worker is a separate interpreter (started with subprocess, so it is safe to create from a
threaded caller) that forks one child per program. `Executor.run` takes an idle worker, sends
the request and turns the zygote's reply into an ExecResult; `map` runs many programs across
the workers. A zygote that dies or stops answering is replaced.
"""

from __future__ import annotations

import atexit
import json
import os
import queue
import re
import time
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any, Iterable, Sequence

from physbench.executor import values, wire
from physbench.executor.limits import POLICIES, STATUSES, ExecResult, Limits
from physbench.executor.layers import KERNEL_LAYERS, missing
from physbench.executor.policy import CALL_NAME_PATTERN

START_TIMEOUT_S = 120.0   # scientific imports take seconds on a busy machine
REPLY_GRACE_S = 10.0      # beyond the wall limit, before a silent zygote counts as broken
_CALL_RE = re.compile(CALL_NAME_PATTERN)
_SRC_DIR = str(Path(__file__).resolve().parents[2])

# the zygote's whole environment: one thread per numeric library (fork needs a single thread),
# a fixed hash seed (programs give the same set order every run), UTC and no secrets
_ZYGOTE_ENV = {
    "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
    "NUMEXPR_NUM_THREADS": "1", "VECLIB_MAXIMUM_THREADS": "1", "PYTHONHASHSEED": "0",
    "PYTHONDONTWRITEBYTECODE": "1", "TZ": "UTC", "LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin",
}
_BOOT = ("import sys; sys.path[0:1] = [sys.argv[1]]; del sys.argv[1]; "
         "from physbench.executor.zygote import main; main()")


class ExecutorError(RuntimeError):
    """The sandbox itself cannot serve: a required isolation layer is missing (the pool refuses
    to start), a worker would not start, or the Executor is closed. A program that breaks its
    worker gets an ExecResult (status "raised"), never this exception."""


class _Worker:
    def __init__(self, policy: str, disabled: str) -> None:
        self.policy = policy
        self.proc = subprocess.Popen(
            [sys.executable, "-s", "-c", _BOOT, _SRC_DIR, policy, disabled],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=None, env=dict(_ZYGOTE_ENV),
            cwd="/", start_new_session=True, close_fds=True, bufsize=0)
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.in_fd, self.out_fd = self.proc.stdin.fileno(), self.proc.stdout.fileno()
        try:
            hello = wire.read_json(self.out_fd, time.monotonic() + START_TIMEOUT_S)
        except (wire.WireError, ValueError, OSError):
            hello = None
        if not isinstance(hello, dict) or not hello.get("ready"):
            self.close()
            raise ExecutorError(f"sandbox worker failed to start: {(hello or {}).get('error', 'no reply')}")
        self.hello = hello

    def request(self, control: dict[str, Any], payload: bytes, timeout: float) -> dict[str, Any] | None:
        """Send one program; the zygote's meta with the child's raw reply under 'reply', or None
        when the zygote broke (died, stopped answering, broke the framing)."""
        deadline = time.monotonic() + timeout
        try:
            body = json.dumps(dict(control, payload=len(payload)), separators=(",", ":")).encode()
            wire.write_all(self.in_fd, wire.HEADER.pack(len(body)) + body + payload)
            reply = wire.read_frame(self.out_fd, wire.MAX_REPLY, deadline)
            meta = wire.read_json(self.out_fd, deadline)
        except (wire.WireError, ValueError, OSError):
            return None
        if not isinstance(meta, dict):
            return None
        meta["reply"] = reply.decode("utf-8", "replace") if meta.get("replied") else None
        return meta

    def alive(self) -> bool:
        return self.proc.poll() is None

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                assert self.proc.stdin is not None
                wire.write_json(self.in_fd, {"quit": True})
                self.proc.stdin.close()
                self.proc.wait(timeout=2)
            except (OSError, ValueError, subprocess.TimeoutExpired):
                try:
                    self.proc.kill()
                except OSError:
                    pass
                self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                if stream:
                    stream.close()
            except OSError:
                pass


class Executor:
    """A pool of `workers` warm sandboxes for one policy. Use as a context manager."""

    def __init__(self, policy: str = "strict", workers: int = 2, limits: Limits | None = None, *,
                 allow_missing_layers: bool | Iterable[str] = False) -> None:
        """Start `workers` sandboxes. Fails closed: when a kernel layer the policy relies on
        (layers.REQUIRED) is unavailable, raises ExecutorError naming it, unless
        `allow_missing_layers` is True (any) or names that layer. Never pass it for model code
        on a shared host; it exists for machines without the kernel features, knowingly."""
        if policy not in POLICIES:
            raise ValueError(f"unknown policy {policy!r}; choose one of {', '.join(POLICIES)}")
        if not 1 <= int(workers) <= 64:
            raise ValueError("workers must be between 1 and 64")
        self.policy = policy
        self._allow_missing = _allowed_missing(allow_missing_layers)
        self.limits = (limits or Limits()).resolve(policy)
        self._disabled = os.environ.get("PHYSBENCH_SANDBOX_DISABLE", "")
        self._idle: queue.Queue[_Worker] = queue.Queue()
        self._all: list[_Worker] = []
        self._lock = threading.Lock()
        self._closed = False
        try:
            with ThreadPoolExecutor(max_workers=int(workers)) as starter:
                started = list(starter.map(lambda _: self._start_worker(), range(int(workers))))
        except BaseException:
            self.close()  # the workers that did start
            raise
        for w in started:
            self._idle.put(w)
        refused = [m for m in missing(self.layers, policy) if m.split(" ", 1)[0] not in self._allow_missing]
        if refused:
            self.close()
            raise ExecutorError(f"sandbox refused to run {policy} programs: required layer "
                                f"{'; '.join(refused)} is missing (pass allow_missing_layers=... / "
                                f"--insecure-allow-missing-layers to run without it)")

    def _start_worker(self) -> _Worker:
        w = _Worker(self.policy, self._disabled)
        with self._lock:
            self._all.append(w)
        return w

    @property
    def layers(self) -> dict[str, Any]:
        """The isolation layers in force, as the first worker detected them."""
        return self._all[0].hello["layers"] if self._all else {}

    def worker_pids(self) -> list[int]:
        return [w.proc.pid for w in self._all if w.alive()]

    def run(self, source: str, call: str | None = "solve", args: Sequence[Any] = (),
            limits: Limits | None = None) -> ExecResult:
        """Run one program and, unless `call` is None, call its function `call(*args)`."""
        if self._closed:
            raise ExecutorError("this Executor is closed")
        if call is not None and not _CALL_RE.fullmatch(call):
            raise ValueError(f"call name {call!r} must be a plain identifier not starting with '_'")
        lim = self.limits if limits is None else _overlay(self.limits, limits).resolve(self.policy)
        if not isinstance(source, str):
            raise TypeError("source must be a str")
        if len(source) > lim.max_source_chars:
            return ExecResult("rejected", error=f"program is {len(source)} characters; "
                                                f"the limit is {lim.max_source_chars}")
        try:
            wire_args = values.encode_args(args)
        except values.BadValue as exc:
            raise ValueError(f"args cannot be sent to the sandbox: {exc}") from None
        return self._send({"source": source, "call": call, "args": wire_args}, lim)

    def judge(self, name: str, args: Sequence[Any] = (), limits: Limits | None = None) -> ExecResult:
        """Call the trusted judge `name` (judges.JUDGES) with inert `args`, in a freshly forked
        process where no program ran, under the same limits and layers as a program."""
        if self._closed:
            raise ExecutorError("this Executor is closed")
        lim = self.limits if limits is None else _overlay(self.limits, limits).resolve(self.policy)
        try:
            wire_args = values.encode_args(args)
        except values.BadValue as exc:
            raise ValueError(f"args cannot be sent to the judge: {exc}") from None
        return self._send({"judge": name, "args": wire_args}, lim)

    def judge_map(self, name: str, arg_lists: Iterable[Sequence[Any]], limits: Limits | None = None) -> list[ExecResult]:
        """`judge` for each argument list, across the workers; results in input order."""
        def one(args: Sequence[Any]) -> ExecResult:
            try:
                return self.judge(name, args, limits)
            except (ExecutorError, OSError) as exc:
                return ExecResult("raised", error=f"sandbox: {exc}")

        with ThreadPoolExecutor(max_workers=max(1, len(self._all))) as threads:
            return list(threads.map(one, list(arg_lists)))

    def _send(self, request: dict[str, Any], lim: Limits) -> ExecResult:
        payload = json.dumps(request, separators=(",", ":")).encode()
        control = {"limits": lim.to_dict()}
        for attempt in (1, 2):
            worker = self._take()
            reply = worker.request(control, payload, lim.wall_s + REPLY_GRACE_S)
            if reply is not None:
                self._idle.put(worker)
                return _result(reply, lim)
            self._replace(worker)
        # the program broke its worker twice: it fails; the pool (and any batch) carries on
        return ExecResult("raised", error="sandbox: the worker running this program died twice; "
                                          "it was replaced")

    def map(self, jobs: Iterable[str | tuple[str, Sequence[Any]]], call: str | None = "solve",
            args: Sequence[Any] = (), limits: Limits | None = None) -> list[ExecResult]:
        """Run many programs across the workers; results in input order.

        Each job is a source string (called with `args`) or a (source, args) pair.
        """
        pairs = [(j, args) if isinstance(j, str) else (j[0], j[1]) for j in jobs]

        def one(pair: tuple[str, Sequence[Any]]) -> ExecResult:
            try:
                return self.run(pair[0], call, pair[1], limits)
            except (ExecutorError, OSError) as exc:  # one program never costs the others theirs
                return ExecResult("raised", error=f"sandbox: {exc}")

        with ThreadPoolExecutor(max_workers=max(1, len(self._all))) as threads:
            return list(threads.map(one, pairs))

    def _take(self) -> _Worker:
        """An idle worker; raises instead of waiting forever when none is left."""
        while True:
            try:
                return self._idle.get(timeout=0.5)
            except queue.Empty:
                with self._lock:
                    if self._closed or not self._all:
                        raise ExecutorError("no sandbox workers are left in this Executor") from None

    def _replace(self, worker: _Worker) -> None:
        try:
            worker.close()
        except OSError:
            pass
        with self._lock:
            if worker in self._all:
                self._all.remove(worker)
        if not self._closed:
            self._idle.put(self._start_worker())

    def close(self) -> None:
        """Stop every worker (running programs are killed with their zygote's group)."""
        self._closed = True
        with self._lock:
            workers, self._all = list(self._all), []
        for w in workers:
            w.close()

    def __enter__(self) -> "Executor":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def _allowed_missing(option: bool | Iterable[str]) -> frozenset[str]:
    if option is True:
        return frozenset(KERNEL_LAYERS)
    if option is False or option is None:
        return frozenset()
    if isinstance(option, str):
        option = option.split(",")
    names = frozenset(n.strip() for n in option if n.strip())
    unknown = names - set(KERNEL_LAYERS)
    if unknown:
        raise ValueError(f"unknown layer(s) {', '.join(sorted(unknown))}; choose from {', '.join(KERNEL_LAYERS)}")
    return names


def _overlay(base: Limits, override: Limits) -> Limits:
    """`override`'s set fields on top of `base` (the Executor's limits)."""
    return replace(base, **{k: v for k, v in override.to_dict().items() if v is not None})


def _result(reply: dict[str, Any], lim: Limits) -> ExecResult:
    """Turn the zygote's report into an ExecResult, trusting nothing the child wrote."""
    timing = dict(wall_s=float(reply.get("wall_s", 0.0)), cpu_s=float(reply.get("cpu_s", 0.0)),
                  max_rss_mb=float(reply.get("max_rss_mb", 0.0)))
    killed = reply.get("killed")
    if killed == "timeout":
        return ExecResult("timeout", error=f"wall-clock limit of {lim.wall_s:g} s reached", **timing)
    if killed == "reply_too_long":
        return ExecResult("output_limit", error="the program's reply passed the size cap", **timing)
    child = _parse_child(reply.get("reply"))
    if child is None:
        return _no_reply(reply.get("exit") or {}, lim, timing)
    timing["cpu_s"], timing["max_rss_mb"] = child["cpu_s"], child["max_rss_mb"]
    return ExecResult(child["status"], child["value"], child["error"], output=child["output"], **timing)


def _parse_child(text: Any) -> dict[str, Any] | None:
    if not isinstance(text, str) or not text:
        return None
    try:
        raw = json.loads(text)
        if not isinstance(raw, dict) or raw.get("status") not in STATUSES:
            return None
        error, output = raw.get("error"), raw.get("output", "")
        if not (error is None or isinstance(error, str)) or not isinstance(output, str):
            return None
        return {"status": raw["status"], "value": values.decode_tree(raw.get("value")), "error": error,
                "output": output, "cpu_s": float(raw.get("cpu_s", 0.0)),
                "max_rss_mb": float(raw.get("max_rss_mb", 0.0))}
    except (ValueError, TypeError, KeyError, IndexError, RecursionError):
        return None


def _no_reply(exit_info: dict[str, Any], lim: Limits, timing: dict[str, float]) -> ExecResult:
    if exit_info.get("error"):
        return ExecResult("raised", error=str(exit_info["error"]), **timing)
    name = exit_info.get("name")
    if name in ("SIGXCPU",) or (name == "SIGKILL" and timing["cpu_s"] >= lim.cpu_s):
        return ExecResult("timeout", error=f"CPU time limit of {lim.cpu_s:g} s reached", **timing)
    if name == "SIGKILL":
        return ExecResult("memory", error="the program was killed (out of memory)", **timing)
    if name:
        return ExecResult("raised", error=f"the program crashed ({name})", **timing)
    return ExecResult("raised", error=f"the program ended without a result (exit {exit_info.get('code')})",
                      **timing)


_DEFAULT: dict[str, Executor] = {}
_DEFAULT_LOCK = threading.Lock()


def default_executor(policy: str = "strict", workers: int = 2) -> Executor:
    """The shared pool for `policy`, started on first use with `workers` warm sandboxes (later
    callers share it as it is) and closed at interpreter exit."""
    with _DEFAULT_LOCK:
        ex = _DEFAULT.get(policy)
        if ex is None:
            if policy not in POLICIES:
                raise ValueError(f"unknown policy {policy!r}; choose one of {', '.join(POLICIES)}")
            ex = _DEFAULT[policy] = Executor(policy, workers=workers)
        return ex


def shutdown() -> None:
    """Close the shared pools (registered with atexit)."""
    with _DEFAULT_LOCK:
        pools = list(_DEFAULT.values())
        _DEFAULT.clear()
    for ex in pools:
        ex.close()


def _forget_pools_in_forked_child() -> None:
    """A forked caller must not talk to its parent's zygotes; it starts its own on first use."""
    _DEFAULT.clear()


atexit.register(shutdown)
os.register_at_fork(after_in_child=_forget_pools_in_forked_child)


def run(source: str, call: str | None = "solve", args: Sequence[Any] = (), policy: str = "strict",
        limits: Limits | None = None) -> ExecResult:
    """Run `source` in the shared sandbox pool for `policy` and call `call(*args)`."""
    return default_executor(policy).run(source, call=call, args=args, limits=limits)
