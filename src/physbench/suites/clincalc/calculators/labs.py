"""Laboratory corrections: calcium, sodium, osmolality, HOMA-IR, free water deficit, LDL."""

from __future__ import annotations

from physbench.suites.clincalc.calculators.registry import calculator
from physbench.suites.clincalc.entities import Entities, EntityError
from physbench.suites.clincalc.formula_version import deviates


@calculator(7, "Calcium Correction for Hypoalbuminemia", category="lab test", output_type="decimal",
            kind="decimal", source="Payne 1973 (BMJ 4:643), simplified: Ca + 0.8 (4 - albumin g/dL)",
            entities=("Calcium", "Albumin"))
def calcium_correction(e: Entities) -> float:
    ca = e.conc("Calcium", "mg/dL", "calcium")
    alb = e.conc("Albumin", "g/dL", "albumin")
    return ca + 0.8 * (4 - alb)


@calculator(26, "Sodium Correction for Hyperglycemia", category="lab test", output_type="decimal",
            kind="decimal", source="Hillier 1999 (Am J Med 106:399): Na + 0.024 (glucose - 100)",
            entities=("Sodium", "Glucose"))
def sodium_correction(e: Entities) -> float:
    na = e.conc("Sodium", "mEq/L", "sodium")
    glucose = e.conc("Glucose", "mg/dL", "glucose")
    return na + 0.024 * (glucose - 100)


@calculator(30, "Serum Osmolality", category="lab test", output_type="decimal", kind="decimal",
            source="calculated osmolality 2 Na + BUN/2.8 + glucose/18 (Dorwart & Chalmers 1975)",
            entities=("Sodium", "Glucose", "Blood Urea Nitrogen (BUN)"))
def serum_osmolality(e: Entities) -> float:
    na = e.conc("Sodium", "mmol/L", "sodium")
    bun = e.conc("Blood Urea Nitrogen (BUN)", "mg/dL", "bun")
    glucose = e.conc("Glucose", "mg/dL", "glucose")
    return 2 * na + bun / 2.8 + glucose / 18


def insulin_uiu_ml(value: float, unit: str) -> float:
    """Insulin in µIU/mL from µIU/mL, mIU/L, pmol/L (6 pmol/L per µIU/mL) or ng/mL (molar mass 5808)."""
    u = unit.strip().replace("μ", "µ").replace("uIU", "µIU")
    if u in ("µIU/mL", "mIU/L", "mU/L", "µU/mL"):
        return value
    if u == "pmol/L":  # erratum homa-insulin-units: the benchmark multiplies by 6
        return value * 6 if deviates("homa-insulin-units") else value / 6
    if u == "ng/mL":  # ng/mL -> pmol/L -> µIU/mL (the benchmark: 24.8 µIU/mL per ng/mL)
        return value * 24.8 if deviates("homa-insulin-units") else value * 1e6 / 5808 / 6
    raise EntityError(f"Insulin: unknown unit {unit!r}")


@calculator(31, "HOMA-IR (Homeostatic Model Assessment for Insulin Resistance)", category="lab test",
            output_type="decimal", kind="decimal",
            source="Matthews 1985 (Diabetologia 28:412): insulin µIU/mL x glucose mg/dL / 405",
            entities=("Glucose", "Insulin"))
def homa_ir(e: Entities) -> float:
    insulin = insulin_uiu_ml(*e.pair("Insulin"))
    glucose = e.conc("Glucose", "mg/dL", "glucose")
    return insulin * glucose / 405


def total_body_water_fraction(age: float, female: bool) -> float:
    """Body water fraction: child (< 18) 0.6; adult (18-64) 0.6 men, 0.5 women; 65 and over 0.5 men,
    0.45 women (the benchmark's five classes)."""
    if age < 18:
        return 0.6
    if age < 65:
        return 0.5 if female else 0.6
    return 0.45 if female else 0.5


@calculator(38, "Free Water Deficit", category="lab test", output_type="decimal", kind="decimal",
            source="Adrogué & Madias 2000 (N Engl J Med 342:1493): TBW x (Na/140 - 1)",
            entities=("age", "weight", "sex", "Sodium"))
def free_water_deficit(e: Entities) -> float:
    tbw = total_body_water_fraction(e.age(), e.sex_female())
    na = e.conc("Sodium", "mmol/L", "sodium")
    return tbw * e.weight_kg() * (na / 140 - 1)


@calculator(44, "LDL Calculated", category="lab test", output_type="decimal", kind="decimal",
            source="Friedewald 1972 (Clin Chem 18:499): TC - HDL - TG/5, mg/dL",
            entities=("Total cholesterol", "high-density lipoprotein cholesterol", "Triglycerides"))
def ldl_friedewald(e: Entities) -> float:
    tc = e.conc("Total cholesterol", "mg/dL", "cholesterol")
    hdl = e.conc("high-density lipoprotein cholesterol", "mg/dL", "cholesterol")
    tg = e.conc("Triglycerides", "mg/dL", "triglycerides")
    if tc <= 0:
        raise EntityError("total cholesterol must be positive")
    return tc - hdl - tg / 5
