"""Endpoint pool overhead: items/s of one run over N loopback servers vs one run over one of them.

Both runs keep the same number of requests in flight (the pool's `--concurrency` is per endpoint,
so it gets the total divided by N). The servers answer at once, each in its own process: a ratio
near or above 1 says the pool's bookkeeping costs no throughput (above 1 where one mock server was
the bottleneck); a ratio well below 1 would say it does.

    .venv/bin/python benchmarks/endpoints.py [--items 4000] [--concurrency 48] [--endpoints 3] [--rounds 2]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import runner as bench  # noqa: E402  (the runner benchmark: its mock server launcher and fixture suite)

from physbench.runner.evaluate import EvalConfig, evaluate  # noqa: E402


def rate(urls: tuple[str, ...], concurrency: int, n_items: int, run_dir: Path) -> float:
    """Items/s of the runner phase of one fresh run."""
    config = EvalConfig(suite="fixture", model="openai/bench", base_url=urls, concurrency=concurrency,
                        run_dir=str(run_dir), quiet=True)
    result = evaluate(config)
    assert result.summary["n_done"] == n_items and not result.summary["n_errors"], result.summary
    return n_items / result.wall_s


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--items", type=int, default=4000)
    parser.add_argument("--concurrency", type=int, default=48, help="requests in flight in both runs")
    parser.add_argument("--endpoints", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    suite = bench.fixture_suite.FixtureSuite()
    original_items = suite.items
    n_calc = args.items - len(bench.fixture_suite.CHECKS)

    def items(split: str = "dev", **kw: object) -> list:  # a larger dev split for the benchmark
        return list(original_items(split, **{**kw, "n_calc": n_calc}))

    suite.items = items  # type: ignore[method-assign]
    bench.fixture_suite.register(suite)
    servers = [bench.start_mock() for _ in range(args.endpoints)]
    urls = tuple(url for _, url in servers)
    singles, pools = [], []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for r in range(args.rounds):
                singles.append(rate(urls[:1], args.concurrency, args.items, Path(tmp) / f"one{r}"))
                pools.append(rate(urls, max(1, args.concurrency // args.endpoints), args.items, Path(tmp) / f"pool{r}"))
                print(f"round {r + 1}: one endpoint {singles[-1]:6.0f} items/s | {args.endpoints} endpoints "
                      f"{pools[-1]:6.0f} items/s | ratio {pools[-1] / singles[-1]:.2f}", flush=True)
    finally:
        for proc, _ in servers:
            assert proc.stdin is not None
            proc.stdin.close()
            proc.wait(10)
    one, pool = statistics.median(singles), statistics.median(pools)
    print(f"items={args.items} in flight={args.concurrency} endpoints={args.endpoints} rounds={args.rounds}")
    print(f"median: one endpoint {one:.0f} items/s, pool {pool:.0f} items/s, ratio {pool / one:.2f}")


if __name__ == "__main__":
    main()
