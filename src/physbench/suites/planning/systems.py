"""The two planning systems that need no model (OpenGray Table S10 rows 1 and 2).

* controller: a rule-based planning script. One objective term per goal (organ limits as
  max_dose, mean goals as mean_dose, a target as min_dose at its prescription with a max_dose
  ceiling at 107 % of it), flat priorities; after each optimization it raises the priority of
  every unmet goal (x3 for a serial organ, x2 otherwise) and pulls an unmet organ level down by
  the ratio it missed by (x0.97, not below half the goal), stopping early once every hard goal
  is met and the plan is not rejected; then it tries two normalizations and submits the best
  plan. It never reads the note; an objective on an absent structure is rejected by the
  harness and the controller escalates with reason ``other``.
* arithmetic: the case summary's numbers checked by code first (a goal naming an absent
  structure; a target coverage goal above the External cap; more voxels shared by a serial
  organ and a target than the two goals' allowances permit, from the summary's voxel counts),
  escalating when one fails, and the controller otherwise.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from physbench.suites.planning.goals import TOL_GY
from physbench.suites.planning.harness import PlanningHarness

SERIAL_FACTOR = 3.0
OTHER_FACTOR = 2.0
PRIORITY_CAP = 1000.0
BACKOFF = 0.97
LEVEL_FLOOR = 0.5
CEILING = 1.07
ARITHMETIC_MARGIN_VOXELS = 2  # the anchor's extra margin on the overlap count
_PCT = re.compile(r"^D(\d+(?:\.\d+)?)$")
_CC = re.compile(r"^D(\d+(?:\.\d+)?)cc$")


@dataclass
class TermPlan:
    goal: int | None  # index in the goal list; None for a target's ceiling
    structure: str
    term: str
    level: float
    priority: float = 1.0
    serial: bool = False
    target: bool = False
    base: float = 0.0  # a ceiling's prescription: it is never pulled below 101 % of it

    def spec(self) -> dict[str, Any]:
        return {"structure": self.structure, "term": self.term, "level": round(self.level, 4), "priority": self.priority}


def template(summary: dict[str, Any]) -> list[TermPlan]:
    rx = summary["prescriptions"]
    out: list[TermPlan] = []
    for i, g in enumerate(summary["goals"]):
        is_target = g["structure"] in rx
        if g["op"] == ">=" and _PCT.match(g["metric"]):
            level = rx.get(g["structure"], g["value"])
            out.append(TermPlan(i, g["structure"], "min_dose", level, target=True))
            out.append(TermPlan(None, g["structure"], "max_dose", CEILING * level, target=True, base=level))
        elif g["metric"] == "Dmean" and g["op"] == "<=":
            out.append(TermPlan(i, g["structure"], "mean_dose", g["value"], target=is_target))
        elif g["op"] == "<=":
            out.append(TermPlan(i, g["structure"], "max_dose", g["value"], serial=not is_target, target=is_target))
    return out


def plan_key(table: dict[str, Any]) -> tuple[bool, int, float]:
    """(not rejected, hard goals met, minus the summed relative soft violation): higher is better."""
    soft = 0.0
    for g in table["goals"]:
        if g["kind"] == "soft" and g["met"] is False and g["value"] > 0:
            soft += min(1.0, abs(g["achieved"] - g["value"]) / g["value"])
    return table["rejected"] is None, table["hard_met"], -soft


def _adjust(terms: list[TermPlan], table: dict[str, Any]) -> None:
    goals = table["goals"]
    ext = next((g for g in goals if g["structure"] == "External" and g["metric"] == "Dmax"), None)
    ext_ratio = ext["value"] / ext["achieved"] if ext and ext["met"] is False and ext["achieved"] else None
    for t in terms:
        g = goals[t.goal] if t.goal is not None else None
        if g is not None and g["met"] is False:
            t.priority = min(PRIORITY_CAP, t.priority * (SERIAL_FACTOR if t.serial else OTHER_FACTOR))
            if t.term in ("max_dose", "mean_dose") and g["achieved"]:
                ratio = g["value"] / g["achieved"]
                if ratio < 1.0:
                    t.level = max(LEVEL_FLOOR * g["value"], t.level * ratio * BACKOFF)
        elif t.goal is None and t.term == "max_dose" and ext_ratio is not None and ext_ratio < 1.0:
            t.level = max(1.01 * t.base, t.level * ext_ratio * BACKOFF)
            t.priority = min(PRIORITY_CAP, t.priority * OTHER_FACTOR)


def controller(h: PlanningHarness, flags: list[str] | None = None, summary: dict[str, Any] | None = None) -> dict[str, Any]:
    """Run the controller on a harness until it submits or escalates; the terminal record."""
    summary = summary or h.call("get_case_summary")
    terms = template(summary)
    if not terms:
        h.call("escalate", {"reason": "other", "explanation": "no goal the optimizer can take"})
        return h.terminal or {}
    best: tuple[tuple, str, dict[str, Any]] | None = None
    for _ in range(summary["budget"]["optimize_remaining"]):
        obj = h.call("set_objectives", {"objectives": [t.spec() for t in terms]})
        if not obj.get("valid"):
            h.call("escalate", {"reason": "other", "explanation": "objective rejected: " + "; ".join(obj.get("problems", []))})
            return h.terminal or {}
        res = h.call("optimize", {"objective_id": obj["objective_id"]})
        if "error" in res:
            break
        key = plan_key(res)
        if best is None or key > best[0]:
            best = (key, res["plan_id"], res)
        if res["hard_met"] == res["hard_total"] and res["rejected"] is None:
            break
        _adjust(terms, res)
    if best is None:
        h.call("escalate", {"reason": "other", "explanation": "no plan could be optimized"})
        return h.terminal or {}
    candidates = [best]
    rx = summary["prescriptions"]
    goals = best[2]["goals"]
    top = max(rx, key=rx.get) if rx else None
    cov = next((g for g in goals if g["structure"] == top and g["op"] == ">=" and _PCT.match(g["metric"])), None)
    if cov is not None:
        n1 = h.call("normalize", {"plan_id": best[1], "structure": top, "metric": cov["metric"], "value": cov["value"]})
        if "error" not in n1:
            candidates.append((plan_key(n1), n1["plan_id"], n1))
    ext = next((g for g in goals if g["structure"] == "External" and g["metric"] == "Dmax" and g["op"] == "<="), None)
    if ext is not None and ext["met"] is False:
        n2 = h.call("normalize", {"plan_id": best[1], "structure": "External", "metric": "Dmax", "value": 0.999 * ext["value"]})
        if "error" not in n2:
            candidates.append((plan_key(n2), n2["plan_id"], n2))
    key, plan_id, table = max(candidates, key=lambda c: c[0])
    unmet = [f"{g['structure']} {g['metric']} {g['achieved']:.2f} vs {g['value']:g} Gy" for g in table["goals"] if g["met"] is False]
    note = "all goals met" if not unmet else "unmet: " + "; ".join(unmet)
    if not key[0]:
        note += "; the plan would be rejected"
    if flags:
        note += "; " + "; ".join(flags)
    h.call("submit", {"plan_id": plan_id, "note": note})
    return h.terminal or {}


def arithmetic_checks(summary: dict[str, Any]) -> dict[str, str] | None:
    """An escalation {reason, explanation} from the summary's numbers alone, or None."""
    by_name = {s["name"]: s for s in summary["structures"]}
    missing = sorted({g["structure"] for g in summary["goals"] if g["structure"] not in by_name})
    if missing:
        return {"reason": "missing_structure", "explanation": f"the goal list names {', '.join(missing)}, absent from the case"}
    rx = summary["prescriptions"]
    hard = [g for g in summary["goals"] if g["kind"] == "hard"]
    ext = next((g for g in hard if g["structure"] == "External" and g["metric"] == "Dmax" and g["op"] == "<="), None)
    targets = [g for g in hard if g["structure"] in rx and g["op"] == ">=" and _PCT.match(g["metric"])]
    for tg in targets:
        if ext is not None and tg["value"] - TOL_GY > ext["value"] + TOL_GY:
            return {"reason": "infeasible", "explanation": f"{tg['structure']} {tg['metric']} >= {tg['value']:g} Gy cannot hold "
                    f"when no voxel may exceed External Dmax {ext['value']:g} Gy"}
    organs = [g for g in hard if g["structure"] not in rx and g["structure"] != "External" and g["op"] == "<="
              and (_CC.match(g["metric"]) or g["metric"] == "Dmax")]
    for og in organs:
        so = by_name[og["structure"]]
        cc = _CC.match(og["metric"])
        voxel_cc = so["volume_cc"] / so["n_voxels"] if so["n_voxels"] else 0.0
        n_allow = (max(1, round(float(cc.group(1)) / voxel_cc)) if cc and voxel_cc > 0 else 0) + 1
        for tg in targets:
            if not tg["value"] - TOL_GY > og["value"] + TOL_GY:
                continue
            shared = so.get("overlap_voxels_with_targets", {}).get(tg["structure"], 0)
            n_t = by_name[tg["structure"]]["n_voxels"]
            p = float(_PCT.match(tg["metric"]).group(1))
            m_allow = int(math.ceil((1.0 - p / 100.0) * max(n_t - 1, 0) - 1e-9)) + 1
            if shared > m_allow + n_allow + ARITHMETIC_MARGIN_VOXELS:
                return {"reason": "infeasible", "explanation": f"{og['structure']} {og['metric']} <= {og['value']:g} Gy cannot hold with "
                        f"{tg['structure']} {tg['metric']} >= {tg['value']:g} Gy: {shared} shared voxels exceed the "
                        f"{m_allow + n_allow} the two goals allow off their limits"}
    return None


def arithmetic(h: PlanningHarness) -> dict[str, Any]:
    """Arithmetic checks on the case summary, then the controller."""
    summary = h.call("get_case_summary")
    esc = arithmetic_checks(summary)
    if esc is not None:
        h.call("escalate", esc)
        return h.terminal or {}
    return controller(h, summary=summary)


SYSTEMS = {"controller": controller, "arithmetic": arithmetic}
