"""The pool: public API, worker lifecycle, and the host staying healthy under hostile load."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

import physbench.executor as executor
from physbench.executor import ExecResult, Executor, Limits

HOSTILE = [
    ("def solve():\n    return ().__class__\n", None),
    ("def solve():\n    return 1 / 0\n", None),
    ("def solve():\n    x = [0] * 10 ** 9\n", None),
    ("def solve():\n    while True:\n        pass\n", None),
    ("def solve():\n    print('x' * 10 ** 6)\n", None),
    ("def solve():\n    def f(n):\n        return f(n + 1)\n    return f(0)\n", None),
    ("def solve():\n    a = []\n    a.append(a)\n    return a\n", None),
    ("import time\ndef solve():\n    time.sleep(5)\n", Limits(wall_s=0.2)),
    ("def solve():\n    return 'y' * 5_000_000\n", None),
    ("import os\ndef solve():\n    return os.fork()\n", None),
]


def _rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def _children_of(pids: set[int]) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) in pids:
                found.append(int(entry.name))
    return found


def _strays_soon(pids: set[int], within_s: float = 3.0) -> list[int]:
    """Children of the zygotes beyond the one idle spare each keeps ready for the next program."""
    deadline = time.monotonic() + within_s
    while True:
        left = _children_of(pids)
        if len(left) <= len(pids) or time.monotonic() > deadline:
            return left if len(left) > len(pids) else []
        time.sleep(0.05)


def _hostile_run(n: int) -> None:
    with Executor("strict", workers=2) as ex:
        zygotes = set(ex.worker_pids())
        for i in range(30):  # warm up allocator pools before measuring
            ex.run(*_job(i))
        zygote_before = {pid: _rss_kb(pid) for pid in zygotes}
        jobs = [(_job(i)[0], ()) for i in range(n) if HOSTILE[i % len(HOSTILE)][1] is None]
        results = ex.map(jobs)
        assert all(r.status != "ok" for r in results)
        del results  # the caller keeps each program's capped output while it holds the results (MBs)
        caller_before = _rss_kb(os.getpid())
        results = ex.map(jobs)  # the same batch again: the caller must not grow per program
        for i in range(n // len(HOSTILE)):  # the timeouts, with their short limit
            ex.run(*_job(7))
        assert set(ex.worker_pids()) == zygotes, "a zygote died and was replaced"
        assert all(r.status != "ok" for r in results)
        del results
        assert _strays_soon(zygotes) == [], "stray processes under the zygotes"
        for pid, before in zygote_before.items():
            assert _rss_kb(pid) - before < 2048, f"zygote {pid} grew from {before} kB to {_rss_kb(pid)} kB"
        assert _rss_kb(os.getpid()) - caller_before < 8192
        spares = _children_of(zygotes)
    assert _gone(zygotes | set(spares)), "a zygote or its spare outlived the Executor"


def _gone(pids: set[int], within_s: float = 3.0) -> bool:
    deadline = time.monotonic() + within_s
    while any(Path(f"/proc/{p}").exists() for p in pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def _job(i: int) -> tuple[str, str, tuple, Limits | None]:
    source, limits = HOSTILE[i % len(HOSTILE)]
    return source, "solve", (), limits


def test_host_stays_healthy_after_hostile_programs():
    _hostile_run(150)


@pytest.mark.slow
def test_host_stays_healthy_after_1000_hostile_programs():
    _hostile_run(1000)


def test_shared_pool_run_and_shutdown():
    r = executor.run("def solve(a, b):\n    return a * b\n", args=(6, 7))
    assert isinstance(r, ExecResult) and (r.status, r.value) == ("ok", 42)
    pool = executor.default_executor("strict")
    assert executor.default_executor("strict") is pool
    pids = pool.worker_pids()
    executor.shutdown()
    assert _gone(set(pids))


def test_map_keeps_order_and_per_job_args(strict_ex):
    jobs = [("def solve(x):\n    return x * x\n", (i,)) for i in range(12)]
    assert [r.value for r in strict_ex.map(jobs)] == [i * i for i in range(12)]


def test_a_killed_worker_is_replaced():
    with Executor("strict", workers=1) as ex:
        (pid,) = ex.worker_pids()
        os.kill(pid, signal.SIGKILL)
        r = ex.run("def solve():\n    return 'alive'\n")
        assert r.value == "alive"
        assert ex.worker_pids() and ex.worker_pids() != [pid]


def test_limits_are_validated_and_resolved_per_policy():
    assert Limits().resolve("strict").wall_s == 5.0
    assert Limits().resolve("scientific").wall_s == 30.0
    assert Limits(wall_s=2).resolve("scientific").memory_mb == 256
    for bad in (Limits(wall_s=0), Limits(memory_mb=-1), Limits(cpu_s=float("nan")), Limits(max_lines=10**12)):
        with pytest.raises(ValueError):
            bad.resolve("strict")
    with pytest.raises(ValueError):
        Limits().resolve("lenient")


def test_bad_arguments_raise_before_anything_runs(strict_ex):
    with pytest.raises(ValueError):
        strict_ex.run("def solve():\n    return 1\n", call="__class__")
    with pytest.raises(ValueError):
        Executor("lenient")
    r = strict_ex.run("x = 1\n" * 3000)
    assert r.status == "rejected" and "limit" in r.error


def test_per_run_limits_apply(strict_ex):
    r = strict_ex.run("def solve():\n    for i in range(100):\n        pass\n", limits=Limits(max_lines=50))
    assert r.status == "line_limit"
    r = strict_ex.run("def solve():\n    print('abcdef')\n", limits=Limits(max_output_chars=3))
    assert r.status == "output_limit" and r.output == "abc"
    r = strict_ex.run("import time\ndef solve():\n    time.sleep(3)\n", limits=Limits(wall_s=0.3))
    assert r.status == "timeout" and r.wall_s < 1.3


def test_run_limits_overlay_the_executor_limits():
    loop = "def solve():\n    for i in range(200):\n        pass\n"
    with Executor("strict", workers=1, limits=Limits(max_lines=50)) as ex:
        assert ex.run(loop).status == "line_limit"
        assert ex.run(loop, limits=Limits(wall_s=3)).status == "line_limit"
        assert ex.run(loop, limits=Limits(max_lines=1000)).status == "ok"
        with pytest.raises(ValueError):
            ex.run(loop, args=(object(),))


def test_a_batch_with_hostile_programs_returns_every_other_result(strict_ex):
    """One bad program never costs the others: hostile jobs fail alone, in input order."""
    hostile = ["def solve(i):\n    while True:\n        pass\n",
               "import os\ndef solve(i):\n    os.setpgid(0, 0)\n",
               "def solve(i):\n    return [0] * 10 ** 9\n",
               "def solve(i):\n    print('x' * 10 ** 7)\n"]
    jobs = [(hostile[i % 4], (i,)) if i % 3 == 0 else ("def solve(i):\n    return i * 2\n", (i,)) for i in range(18)]
    results = strict_ex.map(jobs, limits=Limits(wall_s=2.0))
    assert len(results) == 18
    for i, r in enumerate(results):
        if i % 3:
            assert (r.status, r.value) == ("ok", i * 2), (i, r)
        else:
            assert r.status != "ok", (i, r)


def test_a_program_that_lingers_after_replying_does_not_delay_the_next():
    """The job is killed the moment its reply is in, so the next program starts at once."""
    with Executor("strict", workers=1) as ex:
        ex.run("def solve():\n    return 1\n")
        start = time.monotonic()
        for _ in range(5):
            assert ex.run("def solve():\n    return 1\n", limits=Limits(wall_s=5)).ok
        assert time.monotonic() - start < 3.0


def test_the_warm_parent_holds_no_previous_request():
    """The zygote moves requests and replies with splice: after a job, neither the source nor
    the arguments nor the printed output of that program is anywhere in its memory (where the
    next program's process would inherit it)."""
    marker = "req-" + os.urandom(8).hex()
    with Executor("strict", workers=1) as ex:
        (zygote,) = ex.worker_pids()
        src = f"def solve(s):\n    print(s + '-out')\n    return s + '-{marker[:6]}'\n"
        assert ex.run(src, args=(marker,)).ok
        ex.run("def solve():\n    return 0\n")  # the next spare has been forked since
        try:
            memory = _readable_memory(zygote)
        except PermissionError:
            pytest.skip("cannot read the zygote's memory on this host")
    assert marker.encode() not in memory


def _readable_memory(pid: int) -> bytes:
    chunks = []
    with open(f"/proc/{pid}/maps") as maps, open(f"/proc/{pid}/mem", "rb", 0) as mem:
        for line in maps:
            addr, perms = line.split()[:2]
            if "r" not in perms or "[vvar" in line or "[vsyscall" in line:
                continue
            lo, hi = (int(x, 16) for x in addr.split("-"))
            try:
                mem.seek(lo)
                chunks.append(mem.read(hi - lo))
            except OSError:
                continue
    return b"".join(chunks)


def test_cleanup_never_raises_when_the_job_is_already_gone():
    from physbench.executor.zygote import _reap, kill_job

    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
    kill_job(pid)  # no such process, no such group: no ProcessLookupError
    assert _reap(pid) == (None, 0)
