"""Planning suite speed: dose-influence build time per patient and seconds per plan, on one core.

For each patient: build the pencil-beam dose influence from scratch (no cache), then optimize
the routine goals once (templates.goal_terms, the default L-BFGS-B, the harness's budget of
optimizer.PLAN_STEPS evaluations). The baseline, run in the same process on the same objective, is
plain projected gradient with a backtracking step search and no momentum, stopped when it reaches
the objective the plan reached (or after --baseline-iter iterations); the ratio is baseline time /
plan time. (benchmarks/planning_plan_speed.py sets the plan beside FISTA, the method before.) Times are
CPU seconds of this process (time.process_time), so other work on a shared machine does not
count; wall seconds are printed beside them.

    .venv/bin/python benchmarks/planning.py [--patients pt_241 pt_304 ...] [--all] [--baseline-iter 1500]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from physbench.suites.planning import influence, openkbp
from physbench.suites.planning.goals import evaluate, goals_for
from physbench.suites.planning.metrics import Case
from physbench.suites.planning.optimizer import PLAN_STEPS, Problem, SolverConfig, solve
from physbench.suites.planning.templates import goal_terms

TYPICAL = ("pt_241", "pt_258", "pt_289", "pt_304", "pt_320")


def projected_gradient(case: Case, terms, target: float, max_iter: int) -> tuple[float, int, float]:
    """(CPU s, iterations, final objective) of plain projected gradient until f <= target."""
    cfg = SolverConfig()
    t0 = time.process_time()
    pb = Problem(case, terms, cfg)
    w = np.zeros(case.influence.n_beamlets)
    d = pb.forward(w)
    lip, f, k = 1e-3, float("inf"), 0
    for k in range(1, max_iter + 1):
        f, gd = pb.value_grad_dose(d)
        s, gs = pb.smooth(w)
        f += s
        g = pb.adjoint(gd) + gs
        for _ in range(60):
            wn = np.clip(w - g / lip, 0.0, cfg.w_max)
            dn = pb.forward(wn)
            fn = pb.value_grad_dose(dn, False)[0] + pb.smooth(wn)[0]
            step = wn - w
            if fn <= f + float(g @ step) + 0.5 * lip * float(step @ step) + 1e-6 * max(1e-6, abs(f)):
                break
            lip *= 2.0
        w, d, f = wn, dn, fn
        lip /= 1.05
        if f <= target:
            break
    return time.process_time() - t0, k, f


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--patients", nargs="*", default=list(TYPICAL))
    ap.add_argument("--all", action="store_true", help="every shipped patient")
    ap.add_argument("--baseline-iter", type=int, default=1500)
    args = ap.parse_args()
    ids = openkbp.shipped_ids() if args.all else args.patients
    print(f"{'patient':8} {'External':>8} {'beamlets':>8} {'nnz':>9} {'build s':>8} {'plan s':>7} {'wall s':>7} "
          f"{'iter':>5} {'hard met':>8} {'PG/plan':>9}")
    builds, plans = [], []
    for pid in ids:
        p = openkbp.load_shipped(pid)
        t0 = time.process_time()
        inf = influence.build(p)
        build_s = time.process_time() - t0
        case = Case(p, inf)
        goals = goals_for(p)
        terms = goal_terms(goals, p.targets)
        t0, w0 = time.process_time(), time.perf_counter()
        res = solve(case, terms, config=SolverConfig(max_iter=PLAN_STEPS))
        plan_s, plan_wall = time.process_time() - t0, time.perf_counter() - w0
        rows = [r for r in evaluate(case, res.dose, goals) if r["kind"] == "hard"]
        base_s, base_k, base_f = projected_gradient(case, terms, res.objective, args.baseline_iter)
        ratio = f"{base_s / plan_s:8.1f}x" if base_f <= res.objective else f">{base_s / plan_s:7.1f}x"
        print(f"{pid:8} {p.external.size:8d} {inf.n_beamlets:8d} {inf.nodes.nnz:9d} {build_s:8.2f} {plan_s:7.2f} "
              f"{plan_wall:7.2f} {res.iterations:5d} {sum(r['met'] for r in rows):>4}/{len(rows):<3} {ratio:>9}", flush=True)
        builds.append(build_s)
        plans.append(plan_s)
    print(f"median build {statistics.median(builds):.2f} s, median plan {statistics.median(plans):.2f} s "
          f"(target: a plan under 5 s on one core), max plan {max(plans):.2f} s over {len(plans)} patients")


if __name__ == "__main__":
    main()
