"""Venous thromboembolism: Wells' PE, Wells' DVT, Caprini 2005, PERC."""

from __future__ import annotations

from physbench.suites.clincalc.calculators.registry import calculator
from physbench.suites.clincalc.entities import Entities
from physbench.suites.clincalc.formula_version import deviates


@calculator(8, "Wells' Criteria for Pulmonary Embolism", category="risk", output_type="integer", kind="score",
            source="Wells 2000 (Thromb Haemost 83:416), seven criteria with 3 / 1.5 / 1 points",
            entities=("Heart Rate or Pulse", "Previously Documented Pulmonary Embolism",
                      "Immobilization for at least 3 days", "Malignancy with treatment within 6 months or palliative",
                      "Pulmonary Embolism is #1 diagnosis OR equally likely", "Surgery in the previous 4 weeks",
                      "Previously documented Deep Vein Thrombosis", "Hemoptysis",
                      "Clinical signs and symptoms of Deep Vein Thrombosis"))
def wells_pe(e: Entities) -> float:
    score = 3.0 * e.flag("Clinical signs and symptoms of Deep Vein Thrombosis")
    score += 3.0 * e.flag("Pulmonary Embolism is #1 diagnosis OR equally likely")
    score += 1.5 if e.number("Heart Rate or Pulse") > 100 else 0
    score += 1.5 * e.any_flag(("Immobilization for at least 3 days", "Surgery in the previous 4 weeks"))
    score += 1.5 * e.any_flag(("Previously Documented Pulmonary Embolism",
                               "Previously documented Deep Vein Thrombosis"))
    score += e.flag("Hemoptysis") + e.flag("Malignancy with treatment within 6 months or palliative")
    return score


_DVT_ONE_POINT = ("Active cancer", "Calf swelling >3 centimeters compared to the other leg",
                  "Collateral (nonvaricose) superficial veins present", "Entire Leg Swollen",
                  "Localized tenderness along the deep venous system", "Pitting edema, confined to symptomatic leg",
                  "Paralysis, paresis, or recent plaster immobilization of the lower extremity",
                  "Previously documented Deep Vein Thrombosis")


@calculator(16, "Wells' Criteria for DVT", category="risk", output_type="decimal", kind="score",
            source="Wells 2003 (N Engl J Med 349:1227), ten criteria, alternative diagnosis -2",
            entities=(*_DVT_ONE_POINT, "Bedridden recently >3 days", "Major surgery within 12 weeks",
                      "Alternative diagnosis to Deep Vein Thrombosis as likely or more likely"))
def wells_dvt(e: Entities) -> int:
    score = sum([e.flag(name) for name in _DVT_ONE_POINT])
    score += 1 if e.any_flag(("Bedridden recently >3 days", "Major surgery within 12 weeks",
                              "Bedridden recently >3 days or major surgery within 12 weeks")) else 0
    score -= 2 if e.flag("Alternative diagnosis to Deep Vein Thrombosis as likely or more likely") else 0
    return score


_SURGERY = {"none": 0, "minor": 1, "major": 2, "laparoscopic": 2, "arthroscopic": 2,
            "elective major lower extremity arthroplasty": 5}
_MOBILITY = {"normal": 0, "on bed rest": 1, "confined to bed >72 hours": 2}
_CAPRINI_ITEMS = {
    "Major Surgery in the last month": 1, "Congestive Heart Failure in the last month": 1,
    "Sepsis in the last month": 1, "Pneumonia in the last month": 1,
    "Immobilizing plaster cast in the last month": 2, "Hip, pelvis, or leg fracture in the last month": 5,
    "Stroke in the last month": 5, "Multiple trauma in the last month": 5,
    "Acute spinal cord injury causing paralysis in the last month": 5,
    "Varicose veins": 1, "Current swollen legs": 1, "Current central venous access": 2,
    "Family history of thrombosis": 3, "Positive Factor V Leiden": 3, "Positive prothrombin 20210A": 3,
    "Elevated serum homocysteine": 3, "Positive lupus anticoagulant": 3, "Elevated anticardiolipin antibody": 3,
    "Heparin-induced thrombocytopenia": 3, "Other congenital or acquired thrombophilia": 3,
    "History of inflammatory bowel disease": 1, "Acute Myocardial infarction": 1,
    "Chronic Obstructive Pulmonary Disease": 1, "Present or previous malignancy": 2,
}


# erratum caprini-unread-items: the benchmark's name map gives these keys its function never reads
_CAPRINI_UNREAD = ("Major Surgery in the last month", "Congestive Heart Failure in the last month",
                   "Immobilizing plaster cast in the last month", "Stroke in the last month")


@calculator(36, "Caprini Score for Venous Thromboembolism (2005)", category="risk", output_type="integer",
            kind="score", source="Caprini 2005 (Dis Mon 51:70) risk assessment model, as MDCalc",
            entities=("age", "sex", "Surgery Type", *_CAPRINI_ITEMS, "Previously documented Deep Vein Thrombosis",
                      "Previously Documented Pulmonary Embolism", "Mobility", "Body Mass Index (BMI)"))
def caprini(e: Entities) -> int:
    age = e.age()
    score = 3 if age >= 75 else 2 if age >= 61 else 1 if age >= 41 else 0
    score += e.choice("Surgery Type", _SURGERY, "none")
    unread = _CAPRINI_UNREAD if deviates("caprini-unread-items") else ()
    score += sum(points for name, points in _CAPRINI_ITEMS.items() if e.flag(name) and name not in unread)
    dvt_pe = [e.flag("Previously documented Deep Vein Thrombosis"), e.flag("Previously Documented Pulmonary Embolism")]
    # one item: history of DVT or PE (erratum caprini-dvt-and-pe: the benchmark adds 3 for each)
    score += 3 * sum(dvt_pe) if deviates("caprini-dvt-and-pe") else 3 if any(dvt_pe) else 0
    score += e.choice("Mobility", _MOBILITY, "normal")
    if e.has("Body Mass Index (BMI)") and e.number("Body Mass Index (BMI)") > 25:
        score += 1
    return score


@calculator(48, "PERC Rule for Pulmonary Embolism", category="diagnosis", output_type="integer", kind="score",
            source="Kline 2004 (J Thromb Haemost 2:1247), eight criteria; the answer is the count met",
            entities=("age", "Heart Rate or Pulse", "Hemoptysis", "O₂ saturation percentage", "Recent surgery or trauma",
                      "Previously documented Deep Vein Thrombosis", "Previously Documented Pulmonary Embolism",
                      "Unilateral Leg Swelling", "Hormone use"))
def perc(e: Entities) -> int:
    count = 1 if e.age() >= 50 else 0
    count += 1 if e.number("Heart Rate or Pulse") >= 100 else 0
    count += 1 if e.percent("O₂ saturation percentage") < 95 else 0
    count += sum([e.flag(name) for name in ("Unilateral Leg Swelling", "Hemoptysis", "Recent surgery or trauma",
                                            "Hormone use")])
    count += 1 if e.any_flag(("Previously documented Deep Vein Thrombosis",
                              "Previously Documented Pulmonary Embolism")) else 0
    return count
