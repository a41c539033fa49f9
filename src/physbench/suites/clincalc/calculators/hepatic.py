"""Liver and upper GI bleeding: Child-Pugh, FIB-4, MELD Na (UNOS/OPTN), Glasgow-Blatchford."""

from __future__ import annotations

import math

from physbench.suites.clincalc.calculators.registry import calculator
from physbench.suites.clincalc.entities import Entities, EntityError
from physbench.suites.clincalc.formula_version import deviates

_ASCITES = {"absent": 1, "none": 1, "slight": 2, "mild": 2, "moderate": 3, "severe": 3}
_ENCEPHALOPATHY = {"No Encephalopathy": 1, "none": 1, "Grade 0": 1, "Grade 1-2": 2, "Grade 1": 2, "Grade 2": 2,
                   "Grade 3-4": 3, "Grade 3": 3, "Grade 4": 3}


@calculator(15, "Child-Pugh Score for Cirrhosis Mortality", category="severity", output_type="integer",
            kind="score", source="Pugh 1973 (Br J Surg 60:646) with the INR bands of MDCalc",
            entities=("international normalized ratio", "Ascites", "Albumin", "Bilirubin", "Encephalopathy"))
def child_pugh(e: Entities) -> int:
    in_moles = "mol" in e.pair("Bilirubin")[1]
    transposed = in_moles and deviates("child-pugh-bilirubin-molar-mass")  # erratum: 548.66 g/mol
    bili = e.conc("Bilirubin", "mg/dL", "bilirubin_548" if transposed else "bilirubin")
    alb = e.conc("Albumin", "g/dL", "albumin")
    inr = e.number("international normalized ratio")
    score = 1 if bili < 2 else 2 if bili <= 3 else 3
    score += 1 if alb > 3.5 else 2 if alb >= 2.8 else 3
    score += 1 if inr < 1.7 else 2 if inr <= 2.3 else 3
    score += e.choice("Ascites", _ASCITES, "absent")
    if e.has("Encephalopathy") and e.text("Encephalopathy").strip().lower() == "grade 0" \
            and deviates("child-pugh-grade-0"):
        return score  # erratum: 'Grade 0' matches none of the benchmark's strings
    return score + e.choice("Encephalopathy", _ENCEPHALOPATHY, "No Encephalopathy")


@calculator(19, "Fibrosis-4 (FIB-4) Index for Liver Fibrosis", category="lab test", output_type="decimal",
            kind="decimal", source="Sterling 2006 (Hepatology 43:1317): age x AST / (platelets 10^9/L x sqrt ALT)",
            entities=("age", "Alanine aminotransferase", "Aspartate aminotransferase", "Platelet count"))
def fib4(e: Entities) -> float:
    platelets_per_nl = e.count_per_l("Platelet count") / 1e9
    alt = e.number("Alanine aminotransferase")
    if alt <= 0 or platelets_per_nl <= 0:
        raise EntityError("ALT and platelet count must be positive")
    return e.age() * e.number("Aspartate aminotransferase") / (platelets_per_nl * math.sqrt(alt))


def meld_na_score(creatinine: float, bilirubin: float, inr: float, sodium: float, dialysis: bool) -> int:
    """OPTN MELD-Na (2016): bounded inputs, MELD(i) rounded to the tenth x 10, sodium term above 11, cap 40."""
    creatinine = 4.0 if dialysis else min(max(creatinine, 1.0), 4.0)
    bilirubin, inr = max(bilirubin, 1.0), max(inr, 1.0)
    sodium = min(max(sodium, 125), 137)
    meld_i = 0.957 * math.log(creatinine) + 0.378 * math.log(bilirubin) + 1.120 * math.log(inr) + 0.643
    meld = round(round(meld_i, 1) * 10)
    if meld > 11:
        meld = round(meld + 1.32 * (137 - sodium) - 0.033 * meld * (137 - sodium))
    return min(meld, 40)


@calculator(23, "MELD Na (UNOS/OPTN)", category="lab test", output_type="decimal", kind="decimal",
            source="OPTN/UNOS MELD-Na policy (2016; Kim 2008, N Engl J Med 359:1018)",
            entities=("creatinine", "Continuous veno-venous hemodialysis for ≥24 hours in the past week",
                      "Dialysis at least twice in the past week", "international normalized ratio", "Sodium",
                      "Bilirubin"))
def meld_na(e: Entities) -> int:
    dialysis = e.any_flag(("Dialysis at least twice in the past week",
                           "Continuous veno-venous hemodialysis for ≥24 hours in the past week"))
    creatinine = e.conc("creatinine", "mg/dL", "creatinine")
    bilirubin = e.conc("Bilirubin", "mg/dL", "bilirubin")
    inr = e.number("international normalized ratio")
    if min(creatinine, bilirubin, inr) < 0:  # zero is allowed: OPTN bounds each below at 1.0
        raise EntityError("creatinine, bilirubin and INR cannot be negative")
    if dialysis and creatinine < 1.0 and deviates("meld-dialysis-low-creatinine"):
        creatinine, dialysis = 1.0, False  # erratum: the benchmark's if/elif keeps the 1.0 floor
    return meld_na_score(creatinine, bilirubin, inr, e.conc("Sodium", "mEq/L", "sodium"), dialysis)


@calculator(27, "Glasgow-Blatchford Bleeding Score (GBS)", category="risk", output_type="integer", kind="score",
            source="Blatchford 2000 (Lancet 356:1318), BUN thresholds in mg/dL as MDCalc",
            entities=("Heart Rate or Pulse", "Blood Urea Nitrogen (BUN)", "sex", "Cardiac Failure Present", "Hemoglobin",
                      "Melena Present", "Systolic Blood Pressure", "Recent Syncope", "Hepatic disease history"))
def glasgow_blatchford(e: Entities) -> int:
    bun = e.conc("Blood Urea Nitrogen (BUN)", "mg/dL", "bun")
    hb = e.conc("Hemoglobin", "g/dL", "hemoglobin")
    sbp = e.pressure_mmhg("Systolic Blood Pressure")
    score = 6 if bun > 70 else 4 if bun >= 28 else 3 if bun >= 22.4 else 2 if bun >= 18.2 else 0
    if e.sex_female():
        score += 6 if hb < 10 else 1 if hb < 12 else 0
    else:
        score += 6 if hb < 10 else 3 if hb < 12 else 1 if hb < 13 else 0
    score += 3 if sbp < 90 else 2 if sbp < 100 else 1 if sbp < 110 else 0
    score += 1 if e.number("Heart Rate or Pulse") >= 100 else 0
    score += e.flag("Melena Present")
    return score + 2 * sum([e.flag(name) for name in ("Recent Syncope", "Hepatic disease history",
                                                       "Cardiac Failure Present")])
