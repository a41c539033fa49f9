"""Issue 37 Speed: `physbench research grade` of one reply starts what one reply needs and no more.
Whole-process times are measured by benchmarks/research_speed.py (beside `import sympy`); these
tests hold the causes, which do not depend on the machine's load."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

# modules a research grade never needs in the grading process (SymPy runs in the sandbox's judge)
NOT_NEEDED = ("numpy", "scipy", "sympy", "mpmath", "matplotlib", "statsmodels", "pint", "pandas")


def _grade_in_a_fresh_process(tmp_path, replies: int) -> dict:
    from physbench.suites.research.oracle import oracle_code
    from physbench.suites.research.problem import load_problem, shipped_dir

    problem = shipped_dir() / "qed_422_depolarising.json"
    step = load_problem(problem).challenge
    path = tmp_path / "replies.jsonl"
    path.write_text("".join(json.dumps({"id": f"r{i}", "response": oracle_code(step)}) + "\n"
                            for i in range(replies)))
    script = textwrap.dedent(f"""
        import json, sys
        sys.argv = ["physbench", "research", "grade", {str(problem)!r}, "--step", "challenge", "--json",
                    "--responses", {str(path)!r}]
        from physbench.cli import main
        from physbench.executor import pool
        try:
            main()
        except SystemExit as exc:
            assert not exc.code, exc.code
        print(json.dumps({{"modules": sorted(m for m in {NOT_NEEDED!r} if m in sys.modules),
                           "workers": {{p: len(ex.worker_pids()) for p, ex in pool._DEFAULT.items()}}}}))
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.strip().splitlines()
    assert [json.loads(x)["outcome"] for x in lines[:-1]] == ["correct"] * replies
    return json.loads(lines[-1])


def test_one_reply_starts_one_symbolic_sandbox_and_imports_no_numeric_library(tmp_path):
    """Before: two warm sandboxes started for one reply (twice the start-up on two cores)."""
    info = _grade_in_a_fresh_process(tmp_path, 1)
    assert info["workers"] == {"symbolic": 1}
    assert info["modules"] == []
