"""Research regrading speed as a user pays it: whole processes, beside `python -c "import sympy"`.

    .venv/bin/python benchmarks/research_speed.py [--batch N] [--repeats R]

Prints (JSON) the best of R whole-process wall times of: `python -c "import sympy"` (the floor a
SymPy grader cannot beat), `physbench research grade` of one reply, and of N replies (symbolic,
numeric and integer steps of the shipped [[4,2,2]] problem, graded correct), with the one-reply
time over the import time and the batch's replies/s. Issue 37's goal: one reply within 1.5 s on
2 cores, and at least 1.5x the replies/s of the grader this replaced (run this script on both
trees, on the same machine, one after the other, and compare).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from physbench.suites.research.oracle import oracle_code
from physbench.suites.research.problem import load_problem, shipped_dir


def best_wall(argv: list[str], repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, env=dict(os.environ))
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=40)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    problem_file = shipped_dir() / "qed_422_depolarising.json"
    problem = load_problem(problem_file)
    step = problem.challenge  # a symbolic step: the run, then the judge
    with tempfile.TemporaryDirectory() as tmp:
        one, many = Path(tmp) / "one.jsonl", Path(tmp) / "many.jsonl"
        one.write_text(json.dumps({"id": "r0", "response": oracle_code(step)}) + "\n")
        many.write_text("".join(json.dumps({"id": f"r{i}", "response": oracle_code(step)}) + "\n"
                                for i in range(args.batch)))
        grade = [sys.executable, "-m", "physbench", "research", "grade", str(problem_file), "--step", step.id,
                 "--json", "--responses"]
        sympy_s = best_wall([sys.executable, "-c", "import sympy"], args.repeats)
        one_s = best_wall(grade + [str(one)], args.repeats)
        many_s = best_wall(grade + [str(many)], args.repeats)
    print(json.dumps({"import_sympy_s": round(sympy_s, 3), "one_reply_s": round(one_s, 3),
                      "one_reply_over_import_sympy": round(one_s / sympy_s, 2),
                      "batch": args.batch, "batch_s": round(many_s, 3),
                      "batch_replies_per_s": round(args.batch / many_s, 2)}))


if __name__ == "__main__":
    main()
