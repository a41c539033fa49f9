"""Dose and decision accounting of a run's attempts (OpenGray Tables S5-S7, S12, S19).

Rows are grade details (suite.judge). Dose endpoints are patient means among submitted plans
(repetitions averaged within a patient first); attempt accounting counts every eligible attempt,
the all-hard-goal and rejection counts concern submitted plans; fluence complexity is SPG (sum
of positive gradients, OpenKBP-Opt) and the maximum beamlet weight of each submitted plan, with
the OpenKBP-Opt reference settings SPG 65 and weight 15 as thresholds.
"""

from __future__ import annotations

import statistics
from typing import Any, Iterable, Mapping

from physbench.suites.planning.tasks import FAMILIES

SPG_REFERENCE = 65.0  # OpenKBP-Opt reference plans (Table S19)
WEIGHT_REFERENCE = 15.0


def _submitted(rows: Iterable[Mapping[str, Any]], family: str | None = None) -> list[Mapping[str, Any]]:
    return [r for r in rows if r.get("decision") == "submitted" and (family is None or r.get("family") == family)]


def dose_endpoints(rows: Iterable[Mapping[str, Any]], family: str) -> dict[str, dict[str, Any]]:
    """Tables S5 (routine) and S6 (feasible control): per endpoint, the patient mean and the patients."""
    per: dict[str, dict[str, list[float]]] = {}
    for r in _submitted(rows, family):
        for name, value in (r.get("endpoints") or {}).items():
            if isinstance(value, (int, float)):
                per.setdefault(name, {}).setdefault(str(r["patient"]), []).append(float(value))
    out = {}
    for name in sorted(per):
        means = [sum(v) / len(v) for v in per[name].values()]
        out[name] = {"mean_gy": round(sum(means) / len(means), 2), "patients": len(means)}
    return out


def attempt_accounting(rows: Iterable[Mapping[str, Any]], family: str) -> dict[str, int]:
    """Table S7: eligible attempts, submitted, submitted meeting every hard goal, submitted but rejected."""
    rows = [r for r in rows if r.get("family") == family]
    sub = _submitted(rows)
    return {"eligible": len(rows), "submitted": len(sub),
            "all_hard_goals": sum(1 for r in sub if r.get("hard_total") is not None and r.get("hard_met") == r.get("hard_total")),
            "rejected": sum(1 for r in sub if r.get("rejected"))}


def final_decisions(rows: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """Table S12: per family, attempts, escalations by reason, submissions, technical failures and
    the median number of optimizations."""
    out = {}
    rows = list(rows)
    for f in FAMILIES:
        fr = [r for r in rows if r.get("family") == f]
        if not fr:
            continue
        reasons: dict[str, int] = {}
        for r in fr:
            if r.get("decision") == "escalated":
                reasons[str(r.get("reason"))] = reasons.get(str(r.get("reason")), 0) + 1
        opts = [r["optimize_calls"] for r in fr if isinstance(r.get("optimize_calls"), int)]
        out[f] = {"attempts": len(fr), "escalated": sum(reasons.values()), "reasons": reasons,
                  "submitted": sum(1 for r in fr if r.get("decision") == "submitted"),
                  "no_decision": sum(1 for r in fr if r.get("decision") == "no_decision"),
                  "technical_failure": sum(1 for r in fr if r.get("technical_failure")),
                  "median_optimizations": statistics.median(opts) if opts else None}
    return out


def fluence_complexity(rows: Iterable[Mapping[str, Any]], families: Iterable[str] = ("routine", "feasible_control")
                       ) -> dict[str, Any]:
    """Table S19: submitted plans, SPG median and IQR, plans within SPG 65, the median maximum
    weight and plans within weight 15."""
    keep = set(families)
    sub = [r for r in _submitted(rows) if r.get("family") in keep]
    spg = sorted(float(r["spg"]) for r in sub if isinstance(r.get("spg"), (int, float)))
    wmax = [float(r["w_max"]) for r in sub if isinstance(r.get("w_max"), (int, float))]
    if not spg:
        return {"plans": len(sub), "spg_median": None, "spg_iqr": None, "spg_within_65": 0,
                "w_max_median": None, "w_max_within_15": 0}
    q = statistics.quantiles(spg, n=4, method="inclusive") if len(spg) > 1 else [spg[0]] * 3
    return {"plans": len(sub), "spg_median": round(statistics.median(spg), 1), "spg_iqr": [round(q[0], 1), round(q[2], 1)],
            "spg_within_65": sum(1 for s in spg if s <= SPG_REFERENCE),
            "w_max_median": round(statistics.median(wmax), 2) if wmax else None,
            "w_max_within_15": sum(1 for w in wmax if w <= WEIGHT_REFERENCE)}


def dose_report(rows: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Tables S5, S6, S7, S12 and S19 of one run."""
    rows = list(rows)
    return {"endpoints": {f: dose_endpoints(rows, f) for f in ("routine", "feasible_control")},
            "attempts": {f: attempt_accounting(rows, f) for f in ("routine", "feasible_control")},
            "final_decisions": final_decisions(rows), "fluence_complexity": fluence_complexity(rows)}
