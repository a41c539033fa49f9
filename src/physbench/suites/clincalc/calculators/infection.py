"""Infection and pneumonia: Centor (McIsaac), FeverPAIN, PSI, CURB-65, SIRS."""

from __future__ import annotations

import math

from physbench.suites.clincalc.calculators.registry import calculator
from physbench.suites.clincalc.entities import Entities, EntityError
from physbench.suites.clincalc.formula_version import deviates


@calculator(20, "Centor Score (Modified/McIsaac) for Strep Pharyngitis", category="severity", output_type="integer",
            kind="score", source="McIsaac 1998 (CMAJ 158:75); an unmentioned cough counts as absent (benchmark)",
            entities=("age", "Cough Absent", "Temperature", "Tender/swollen anterior cervical lymph nodes",
                      "Exudate or swelling on tonsils"))
def centor(e: Entities) -> int:
    age = e.age()
    score = 1 if 3 <= age <= 14 else -1 if age >= 45 else 0
    score += 1 if e.temperature_c() > 38 else 0
    score += e.flag("Cough Absent", default=True)
    return score + e.flag("Tender/swollen anterior cervical lymph nodes") + e.flag("Exudate or swelling on tonsils")


@calculator(33, "FeverPAIN Score for Strep Pharyngitis", category="diagnosis", output_type="integer", kind="score",
            source="Little 2013 (BMJ 347:f5806); an unmentioned cough or coryza counts as absent (benchmark)",
            entities=("Symptom onset <=3 days", "Purulent tonsils", "Fever in past 24 hours",
                      "Severe tonsil inflammation", "Absence of cough or coryza"))
def feverpain(e: Entities) -> int:
    return sum([e.flag("Fever in past 24 hours"), e.flag("Purulent tonsils"),
                e.flag("Absence of cough or coryza", default=True), e.flag("Symptom onset <=3 days"),
                e.flag("Severe tonsil inflammation")])


_PSI_HISTORY = {"Nursing home resident": 10, "Neoplastic disease": 30, "Liver disease history": 20,
                "Congestive Heart Failure": 10, "Cerebrovascular disease history": 10, "Renal disease history": 10,
                "Altered mental status": 20, "Pleural effusion on x-ray": 10}


@calculator(29, "PSI Score: Pneumonia Severity Index for CAP", category="severity", output_type="integer",
            kind="score", source="Fine 1997 (N Engl J Med 336:243), PORT point table",
            entities=("Heart Rate or Pulse", "pH", "Systolic Blood Pressure", "Blood Urea Nitrogen (BUN)",
                      "Renal disease history", "Cerebrovascular disease history", "Neoplastic disease", "Sodium",
                      "Liver disease history", "Congestive Heart Failure", "Nursing home resident",
                      "Partial pressure of oxygen", "age", "respiratory rate", "sex", "Hematocrit", "Glucose",
                      "Temperature", "Pleural effusion on x-ray", "Altered mental status"))
def psi(e: Entities) -> int:
    score = e.age() - (10 if e.sex_female() else 0)
    score += sum(points for name, points in _PSI_HISTORY.items() if e.flag(name))
    temp = e.temperature_c()
    score += 10 if e.number("Heart Rate or Pulse") >= 125 else 0
    score += 15 if temp < 35 or temp > 39.9 else 0
    score += 30 if e.number("pH") < 7.35 else 0
    score += 20 if e.number("respiratory rate") >= 30 else 0
    score += 20 if e.pressure_mmhg("Systolic Blood Pressure") < 90 else 0
    score += 20 if e.conc("Blood Urea Nitrogen (BUN)", "mg/dL", "bun") >= 30 else 0
    score += 20 if e.conc("Sodium", "mmol/L", "sodium") < 130 else 0
    score += 10 if e.conc("Glucose", "mg/dL", "glucose") >= 250 else 0
    score += 10 if e.percent("Hematocrit") < 30 else 0
    if e.has("Partial pressure of oxygen"):
        _, unit = e.pair("Partial pressure of oxygen")
    if e.has("Partial pressure of oxygen") and not (deviates("psi-pao2-unit") and unit != "mm Hg"):
        score += 10 if e.pressure_mmhg("Partial pressure of oxygen") < 60 else 0
    return score


@calculator(45, "CURB-65 Score for Pneumonia Severity", category="risk", output_type="integer", kind="score",
            source="Lim 2003 (Thorax 58:377), BUN > 19 mg/dL for urea > 7 mmol/L",
            entities=("age", "Systolic Blood Pressure", "Diastolic Blood Pressure", "Blood Urea Nitrogen (BUN)",
                      "respiratory rate", "Confusion"))
def curb65(e: Entities) -> int:
    score = e.flag("Confusion")
    score += 1 if e.conc("Blood Urea Nitrogen (BUN)", "mg/dL", "bun") > 19 else 0
    cut = math.trunc if deviates("curb65-truncated-vitals") else float  # erratum: int() on the vitals
    score += 1 if cut(e.number("respiratory rate")) >= 30 else 0
    sbp, dbp = cut(e.pressure_mmhg("Systolic Blood Pressure")), cut(e.pressure_mmhg("Diastolic Blood Pressure"))
    low_bp = sbp < 90 or dbp <= 60
    score += 1 if low_bp else 0
    return score + (1 if e.age() >= 65 else 0)


@calculator(51, "SIRS Criteria", category="diagnosis", output_type="integer", kind="score",
            source="ACCP/SCCM 1992 consensus (Bone, Chest 101:1644); the answer is the count met",
            entities=("Temperature", "Heart Rate or Pulse", "respiratory rate", "White blood cell count", "PaCO2"))
def sirs(e: Entities) -> int:
    temp = e.temperature_c()
    count = 1 if temp > 38 or temp < 36 else 0
    count += 1 if e.number("Heart Rate or Pulse") > 90 else 0
    breathing = e.has("respiratory rate") and e.number("respiratory rate") > 20
    low_co2 = e.has("PaCO2") and e.pressure_mmhg("PaCO2") < 32
    if not breathing and e.has("PaCO2") and e.pressure_mmhg("PaCO2") == 32 and deviates("sirs-paco2-32"):
        raise EntityError("the benchmark's SIRS code raises at PaCO2 of exactly 32 mm Hg (erratum sirs-paco2-32)")
    count += 1 if breathing or low_co2 else 0
    wbc_per_mm3 = e.count_per_l("White blood cell count") / 1e6
    return count + (1 if wbc_per_mm3 > 12000 or wbc_per_mm3 < 4000 else 0)
