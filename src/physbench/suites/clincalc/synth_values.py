"""Plausible values for the synthetic set: one value spec per Relevant Entities name, clinical ranges.

A spec draws one value in the dataset's own form ([value, 'unit'], a bare number, a choice, a flag).
Names a calculator reads in its own sense (e.g. 'Diabetes mellitus', a flag for HEART but a graded
choice for Charlson) are overridden per calculator; any name not listed is a True/False criterion.
Ranges are adult clinical ranges wide enough to cross every scoring band, not population estimates.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Union


@dataclass(frozen=True)
class Quantity:
    """A [value, 'unit'] entity drawn uniformly in [lo, hi] (in `unit`), sometimes written in another unit."""

    lo: float
    hi: float
    unit: str
    decimals: int = 0
    other_units: tuple[tuple[str, float, float, int], ...] = ()   # (unit, scale, offset, decimals)
    present: float = 1.0                                          # chance the note mentions it

    def draw(self, rng: random.Random) -> list:
        x = rng.uniform(self.lo, self.hi)
        if self.other_units and rng.random() < 0.3:
            unit, scale, offset, decimals = rng.choice(self.other_units)
            return [_rounded(x * scale + offset, decimals), unit]
        return [_rounded(x, self.decimals), self.unit]


@dataclass(frozen=True)
class Bare:
    """A bare number (INR, pH, a Glasgow Coma Score) drawn uniformly in [lo, hi]."""

    lo: float
    hi: float
    decimals: int = 0
    present: float = 1.0

    def draw(self, rng: random.Random) -> float | int:
        return _rounded(rng.uniform(self.lo, self.hi), self.decimals)


@dataclass(frozen=True)
class Choice:
    """One of the calculator's categorical answers, as the dataset spells them."""

    options: tuple[str, ...]
    present: float = 1.0

    def draw(self, rng: random.Random) -> str:
        return rng.choice(self.options)


@dataclass(frozen=True)
class Flag:
    """A True/False criterion, true with probability `p_true`."""

    p_true: float = 0.3
    present: float = 1.0

    def draw(self, rng: random.Random) -> bool:
        return rng.random() < self.p_true


Spec = Union[Quantity, Bare, Choice, Flag]


def _rounded(x: float, decimals: int) -> float | int:
    return int(round(x)) if decimals == 0 else round(x, decimals)


# conversion factors from the first unit: mg/dL -> µmol/L creatinine 88.4, bilirubin 17.1; glucose
# mg/dL -> mmol/L 1/18.016 and BUN 1/2.802 (molar masses 180.16 and 28.02, as units.ANALYTES)
_CREATININE = Quantity(0.5, 6.0, "mg/dL", 2, (("µmol/L", 88.4, 0.0, 0),))
_MMHG = "mm Hg"

COMMON: dict[str, Spec] = {
    "age": Quantity(18, 90, "years"),
    "sex": Choice(("Male", "Female")),
    "weight": Quantity(45, 130, "kg", 1, (("lbs", 2.20462, 0.0, 0),)),
    "height": Quantity(150, 195, "cm", 0, (("in", 1 / 2.54, 0.0, 0),)),
    "Body Mass Index (BMI)": Quantity(17, 40, "kg/m^2", 1),
    "Temperature": Quantity(35.0, 40.5, "degrees celsius", 1, (("degrees fahrenheit", 1.8, 32.0, 1),)),
    "Heart Rate or Pulse": Quantity(45, 160, "beats per minute"),
    "respiratory rate": Quantity(10, 40, "breaths per minute"),
    "Systolic Blood Pressure": Quantity(80, 190, _MMHG),
    "Diastolic Blood Pressure": Quantity(40, 110, _MMHG),
    "Mean arterial pressure": Quantity(55, 130, _MMHG),
    "O₂ saturation percentage": Quantity(85, 100, "%"),
    "FiO2": Quantity(21, 100, "%"),
    "PaO2": Quantity(50, 120, _MMHG),
    "Partial pressure of oxygen": Quantity(50, 110, _MMHG),
    "A-a gradient": Quantity(10, 550, _MMHG),
    "PaCO2": Quantity(25, 55, _MMHG),
    "pH": Bare(7.05, 7.6, 2),
    "QT Interval": Quantity(300, 500, "msec"),
    "Sodium": Quantity(120, 160, "mEq/L", 0, (("mmol/L", 1.0, 0.0, 0),)),
    "Potassium": Quantity(2.8, 6.5, "mEq/L", 1, (("mmol/L", 1.0, 0.0, 1),)),
    "Chloride": Quantity(85, 120, "mEq/L", 0, (("mmol/L", 1.0, 0.0, 0),)),
    "Bicarbonate": Quantity(8, 32, "mEq/L", 1, (("mmol/L", 1.0, 0.0, 1),)),
    "creatinine": _CREATININE,
    "Pre-operative creatinine": _CREATININE,
    "Urine creatinine": Quantity(20, 250, "mg/dL", 1),
    "Urine sodium": Quantity(5, 120, "mEq/L"),
    "Glucose": Quantity(60, 500, "mg/dL", 0, (("mmol/L", 1 / 18.016, 0.0, 1),)),
    "Blood Urea Nitrogen (BUN)": Quantity(6, 80, "mg/dL", 0, (("mmol/L", 1 / 2.802, 0.0, 1),)),
    "Albumin": Quantity(1.5, 5.0, "g/dL", 1, (("g/L", 10.0, 0.0, 0),)),
    "Calcium": Quantity(6.5, 11.0, "mg/dL", 1, (("mmol/L", 1 / 4.008, 0.0, 2),)),
    "Bilirubin": Quantity(0.3, 12.0, "mg/dL", 1, (("µmol/L", 17.1, 0.0, 0),)),
    "Hemoglobin": Quantity(6, 17, "g/dL", 1, (("g/L", 10.0, 0.0, 0),)),
    "Hematocrit": Quantity(20, 55, "%"),
    "White blood cell count": Quantity(2_000, 30_000, "µL", 0, (("mm^3", 1.0, 0.0, 0),)),
    "Platelet count": Quantity(20_000, 450_000, "µL"),
    "Alanine aminotransferase": Quantity(10, 300, "U/L"),
    "Aspartate aminotransferase": Quantity(10, 300, "U/L"),
    "Insulin": Quantity(2, 40, "µIU/mL", 1),
    "Total cholesterol": Quantity(120, 300, "mg/dL"),
    "high-density lipoprotein cholesterol": Quantity(25, 90, "mg/dL"),
    "Triglycerides": Quantity(50, 400, "mg/dL"),
    "Urine Output": Quantity(200, 2500, "mL/day"),
    "international normalized ratio": Bare(0.9, 4.0, 1),
    "Glasgow Coma Score": Bare(3, 15),
    "Number of Alcoholic Drinks Per Week": Bare(0, 14),
    "cycle length": Bare(24, 35),
    "DOPamine": Quantity(1, 20, "mcg/kg/min", 1, present=0.15),
    "DOBUTamine": Quantity(1, 20, "mcg/kg/min", 1, present=0.1),
    "EPINEPHrine": Quantity(0.02, 0.5, "mcg/kg/min", 2, present=0.1),
    "norEPINEPHrine": Quantity(0.02, 0.5, "mcg/kg/min", 2, present=0.15),
    "Race": Choice(("Black", "White", "Asian", "Hispanic")),
    "Best eye response": Choice(("eyes open spontaneously", "eye opening to verbal command", "eye opening to pain",
                                 "no eye opening")),
    "Best verbal response": Choice(("oriented", "confused", "inappropriate words", "incomprehensible sounds",
                                    "no verbal response")),
    "Best motor response": Choice(("obeys commands", "localizes pain", "withdrawal from pain", "flexion to pain",
                                   "extension to pain", "no motor response")),
    "Ascites": Choice(("absent", "slight", "moderate")),
    "Encephalopathy": Choice(("No Encephalopathy", "Grade 1-2", "Grade 3-4")),
    "Suspicion History": Choice(("Slightly suspicious", "Moderately suspicious", "Highly suspicious")),
    "Electrocardiogram Test": Choice(("Normal", "Non-specific repolarization disturbance",
                                      "Significant ST deviation")),
    "Initial troponin": Choice(("less than or equal to normal limit",
                                "between the normal limit or up to three times the normal limit",
                                "greater than three times normal limit")),
    "Mobility": Choice(("normal", "on bed rest", "confined to bed >72 hours")),
}

# names a calculator reads in its own sense
OVERRIDES: dict[int, dict[str, Spec]] = {
    28: {"Surgery Type": Choice(("nonoperative", "emergency", "elective"))},
    32: {"Liver disease severity": Choice(("none", "mild", "moderate to severe")),
         "Diabetes mellitus": Choice(("none or diet-controlled", "uncomplicated", "end-organ damage")),
         "Solid tumor": Choice(("none", "localized", "metastatic"))},
    36: {"Surgery Type": Choice(("none", "minor", "major", "laparoscopic", "elective major lower extremity arthroplasty")),
         "Body Mass Index (BMI)": Quantity(18, 40, "kg/m^2", 1)},
}

# typical single doses of each opioid in the MME table (mass unit as the dataset writes it)
OPIOID_DOSES: dict[str, Quantity] = {
    "Codeine": Quantity(15, 60, "mg"), "FentaNYL buccal": Quantity(100, 400, "µg"),
    "FentANYL patch": Quantity(12, 100, "µg"), "HYDROcodone": Quantity(5, 20, "mg"),
    "HYDROmorphone": Quantity(1, 8, "mg"), "Methadone": Quantity(5, 40, "mg"), "Morphine": Quantity(10, 60, "mg"),
    "OxyCODONE": Quantity(5, 30, "mg"), "OxyMORphone": Quantity(5, 20, "mg"), "Tapentadol": Quantity(50, 200, "mg"),
    "TraMADol": Quantity(50, 100, "mg"), "Buprenorphine": Quantity(0.1, 1.0, "mg", 2),
}


def spec_for(calc_id: int, name: str) -> Spec:
    """The value spec of entity `name` as calculator `calc_id` reads it (a flag when nothing says otherwise)."""
    return OVERRIDES.get(calc_id, {}).get(name) or COMMON.get(name) or Flag()


def draw(calc_id: int, name: str, rng: random.Random) -> Any:
    """One value of `name`, or None when this case's note leaves it out."""
    spec = spec_for(calc_id, name)
    if spec.present < 1.0 and rng.random() >= spec.present:
        return None
    return spec.draw(rng)
