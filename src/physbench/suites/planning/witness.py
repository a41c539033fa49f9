"""Feasible witnesses (OpenGray Table S4): stored plans that meet every hard goal, re-checked from weights.

A witness is found by the optimizer: first a plan that meets every hard goal (priorities of the
unmet goals raised between warm-started solves), then the spinal-cord limit of the objective is
lowered step by step while every other hard goal stays met. The plan with the lowest cord
D0.1cc is kept. Its weights travel with the task (float32, zlib, base64) together with the
content hash of the dose influence they were computed on, and are re-checked against every
hard goal, the tightened cord limit included; the minimum margin is the smallest signed distance
inside a tolerated hard-goal boundary.
"""

from __future__ import annotations

import base64
import zlib
from dataclasses import dataclass
from typing import Any

import numpy as np

from physbench.suites.planning.goals import TOL_GY, Goal, evaluate
from physbench.suites.planning.metrics import Case
from physbench.suites.planning.optimizer import PLAN_STEPS, SolverConfig, solve
from physbench.suites.planning.templates import goal_terms

CORD = "SpinalCord"
SHRINK = 0.6  # next cord level as a fraction of the cord dose just reached
MAX_SOLVES = 8
MAX_ENCODED = 4 * 2**20  # bytes of base64 text a stored witness may take


def encode_weights(w: np.ndarray) -> str:
    return base64.b64encode(zlib.compress(np.asarray(w, dtype="<f4").tobytes(), 9)).decode("ascii")


def decode_weights(text: str, n: int) -> np.ndarray:
    """float64 copy of stored float32 weights; ValueError for anything but n finite values in [0, 15]."""
    if not isinstance(text, str) or len(text) > MAX_ENCODED:
        raise ValueError("stored weights must be a base64 string of bounded size")
    try:
        raw = zlib.decompressobj().decompress(base64.b64decode(text, validate=True), 4 * n + 1)
    except (ValueError, zlib.error) as exc:
        raise ValueError(f"stored weights do not decode: {exc}") from None
    if len(raw) != 4 * n:
        raise ValueError(f"stored weights hold {len(raw) // 4} values, the case has {n} beamlets")
    w = np.frombuffer(raw, dtype="<f4").astype(np.float64)
    if not np.all(np.isfinite(w)) or w.min() < 0 or w.max() > 15.0 + 1e-6:
        raise ValueError("stored weights must be finite and within [0, 15]")
    return w


def tightened_cord_limit(cord_gy: float, published_gy: float = 45.0) -> float:
    """Table S15: the midpoint between the published limit and the witness cord dose, to 0.1 Gy;
    the published limit itself when the witness does not go below it."""
    if cord_gy >= published_gy:
        return published_gy
    return round(cord_gy + 0.5 * (published_gy - cord_gy), 1)


def check(case: Case, w: np.ndarray, goals: list[Goal]) -> dict[str, Any]:
    """Every hard goal re-evaluated on the dose of ``w``: all met?, minimum margin, each goal."""
    dose = case.influence.dose(w)
    rows = evaluate(case, dose, [g for g in goals if g.kind == "hard"])
    present = [r for r in rows if r["achieved"] is not None]
    ok = bool(present) and len(present) == len(rows) and all(r["met"] for r in present)
    return {"all_hard_met": ok, "min_margin": min((r["margin"] for r in present), default=None), "goals": rows,
            "global_max_gy": round(case.global_max(dose), 4)}


def best_scale(status: list[dict[str, Any]], goals: list[Goal], s_max: float) -> float:
    """The factor s in (0, s_max] that maximises the smallest hard-goal margin of s x dose.

    Every metric here is positively homogeneous (a percentile, mean or maximum of s d is s times
    that of d), so each margin is linear in s and the best s lies where two margins cross."""
    lines = []  # margin_i(s) = a_i s + b_i
    for st, g in zip(status, goals):
        if g.kind != "hard" or st["achieved"] is None:
            continue
        a = float(st["achieved"])
        lines.append((-a, g.value + TOL_GY) if g.upper else (a, -(g.value - TOL_GY)))
    if not lines:
        return 1.0
    cands = {1.0, s_max}
    for i, (a1, b1) in enumerate(lines):
        for a2, b2 in lines[i + 1:]:
            if a1 != a2:
                cands.add((b2 - b1) / (a1 - a2))
    cands = [c for c in cands if 0 < c <= s_max]
    return max(cands, key=lambda c: min(a * c + b for a, b in lines))


@dataclass
class Witness:
    cord_gy: float
    limit_gy: float
    w: np.ndarray
    check: dict[str, Any]
    solves: int


def find(case: Case, goals: list[Goal], config: SolverConfig | None = None, max_solves: int = MAX_SOLVES) -> Witness | None:
    """The plan with the lowest cord D0.1cc among those meeting every hard goal, or None."""
    cfg = config or SolverConfig(max_iter=PLAN_STEPS)
    hard_idx = [i for i, g in enumerate(goals) if g.kind == "hard"]
    cord_goal = next((g for g in goals if g.structure == CORD and g.upper), None)
    if cord_goal is None:
        return None
    boost: dict[int, float] = {}
    level = 0.9 * cord_goal.value
    w0 = None
    best: tuple[float, np.ndarray] | None = None
    solves = 0
    while solves < max_solves:
        res = solve(case, goal_terms(goals, case.patient.targets, boost, level, CORD), w0=w0, config=cfg)
        solves += 1
        status = evaluate(case, res.dose, goals)
        scale = best_scale(status, goals, 15.0 / max(float(res.w.max()), 1e-9))
        w_plan = res.w * scale
        status = evaluate(case, res.dose * scale, goals)
        w0 = w_plan
        cord = next(s["achieved"] for s in status if s["structure"] == CORD)
        others_met = all(status[i]["met"] for i in hard_idx if goals[i].structure != CORD)
        if others_met and cord <= cord_goal.value:
            if best is not None and cord > best[0] - 0.5:
                if cord < best[0]:
                    best = (cord, w_plan.copy())
                break  # the cord no longer follows its level down: this is the floor
            best = (cord, w_plan.copy())
            level = SHRINK * cord
            continue
        if best is not None:
            break  # the lower cord level broke another hard goal: keep the best so far
        for i in hard_idx:  # raise the priority of every unmet hard goal and try again
            if not status[i]["met"]:
                boost[i] = boost.get(i, 1.0) * 3.0
    if best is None:
        return None
    cord, w = best
    w32 = np.asarray(w, dtype=np.float32).astype(np.float64)
    limit = tightened_cord_limit(cord, cord_goal.value)
    presented = [g.with_value(limit) if g is cord_goal else g for g in goals]
    chk = check(case, w32, presented)
    return Witness(cord, limit, w32, chk, solves) if chk["all_hard_met"] else None


def record(case: Case, found: Witness, goals: list[Goal]) -> dict[str, Any]:
    """The stored form of a witness (data/witnesses.json): the influence it was found on, the cord
    dose and tightened limit, the re-checked minimum margin, and the float32 weights."""
    from physbench.suites.planning.dose_model import MODEL_VERSION

    return {"influence_hash": case.influence.content_hash, "model": MODEL_VERSION, "n_beamlets": case.influence.n_beamlets,
            "cord_gy": round(float(found.cord_gy), 4), "limit_gy": found.limit_gy,
            "min_margin": round(float(found.check["min_margin"]), 4), "hard_goals": sum(g.kind == "hard" for g in goals),
            "solves": found.solves, "weights_b64": encode_weights(found.w)}


def table(cases: list[Case], goals_of: Any) -> dict[str, Any]:
    """The witness table of these cases: {model, optimizer, patients: {id: record}, no_witness: {id: why}}."""
    from physbench.suites.planning.dose_model import MODEL_VERSION

    patients: dict[str, Any] = {}
    missing: dict[str, str] = {}
    for case in cases:
        goals = goals_of(case.patient)
        if not case.patient.has(CORD):
            missing[case.id] = "no spinal cord"
            continue
        found = find(case, goals)
        if found is None:
            missing[case.id] = "no plan met every hard goal"
        else:
            patients[case.id] = record(case, found, goals)
    return {"model": MODEL_VERSION, "optimizer": f"lbfgsb, {PLAN_STEPS} evaluations a solve", "patients": patients,
            "no_witness": missing}
