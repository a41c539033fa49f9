"""Dose goals, their tolerance, and the rejection gates (OpenGray Table S15; OpenKBP-Opt criteria).

Hard: External Dmax <= 77 Gy (110 % of 70 Gy); PTV_7000 / PTV_6300 / PTV_5600 D99 >= 66.5 /
59.85 / 53.2 Gy (95 % of each prescription); Brainstem, SpinalCord, Bone_Mandible D0.1cc <= 50 /
45 / 73.5 Gy. Soft: each parotid Dmean <= 26 Gy, Esophagus and Larynx Dmean <= 45 Gy. A goal is
met within 0.05 Gy. A plan is rejected when its global maximum exceeds 115 % of the highest
prescription or a target's D99 falls below 80 % of its prescription.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any, Iterable, Mapping

import numpy as np

from physbench.suites.planning.metrics import Case, parse_metric
from physbench.suites.planning.openkbp import EXTERNAL, Patient

TOL_GY = 0.05  # Table S15: tolerance of dose-valued goals
GATE_GLOBAL_MAX = 1.15  # rejection: global max above 115 % of the highest prescription
GATE_COVERAGE = 0.80  # rejection: a target's D99 below 80 % of its prescription
GATE_ATOL_GY = 1e-8  # numerical boundary tolerance of the gates (anchor: scoring.py)


@dataclass(frozen=True)
class Goal:
    """``structure metric op value`` in Gy; hard goals are requirements, soft goals wishes."""

    structure: str
    metric: str
    op: str  # "<=" or ">="
    value: float
    kind: str = "hard"

    def __post_init__(self) -> None:
        if self.op not in ("<=", ">="):
            raise ValueError(f"goal operator must be <= or >=, not {self.op!r}")
        if self.kind not in ("hard", "soft"):
            raise ValueError(f"goal kind must be hard or soft, not {self.kind!r}")
        if not (isinstance(self.value, (int, float)) and np.isfinite(self.value) and 0 <= self.value <= 1000):
            raise ValueError(f"goal value must be a dose between 0 and 1000 Gy, not {self.value!r}")
        object.__setattr__(self, "metric", parse_metric(self.metric).name)
        object.__setattr__(self, "value", float(self.value))

    @property
    def upper(self) -> bool:
        return self.op == "<="

    def label(self) -> str:
        return f"{self.structure} {self.metric} {self.op} {self.value:g} Gy"

    def margin(self, achieved: float, tol: float = TOL_GY) -> float:
        """Signed distance inside the tolerated boundary (Table S4): positive when met."""
        return (self.value + tol - achieved) if self.upper else (achieved - (self.value - tol))

    def met(self, achieved: float, tol: float = TOL_GY) -> bool:
        return bool(np.isfinite(achieved)) and self.margin(achieved, tol) >= 0

    def with_value(self, value: float) -> "Goal":
        return replace(self, value=float(value))

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Goal":
        return cls(str(d["structure"]), str(d["metric"]), str(d["op"]), float(d["value"]), str(d.get("kind", "hard")))


DEFAULT_GOALS: tuple[Goal, ...] = (
    Goal(EXTERNAL, "Dmax", "<=", 77.0),
    Goal("PTV_7000", "D99", ">=", 66.5),
    Goal("PTV_6300", "D99", ">=", 59.85),
    Goal("PTV_5600", "D99", ">=", 53.2),
    Goal("Brainstem", "D0.1cc", "<=", 50.0),
    Goal("SpinalCord", "D0.1cc", "<=", 45.0),
    Goal("Bone_Mandible", "D0.1cc", "<=", 73.5),
    Goal("Parotid_L", "Dmean", "<=", 26.0, "soft"),
    Goal("Parotid_R", "Dmean", "<=", 26.0, "soft"),
    Goal("Esophagus", "Dmean", "<=", 45.0, "soft"),
    Goal("Larynx", "Dmean", "<=", 45.0, "soft"),
)
MISSING_STRUCTURE_GOAL = Goal("OpticNrv_L", "D0.1cc", "<=", 54.0)  # Table S15: absent in every case


def goals_for(patient: Patient, goals: Iterable[Goal] = DEFAULT_GOALS) -> list[Goal]:
    """The goals whose structure the patient has (the routine goal list of a case)."""
    return [g for g in goals if patient.has(g.structure)]


def evaluate(case: Case, dose: np.ndarray, goals: Iterable[Goal]) -> list[dict[str, Any]]:
    """Every goal's achieved value, whether it is met, and its margin; None for an absent structure."""
    out = []
    for g in goals:
        row = g.to_dict()
        if case.patient.has(g.structure):
            a = case.metric(dose, g.structure, g.metric)
            row.update(achieved=round(a, 4), met=g.met(a), margin=round(g.margin(a), 4))
        else:
            row.update(achieved=None, met=None, margin=None)
        out.append(row)
    return out


def rejection(case: Case, dose: np.ndarray) -> str | None:
    """Why a plan is rejected outright (the two gates), or None."""
    rx = case.patient.targets
    if not rx:
        return None
    top = max(rx.values())
    gmax = case.global_max(dose)
    if gmax > GATE_GLOBAL_MAX * top + GATE_ATOL_GY:
        return f"global max {gmax:.2f} Gy exceeds {GATE_GLOBAL_MAX:.2f} x {top:g} Gy"
    for t, r in rx.items():
        d99 = case.metric(dose, t, "D99")
        if d99 < GATE_COVERAGE * r - GATE_ATOL_GY:
            return f"{t} D99 {d99:.2f} Gy is below {GATE_COVERAGE:.2f} x {r:g} Gy"
    return None


def rules_text() -> list[str]:
    """The acceptability rules stated to every system (own wording of Table S15's gates)."""
    return [
        f"A plan is rejected outright if its maximum dose anywhere exceeds {GATE_GLOBAL_MAX * 100:.0f} percent of the "
        f"highest prescription, or if any target's D99 is below {GATE_COVERAGE * 100:.0f} percent of its prescription.",
        f"Hard goals are requirements and soft goals are wishes; a dose goal counts as met within {TOL_GY} Gy. "
        "Targets are evaluated merged with every higher-prescription target they contain.",
    ]
