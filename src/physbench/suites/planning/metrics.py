"""Dose metrics the OpenKBP way (OpenKBP-Opt ``dose_evaluation_class.py``; OpenGray Table S15).

* D_p (dose to p percent of the volume) is ``np.percentile(dose, 100 - p)`` with numpy's linear
  interpolation: D99 is the first percentile of the structure's voxel doses.
* D_v cc uses n = max(1, round(v / voxel volume)) voxels and is
  ``np.percentile(dose, 100 - 100 n / N)``: the dose between the n-th and (n+1)-th hottest voxels.
* Dmean is the mean and Dmax the largest voxel dose.
* A target is merged with every higher-prescription target (the union of their masks), as
  OpenKBP's criteria do. Structure voxels outside the possible-dose mask receive zero dose.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

import numpy as np

from physbench.suites.planning.influence import DoseInfluence
from physbench.suites.planning.openkbp import PRESCRIPTION_GY, Patient, in_sorted, sorted_unique

_METRIC = re.compile(r"^(?:(?P<mean>Dmean)|(?P<max>Dmax)|D(?P<cc>\d+(?:\.\d+)?)cc|D(?P<pct>\d+(?:\.\d+)?))$")
METRICS_HELP = "Dmean, Dmax, D<p> (percent of volume, e.g. D99) or D<v>cc (e.g. D0.1cc)"


@dataclass(frozen=True)
class Metric:
    kind: str  # "Dmean", "Dmax", "Dp", "Dcc"
    param: float = 0.0

    @property
    def name(self) -> str:
        if self.kind == "Dp":
            return f"D{self.param:g}"
        if self.kind == "Dcc":
            return f"D{self.param:g}cc"
        return self.kind


def parse_metric(text: str) -> Metric:
    """A metric name; ValueError (naming the grammar) for anything else."""
    m = _METRIC.match(str(text).strip()) if isinstance(text, str) and len(text) < 32 else None
    if not m:
        raise ValueError(f"unknown metric {text!r}; expected {METRICS_HELP}")
    if m.group("mean"):
        return Metric("Dmean")
    if m.group("max"):
        return Metric("Dmax")
    if m.group("cc") is not None:
        v = float(m.group("cc"))
        if not 0 < v <= 1000:
            raise ValueError("D<v>cc needs 0 < v <= 1000")
        return Metric("Dcc", v)
    p = float(m.group("pct"))
    if not 0 < p < 100:
        raise ValueError("D<p> needs 0 < p < 100")
    return Metric("Dp", p)


def d_percent(dose: np.ndarray, p: float) -> float:
    """D_p: the (100 - p)th percentile, linear interpolation (D99 = first percentile)."""
    return float(np.percentile(dose, 100.0 - p))


def cc_voxels(v_cc: float, voxel_cc: float) -> int:
    """n = max(1, round(v / voxel volume)), Python's round (half to even, as numpy's)."""
    return max(1, round(v_cc / voxel_cc))


def d_cc(dose: np.ndarray, v_cc: float, voxel_cc: float) -> float:
    """D_v cc: the percentile 100 - 100 n / N of the N voxel doses, n = cc_voxels(v)."""
    n = cc_voxels(v_cc, voxel_cc)
    return float(np.percentile(dose, max(0.0, 100.0 - 100.0 * n / dose.size)))


def value(metric: Metric, dose: np.ndarray, voxel_cc: float) -> float:
    if dose.size == 0:
        return float("nan")
    if metric.kind == "Dmean":
        return float(dose.mean())
    if metric.kind == "Dmax":
        return float(dose.max())
    if metric.kind == "Dp":
        return d_percent(dose, metric.param)
    return d_cc(dose, metric.param, voxel_cc)


def merged_target(patient: Patient, target: str) -> np.ndarray:
    """Flat indices of a target united with every higher-prescription target present."""
    rx = PRESCRIPTION_GY[target]
    parts = [patient.mask(t) for t, r in patient.targets.items() if r >= rx]
    return sorted_unique(np.concatenate(parts))


class Case:
    """A patient with its dose influence (given, or made on first use by ``influence``'s callable)."""

    def __init__(self, patient: Patient, influence: DoseInfluence | Callable[[], DoseInfluence]):
        self.patient = patient
        self._influence = influence if isinstance(influence, DoseInfluence) else None
        self._make = None if isinstance(influence, DoseInfluence) else influence
        self._rows: dict[str, tuple[np.ndarray, int]] = {}
        self._masks: dict[str, np.ndarray] = {}

    @property
    def influence(self) -> DoseInfluence:
        if self._influence is None:
            self._influence = self._make()
        if not np.array_equal(self._influence.voxels, self.patient.external):
            raise ValueError(f"{self.id}: the dose influence rows are not the patient's External voxels")
        return self._influence

    @property
    def id(self) -> str:
        return self.patient.id

    def voxels(self, structure: str, merge: bool = True) -> np.ndarray:
        """Flat indices the metric of ``structure`` runs over (targets merged by default)."""
        if merge and structure in PRESCRIPTION_GY and structure in self.patient.structures:
            return merged_target(self.patient, structure)
        return self.patient.mask(structure)

    def rows(self, structure: str, merge: bool = True) -> tuple[np.ndarray, int]:
        """(rows in the dose vector, count of voxels outside External) of a structure."""
        key = f"{structure}|{merge}"
        if key not in self._rows:
            flat = self.voxels(structure, merge)
            ok = in_sorted(flat, self.patient.external)
            self._rows[key] = np.searchsorted(self.patient.external, flat[ok]), int((~ok).sum())
        return self._rows[key]

    def in_structure(self) -> np.ndarray:
        """Per dose row (External voxel): whether any structure holds it (what goals can read)."""
        if "|any" not in self._masks:
            parts = [self.patient.structures[n] for n in self.patient.structures]
            every = sorted_unique(np.concatenate(parts)) if parts else np.zeros(0, dtype=np.int64)
            self._masks["|any"] = in_sorted(self.patient.external, every)
        return self._masks["|any"]

    def structure_dose(self, dose: np.ndarray, structure: str, merge: bool = True) -> np.ndarray:
        rows, outside = self.rows(structure, merge)
        d = dose[rows]
        return np.concatenate([d, np.zeros(outside)]) if outside else d

    def metric(self, dose: np.ndarray, structure: str, metric: str | Metric, merge: bool = True) -> float:
        """One metric of one structure; KeyError for a structure the patient lacks."""
        m = parse_metric(metric) if isinstance(metric, str) else metric
        if not self.patient.has(structure):
            raise KeyError(f"{self.id} has no structure {structure!r}")
        return value(m, self.structure_dose(dose, structure, merge), self.patient.voxel_cc)

    def global_max(self, dose: np.ndarray) -> float:
        return float(dose.max()) if dose.size else 0.0


def dvh(dose: np.ndarray, n_points: int = 50, top: float | None = None) -> tuple[list[float], list[float]]:
    """Cumulative DVH: ``n_points`` dose levels from 0 and the fraction receiving at least each."""
    hi = float(dose.max()) if top is None else float(top)
    levels = np.linspace(0.0, max(hi, 1e-9), n_points)
    srt = np.sort(dose)
    frac = 1.0 - np.searchsorted(srt, levels, side="left") / max(dose.size, 1)
    return [round(float(x), 3) for x in levels], [round(float(x), 5) for x in frac]
