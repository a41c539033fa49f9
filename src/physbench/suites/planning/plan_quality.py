"""Plan-quality metrics beside the dose metrics of the goals: V_xGy, Paddick's CI and the HI.

The anchor's harness answers these three in `get_metrics` as well (OpenGray's code, ``dvh.py``):

* V_xGy: the percent of the structure's volume that receives at least x Gy (voxels outside the
  dose grid count, at zero dose); the anchor returns the fraction, here it is given in percent.
* CI, Paddick's conformity index (Paddick, J Neurosurg 93 Suppl 3:219-222, 2000):
  TV_PIV^2 / (TV x PIV), TV the target's voxels, PIV the voxels of the whole dose grid (External)
  at or above the target's prescription, TV_PIV the target voxels among them; 1 is a perfect fit.
* HI: D5 / D95 of the target, the anchor's definition (1 is perfectly homogeneous). ICRU Report 83's
  (D2 - D98) / D50 is another index (0 is homogeneous); it is not what the anchor reports.

Targets are merged with every higher-prescription target, as in every other metric of the harness.
"""

from __future__ import annotations

import re

import numpy as np

from physbench.suites.planning.metrics import Case, d_percent

_V_GY = re.compile(r"^V(\d+(?:\.\d+)?)Gy$")


def v_gy(dose: np.ndarray, x: float) -> float:
    """Percent of the voxels receiving at least ``x`` Gy."""
    return 100.0 * float((dose >= x).mean()) if dose.size else float("nan")


def paddick_ci(target_dose: np.ndarray, all_dose: np.ndarray, prescription: float) -> float:
    """TV_PIV^2 / (TV x PIV) (Paddick 2000); 0 when nothing reaches the prescription."""
    tv, tv_piv, piv = target_dose.size, int((target_dose >= prescription).sum()), int((all_dose >= prescription).sum())
    return tv_piv**2 / (tv * piv) if tv and piv else 0.0


def homogeneity_index(target_dose: np.ndarray) -> float:
    """D5 / D95 (the anchor's HI); ValueError when D95 is zero (no ratio to give)."""
    d95 = d_percent(target_dose, 95.0)
    if not d95 > 0:
        raise ValueError("HI is undefined for this plan: the target's D95 is zero.")
    return d_percent(target_dose, 5.0) / d95


def plan_metric(case: Case, dose: np.ndarray, structure: str, metric: str) -> tuple[float, str]:
    """(value, unit) of one metric: a dose metric in Gy, V_xGy in %, CI and HI as ratios.
    KeyError for a structure the case lacks; ValueError for an unknown metric or CI/HI off a target."""
    name = metric.strip() if isinstance(metric, str) else ""
    m = _V_GY.match(name) if len(name) < 32 else None
    if name in ("CI", "HI") or m:
        if not case.patient.has(structure):
            raise KeyError(f"{case.id} has no structure {structure!r}")
        ds = case.structure_dose(dose, structure)
        if m:
            x = float(m.group(1))
            if x > 1000:
                raise ValueError("V<x>Gy needs 0 <= x <= 1000")
            return v_gy(ds, x), "%"
        rx = case.patient.targets.get(structure)
        if rx is None:
            raise ValueError(f"{name} is defined for targets only, and {structure} is not a target.")
        return (paddick_ci(ds, dose, rx) if name == "CI" else homogeneity_index(ds)), "ratio"
    return case.metric(dose, structure, metric), "Gy"
