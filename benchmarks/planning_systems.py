"""The controller then the arithmetic system on every task of a patient, with the solve cache
(solve_cache.py) against a solve per optimize call (the baseline), in one run.

Both sweeps must end in the same terminal records (decisions, plans' goal tables, notes, weights);
the ratio is baseline CPU s / cached CPU s. Run it on one core:

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/planning_systems.py [PATIENT ...] [--max-iter N]
"""

from __future__ import annotations

import argparse
import json
import time
from unittest import mock

from physbench.suites.planning import harness as H
from physbench.suites.planning import influence, openkbp, solve_cache
from physbench.suites.planning import tasks as T
from physbench.suites.planning.harness import PlanningHarness
from physbench.suites.planning.metrics import Case
from physbench.suites.planning.optimizer import PLAN_STEPS, SolverConfig, solve
from physbench.suites.planning.systems import SYSTEMS

_VOLATILE = ("wall_s", "log")  # timings differ between any two runs


def sweep(case: Case, tasks: list[dict], cfg: SolverConfig) -> tuple[float, list[str]]:
    """CPU seconds and each terminal record (as JSON, timings dropped) of both systems."""
    out = []
    t0 = time.process_time()
    for system in ("controller", "arithmetic"):
        for t in tasks:
            h = PlanningHarness(t, case, solver=cfg)
            SYSTEMS[system](h)
            out.append(json.dumps({k: v for k, v in h.result().items() if k not in _VOLATILE}, sort_keys=True))
    return time.process_time() - t0, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("patients", nargs="*", default=["pt_241"])
    ap.add_argument("--max-iter", type=int, default=PLAN_STEPS, help=f"the harness's solver budget (default {PLAN_STEPS})")
    args = ap.parse_args()
    tasks_all, _ = T.build_tasks(args.patients)
    cfg = SolverConfig(max_iter=args.max_iter)
    print(f"{'patient':8} {'tasks':>5} {'cached CPU s':>12} {'baseline CPU s':>14} {'ratio':>6}  identical  hits/misses")
    for pid in args.patients:
        p = openkbp.load_shipped(pid)
        case = Case(p, lambda p=p: influence.influence_for(p))
        case.influence  # built (or read from the disk cache) before the clocks start
        tasks = [t for t in tasks_all if t["patient"] == pid]
        solve_cache.clear()
        new_s, new = sweep(case, tasks, cfg)
        st = solve_cache.stats()
        with mock.patch.object(H, "cached_solve", solve):
            base_s, base = sweep(case, tasks, cfg)
        print(f"{pid:8} {len(tasks):5d} {new_s:12.1f} {base_s:14.1f} {base_s / new_s:6.2f}  {str(new == base):9}"
              f"  {st['hits']}/{st['misses']}", flush=True)


if __name__ == "__main__":
    main()
