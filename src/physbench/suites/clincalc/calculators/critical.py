"""Critical care scores: Glasgow Coma Scale and SOFA (APACHE II has its own module)."""

from __future__ import annotations

from physbench.suites.clincalc import units
from physbench.suites.clincalc.calculators.body import mean_arterial_pressure
from physbench.suites.clincalc.calculators.registry import calculator
from physbench.suites.clincalc.entities import Entities, EntityError
from physbench.suites.clincalc.formula_version import deviates

_EYE = {"eyes open spontaneously": 4, "eye opening to verbal command": 3, "eye opening to pain": 2,
        "no eye opening": 1, "not testable": 4}
_VERBAL = {"oriented": 5, "confused": 4, "inappropriate words": 3, "incomprehensible sounds": 2,
           "no verbal response": 1, "not testable": 5}
_MOTOR = {"obeys commands": 6, "localizes pain": 5, "withdrawal from pain": 4, "flexion to pain": 3,
          "extension to pain": 2, "no motor response": 1, "not testable": 6}


@calculator(21, "Glasgow Coma Score (GCS)", category="severity", output_type="integer", kind="score",
            source="Teasdale & Jennett 1974 (Lancet 2:81); a component not mentioned or not testable takes its "
            "full score (the benchmark's stated convention)",
            entities=("Best motor response", "Best eye response", "Best verbal response"))
def glasgow_coma(e: Entities) -> int:
    verbal = e.choice("Best verbal response", _VERBAL, "oriented")
    if verbal == 5 and e.has("Best verbal response") and deviates("gcs-verbal-not-testable") \
            and e.text("Best verbal response").strip().lower() == "not testable":
        verbal = 4  # erratum gcs-verbal-not-testable
    return (e.choice("Best eye response", _EYE, "eyes open spontaneously") + verbal
            + e.choice("Best motor response", _MOTOR, "obeys commands"))


def _infusion(e: Entities, name: str) -> float:
    """A vasopressor dose in µg/kg/min; 0 when absent."""
    if not e.has(name):
        return 0.0
    value, unit = e.pair(name)
    u = unit.replace(" ", "").replace("μ", "µ").lower()
    if u not in ("mcg/kg/min", "µg/kg/min", "ug/kg/min", "mc/kg/min"):
        raise EntityError(f"{name}: expected a dose in mcg/kg/min, got {unit!r}")
    return value


def _urine_ml_day(e: Entities) -> float | None:
    if not e.has("Urine Output"):
        return None
    value, unit = e.pair("Urine Output")
    u = unit.replace(" ", "").lower()
    per_day = {"ml/day": 1.0, "ml/24h": 1.0, "ml/24hr": 1.0, "ml/d": 1.0, "l/day": 1000.0, "l/24h": 1000.0}
    if u not in per_day:
        raise EntityError(f"Urine Output: expected mL/day, got {unit!r}")
    return value * per_day[u]


def pao2_fio2_ratio(pao2_mmhg: float, fio2_percent: float) -> float:
    """PaO2/FiO2 of the printed values, exactly (56 mm Hg at 28% is 200, not 199.99999999999997)."""
    return float(units.exact(pao2_mmhg) * 100 / units.exact(fio2_percent))


def sofa_respiration(ratio: float, supported: bool) -> int:
    """PaO2/FiO2 points; 3 and 4 need ventilation or CPAP, otherwise below 200 scores 2."""
    if ratio >= 400:
        return 0
    if ratio >= 300:
        return 1
    if ratio >= 200 or not supported:
        return 2
    return 3 if ratio >= 100 else 4


def sofa_cardiovascular(e: Entities) -> int:
    dopamine, dobutamine = _infusion(e, "DOPamine"), _infusion(e, "DOBUTamine")
    if deviates("sofa-dobutamine-unread"):
        dobutamine = 0.0  # erratum: the benchmark never reads dobutamine
    epinephrine, norepinephrine = _infusion(e, "EPINEPHrine"), _infusion(e, "norEPINEPHrine")
    if dopamine > 15 or epinephrine > 0.1 or norepinephrine > 0.1:
        return 4
    if dopamine > 5 or epinephrine > 0 or norepinephrine > 0:
        return 3
    if dopamine > 0 or dobutamine > 0:
        return 2
    if e.has("Systolic Blood Pressure") and e.has("Diastolic Blood Pressure"):
        if mean_arterial_pressure(e.pressure_mmhg("Systolic Blood Pressure"),
                                  e.pressure_mmhg("Diastolic Blood Pressure")) < 70:
            return 1
    return 0


def sofa_renal(creatinine: float | None, urine_ml_day: float | None) -> int:
    """Creatinine (mg/dL) or urine output: the benchmark puts exactly 5.0 mg/dL in the 3-point band."""
    cr = creatinine if creatinine is not None else 0.0
    urine = urine_ml_day if urine_ml_day is not None else float("inf")
    if cr > 5.0 or urine < 200:
        return 4
    if cr >= 3.5 or urine < 500:
        return 3
    return 2 if cr >= 2.0 else 1 if cr >= 1.2 else 0


@calculator(43, "Sequential Organ Failure Assessment (SOFA) Score", category="risk", output_type="integer",
            kind="score", source="Vincent 1996 (Intensive Care Med 22:707), SOFA organ table",
            entities=("PaO2", "FiO2", "On mechanical ventilation", "Continuous positive airway pressure",
                      "Platelet count", "Glasgow Coma Score", "Bilirubin", "Hypotension", "Systolic Blood Pressure",
                      "Diastolic Blood Pressure", "DOPamine", "DOBUTamine", "norEPINEPHrine", "EPINEPHrine",
                      "creatinine", "Urine Output"))
def sofa(e: Entities) -> int:
    fio2 = e.percent("FiO2")
    if fio2 <= 0:
        raise EntityError("FiO2 must be positive")
    supported = e.any_flag(("On mechanical ventilation", "Continuous positive airway pressure"))
    ratio = pao2_fio2_ratio(e.mmhg_or_bare("PaO2"), fio2)
    score = sofa_respiration(ratio, supported)
    if 199 < ratio < 200 and deviates("sofa-ratio-199-200"):
        score = 0  # erratum: the benchmark's bands skip (199, 200)
    score += sofa_cardiovascular(e)
    e.flag("Hypotension")  # read, but the table scores the MAP and the infusions, not the word
    gcs = e.number("Glasgow Coma Score", 15)
    score += 4 if gcs < 6 else 3 if gcs <= 9 else 2 if gcs <= 12 else 1 if gcs <= 14 else 0
    bili = e.conc("Bilirubin", "mg/dL", "bilirubin")
    score += 4 if bili >= 12 else 3 if bili >= 6 else 2 if bili >= 2 else 1 if bili >= 1.2 else 0
    platelets = e.count_per_l("Platelet count") / 1e6  # per µL
    score += 4 if platelets < 20e3 else 3 if platelets < 50e3 else 2 if platelets < 100e3 else \
        1 if platelets < 150e3 else 0
    creatinine = e.conc("creatinine", "mg/dL", "creatinine") if e.has("creatinine") else None
    return score + sofa_renal(creatinine, _urine_ml_day(e))
