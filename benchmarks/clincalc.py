"""clincalc throughput: cases/s of gold-solve-library and of the program arm against the executor alone.

    .venv/bin/python benchmarks/clincalc.py [--per-calculator 20] [--rounds 2]

Writes the synthetic set (55 x N cases) to a temporary folder, then in this one process times
(a) `physbench eval clincalc --protocol gold-library` (the library on the gold variables, no model),
(b) the program arm with the instant scripted model (`oracle`: each reply is a program returning
the gold answer), end to end with grading and the store, and (c) the same programs run straight
through the shared strict executor pool with as many threads as it has workers: the ceiling of (b).
Prints cases/s of each and the program arm's share of the executor's rate, as JSON lines.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from physbench.executor.pool import default_executor
from physbench.runner.evaluate import EvalConfig, evaluate
from physbench.suites.clincalc.suite import SUITE
from physbench.suites.clincalc.synth import write_synth

EXECUTOR_WORKERS = 2  # default_executor's pool size


def timed_eval(data: Path, run_dir: Path, protocol: str, arm: str) -> tuple[int, float]:
    """(cases graded, seconds) of one eval of the whole file."""
    options = (("data", str(data)), ("arm", arm))
    start = time.perf_counter()
    result = evaluate(EvalConfig(suite="clincalc", model="oracle", protocol=protocol, run_dir=str(run_dir),
                                 quiet=True, item_options=options))
    seconds = time.perf_counter() - start
    return int(result.summary["n_done"]), seconds


def timed_executor(data: Path) -> tuple[int, float]:
    """(programs run, seconds) of the oracle programs run straight through the executor pool."""
    from physbench.protocols.program import extract_program

    items = SUITE.items(arm="program", data=str(data))
    sources = [extract_program(SUITE.oracle(item) or "") or "" for item in items]
    ex = default_executor("strict")
    ex.run(sources[0])  # warm the pool, as the eval's first program does
    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=EXECUTOR_WORKERS) as pool:
        statuses = list(pool.map(lambda s: ex.run(s).status, sources))
    seconds = time.perf_counter() - start
    if statuses.count("ok") != len(sources):
        raise SystemExit(f"executor: {len(sources) - statuses.count('ok')} oracle programs did not run")
    return len(sources), seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-calculator", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "synth.csv"
        write_synth(str(data), args.per_calculator)
        for round_ in range(args.rounds):
            gold_n, gold_s = timed_eval(data, Path(tmp) / f"gold{round_}", "gold-library", "open-book")
            prog_n, prog_s = timed_eval(data, Path(tmp) / f"prog{round_}", "program", "program")
            exec_n, exec_s = timed_executor(data)
            print(json.dumps({"round": round_ + 1, "cases": gold_n,
                              "gold_solve_library_cases_per_s": round(gold_n / gold_s, 1),
                              "program_arm_cases_per_s": round(prog_n / prog_s, 1),
                              "executor_programs_per_s": round(exec_n / exec_s, 1),
                              "program_arm_over_executor": round((prog_n / prog_s) / (exec_n / exec_s), 3),
                              "gold_library_over_executor": round((gold_n / gold_s) / (exec_n / exec_s), 1)}))


if __name__ == "__main__":
    main()
