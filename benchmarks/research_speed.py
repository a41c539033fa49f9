"""Research regrading speed as a user pays it: whole processes, beside `python -c "import sympy"`.

    .venv/bin/python benchmarks/research_speed.py [--batch N] [--rounds R] [--baseline SRC]

Each round times, one after the other, whole-process wall clocks of: `python -c "import sympy"`
(the floor a SymPy grader cannot beat), `physbench research grade` of one reply, and of N replies
(the symbolic challenge of the shipped [[4,2,2]] problem, graded correct). With `--baseline SRC`
(the `src` folder of another checkout, e.g. a worktree of an older commit) the same round also
times that tree's one-reply and batch grading, so both trees meet the same machine load. Prints
JSON: per measure the median over the rounds and the median of the per-round ratios (one reply
over `import sympy`; batch replies/s over the baseline's). Issue 37's goal: one reply within 1.5 s
on 2 cores (quiet machine), batch at least 1.5x the replies/s of the grader it replaced. The
machine is shared: compare ratios taken in the same run, never times from different runs.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from physbench.suites.research.oracle import oracle_code
from physbench.suites.research.problem import load_problem, shipped_dir

HERE_SRC = str(Path(__file__).resolve().parents[1] / "src")


def wall(argv: list[str], src: str | None = None) -> float:
    env = dict(os.environ)
    if src:
        env["PYTHONPATH"] = src
    t0 = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, env=env)
    return time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--baseline", default=None, help="src folder of the tree to compare against")
    args = parser.parse_args()
    problem_file = shipped_dir() / "qed_422_depolarising.json"
    step = load_problem(problem_file).challenge  # a symbolic step: the run, then the judge
    trees = {"this": HERE_SRC, **({"baseline": args.baseline} if args.baseline else {})}
    times: dict[str, list[float]] = {"import_sympy": []}
    with tempfile.TemporaryDirectory() as tmp:
        one, many = Path(tmp) / "one.jsonl", Path(tmp) / "many.jsonl"
        one.write_text(json.dumps({"id": "r0", "response": oracle_code(step)}) + "\n")
        many.write_text("".join(json.dumps({"id": f"r{i}", "response": oracle_code(step)}) + "\n"
                                for i in range(args.batch)))
        grade = [sys.executable, "-m", "physbench", "research", "grade", str(problem_file), "--step", step.id,
                 "--json", "--responses"]
        for _ in range(args.rounds):
            times["import_sympy"].append(wall([sys.executable, "-c", "import sympy"]))
            for name, src in trees.items():
                times.setdefault(f"{name}_one", []).append(wall(grade + [str(one)], src))
                times.setdefault(f"{name}_batch", []).append(wall(grade + [str(many)], src))
    out: dict[str, object] = {"rounds": args.rounds, "batch": args.batch}
    out.update({f"{k}_s": round(statistics.median(v), 3) for k, v in times.items()})
    for name in trees:
        out[f"{name}_one_over_import_sympy"] = round(statistics.median(
            o / s for o, s in zip(times[f"{name}_one"], times["import_sympy"])), 2)
        out[f"{name}_batch_replies_per_s"] = round(args.batch / statistics.median(times[f"{name}_batch"]), 2)
    if args.baseline:
        out["batch_speedup_over_baseline"] = round(statistics.median(
            b / t for b, t in zip(times["baseline_batch"], times["this_batch"])), 2)
        out["one_reply_speedup_over_baseline"] = round(statistics.median(
            b / t for b, t in zip(times["baseline_one"], times["this_one"])), 2)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
