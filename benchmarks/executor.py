"""Executor throughput: the warm fork pool against a fresh `python -I` per program.

    .venv/bin/python benchmarks/executor.py [--n 500] [--workers 2] [--fresh-n N] [--policy P]

For each policy, runs N trivial programs with 2 workers through `Executor` and through a fresh
interpreter per program (the seed's design, 003_* Table 17) that imports the policy's modules,
applies the same static checks, proxies, builtins and rlimits, and prints the result as JSON.
Prints programs/s, p50/p99 latency (and the pool's p50 one program at a time, without queueing
behind the other worker) and the pool/fresh ratios, measured in this one process.
A fresh scientific interpreter costs seconds here, so its sample defaults to 40 programs; the
rate is measured over that sample.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from physbench.executor import Executor

PROGRAMS = {
    "strict": "import math\ndef solve(a, b):\n    return math.sqrt(a * a + b * b)\n",
    "scientific": "import numpy as np\ndef solve(a, b):\n    return float(np.hypot(a, b))\n",
}

# the fresh-interpreter baseline: one process per program, same checks, result on stdout
FRESH = r"""
import ast, builtins, json, resource, sys, types
# load only the check modules, not the package's caller-side machinery
for pkg, path in (("physbench", SRC + "/physbench"), ("physbench.executor", SRC + "/physbench/executor")):
    mod = types.ModuleType(pkg); mod.__path__ = [path]; sys.modules[pkg] = mod
from physbench.executor import instrument
from physbench.executor.policy import SAFE_BUILTINS
from physbench.executor.proxies import build_proxies, make_importer
from physbench.executor.static import check_tree
policy, call = sys.argv[1], sys.argv[2]
args = json.loads(sys.argv[3])
source = sys.stdin.read()
proxies = build_proxies(policy)
if len(source) > (8000 if policy == "strict" else 16000):
    print(json.dumps({"status": "rejected"})); sys.exit(0)
tree = ast.parse(source, "<program>")
problems = check_tree(tree, policy)
if problems:
    print(json.dumps({"status": "rejected", "error": problems[0]})); sys.exit(0)
resource.setrlimit(resource.RLIMIT_CPU, (5, 6))
resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
code = compile(instrument.instrument(tree), "<program>", "exec")
count = [0]
def line(lineno=0):
    count[0] += 1
    if count[0] > 100000:
        raise RuntimeError("line limit")
table = {name: getattr(builtins, name) for name in SAFE_BUILTINS}
table["__import__"] = make_importer(proxies, policy)
table.update({instrument.LINE: line, instrument.STEP: lambda: line() or True,
              instrument.VALUE: lambda v: line() or v, instrument.KWARGS: dict})
ns = {"__builtins__": table}
exec(code, ns)
print(json.dumps({"status": "ok", "value": ns[call](*args)}))
"""
SRC = str(Path(__file__).resolve().parents[1] / "src")


def _percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def bench_pool(policy: str, n: int, workers: int) -> dict[str, float]:
    source = PROGRAMS[policy]
    with Executor(policy, workers=workers) as ex:
        for i in range(20):  # warm the workers and this process's code paths
            ex.run(source, args=(3, 4))
        latencies: list[float] = []

        def one(i: int) -> float:
            t = time.perf_counter()
            r = ex.run(source, args=(3, i))
            if r.status != "ok":
                raise SystemExit(f"pool run failed: {r}")
            return time.perf_counter() - t

        start = time.perf_counter()
        with ThreadPoolExecutor(max_workers=workers) as pool:
            latencies = list(pool.map(one, range(n)))
        total = time.perf_counter() - start
        alone = []
        for i in range(min(n, 100)):  # one program at a time: latency without queueing
            time.sleep(0.002)
            alone.append(one(i))
    return dict(_summary(n, total, latencies), p50_alone_ms=1000 * statistics.median(alone))


def bench_fresh(policy: str, n: int, workers: int) -> dict[str, float]:
    source = PROGRAMS[policy]

    def one(i: int) -> float:
        t = time.perf_counter()
        r = subprocess.run([sys.executable, "-I", "-c", f"SRC = {SRC!r}\n" + FRESH, policy, "solve",
                            json.dumps([3, i])],
                           input=source, capture_output=True, text=True, timeout=120)
        if r.returncode != 0 or '"ok"' not in r.stdout:
            raise SystemExit(f"fresh run failed: {r.stdout} {r.stderr[-500:]}")
        return time.perf_counter() - t

    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=workers) as pool:
        latencies = list(pool.map(one, range(n)))
    total = time.perf_counter() - start
    return _summary(n, total, latencies)


def _summary(n: int, total: float, latencies: list[float]) -> dict[str, float]:
    return {"n": n, "programs_per_s": n / total, "p50_ms": 1000 * statistics.median(latencies),
            "p99_ms": 1000 * _percentile(latencies, 0.99)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=500)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--fresh-n", type=int, default=None,
                        help="programs for the fresh baseline (default: n for strict, 40 for scientific)")
    parser.add_argument("--policy", choices=("strict", "scientific", "both"), default="both")
    parser.add_argument("--json", action="store_true")
    opts = parser.parse_args()
    policies = ("strict", "scientific") if opts.policy == "both" else (opts.policy,)
    report = {}
    for policy in policies:
        fresh_n = opts.fresh_n or (opts.n if policy == "strict" else min(opts.n, 40))
        pool = bench_pool(policy, opts.n, opts.workers)
        fresh = bench_fresh(policy, fresh_n, opts.workers)
        report[policy] = {"pool": pool, "fresh": fresh,
                          "throughput_ratio": pool["programs_per_s"] / fresh["programs_per_s"],
                          "p50_ratio": fresh["p50_ms"] / pool["p50_ms"]}
        if not opts.json:
            for name, r in (("pool", pool), ("fresh python -I", fresh)):
                print(f"{policy:10s} {name:16s} n={r['n']:4d}  {r['programs_per_s']:8.1f} programs/s  "
                      f"p50 {r['p50_ms']:8.2f} ms  p99 {r['p99_ms']:8.2f} ms")
            print(f"{policy:10s} pool one program at a time: p50 {pool['p50_alone_ms']:.2f} ms")
            print(f"{policy:10s} pool/fresh throughput x{report[policy]['throughput_ratio']:.1f}, "
                  f"p50 x{report[policy]['p50_ratio']:.1f}")
    if opts.json:
        print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
