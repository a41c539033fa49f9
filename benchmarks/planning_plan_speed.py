"""One plan's CPU seconds with the active-row adjoint against the full products (the baseline), in one run.

For each patient: the routine goals optimized once (templates.goal_terms, FISTA, 500 iterations),
first as the optimizer runs now (the adjoint over the rows and nodes whose gradient is nonzero,
External's rows read as a slice), then with the full products and gathered rows as before. The
two plans must be bit-for-bit the same (the shipped witnesses depend on it); the ratio is baseline
CPU s / new CPU s. Run it on one core: `OMP_NUM_THREADS=1 taskset -c 1 python benchmarks/...`.

    .venv/bin/python benchmarks/planning_plan_speed.py [PATIENT ...] [--all]
"""

from __future__ import annotations

import argparse
import time
from unittest import mock

import numpy as np

from physbench.suites.planning import influence, openkbp
from physbench.suites.planning import optimizer as O
from physbench.suites.planning.goals import goals_for
from physbench.suites.planning.metrics import Case
from physbench.suites.planning.templates import goal_terms


def _baseline_init(orig):
    def init(self, *args, **kwargs):
        orig(self, *args, **kwargs)
        self._sparse_adjoint = False
    return init


def timed(case: Case, terms: list[O.Term], baseline: bool) -> tuple[float, O.SolveResult]:
    cfg = O.SolverConfig(max_iter=500)
    if not baseline:
        return _run(case, terms, cfg)
    with mock.patch.object(O, "_as_slice", lambda loc: loc), \
            mock.patch.object(O.Problem, "__init__", _baseline_init(O.Problem.__init__)):
        return _run(case, terms, cfg)


def _run(case: Case, terms: list[O.Term], cfg: O.SolverConfig) -> tuple[float, O.SolveResult]:
    t0 = time.process_time()
    res = O.solve(case, terms, config=cfg)
    return time.process_time() - t0, res


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("patients", nargs="*", default=["pt_241", "pt_278"])
    ap.add_argument("--all", action="store_true", help="every shipped patient")
    args = ap.parse_args()
    ids = openkbp.shipped_ids() if args.all else args.patients
    print(f"{'patient':8} {'new CPU s':>9} {'baseline CPU s':>14} {'ratio':>6}  identical")
    worst = 0.0
    for pid in ids:
        p = openkbp.load_shipped(pid)
        case = Case(p, lambda p=p: influence.influence_for(p))
        case.influence  # built (or read from the cache) before the clocks start
        terms = goal_terms(goals_for(p), p.targets)
        t_new, new = timed(case, terms, baseline=False)
        t_old, old = timed(case, terms, baseline=True)
        same = np.array_equal(new.w, old.w) and new.objective == old.objective
        worst = max(worst, t_new)
        print(f"{pid:8} {t_new:9.2f} {t_old:14.2f} {t_old / t_new:6.2f}  {'yes' if same else 'NO'}")
    print(f"slowest plan: {worst:.2f} CPU s")


if __name__ == "__main__":
    main()
