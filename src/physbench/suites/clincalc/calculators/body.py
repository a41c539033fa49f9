"""Body size and fluids: MAP, BMI, ideal / adjusted / target weight, BSA, maintenance fluids."""

from __future__ import annotations

import math

from physbench.suites.clincalc.calculators.registry import calculator
from physbench.suites.clincalc.entities import Entities, EntityError


def bmi(weight_kg: float, height_m: float) -> float:
    """Quetelet body mass index, kg/m²."""
    if height_m <= 0:
        raise EntityError("height must be positive")
    return weight_kg / height_m ** 2


def ideal_body_weight_kg(female: bool, height_cm: float) -> float:
    """Devine (1974) ideal body weight: 50 kg (men) or 45.5 kg (women) + 2.3 kg per inch over 60 in."""
    inches = height_cm / 2.54
    return (45.5 if female else 50) + 2.3 * (inches - 60)


def adjusted_body_weight_kg(ibw_kg: float, weight_kg: float) -> float:
    """Adjusted body weight: IBW + 0.4 x (actual - IBW)."""
    return ibw_kg + 0.4 * (weight_kg - ibw_kg)


def mean_arterial_pressure(sbp: float, dbp: float) -> float:
    """MAP as one third systolic plus two thirds diastolic."""
    return sbp / 3 + 2 * dbp / 3


@calculator(5, "Mean Arterial Pressure (MAP)", category="physical", output_type="decimal", kind="decimal",
            source="MAP = (SBP + 2 DBP) / 3 (MDCalc MAP; MedCalc-Bench Verified)",
            entities=("Systolic Blood Pressure", "Diastolic Blood Pressure"))
def map_calc(e: Entities) -> float:
    return mean_arterial_pressure(e.pressure_mmhg("Systolic Blood Pressure"),
                                  e.pressure_mmhg("Diastolic Blood Pressure"))


@calculator(6, "Body Mass Index (BMI)", category="physical", output_type="decimal", kind="decimal",
            source="BMI = weight / height² (WHO; Quetelet 1832)", entities=("weight", "height"))
def bmi_calc(e: Entities) -> float:
    return bmi(e.weight_kg(), e.height_cm() / 100)


@calculator(10, "Ideal Body Weight", category="physical", output_type="decimal", kind="decimal",
            source="Devine 1974 (Drug Intell Clin Pharm 8:650), as MDCalc",
            entities=("sex", "height", "weight"))
def ibw_calc(e: Entities) -> float:
    return ideal_body_weight_kg(e.sex_female(), e.height_cm())


@calculator(62, "Adjusted Body Weight", category="physical", output_type="decimal", kind="decimal",
            source="ABW = IBW + 0.4 (weight - IBW), Devine IBW (aminoglycoside dosing convention)",
            entities=("sex", "weight", "height"))
def abw_calc(e: Entities) -> float:
    ibw = ideal_body_weight_kg(e.sex_female(), e.height_cm())
    return adjusted_body_weight_kg(ibw, e.weight_kg())


@calculator(60, "Body Surface Area Calculator", category="physical", output_type="decimal", kind="decimal",
            source="Mosteller 1987 (N Engl J Med 317:1098): sqrt(height cm x weight kg / 3600)",
            entities=("weight", "height"))
def bsa_calc(e: Entities) -> float:
    product = e.height_cm() * e.weight_kg()
    if product < 0:
        raise EntityError("height and weight must be positive")
    return math.sqrt(product / 3600)


@calculator(61, "Target weight", category="physical", output_type="decimal", kind="decimal",
            source="target weight = target BMI x height² (MDCalc target weight)",
            entities=("Body Mass Index (BMI)", "height"))
def target_weight_calc(e: Entities) -> float:
    target_bmi = e.number("Body Mass Index (BMI)")
    return target_bmi * (e.height_cm() / 100) ** 2


@calculator(22, "Maintenance Fluids Calculations", category="physical", output_type="decimal", kind="decimal",
            source="Holliday & Segar 1957 hourly 4-2-1 rule (Pediatrics 19:823), as MDCalc",
            entities=("weight",))
def maintenance_fluids_calc(e: Entities) -> float:
    w = e.weight_kg()
    if w < 10:
        return 4 * w
    if w <= 20:
        return 40 + 2 * (w - 10)
    return 60 + (w - 20)
