"""Whole-process costs of `physbench eval` against their floors (issue 17), alternated in one run.

- `eval medphys --limit 1 --model oracle` wall time against `python -c "import aiohttp, sqlite3"`
  (goal: at most 3x);
- a whole-process 600-item eval (`--model openai/mock` against the loopback mock server) against a
  raw aiohttp loop in its own process sending 600 requests to the same server (goal: at least 0.5x).

The package's sources are byte-compiled first (as an installed package is) and each command runs
once untimed, so that no round pays for compiling modules or for filling the on-disk caches.

    .venv/bin/python benchmarks/startup.py [--rounds 5]
"""

from __future__ import annotations

import argparse
import compileall
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from runner import start_mock

RAW_LOOP = """
import asyncio, json, sys, aiohttp
async def main(url, n):
    body = json.dumps({"model": "mock", "messages": [{"role": "user", "content": "dev/calc/0: dose?"}]}).encode()
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=16)) as s:
        sem = asyncio.Semaphore(16)
        async def one():
            async with sem:
                async with s.post(url + "/chat/completions", data=body, headers={"Content-Type": "application/json"}) as r:
                    await r.read()
        await asyncio.gather(*(one() for _ in range(n)))
asyncio.run(main(sys.argv[1], int(sys.argv[2])))
"""


def wall(args: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def prepare(py: str, base_url: str, tmp: str) -> None:
    """Byte-compile physbench's sources, then run each timed command once (warm caches, warm pages)."""
    import physbench

    # PYTHONDONTWRITEBYTECODE (set on some machines) would otherwise leave every round compiling
    compileall.compile_dir(str(Path(physbench.__file__).parent), quiet=1, workers=0)
    wall([py, "-m", "physbench", "eval", "medphys", "--limit", "1", "--model", "oracle", "--quiet",
          "--run-dir", f"{tmp}/warm-l1"])
    wall([py, "-m", "physbench", "eval", "medphys", "--limit", "600", "--model", "openai/mock",
          "--base-url", base_url, "--quiet", "--run-dir", f"{tmp}/warm-w"])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    rounds = parser.parse_args().rounds
    py = sys.executable
    mock, base_url = start_mock()
    limit1, imports, whole, raw = [], [], [], []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            prepare(py, base_url, tmp)
            for r in range(rounds):
                imports.append(wall([py, "-c", "import aiohttp, sqlite3"]))
                limit1.append(wall([py, "-m", "physbench", "eval", "medphys", "--limit", "1", "--model", "oracle",
                                    "--quiet", "--run-dir", f"{tmp}/l1-{r}"]))
                raw.append(wall([py, "-c", RAW_LOOP, base_url, "600"]))
                whole.append(wall([py, "-m", "physbench", "eval", "medphys", "--limit", "600", "--model", "openai/mock",
                                   "--base-url", base_url, "--quiet", "--run-dir", f"{tmp}/w-{r}"]))
                print(f"round {r + 1}: --limit 1 {limit1[-1]:.2f} s vs imports {imports[-1]:.2f} s | "
                      f"600 items {whole[-1]:.2f} s vs raw loop {raw[-1]:.2f} s", flush=True)
    finally:
        mock.kill()
    m = statistics.median
    print(f"median: eval --limit 1 is {m(limit1) / m(imports):.2f}x `import aiohttp, sqlite3` (goal <= 3x); "
          f"whole-process 600-item eval runs at {m(raw) / m(whole):.2f}x the raw loop (goal >= 0.5x)")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    main()
