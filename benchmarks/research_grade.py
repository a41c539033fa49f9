"""Replies regraded per second by the research grader against the executor's own throughput.

    .venv/bin/python benchmarks/research_grade.py [N]

Both run in this process on one Executor("scientific", workers=2): the baseline is N trivial
programs through Executor.map; the measured run is N formatting replies (symbolic, numeric and
integer steps of the shipped [[4,2,2]] problem) through grade_steps. Prints the ratio.
"""

from __future__ import annotations

import sys
import time

from physbench.executor import Executor
from physbench.suites.research.grader import grade_steps
from physbench.suites.research.oracle import oracle_code
from physbench.suites.research.problem import load_problem, shipped_dir


def main(n: int = 60) -> None:
    problem = load_problem(shipped_dir() / "qed_422_depolarising.json")
    steps = [problem.challenge, *problem.checkpoints]
    chosen = [steps[i % len(steps)] for i in range(n)]
    replies = [oracle_code(s) for s in chosen]
    with Executor("scientific", workers=2) as ex:
        ex.map(["def solve():\n    return 1\n"] * 4)  # warm
        t0 = time.perf_counter()
        ex.map(["def solve():\n    return 1\n"] * n)
        base = n / (time.perf_counter() - t0)
        t0 = time.perf_counter()
        grades = grade_steps(chosen, replies, ex)
        graded = n / (time.perf_counter() - t0)
    assert all(g.correct for g in grades)
    print(f"executor: {base:.1f} programs/s; research grade: {graded:.1f} replies/s; ratio {graded / base:.3f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 60)
