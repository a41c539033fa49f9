"""The planning harness: one task's tools as JSON-in, JSON-out methods with a bounded budget.

Every planning system acts only through this class (OpenGray Fig. 1b): it reads the case summary,
registers objectives, optimizes (at most 3 times), inspects, normalizes, and ends the task by
submitting a plan or escalating with a reason. Every call counts toward the 15-call budget,
malformed ones included; a call after the end or beyond the budget returns an error and does
nothing. ``call`` never raises on a caller's input.

It follows the core's Harness interface (issue 20): ``tools`` (ToolSpec, JSON-schema parameters),
``limits``, ``call(name, arguments)`` returning JSON or {"error": code, "detail": text},
``finished`` once submit or escalate ran, and ``result()``, the plain JSON the grader reads.
"""

from __future__ import annotations

import copy
import logging
import time
from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np
from scipy.spatial import cKDTree

from physbench.suites.planning import geometry as geo
from physbench.suites.planning.goals import Goal, evaluate, rejection, rules_text
from physbench.suites.planning.metrics import Case, dvh, parse_metric
from physbench.suites.planning.plan_quality import plan_metric
from physbench.suites.planning.optimizer import PLAN_STEPS, SolverConfig, Term, spg
from physbench.suites.planning.solve_cache import cached_solve
from physbench.suites.planning.tasks import task_token
from physbench.suites.planning.tools import TERM_TYPES, TOOL_NAMES, TOOL_SPECS, ToolArgumentError, parse_arguments
from physbench.suites.planning.witness import encode_weights

OPTIMIZE_BUDGET = 3
TOOL_CALL_BUDGET = 15  # the anchor's 3 k + 6 for k = 3
TURN_LIMIT = 30
WALL_LIMIT_S = 600.0
DVH_POINTS = 25  # per structure, stored with a submitted plan for the viewer's DVH figure
_log = logging.getLogger(__name__)


class UnknownTool(Exception):
    """A call to a tool the harness does not have (answered with the error code unknown_tool)."""


@dataclass
class Plan:
    plan_id: str
    w: np.ndarray
    dose: np.ndarray
    source: str
    objective_id: str | None


class PlanningHarness:
    """Tools for one task: ``task`` is a task dict (tasks.py), ``case`` its patient and influence."""

    tools = TOOL_SPECS

    def __init__(self, task: dict[str, Any], case: Case, solver: SolverConfig | None = None,
                 optimize_budget: int = OPTIMIZE_BUDGET, tool_budget: int = TOOL_CALL_BUDGET):
        self.task, self.case = task, case
        self.goals = [Goal.from_dict(g) for g in task["goals"]]
        self.solver = solver or SolverConfig(max_iter=PLAN_STEPS)
        self.optimize_budget, self.tool_budget = optimize_budget, tool_budget
        self.optimize_calls = self.tool_calls = 0
        self.objectives: dict[str, list[Term]] = {}
        self.plans: dict[str, Plan] = {}
        self.last_w: np.ndarray | None = None
        self.terminal: dict[str, Any] | None = None
        self.log: list[dict[str, Any]] = []
        self._summary: dict[str, Any] | None = None
        self._n_obj = 0
        self._t0 = time.perf_counter()
        self.refused = 0  # calls refused because the task was over or the call budget spent

    @property
    def limits(self) -> dict[str, float]:
        """The budgets an agent loop enforces (OpenGray: 15 tool calls, 3 optimizations)."""
        return {"tool_calls": self.tool_budget, "optimizations": self.optimize_budget, "turns": TURN_LIMIT,
                "wall_s": WALL_LIMIT_S}

    @property
    def finished(self) -> bool:
        """True once submit or escalate ran."""
        return self.terminal is not None

    # ---- the one entry point ----------------------------------------------------------------
    def call(self, name: str, arguments: Mapping[str, Any] | str | None = None) -> dict[str, Any]:
        """Run one tool; the result, or {"error": code, "detail": text}. Never raises."""
        t0 = time.perf_counter()
        name = name if isinstance(name, str) else repr(name)
        if self.terminal is not None:
            out: dict[str, Any] = {"error": "task_over", "detail": f"The task has already ended "
                                   f"({self.terminal['outcome']}); no further tool calls are accepted."}
            self.refused += 1
        elif self.tool_calls >= self.tool_budget:
            out = {"error": "tool_budget", "detail": f"All {self.tool_budget} tool calls of this task have been used."}
            self.refused += 1
        else:
            self.tool_calls += 1
            try:
                if isinstance(arguments, Mapping) and not isinstance(arguments, dict):
                    arguments = dict(arguments)
                if name not in TOOL_NAMES:
                    raise UnknownTool(f"There is no tool named {name[:60]!r}; the tools are {', '.join(TOOL_NAMES)}.")
                out = getattr(self, name)(**parse_arguments(name, arguments))
            except UnknownTool as exc:
                out = {"error": "unknown_tool", "detail": str(exc)}
            except ToolArgumentError as exc:
                out = {"error": "invalid_arguments", "detail": str(exc)}
            except (ValueError, KeyError) as exc:
                out = {"error": "tool_error", "detail": str(exc).strip("'\"")[:500]}
            except Exception as exc:  # a fault of ours must not end the attempt: report it to the caller
                _log.exception("planning tool %s failed", name[:60])
                out = {"error": "internal_error", "detail": f"{type(exc).__name__}: {str(exc)[:300]}"}
        self.log.append({"tool": name[:60], "ok": "error" not in out, "error": out.get("error"),
                         "wall_s": round(time.perf_counter() - t0, 4)})
        return out

    def result(self) -> dict[str, Any]:
        """Plain JSON the grader reads: the terminal record (outcome submitted or escalated), or
        outcome ``no_decision``; the task, the budgets used and the per-call log."""
        base = self.terminal if self.terminal is not None else {"outcome": "no_decision", **self._counts()}
        return {**copy.deepcopy(base), "task_id": self.task.get("id"), "family": self.task.get("kind"),
                "patient": self.case.id, "budget_exhausted": self.tool_calls >= self.tool_budget and self.terminal is None,
                "refused_calls": self.refused, "log": copy.deepcopy(self.log)}

    def budget(self) -> dict[str, int]:
        return {"optimize_total": self.optimize_budget, "optimize_remaining": self.optimize_budget - self.optimize_calls,
                "tool_calls_made": self.tool_calls, "tool_calls_max": self.tool_budget}

    # ---- tools -------------------------------------------------------------------------------
    def get_case_summary(self) -> dict[str, Any]:
        if self._summary is None:
            self._summary = self._build_summary()
        return {**self._summary, "budget": self.budget()}

    def set_objectives(self, objectives: list[dict[str, Any]]) -> dict[str, Any]:
        problems, terms = [], []
        for i, t in enumerate(objectives):
            if not self.case.patient.has(t["structure"]):
                problems.append(f"term {i}: structure {t['structure']!r} is not in the case")
                continue
            try:
                vf = t.get("volume_fraction")
                terms.append(Term(t["structure"], t["term"], float(t["level"]), float(t["priority"]),
                                  None if vf is None else float(vf)))
            except ValueError as exc:
                problems.append(f"term {i}: {exc}")
        self._n_obj += 1
        oid = f"obj_{self._n_obj}"
        if not problems:
            self.objectives[oid] = terms
        return {"objective_id": oid if not problems else None, "valid": not problems, "problems": problems,
                "n_terms": len(objectives)}

    def optimize(self, objective_id: str) -> dict[str, Any]:
        if objective_id not in self.objectives:
            raise ValueError(f"There is no objective {objective_id!r}; register one with set_objectives first.")
        if self.optimize_calls >= self.optimize_budget:
            return {"error": "optimize_budget", "detail": f"The optimization budget ({self.optimize_budget}) is spent; "
                    "normalize, inspect, submit or escalate instead."}
        self.optimize_calls += 1
        res = cached_solve(self.case, self.objectives[objective_id], w0=self.last_w, config=self.solver)
        plan = self._add_plan(res.w, res.dose, "optimize", objective_id)
        table = self._goal_table(plan.dose)
        return {"plan_id": plan.plan_id, **table,
                "solver": {"iterations": res.iterations, "converged": res.converged, "wall_s": round(res.wall_s, 3),
                           "warm_start": res.warm_start, "spg": round(res.spg, 2), "w_max": round(float(res.w.max()), 3)},
                "budget": self.budget()}

    def get_metrics(self, plan_id: str, metrics: list[dict[str, str]]) -> dict[str, Any]:
        plan = self._plan(plan_id)
        values = []
        for q in metrics:
            try:
                got, unit = plan_metric(self.case, plan.dose, q["structure"], q["metric"])
                v: float | None = round(got, 4)
                err = None
            except (KeyError, ValueError) as exc:
                v, unit, err = None, None, str(exc).strip("'\"")
            values.append({"structure": q["structure"], "metric": q["metric"], "value": v, "unit": unit,
                           **({"error": err} if err else {})})
        return {"plan_id": plan_id, "values": values}

    def get_dvh(self, plan_id: str, structure: str, n_points: int = 50) -> dict[str, Any]:
        plan = self._plan(plan_id)
        if not self.case.patient.has(structure):
            raise KeyError(f"The case has no structure {structure!r}.")
        levels, frac = dvh(self.case.structure_dose(plan.dose, structure), n_points)
        return {"plan_id": plan_id, "structure": structure, "dose_gy": levels, "volume_fraction": frac}

    def normalize(self, plan_id: str, structure: str, metric: str, value: float) -> dict[str, Any]:
        plan = self._plan(plan_id)
        current = self.case.metric(plan.dose, structure, parse_metric(metric))
        if not current > 0:
            raise ValueError(f"{structure} {metric} is zero in {plan_id}, so there is nothing to scale.")
        factor = float(value) / current
        new = self._add_plan(plan.w * factor, plan.dose * factor, "normalize", plan.objective_id)
        return {"plan_id": new.plan_id, "source_plan_id": plan_id, "scale_factor": round(factor, 6),
                **self._goal_table(new.dose), "w_max": round(float(new.w.max()), 3), "budget": self.budget()}

    def compare_to_goals(self, plan_id: str) -> dict[str, Any]:
        return {"plan_id": plan_id, **self._goal_table(self._plan(plan_id).dose)}

    def submit(self, plan_id: str, note: str = "") -> dict[str, Any]:
        plan = self._plan(plan_id)
        table = self._goal_table(plan.dose)
        self.terminal = {"outcome": "submitted", "plan_id": plan_id, "note": note, **table,
                         "global_max_gy": round(self.case.global_max(plan.dose), 4),
                         "spg": round(_spg(self.case, plan.w), 3), "w_max": round(float(plan.w.max()), 4),
                         "weights_b64": encode_weights(plan.w), "influence_hash": self.case.influence.content_hash,
                         "dvh": self._dvh_table(plan.dose), **self._counts()}
        return {"status": "submitted", "plan_id": plan_id}

    def escalate(self, reason: str, explanation: str = "") -> dict[str, Any]:
        self.terminal = {"outcome": "escalated", "reason": reason, "explanation": explanation, **self._counts()}
        return {"status": "escalated", "reason": reason}

    # ---- helpers -----------------------------------------------------------------------------
    def _counts(self) -> dict[str, Any]:
        return {"optimize_calls": self.optimize_calls, "tool_calls": self.tool_calls,
                "wall_s": round(time.perf_counter() - self._t0, 3)}

    def _add_plan(self, w: np.ndarray, dose: np.ndarray, source: str, objective_id: str | None) -> Plan:
        plan = Plan(f"plan_{len(self.plans) + 1}", np.asarray(w, dtype=np.float64), dose, source, objective_id)
        self.plans[plan.plan_id] = plan
        self.last_w = plan.w.copy()
        return plan

    def _dvh_table(self, dose: np.ndarray) -> dict[str, Any]:
        """Each structure's cumulative DVH at DVH_POINTS dose levels (for the viewer's figure); each
        target on its own, not merged with a higher-dose target."""
        out = {}
        for name in self.case.patient.structures:
            levels, frac = dvh(self.case.structure_dose(dose, name, merge=False), DVH_POINTS)
            out[name] = {"dose_gy": levels, "volume_fraction": frac}
        return out

    def _plan(self, plan_id: str) -> Plan:
        if plan_id not in self.plans:
            raise KeyError(f"There is no plan {plan_id!r}; the plans so far are: {', '.join(self.plans) or 'none'}.")
        return self.plans[plan_id]

    def _goal_table(self, dose: np.ndarray) -> dict[str, Any]:
        rows = evaluate(self.case, dose, self.goals)
        hard = [r for r in rows if r["kind"] == "hard"]
        soft = [r for r in rows if r["kind"] == "soft"]
        return {"goals": rows, "hard_met": sum(bool(r["met"]) for r in hard), "hard_total": len(hard),
                "soft_met": sum(bool(r["met"]) for r in soft), "soft_total": len(soft),
                "rejected": rejection(self.case, dose)}

    def _build_summary(self) -> dict[str, Any]:
        p = self.case.patient
        return {"case_id": p.id, "task_id": task_token(self.task), "note": self.task.get("note", ""),
                "voxel_mm": list(p.voxel_mm), "voxel_cc": round(p.voxel_cc, 6), "structures": anatomy(self.case),
                "prescriptions": p.targets, "goals": [summary_goal(g) for g in self.goals], "rules": rules_text(),
                "beams": {"n_beams": len(geo.GANTRY_DEG), "gantry_deg": list(geo.GANTRY_DEG), "energy": "6 MV",
                          "beamlet_mm": [5.0, 5.0], "technique": "coplanar fixed-gantry IMRT"},
                "objective_terms": list(TERM_TYPES), "goal_tolerance_gy": 0.05}


def summary_goal(g: Goal) -> dict[str, Any]:
    """A goal as the case summary states it: with its unit and tier (hard: a requirement; soft: a wish)."""
    return {**g.to_dict(), "unit": "Gy", "tier": g.kind,
            "note": "requirement" if g.kind == "hard" else "wish: met if possible"}


_ANATOMY: dict[str, list[dict[str, Any]]] = {}


def anatomy(case: Case) -> list[dict[str, Any]]:
    """Per structure: voxels, volume, voxels outside External; for organs, the voxels shared with
    each (unmerged) target and the smallest distance to it. Cached per anatomy (up to 64 patients)."""
    p = case.patient
    key = p.content_hash()
    if key in _ANATOMY:
        return copy.deepcopy(_ANATOMY[key])
    rx = p.targets
    trees = {t: cKDTree(geo.positions_mm(geo.grid_ijk(p.mask(t)), p.voxel_mm)) for t in rx}
    structures = []
    for name in ["External", *p.structures]:
        mask = p.mask(name)
        _rows, outside = case.rows(name, merge=False)
        entry: dict[str, Any] = {"name": name, "n_voxels": int(mask.size), "volume_cc": round(mask.size * p.voxel_cc, 2),
                                 "voxels_outside_external": outside, "is_target": name in rx, "prescription_gy": rx.get(name)}
        if name not in rx and name != "External":
            shared = {t: int(np.intersect1d(mask, p.mask(t), assume_unique=True).size) for t in rx}
            own = geo.positions_mm(geo.grid_ijk(mask), p.voxel_mm)
            entry.update(overlap_voxels_with_targets=shared,
                         overlap_fraction_with_targets={t: round(n / mask.size, 4) for t, n in shared.items()},
                         min_distance_mm_to_targets={t: round(float(trees[t].query(own)[0].min()), 1) for t in rx})
        structures.append(entry)
    if len(_ANATOMY) >= 64:
        _ANATOMY.pop(next(iter(_ANATOMY)))
    _ANATOMY[key] = structures
    return copy.deepcopy(structures)


def _spg(case: Case, w: np.ndarray) -> float:
    return spg(case.influence, w)
