"""Harness work off the event loop (issue 34 item 5): worker processes, one per core by default,
each holding the harness states of the attempts pinned to it. The event loop only sends a call
down a pipe and waits, without blocking, for the reply, so an `optimize` (seconds of CPU) never
stalls other attempts' requests or deadlines.

``PHYSBENCH_PLANNING_WORKERS`` sets the number of workers; 0 runs every harness in this process,
on the caller's thread (what tests that patch the suite in-process use).
"""

from __future__ import annotations

import asyncio
import itertools
import multiprocessing as mp
import os
import threading
from dataclasses import dataclass, field
from typing import Any

WORKERS_ENV = "PHYSBENCH_PLANNING_WORKERS"
# one thread per worker: a BLAS or OpenMP pool per process would oversubscribe the cores (and its
# spinning threads multiply the CPU a plan takes several times over on a busy machine)
THREAD_ENV = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


def default_workers() -> int:
    """The workers a pool starts: the environment's choice, else the cores this process may use."""
    raw = os.environ.get(WORKERS_ENV, "").strip()
    if raw:
        try:
            return max(0, min(64, int(raw)))
        except ValueError:
            pass
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


# ---- the worker's side ------------------------------------------------------------------------
class _States:
    """The harnesses of the attempts pinned to one process, by attempt key."""

    def __init__(self) -> None:
        self.open: dict[int, Any] = {}

    def handle(self, op: str, key: int, payload: Any) -> Any:
        from physbench.suites.planning import suite as S

        if op == "open":
            self.open[key] = S.new_harness(payload)
            return None
        if op == "system":
            return S.run_system(payload[0], payload[1])
        h = self.open.get(key)
        if h is None:
            return {"error": "internal_error", "detail": "this attempt's planning state was lost"}
        if op == "call":
            out = h.call(payload[0], payload[1])
            return out, h.finished
        if op == "result":
            return h.result()
        if op == "close":
            self.open.pop(key, None)
            return None
        raise ValueError(f"unknown pool operation {op!r}")


def _serve(conn: Any) -> None:
    """A worker's loop: one request at a time until the parent closes its end."""
    states = _States()
    while True:
        try:
            op, key, payload = conn.recv()
        except (EOFError, OSError):
            return
        try:
            reply: Any = ("ok", states.handle(op, key, payload))
        except Exception as exc:  # a fault of ours is reported to the caller, the worker lives on
            reply = ("fail", f"{type(exc).__name__}: {str(exc)[:300]}")
        conn.send(reply)


# ---- the event loop's side --------------------------------------------------------------------
@dataclass
class _Worker:
    process: Any
    conn: Any
    attempts: int = 0
    locks: dict[int, asyncio.Lock] = field(default_factory=dict)  # one per event loop

    def lock(self) -> asyncio.Lock:
        loop = asyncio.get_running_loop()
        return self.locks.setdefault(id(loop), asyncio.Lock())


class PoolError(RuntimeError):
    """A worker died or answered with a fault."""


class HarnessPool:
    """Worker processes holding harness states; ``workers == 0`` keeps them in this process."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = default_workers() if workers is None else workers
        self._procs: list[_Worker] = []
        self._local = _States()
        self._keys = itertools.count(1)
        self._pinned: dict[int, _Worker] = {}
        self._guard = threading.Lock()

    def _start(self) -> None:
        with self._guard:
            if len(self._procs) == self.workers and all(w.process.is_alive() for w in self._procs):
                return
            ctx = mp.get_context("spawn")  # no fork of a process with threads and an event loop
            self._procs = [w for w in self._procs if w.process.is_alive()]
            saved = {k: os.environ.get(k) for k in THREAD_ENV}
            os.environ.update({k: "1" for k in THREAD_ENV})  # a spawned child reads them as it starts
            try:
                while len(self._procs) < self.workers:
                    parent, child = ctx.Pipe()
                    proc = ctx.Process(target=_serve, args=(child,), daemon=True, name="planning-harness")
                    proc.start()
                    child.close()
                    self._procs.append(_Worker(proc, parent))
            finally:
                for k, v in saved.items():
                    if v is None:
                        os.environ.pop(k, None)
                    else:
                        os.environ[k] = v

    async def _ask(self, worker: _Worker, op: str, key: int, payload: Any) -> Any:
        async with worker.lock():
            loop = asyncio.get_running_loop()
            try:
                worker.conn.send((op, key, payload))
                ready = loop.create_future()
                fd = worker.conn.fileno()
                loop.add_reader(fd, lambda: ready.done() or ready.set_result(None))
                try:
                    await ready
                finally:
                    loop.remove_reader(fd)
                status, value = worker.conn.recv()
            except (EOFError, OSError, BrokenPipeError) as exc:
                raise PoolError(f"a planning worker stopped ({type(exc).__name__})") from None
        if status != "ok":
            raise PoolError(str(value))
        return value

    async def run(self, op: str, key: int, payload: Any) -> Any:
        """One operation on attempt ``key`` (pinned to a worker at ``open``)."""
        if self.workers == 0:
            return self._local.handle(op, key, payload)
        if op in ("open", "system"):
            self._start()
            worker = min(self._procs, key=lambda w: w.attempts)
            worker.attempts += 1
            if op == "open":
                self._pinned[key] = worker
            try:
                return await self._ask(worker, op, key, payload)
            finally:
                if op == "system":
                    worker.attempts -= 1
        worker = self._pinned.get(key)
        if worker is None:
            raise PoolError("unknown attempt")
        if op == "close":
            self._pinned.pop(key, None)
            worker.attempts -= 1
        return await self._ask(worker, op, key, payload)

    def new_key(self) -> int:
        return next(self._keys)

    def shutdown(self) -> None:
        for w in self._procs:
            w.conn.close()
            w.process.join(timeout=2)
            if w.process.is_alive():
                w.process.terminate()
        self._procs = []


_POOLS: dict[int, HarnessPool] = {}


def pool() -> HarnessPool:
    """The process's pool for the current worker setting (started on first use)."""
    n = default_workers()
    if n not in _POOLS:
        _POOLS[n] = HarnessPool(n)
    return _POOLS[n]


class PooledHarness:
    """One attempt's harness as the agent protocol sees it: ``acall``, ``aresult`` and ``aclose``
    go to the attempt's worker; ``tools``, ``limits`` and ``finished`` are known here. ``call`` and
    ``result`` are the core Harness interface for callers outside an event loop."""

    def __init__(self, task: dict[str, Any], pool_: HarnessPool | None = None) -> None:
        from physbench.suites.planning.harness import OPTIMIZE_BUDGET, TOOL_CALL_BUDGET, TURN_LIMIT, WALL_LIMIT_S
        from physbench.suites.planning.tools import TOOL_SPECS

        self.task = task
        self.pool = pool_ or pool()
        self.key = self.pool.new_key()
        self.tools = TOOL_SPECS
        self.limits = {"tool_calls": TOOL_CALL_BUDGET, "optimizations": OPTIMIZE_BUDGET, "turns": TURN_LIMIT,
                       "wall_s": WALL_LIMIT_S}
        self.finished = False
        self._opened = False
        self._result: dict[str, Any] | None = None

    async def _open(self) -> None:
        if not self._opened:
            await self.pool.run("open", self.key, self.task)
            self._opened = True

    async def acall(self, name: str, arguments: Any) -> dict[str, Any]:
        """Run one tool in the attempt's worker; a worker fault is an error result, never a raise."""
        try:
            await self._open()
            out, self.finished = await self.pool.run("call", self.key, (name, arguments))
            return out
        except PoolError as exc:
            return {"error": "internal_error", "detail": str(exc)}

    async def aresult(self) -> dict[str, Any]:
        """The harness's terminal record (harness.result), read once."""
        if self._result is None:
            try:
                await self._open()
                self._result = await self.pool.run("result", self.key, None)
            except PoolError as exc:
                self._result = {"outcome": "worker_lost", "detail": str(exc)}  # graded as a technical failure
        return self._result

    async def aclose(self) -> None:
        """Drop the attempt's state in its worker."""
        if self._opened:
            self._opened = False
            try:
                await self.pool.run("close", self.key, None)
            except PoolError:
                pass

    def call(self, name: str, arguments: Any = None) -> dict[str, Any]:
        return asyncio.run(self.acall(name, arguments))

    def result(self) -> dict[str, Any]:
        return asyncio.run(self.aresult())
