"""Optimizations reused within a process (solve_cache.py): the same plan as a fresh solve, never shared state."""

from __future__ import annotations

import numpy as np

from physbench.suites.planning import solve_cache
from physbench.suites.planning import tasks as T
from physbench.suites.planning.harness import PlanningHarness
from physbench.suites.planning.optimizer import SolverConfig, Term, solve
from physbench.suites.planning.systems import controller

FAST = SolverConfig(max_iter=40)
PATIENT = "pt_278"


def test_a_reused_solve_is_the_fresh_solve_and_a_private_copy(case_for):
    case = case_for(PATIENT)
    terms = [Term("PTV_7000" if case.patient.has("PTV_7000") else next(iter(case.patient.targets)), "min_dose", 70.0, 1.0),
             Term("External", "max_dose", 75.0, 1.0)]
    solve_cache.clear()
    first = solve_cache.cached_solve(case, terms, config=FAST)
    first.w[:] = -1.0  # a caller that scribbles on its plan must not change the next caller's
    again = solve_cache.cached_solve(case, terms, config=FAST)
    fresh = solve(case, terms, config=FAST)
    assert solve_cache.stats()["hits"] == 1 and solve_cache.stats()["misses"] == 1
    assert np.array_equal(again.w, fresh.w) and np.array_equal(again.dose, fresh.dose)
    # another warm start, level or solver setting is another problem
    solve_cache.cached_solve(case, terms, w0=fresh.w, config=FAST)
    solve_cache.cached_solve(case, [terms[0], Term("External", "max_dose", 74.0, 1.0)], config=FAST)
    solve_cache.cached_solve(case, terms, config=SolverConfig(max_iter=41))
    assert solve_cache.stats()["misses"] == 4


def test_a_conflicting_note_reuses_its_routine_tasks_plans_and_ends_the_same(case_for):
    """The controller never reads the note: the two tasks' goals are the same, so are the plans."""
    by = {t["kind"]: t for t in T.build_tasks([PATIENT])[0]}
    solve_cache.clear()
    ends = []
    for kind in ("routine", "conflicting_note"):
        h = PlanningHarness(by[kind], case_for(PATIENT), solver=FAST)
        controller(h)
        ends.append(h.terminal)
    st = solve_cache.stats()
    assert st["misses"] >= 1 and st["hits"] == st["misses"] == ends[0]["optimize_calls"]
    keep = ("plan_id", "goals", "hard_met", "weights_b64", "note", "optimize_calls", "tool_calls")
    assert [{k: e[k] for k in keep} for e in ends][0] == {k: ends[1][k] for k in keep}
