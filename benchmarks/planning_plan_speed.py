"""One plan's CPU seconds with the optimizer's default (L-BFGS-B) against the method before it (the baseline), in one run.

For each patient: the routine goals optimized once (templates.goal_terms), first with the default
method and the harness's budget (optimizer.PLAN_STEPS objective evaluations), then with the
baseline: FISTA with its 500-iteration limit, as every plan was made before December 2026. Both
solve the same objective on the same matrix; printed are the CPU seconds of each, their ratio
(baseline / new), both objectives (new / baseline, lower is better) and the hard goals each plan
meets. Run it on one core: `OMP_NUM_THREADS=1 taskset -c 1 python benchmarks/...`.

    .venv/bin/python benchmarks/planning_plan_speed.py [PATIENT ...] [--all] [--new-only] [--steps N]
"""

from __future__ import annotations

import argparse
import statistics
import time

from physbench.suites.planning import influence, openkbp
from physbench.suites.planning import optimizer as O
from physbench.suites.planning.goals import Goal, evaluate, goals_for
from physbench.suites.planning.metrics import Case
from physbench.suites.planning.templates import goal_terms

BASELINE = O.SolverConfig(max_iter=500, method="fista")


def timed(case: Case, goals: list[Goal], cfg: O.SolverConfig) -> tuple[float, O.SolveResult, int]:
    """(CPU s, result, hard goals met) of one cold solve."""
    terms = goal_terms(goals, case.patient.targets)
    t0 = time.process_time()
    res = O.solve(case, terms, config=cfg)
    cpu = time.process_time() - t0
    met = sum(r["met"] for r in evaluate(case, res.dose, goals) if r["kind"] == "hard")
    return cpu, res, met


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("patients", nargs="*", default=["pt_241", "pt_278"])
    ap.add_argument("--all", action="store_true", help="every shipped patient")
    ap.add_argument("--new-only", action="store_true", help="time the default method only, no baseline")
    ap.add_argument("--steps", type=int, default=O.PLAN_STEPS, help="evaluation budget of the default method")
    args = ap.parse_args()
    new_cfg = O.SolverConfig(max_iter=args.steps)
    ids = openkbp.shipped_ids() if args.all else args.patients
    print(f"{'patient':8} {'new CPU s':>9} {'evals':>5} {'hard':>4} {'FISTA CPU s':>11} {'iters':>5} {'hard':>4} "
          f"{'ratio':>6}  objective new / FISTA")
    times, ratios, rel = [], [], []
    for pid in ids:
        p = openkbp.load_shipped(pid)
        case = Case(p, lambda p=p: influence.influence_for(p))
        case.influence  # built (or read from the cache) before the clocks start
        goals = goals_for(p)
        n_hard = sum(g.kind == "hard" for g in goals)
        t_new, new, met_new = timed(case, goals, new_cfg)
        times.append((t_new, pid))
        if args.new_only:
            print(f"{pid:8} {t_new:9.2f} {new.iterations:5d} {met_new:>2}/{n_hard}", flush=True)
            continue
        t_old, old, met_old = timed(case, goals, BASELINE)
        ratios.append(t_old / t_new)
        rel.append(new.objective / old.objective if old.objective > 0 else 1.0)
        print(f"{pid:8} {t_new:9.2f} {new.iterations:5d} {met_new:>2}/{n_hard} {t_old:11.2f} {old.iterations:5d} "
              f"{met_old:>2}/{n_hard} {t_old / t_new:6.2f}  {new.objective:.6g} / {old.objective:.6g}", flush=True)
    cpu = sorted(t for t, _ in times)
    print(f"new: min / median / max {cpu[0]:.2f} / {statistics.median(cpu):.2f} / {cpu[-1]:.2f} CPU s "
          f"(slowest {max(times)[1]}); under 5 s: {sum(t < 5 for t in cpu)} of {len(cpu)}")
    if ratios:
        print(f"ratio FISTA / new: median {statistics.median(ratios):.2f}; objective new / FISTA: median "
              f"{statistics.median(rel):.3f}, max {max(rel):.3f}")


if __name__ == "__main__":
    main()
