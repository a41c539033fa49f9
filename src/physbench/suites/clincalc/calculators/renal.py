"""Kidney function: Cockcroft-Gault, CKD-EPI 2021, MDRD, fractional excretion of sodium."""

from __future__ import annotations

from physbench.suites.clincalc import units
from physbench.suites.clincalc.calculators.body import adjusted_body_weight_kg, ideal_body_weight_kg
from physbench.suites.clincalc.calculators.registry import calculator
from physbench.suites.clincalc.entities import Entities, EntityError
from physbench.suites.clincalc.formula_version import deviates


def cockcroft_gault_weight_kg(female: bool, weight_kg: float, height_cm: float) -> float:
    """The weight the benchmark puts into Cockcroft-Gault, chosen by BMI class (its question text):
    BMI < 18.5 actual weight; 18.5 to 24.9 the lesser of ideal and actual; above 24.9 adjusted."""
    b = float(units.exact(weight_kg) / (units.exact(height_cm) / 100) ** 2)  # exact: 24.9 stays 24.9
    ibw = ideal_body_weight_kg(female, height_cm)
    if b < 18.5:
        return weight_kg
    if b <= 24.9:
        return min(ibw, weight_kg)
    return adjusted_body_weight_kg(ibw, weight_kg)


@calculator(2, "Creatinine Clearance (Cockcroft-Gault Equation)", category="lab test", output_type="decimal",
            kind="decimal", source="Cockcroft & Gault 1976 (Nephron 16:31); weight by BMI class as the "
            "benchmark's question fixes it", entities=("age", "sex", "weight", "height", "creatinine"))
def cockcroft_gault(e: Entities) -> float:
    female = e.sex_female()
    scr = e.conc("creatinine", "mg/dL", "creatinine")
    weight = cockcroft_gault_weight_kg(female, e.weight_kg(), e.height_cm())
    if scr <= 0:
        raise EntityError("creatinine must be positive")
    return (140 - e.age()) * weight * (0.85 if female else 1) / (72 * scr)


def ckd_epi_2021(scr_mg_dl: float, age: float, female: bool) -> float:
    """CKD-EPI 2021 race-free creatinine equation (Inker et al., N Engl J Med 2021;385:1737)."""
    if scr_mg_dl <= 0:
        raise EntityError("creatinine must be positive")
    low = scr_mg_dl <= (0.7 if female else 0.9)
    exponent = (-0.241 if female else -0.302) if low else -1.2
    # erratum ckd-epi-male-kappa: the benchmark divides a man's low creatinine by the women's 0.7
    kappa = 0.7 if female or (low and deviates("ckd-epi-male-kappa")) else 0.9
    ratio = scr_mg_dl / kappa
    return 142 * ratio ** exponent * 0.9938 ** age * (1.012 if female else 1)


@calculator(3, "CKD-EPI Equations for Glomerular Filtration Rate", category="lab test", output_type="decimal",
            kind="decimal", source="CKD-EPI 2021 creatinine equation (Inker 2021, NKF-ASN 2021)",
            entities=("age", "sex", "creatinine"))
def ckd_epi(e: Entities) -> float:
    return ckd_epi_2021(e.conc("creatinine", "mg/dL", "creatinine"), e.age(), e.sex_female())


@calculator(9, "MDRD GFR Equation", category="lab test", output_type="decimal", kind="decimal",
            source="4-variable MDRD, IDMS-traceable 175 (Levey 2006, Ann Intern Med 145:247)",
            entities=("age", "sex", "creatinine", "Race"))
def mdrd(e: Entities) -> float:
    scr = e.conc("creatinine", "mg/dL", "creatinine")
    age = e.age()
    if scr <= 0 or age <= 0:
        raise EntityError("creatinine and age must be positive")
    race = e.text("Race") if e.has("Race") else ""
    # erratum mdrd-black-only: the benchmark applies 1.212 only to the exact string 'Black'
    black = race == "Black" if deviates("mdrd-black-only") else race.strip().lower() in ("black", "african american")
    return 175 * scr ** -1.154 * age ** -0.203 * (1.212 if black else 1) * (0.742 if e.sex_female() else 1)


@calculator(40, "Fractional Excretion of Sodium (FENa)", category="lab test", output_type="decimal",
            kind="decimal", source="FENa = 100 (UNa x SCr) / (SNa x UCr) (Espinel 1976, JAMA 236:579)",
            entities=("Urine creatinine", "creatinine", "Urine sodium", "Sodium"))
def fena(e: Entities) -> float:
    scr = e.conc("creatinine", "mg/dL", "creatinine")
    ucr = e.conc("Urine creatinine", "mg/dL", "creatinine")
    una = e.conc("Urine sodium", "mEq/L", "sodium")
    sna = e.conc("Sodium", "mEq/L", "sodium")
    return 100 * (scr * una) / (sna * ucr)
