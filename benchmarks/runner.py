"""Runner throughput: items/s end to end (generate + grade + store) vs a bare client loop.

Starts the loopback mock server in its own process (zero latency), then alternates, in this one
process, (a) a bare loop of the same aiohttp client sending the same chat requests at the same
concurrency (the ceiling) and (b) the full `physbench eval` path on the same items, and prints both
rates and their ratio. Targets: >= 500 items/s end to end and >= 70% of the ceiling.

The bare loop is strict: request bodies are encoded beforehand and responses are not parsed. The
runner's rate counts the run itself (requests, grading in the forked grading process, commits),
not item generation or the summary; the line also shows the rate with those included, and the CPU
microseconds per item of this process (with its grading child) and of the mock server.

    .venv/bin/python benchmarks/runner.py [--items 20000] [--concurrency 64] [--rounds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "runner"))  # the fixture suite (registers "fixture")

import fixture_suite  # noqa: E402

from physbench.models.openai_compat import OpenAIModel, make_http_client  # noqa: E402
from physbench.runner.evaluate import EvalConfig, evaluate  # noqa: E402


def cpu_s(pid: int | None = None) -> float:
    """CPU seconds used so far: of process `pid` (from /proc), or of this process and its reaped children."""
    if pid is None:
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        return time.process_time() + children.ru_utime + children.ru_stime
    with open(f"/proc/{pid}/stat") as fh:
        fields = fh.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_mock() -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen([sys.executable, "-m", "physbench.runner.mock_server"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline().strip()
    if not line.startswith("listening "):
        proc.kill()
        raise SystemExit(f"mock server did not start: {line!r}")
    return proc, line.split(" ", 1)[1]


async def bare_loop(base_url: str, bodies: list[bytes], concurrency: int) -> float:
    """The ceiling: the same client and requests, nothing else (no grading, no store)."""
    client = make_http_client(concurrency, 600.0)
    url = f"{base_url}/chat/completions"
    headers = {"Content-Type": "application/json"}
    queue = iter(bodies)

    async def worker() -> None:
        for body in queue:
            async with client.post(url, data=body, headers=headers) as response:
                await response.read()
                if response.status != 200:
                    raise RuntimeError(f"HTTP {response.status}")

    start = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    elapsed = time.perf_counter() - start
    await client.close()
    return len(bodies) / elapsed


def full_path(base_url: str, n_items: int, concurrency: int, workdir: Path, round_no: int) -> tuple[float, float]:
    """(items/s of the runner phase, items/s including setup and summary) for one fresh run."""
    config = EvalConfig(suite="fixture", model="openai/bench", base_url=base_url, concurrency=concurrency,
                        run_dir=str(workdir / f"run{round_no}"), quiet=True)
    start = time.perf_counter()
    result = evaluate(config)
    total = time.perf_counter() - start
    assert result.summary["n_done"] == n_items, result.summary
    return n_items / result.wall_s, n_items / total


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--items", type=int, default=20000)
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    n_calc = args.items - len(fixture_suite.CHECKS)
    suite = fixture_suite.FixtureSuite()
    original_items = suite.items

    def items(split: str = "dev", **kw: object) -> list:  # a larger dev split for the benchmark
        return list(original_items(split, **{**kw, "n_calc": n_calc}))

    suite.items = items  # type: ignore[method-assign]
    fixture_suite.register(suite)
    model = OpenAIModel("bench", base_url="http://127.0.0.1:1/v1")
    bodies = [model.request_body(item.messages, {}) for item in items()]
    asyncio.run(model.aclose())
    from physbench import grading

    grader = "physbench.grading.grade_item" if hasattr(grading, "grade_item") else "the fixture's stand-in grader"
    proc, base_url = start_mock()
    ceilings, runs, totals = [], [], []
    n = len(bodies)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for r in range(args.rounds):
                own, mock = cpu_s(), cpu_s(proc.pid)
                ceilings.append(asyncio.run(bare_loop(base_url, bodies, args.concurrency)))
                bare_cpu = ((cpu_s() - own) / n * 1e6, (cpu_s(proc.pid) - mock) / n * 1e6)
                own, mock = cpu_s(), cpu_s(proc.pid)
                run_rate, total_rate = full_path(base_url, n, args.concurrency, Path(tmp), r)
                run_cpu = ((cpu_s() - own) / n * 1e6, (cpu_s(proc.pid) - mock) / n * 1e6)
                runs.append(run_rate)
                totals.append(total_rate)
                print(f"round {r + 1}: bare client {ceilings[-1]:6.0f} req/s | runner {run_rate:6.0f} items/s "
                      f"(with setup and summary {total_rate:6.0f}) | ratio {run_rate / ceilings[-1]:.2f} | "
                      f"CPU us/item client+mock: bare {bare_cpu[0]:.0f}+{bare_cpu[1]:.0f}, "
                      f"runner (incl. grading process, setup, summary) {run_cpu[0]:.0f}+{run_cpu[1]:.0f}", flush=True)
    finally:
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait(10)
    ceiling, run = statistics.median(ceilings), statistics.median(runs)
    print(f"items={len(bodies)} concurrency={args.concurrency} rounds={args.rounds} client=aiohttp grader={grader}")
    print(f"median: bare client loop {ceiling:.0f} req/s, runner end to end {run:.0f} items/s, "
          f"ratio {run / ceiling:.2f} (targets: >= 500 items/s, >= 0.70)")


if __name__ == "__main__":
    main()
