"""Cardiovascular and comorbidity risk: CHA2DS2-VASc, RCRI, HEART, HAS-BLED, Charlson, Framingham."""

from __future__ import annotations

import math

from physbench.suites.clincalc.calculators.registry import calculator
from physbench.suites.clincalc.entities import Entities, EntityError
from physbench.suites.clincalc.formula_version import deviates


@calculator(4, "CHA2DS2-VASc Score for Atrial Fibrillation Stroke Risk", category="risk", output_type="integer",
            kind="score", source="Lip 2010 (Chest 137:263), CHA2DS2-VASc point table",
            entities=("sex", "age", "Congestive Heart Failure", "Thromboembolism history", "Vascular disease history",
                      "Diabetes history", "Hypertension history", "Transient Ischemic Attacks History", "Stroke"))
def cha2ds2_vasc(e: Entities) -> int:
    age = e.age()
    score = 2 if age >= 75 else 1 if age >= 65 else 0
    score += 1 if e.sex_female() else 0
    score += e.flag("Congestive Heart Failure") + e.flag("Hypertension history")
    if e.any_flag(("Stroke", "Transient Ischemic Attacks History", "Thromboembolism history")):
        score += 2
    return score + e.flag("Vascular disease history") + e.flag("Diabetes history")


@calculator(17, "Revised Cardiac Risk Index for Pre-Operative Risk", category="risk", output_type="integer",
            kind="score", source="Lee 1999 (Circulation 100:1043), six criteria one point each",
            entities=("Congestive Heart Failure criteria for the Cardiac Risk Index rule", "Elevated-risk surgery",
                      "History of ischemic heart disease", "Pre-operative treatment with insulin",
                      "Pre-operative creatinine", "History of cerebrovascular disease", "age"))
def rcri(e: Entities) -> int:
    score = sum([e.flag("Elevated-risk surgery"), e.flag("History of ischemic heart disease"),
                 e.flag("Congestive Heart Failure criteria for the Cardiac Risk Index rule"),
                 e.flag("History of cerebrovascular disease"), e.flag("Pre-operative treatment with insulin")])
    if e.has("Pre-operative creatinine") and e.conc("Pre-operative creatinine", "mg/dL", "creatinine") > 2:
        score += 1
    return score


_HISTORY = {"Slightly suspicious": 0, "Moderately suspicious": 1, "Highly suspicious": 2}
_EKG = {"Normal": 0, "Non-specific repolarization disturbance": 1, "Significant ST deviation": 2}
_TROPONIN = {"less than or equal to normal limit": 0,
             "between the normal limit or up to three times the normal limit": 1,
             "greater than three times normal limit": 2}
_HEART_RISK_FACTORS = ("Hypertension history", "hypercholesterolemia", "Diabetes mellitus", "obesity", "smoking",
                       "parent or sibling with Cardiovascular disease before age 65")


@calculator(18, "HEART Score for Major Cardiac Events", category="risk", output_type="integer", kind="score",
            source="Six 2008 (Neth Heart J 16:191), HEART score; absent items scored 0",
            entities=("age", "Hypertension history", "Electrocardiogram Test", "Diabetes mellitus", "smoking",
                      "parent or sibling with Cardiovascular disease before age 65", "atherosclerotic disease",
                      "Suspicion History", "hypercholesterolemia", "obesity", "Transient Ischemic Attacks History",
                      "Initial troponin"))
def heart_score(e: Entities) -> int:
    score = e.choice("Suspicion History", _HISTORY, "Slightly suspicious")
    score += e.choice("Electrocardiogram Test", _EKG, "Normal")
    age = e.age()
    score += 2 if age >= 65 else 1 if age >= 45 else 0
    factors = sum([e.flag(name) for name in _HEART_RISK_FACTORS])
    # atherosclerotic disease (prior MI, PCI/CABG, CVA/TIA, peripheral arterial disease) scores 2 by itself
    atherosclerotic = e.any_flag(("atherosclerotic disease", "Transient Ischemic Attacks History"))
    if deviates("heart-atherosclerotic-disease"):  # erratum: one more factor; TIA history unread
        factors += e.flag("atherosclerotic disease")
        atherosclerotic = False
    if atherosclerotic or factors >= 3:
        score += 2
    elif factors >= 1:
        score += 1
    return score + e.choice("Initial troponin", _TROPONIN, "less than or equal to normal limit")


@calculator(25, "HAS-BLED Score for Major Bleeding Risk", category="risk", output_type="integer", kind="score",
            source="Pisters 2010 (Chest 138:1093), HAS-BLED nine items one point each",
            entities=("Liver disease criteria for the HAS-BLED rule", "age", "Renal disease criteria for the HAS-BLED rule",
                      "Hypertension", "Number of Alcoholic Drinks Per Week", "Stroke",
                      "Medication usage predisposing to bleeding", "Prior major bleeding or predisposition to bleeding",
                      "Labile international normalized ratio"))
def has_bled(e: Entities) -> int:
    score = 1 if e.age() > 65 else 0
    score += 1 if e.number("Number of Alcoholic Drinks Per Week", 0) >= 8 else 0
    return score + sum([e.flag(name) for name in (
        "Hypertension", "Liver disease criteria for the HAS-BLED rule", "Renal disease criteria for the HAS-BLED rule",
        "Stroke", "Prior major bleeding or predisposition to bleeding", "Labile international normalized ratio",
        "Medication usage predisposing to bleeding")])


_CCI_ONE = ("Myocardial infarction", "Congestive Heart Failure", "Peripheral vascular disease", "Dementia",
            "Chronic Pulmonary Disease", "Connective tissue disease", "Peptic ulcer disease")
_CCI_TWO = ("Hemiplegia", "Moderate to severe Chronic Kidney Disease", "Leukemia", "Lymphoma")
_LIVER = {"none": 0, "mild": 1, "moderate to severe": 3, "moderate": 3, "severe": 3}
_DIABETES = {"none or diet-controlled": 0, "none": 0, "uncomplicated": 1, "end-organ damage": 2}
_TUMOR = {"none": 0, "localized": 2, "metastatic": 6}


@calculator(32, "Charlson Comorbidity Index (CCI)", category="risk", output_type="integer", kind="score",
            source="Charlson 1987 (J Chronic Dis 40:373) weights with the age bands of Charlson 1994",
            entities=("age", "Myocardial infarction", "Congestive Heart Failure", "Peripheral vascular disease",
                      "Cerebrovascular Accident", "Transient Ischemic Attacks History", "Dementia",
                      "Chronic Pulmonary Disease", "Connective tissue disease", "Peptic ulcer disease",
                      "Liver disease severity", "Diabetes mellitus", "Hemiplegia",
                      "Moderate to severe Chronic Kidney Disease", "Solid tumor", "Leukemia", "Lymphoma", "AIDS"))
def charlson(e: Entities) -> int:
    age = e.age()
    score = 4 if age >= 80 else 3 if age >= 70 else 2 if age >= 60 else 1 if age >= 50 else 0
    score += sum([e.flag(name) for name in _CCI_ONE])
    score += 1 if e.any_flag(("Cerebrovascular Accident", "Transient Ischemic Attacks History")) else 0
    score += 2 * sum([e.flag(name) for name in _CCI_TWO])
    score += 6 if e.flag("AIDS") else 0
    score += _graded(e, "Liver disease severity", _LIVER)
    score += _graded(e, "Diabetes mellitus", _DIABETES)
    return score + _graded(e, "Solid tumor", _TUMOR)


_CCI_EXACT = ("none", "mild", "moderate to severe", "none or diet-controlled", "uncomplicated",
              "end-organ damage", "localized", "metastatic")


def _graded(e: Entities, name: str, table: dict[str, int]) -> int:
    """A graded item: its level's points; False (or absent) for none."""
    if not e.has(name):
        return 0
    value = e.raw(name)
    if deviates("cci-capitalised-levels"):  # erratum: exact lower-case levels, anything else true is 1
        exact = {k: v for k, v in table.items() if k in _CCI_EXACT}
        return exact[value] if isinstance(value, str) and value in exact else 1 if value else 0
    if isinstance(value, bool):
        if value:
            raise EntityError(f"{name}: True does not say which level ({', '.join(table)})")
        return 0
    return e.choice(name, table)


# ATP III (2002) hard-CHD Cox model coefficients, NCEP ATP III report appendix / Framingham
_FRAMINGHAM = {
    "male": dict(ln_age=52.00961, ln_tc=20.014077, ln_hdl=-0.905964, ln_sbp=1.305784, bp_treated=0.241549,
                 smoker=12.096316, ln_age_ln_tc=-4.605038, ln_age_smoker=-2.84367, ln_age_sq=-2.93323,
                 constant=-172.300168, baseline=0.9402, smoker_age_cap=70),
    "female": dict(ln_age=31.764001, ln_tc=22.465206, ln_hdl=-1.187731, ln_sbp=2.552905, bp_treated=0.420251,
                   smoker=13.07543, ln_age_ln_tc=-5.060998, ln_age_smoker=-2.996945, ln_age_sq=0,
                   constant=-146.5933061, baseline=0.98767, smoker_age_cap=78),
}


@calculator(46, "Framingham Risk Score for Hard Coronary Heart Disease", category="lab test",
            output_type="decimal", kind="decimal",
            source="NCEP ATP III 2002 (Circulation 106:3143) hard-CHD 10-year risk, sex-specific Cox model",
            entities=("sex", "age", "Systolic Blood Pressure", "Smoker", "Total cholesterol",
                      "high-density lipoprotein cholesterol", "Blood pressure being treated with medicines"))
def framingham_hard_chd(e: Entities) -> float:
    b = _FRAMINGHAM["female" if e.sex_female() else "male"]
    age = e.age()
    tc = e.conc("Total cholesterol", "mg/dL", "cholesterol")
    hdl = e.conc("high-density lipoprotein cholesterol", "mg/dL", "cholesterol")
    sbp = e.pressure_mmhg("Systolic Blood Pressure")
    if min(age, tc, hdl, sbp) <= 0:
        raise EntityError("age, cholesterol and blood pressure must be positive")
    smoker = 1 if e.flag("Smoker") else 0
    treated = 1 if e.flag("Blood pressure being treated with medicines") else 0
    ln_age, ln_tc = math.log(age), math.log(tc)
    ln_age_smoke = math.log(min(age, b["smoker_age_cap"]))
    s = (b["ln_age"] * ln_age + b["ln_tc"] * ln_tc + b["ln_hdl"] * math.log(hdl) + b["ln_sbp"] * math.log(sbp)
         + b["bp_treated"] * treated + b["smoker"] * smoker + b["ln_age_ln_tc"] * ln_age * ln_tc
         + b["ln_age_smoker"] * ln_age_smoke * smoker + b["ln_age_sq"] * ln_age * ln_age + b["constant"])
    risk = 100 * (1 - b["baseline"] ** math.exp(s))
    return round(risk, 3) if deviates("framingham-rounded-percent") else risk  # erratum: percent to 3 decimals
