"""APACHE II (Knaus 1985): twelve acute physiology variables, age points and chronic health points.

Bands are read as the benchmark reads them: a band written on whole numbers ("70-109") covers
every value above the band below it, so a computed MAP of 69.5 mm Hg scores as 70-109.
"""

from __future__ import annotations

from physbench.suites.clincalc.calculators.body import mean_arterial_pressure
from physbench.suites.clincalc.calculators.registry import calculator
from physbench.suites.clincalc.entities import Entities, EntityError
from physbench.suites.clincalc.formula_version import deviates


def _band(x: float, high: list[tuple[float, int]], low: list[tuple[float, int]]) -> int:
    """Points for x: the first (threshold, points) of `high` with x >= threshold, else the first of
    `low` with x < threshold (thresholds ordered outward from normal), else 0."""
    for threshold, points in high:
        if x >= threshold:
            return points
    for threshold, points in low:
        if x < threshold:
            return points
    return 0


def temperature_points(c: float) -> int:
    return _band(c, [(41, 4), (39, 3), (38.5, 1)], [(30, 4), (32, 3), (34, 2), (36, 1)])


def map_points(m: float) -> int:
    # >159: 4, >129: 3, >109: 2, >69: 0, >49: 2, else 4 (the benchmark's reading of 160/130/110/70/50)
    if m > 159:
        return 4
    if m > 129:
        return 3
    if m > 109:
        return 2
    if m > 69:
        return 0
    return 2 if m > 49 else 4


def heart_rate_points(hr: float) -> int:
    return _band(hr, [(180, 4), (140, 3), (110, 2)], [(40, 4), (55, 3), (70, 2)])


def respiratory_rate_points(rr: float) -> int:
    return _band(rr, [(50, 4), (35, 3), (25, 1)], [(6, 4), (10, 2), (12, 1)])


def oxygenation_points(fio2_percent: float, pao2: float | None, a_a_gradient: float | None) -> int:
    """FiO2 >= 50%: A-a gradient >499: 4, >349: 3, >199: 2, else 0; FiO2 < 50%: PaO2 >70: 0, >60: 1,
    >=55: 3, <55: 4."""
    if fio2_percent >= 50:
        if a_a_gradient is None:
            raise EntityError("FiO2 of 50% or more needs the A-a gradient")
        return 4 if a_a_gradient > 499 else 3 if a_a_gradient > 349 else 2 if a_a_gradient > 199 else 0
    if pao2 is None:
        raise EntityError("FiO2 under 50% needs the PaO2")
    return 0 if pao2 > 70 else 1 if pao2 > 60 else 3 if pao2 >= 55 else 4


def _in_oxygenation_gap(fio2_percent: float, pao2: float | None, gradient: float | None) -> bool:
    if fio2_percent >= 50:
        return gradient is not None and (199 < gradient < 200 or 349 < gradient < 350)
    return pao2 is not None and 60 < pao2 < 61


def ph_points(ph: float) -> int:
    return _band(ph, [(7.7, 4), (7.6, 3), (7.5, 1)], [(7.15, 4), (7.25, 3), (7.33, 2)])


def sodium_points(na: float) -> int:
    return _band(na, [(180, 4), (160, 3), (155, 2), (150, 1)], [(111, 4), (120, 3), (130, 2)])


def potassium_points(k: float) -> int:
    return _band(k, [(7.0, 4), (6.0, 3), (5.5, 1)], [(2.5, 4), (3.0, 2), (3.5, 1)])


def creatinine_points(cr: float, acute_renal_failure: bool) -> int:
    """>=3.5: 4, >=2.0: 3, >=1.5: 2, <0.6: 2 mg/dL; doubled in acute renal failure."""
    points = _band(cr, [(3.5, 4), (2.0, 3), (1.5, 2)], [(0.6, 2)])
    return 2 * points if acute_renal_failure else points


def hematocrit_points(hct: float) -> int:
    return _band(hct, [(60, 4), (50, 2), (46, 1)], [(20, 4), (30, 2)])


def wbc_points(wbc_per_nl: float) -> int:
    """White count in 10^9/L (= 10^3/mm³)."""
    return _band(wbc_per_nl, [(40, 4), (20, 2), (15, 1)], [(1, 4), (3, 2)])


def age_points(age: float) -> int:
    return 6 if age >= 75 else 5 if age >= 65 else 3 if age >= 55 else 2 if age >= 45 else 0


_SURGERY = {"nonoperative": 5, "emergency": 5, "emergency postoperative": 5, "elective": 2,
            "elective postoperative": 2}


@calculator(28, "APACHE II Score", category="risk", output_type="integer", kind="score",
            source="Knaus 1985 (Crit Care Med 13:818), APACHE II acute physiology, age and chronic health",
            entities=("History of severe organ failure or immunocompromise", "age", "Temperature",
                      "Mean arterial pressure", "pH", "Heart Rate or Pulse", "respiratory rate", "Sodium", "Potassium",
                      "creatinine", "Acute renal failure", "Chronic renal failure", "Hematocrit",
                      "White blood cell count", "Glasgow Coma Score", "FiO2", "PaO2", "A-a gradient",
                      "Diastolic Blood Pressure", "Systolic Blood Pressure", "Surgery Type"))
def apache_ii(e: Entities) -> int:
    score = age_points(e.age())
    chronic = e.flag("History of severe organ failure or immunocompromise")
    if chronic and not deviates("apache-chronic-health-unread"):
        score += e.choice("Surgery Type", _SURGERY, "nonoperative")
    score += temperature_points(e.temperature_c())
    if e.has("Systolic Blood Pressure") and e.has("Diastolic Blood Pressure"):
        m = mean_arterial_pressure(e.pressure_mmhg("Systolic Blood Pressure"),
                                   e.pressure_mmhg("Diastolic Blood Pressure"))
    else:
        m = e.mmhg_or_bare("Mean arterial pressure")
    score += map_points(m)
    score += heart_rate_points(e.number("Heart Rate or Pulse"))
    score += respiratory_rate_points(e.number("respiratory rate"))
    pao2 = e.mmhg_or_bare("PaO2") if e.has("PaO2") else None
    gradient = e.mmhg_or_bare("A-a gradient") if e.has("A-a gradient") else None
    fio2 = e.percent("FiO2")
    if deviates("apache-oxygenation-gaps") and _in_oxygenation_gap(fio2, pao2, gradient):
        score += 0 if fio2 >= 50 else 4  # erratum: the benchmark's integer bands leave these gaps
    else:
        score += oxygenation_points(fio2, pao2, gradient)
    score += ph_points(e.number("pH"))
    score += sodium_points(e.conc("Sodium", "mmol/L", "sodium"))
    score += potassium_points(e.conc("Potassium", "mmol/L", "potassium"))
    chronic_rf, acute_rf = e.flag("Chronic renal failure"), e.flag("Acute renal failure")  # chronic: no doubling
    cr = e.conc("creatinine", "mg/dL", "creatinine")
    if cr < 0.6 and (acute_rf or chronic_rf) and deviates("apache-low-creatinine-renal-failure"):
        pass  # erratum: the benchmark scores low creatinine only without renal failure
    else:
        score += creatinine_points(cr, acute_rf)
    score += hematocrit_points(e.percent("Hematocrit"))
    score += wbc_points(e.count_per_l("White blood cell count") / 1e9)
    gcs = e.number("Glasgow Coma Score")
    if not 3 <= gcs <= 15:
        raise EntityError(f"Glasgow Coma Score must be 3 to 15, got {gcs:g}")
    return score + int(15 - gcs)
