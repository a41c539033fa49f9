"""One plan's CPU seconds as the optimizer runs now against the full products (the baseline), in one run.

For each patient: the routine goals optimized once (templates.goal_terms, FISTA, 500 iterations),
first as the optimizer runs now (row_dose.RowDose: only the structures' node rows, a gather with
no interpolation; External's rest read by its max_dose term only where it comes near the level),
then with the full products (every node of the matrix, the interpolation to every row the terms
read, External read whole). Both solve the same objective on the same matrix; the ratio is
baseline CPU s / new CPU s, and the objective of each plan is printed. Run it on one core:
`OMP_NUM_THREADS=1 taskset -c 1 python benchmarks/...`.

    .venv/bin/python benchmarks/planning_plan_speed.py [PATIENT ...] [--all] [--new-only]
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


class FullRows:
    """The baseline: every node's dose, then the interpolation to the rows (as before row_dose)."""

    def __init__(self, inf: influence.DoseInfluence, rows: np.ndarray):
        self.inf = inf
        self.P = inf.interp[rows].tocsr()
        self.PT = self.P.T.tocsr().astype(np.float64)
        self.n_rows = rows.size

    def forward(self, w: np.ndarray) -> np.ndarray:
        return np.asarray(self.P @ self.inf.forward(np.asarray(w, dtype=np.float32)), dtype=np.float64)

    def adjoint(self, g: np.ndarray) -> np.ndarray:
        return np.asarray(self.inf.adjoint((self.PT @ g).astype(np.float32)), dtype=np.float64)


def timed(case: Case, terms: list[O.Term], baseline: bool) -> tuple[float, O.SolveResult]:
    cfg = O.SolverConfig(max_iter=500)
    if not baseline:
        return _run(case, terms, cfg)
    every = np.arange(case.patient.external.size)
    with mock.patch.object(O, "RowDose", FullRows), mock.patch.object(O, "near_targets", lambda case: every):
        return _run(case, terms, cfg)


def _run(case: Case, terms: list[O.Term], cfg: O.SolverConfig) -> tuple[float, O.SolveResult]:
    t0 = time.process_time()
    res = O.solve(case, terms, config=cfg)
    return time.process_time() - t0, res


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("patients", nargs="*", default=["pt_241", "pt_278"])
    ap.add_argument("--all", action="store_true", help="every shipped patient")
    ap.add_argument("--new-only", action="store_true", help="time the optimizer as it runs now, no baseline")
    args = ap.parse_args()
    ids = openkbp.shipped_ids() if args.all else args.patients
    print(f"{'patient':8} {'new CPU s':>9} {'iters':>5} {'baseline CPU s':>14} {'ratio':>6}  objective new / baseline")
    worst = (0.0, "")
    for pid in ids:
        p = openkbp.load_shipped(pid)
        case = Case(p, lambda p=p: influence.influence_for(p))
        case.influence  # built (or read from the cache) before the clocks start
        terms = goal_terms(goals_for(p), p.targets)
        t_new, new = timed(case, terms, baseline=False)
        worst = max(worst, (t_new, pid))
        if args.new_only:
            print(f"{pid:8} {t_new:9.2f} {new.iterations:5d}")
            continue
        t_old, old = timed(case, terms, baseline=True)
        print(f"{pid:8} {t_new:9.2f} {new.iterations:5d} {t_old:14.2f} {t_old / t_new:6.2f}  {new.objective:.6g} / {old.objective:.6g}")
    print(f"slowest plan: {worst[1]} {worst[0]:.2f} CPU s")


if __name__ == "__main__":
    main()
