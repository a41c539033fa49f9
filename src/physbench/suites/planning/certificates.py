"""Proofs by counting that two dose goals cannot both hold, whatever the plan (OpenGray S2, S3, S11).

Both use the metric conventions of ``metrics``: a merged target of N voxels meets D99 >= c only
if at most m = ceil(0.01 (N - 1)) + 1 of its voxels lie below c (the first percentile sits at
position 0.01 (N - 1) of the sorted doses; one voxel more guards against rounding), and an organ
meets D0.1cc <= L only if at most n = (D0.1cc voxel count) + 1 of its voxels exceed L.

* coverage/cap (Table S2): every voxel is at most E + tol under External Dmax <= E, so a target
  cannot reach D99 c when c > N (E + tol) / (N - m) + tol.
* overlap (Tables S3, S11): O voxels shared by the target and the organ must each be cold for
  the target or hot for the organ when L + tol < c - tol, so both goals fail when O > m + n.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from physbench.suites.planning.goals import TOL_GY, Goal
from physbench.suites.planning.metrics import cc_voxels, merged_target, parse_metric
from physbench.suites.planning.openkbp import EXTERNAL, Patient

EXTRA_VOXELS = 1  # one voxel more in each allowance, against percentile rounding (the anchor's)
SERIAL_ORGANS = ("Bone_Mandible", "Brainstem", "SpinalCord")


def cold_allowance(n_voxels: int, p: float = 99.0) -> int:
    """m: voxels a target may hold below c while D_p >= c still holds, plus one."""
    return int(math.ceil((1.0 - p / 100.0) * (n_voxels - 1) - 1e-9)) + EXTRA_VOXELS


def hot_allowance(v_cc: float, voxel_cc: float) -> int:
    """n: voxels an organ may hold above L while D_v cc <= L still holds (count + 1)."""
    return cc_voxels(v_cc, voxel_cc) + EXTRA_VOXELS


def coverage_cap_threshold(n_voxels: int, cap_gy: float, p: float = 99.0, tol: float = TOL_GY) -> float:
    """Table S2: the largest D_p goal reachable under a cap, N (E + tol) / (N - m) + tol."""
    m = cold_allowance(n_voxels, p)
    return n_voxels * (cap_gy + tol) / (n_voxels - m) + tol


@dataclass(frozen=True)
class CoverageCap:
    target: str
    N: int
    m: int
    cap_gy: float
    threshold: float

    def proves(self, coverage_gy: float) -> bool:
        """True when a D99 goal of ``coverage_gy`` cannot be met under the cap."""
        return coverage_gy > self.threshold

    def to_dict(self, coverage_gy: float | None = None) -> dict[str, Any]:
        d = {"target": self.target, "N": self.N, "m": self.m, "cap_gy": self.cap_gy, "threshold": round(self.threshold, 4)}
        if coverage_gy is not None:
            d.update(coverage_gy=coverage_gy, margin=round(coverage_gy - self.threshold, 4), holds=self.proves(coverage_gy))
        return d


def coverage_cap(patient: Patient, target: str | None = None, cap_gy: float = 77.0) -> CoverageCap:
    """The coverage/cap certificate of a target (the highest-prescription one by default)."""
    t = target or next(iter(patient.targets))
    n = int(merged_target(patient, t).size)
    return CoverageCap(t, n, cold_allowance(n), cap_gy, coverage_cap_threshold(n, cap_gy))


def presented_coverage(cert: CoverageCap, prescription_gy: float, gate: float = 1.15) -> float | None:
    """The task's coverage goal: the threshold plus the tolerance, rounded up to the next half gray
    (78.0 or 78.5 Gy for a 70 Gy target); None when that reaches the rejection line."""
    v = math.ceil((cert.threshold + TOL_GY) * 2.0) / 2.0
    return v if v < gate * prescription_gy and cert.proves(v) else None


@dataclass(frozen=True)
class Overlap:
    organ: str
    target: str
    O: int  # voxels shared by the organ and the merged target
    m: int  # cold-target allowance
    n: int  # hot-organ allowance
    coverage_gy: float  # the target's D99 goal c

    @property
    def margin(self) -> int:
        """Count margin O - (m + n): positive when the counting proof holds."""
        return self.O - self.m - self.n

    @property
    def limit_below_gy(self) -> float:
        """Organ limits below c - 2 tol are contradicted (the two tolerated bands cannot touch)."""
        return self.coverage_gy - 2.0 * TOL_GY

    def proves(self, organ_limit_gy: float) -> bool:
        return self.margin > 0 and organ_limit_gy < self.limit_below_gy

    def to_dict(self, organ_limit_gy: float | None = None) -> dict[str, Any]:
        d = {"organ": self.organ, "target": self.target, "O": self.O, "m": self.m, "n": self.n,
             "margin": self.margin, "coverage_gy": self.coverage_gy}
        if organ_limit_gy is not None:
            d.update(organ_limit_gy=organ_limit_gy, dose_margin=round(self.limit_below_gy - organ_limit_gy, 4),
                     holds=self.proves(organ_limit_gy))
        return d


def overlap(patient: Patient, organ: str, target_goal: Goal, organ_goal: Goal) -> Overlap:
    """The overlap counts of one organ D<v>cc goal against one target D<p> goal."""
    tv = merged_target(patient, target_goal.structure)
    om = patient.mask(organ)
    shared = int(np.intersect1d(om, tv, assume_unique=True).size)
    p = parse_metric(target_goal.metric).param
    v_cc = parse_metric(organ_goal.metric).param
    return Overlap(organ, target_goal.structure, shared, cold_allowance(tv.size, p),
                   hot_allowance(v_cc, patient.voxel_cc), target_goal.value)


def overlap_options(patient: Patient, goals: list[Goal]) -> list[Overlap]:
    """Every hard serial-organ D<v>cc goal against every hard target D<p> goal, best first: the
    pairs whose counts exceed the allowances, by highest contradicted limit, then largest count
    margin (the anchor's order); then the others."""
    targets = [g for g in goals if g.kind == "hard" and g.structure in patient.targets and g.op == ">="
               and parse_metric(g.metric).kind == "Dp"]
    organs = [g for g in goals if g.kind == "hard" and g.upper and g.structure in SERIAL_ORGANS
              and patient.has(g.structure) and parse_metric(g.metric).kind == "Dcc"]
    out = [overlap(patient, og.structure, tg, og) for og in organs for tg in targets]
    return sorted(out, key=lambda o: (o.margin <= 0, -o.limit_below_gy, -o.margin))


def presented_overlap_limit(ov: Overlap, published_gy: float, fraction: float = 0.9) -> float | None:
    """The task's organ limit: 90 % of the contradicted bound, floored to 0.1 Gy, kept below the
    published limit; None when the published limit is itself contradicted (the case's own goals
    cannot all hold, so no task is built on it)."""
    if ov.margin <= 0 or published_gy < ov.limit_below_gy:
        return None
    limit = math.floor(fraction * (ov.limit_below_gy - 1e-6) * 10.0) / 10.0
    limit = min(limit, round(published_gy - 0.1, 1))
    return limit if ov.proves(limit) else None


def check_contradiction(patient: Patient, goals: list[Goal]) -> dict[str, Any] | None:
    """Re-derive, from the masks alone, whether a goal list holds a coverage/cap or an overlap
    contradiction; the certificate record, or None."""
    ext = next((g for g in goals if g.kind == "hard" and g.structure == EXTERNAL and g.metric == "Dmax" and g.upper), None)
    hard_targets = [g for g in goals if g.kind == "hard" and g.structure in patient.targets and g.op == ">="
                    and parse_metric(g.metric).kind == "Dp"]
    if ext is not None:
        for tg in hard_targets:
            cert = coverage_cap(patient, tg.structure, ext.value)
            if cert.proves(tg.value):
                return {"family": "coverage_cap", **cert.to_dict(tg.value)}
    by_organ = {g.structure: g for g in goals if g.kind == "hard" and g.upper}
    for ov in overlap_options(patient, goals):
        if ov.proves(by_organ[ov.organ].value):
            return {"family": "overlap", **ov.to_dict(by_organ[ov.organ].value)}
    return None
