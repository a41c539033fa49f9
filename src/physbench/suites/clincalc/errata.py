"""The errata table (data/errata.json) and its tests: when an erratum applies to a row, and what
the benchmark's code computes there. None of this is used by the library itself."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Callable, Mapping

from physbench.suites.clincalc.calculators import apache, compute, critical, hepatic
from physbench.suites.clincalc.entities import Entities


@dataclass(frozen=True)
class Erratum:
    id: str
    calculator_id: int
    when: str
    variant: str
    status: str
    reason: str
    source: str
    rows: tuple[tuple[int, str], ...] = ()   # (Row Number, Note ID) pairs it is pinned to

    def applies(self, row_number: int, note_id: str, entities: Mapping[str, Any]) -> bool:
        if (row_number, note_id) in self.rows:
            return True
        test = WHEN.get(self.when)
        try:
            return bool(test and test(Entities(entities)))
        except (ValueError, TypeError, KeyError, ZeroDivisionError):
            return False

    def benchmark_value(self, entities: Mapping[str, Any]) -> Any:
        """What the benchmark's code gives for these entities, or None when there is no variant."""
        fn = VARIANTS.get(self.variant)
        if fn is None:
            return None
        try:
            return fn(dict(entities))
        except (ValueError, TypeError, KeyError, ZeroDivisionError):
            return None


@lru_cache(maxsize=1)
def errata() -> tuple[Erratum, ...]:
    raw = json.loads((resources.files("physbench.suites.clincalc") / "data" / "errata.json").read_text("utf-8"))
    return tuple(Erratum(e["id"], int(e["calculator_id"]), e["when"], e.get("variant", ""), e["status"],
                         e["reason"], e["source"], tuple((int(r), str(n)) for r, n in e.get("rows", ())))
                 for e in raw["errata"])


# ---- when: tests on a row's entities --------------------------------------------------------

def _scr(e: Entities) -> float:
    return e.conc("creatinine", "mg/dL", "creatinine")


def _heart_counts(e: Entities) -> tuple[int, bool]:
    from physbench.suites.clincalc.calculators.risk import _HEART_RISK_FACTORS
    return sum(e.flag(n) for n in _HEART_RISK_FACTORS), e.flag("atherosclerotic disease")


def _sofa_ratio(e: Entities) -> float:
    return e.mmhg_or_bare("PaO2") / (e.percent("FiO2") / 100)


def _without(entities: Mapping[str, Any], *names: str) -> dict:
    drop = {n.casefold() for n in names}
    return {k: v for k, v in entities.items() if k.casefold() not in drop}


WHEN: dict[str, Callable[[Entities], bool]] = {
    "ckd_epi_male_low_creatinine": lambda e: not e.sex_female() and _scr(e) <= 0.9,
    "gcs_verbal_not_testable": lambda e: e.has("Best verbal response")
    and e.text("Best verbal response").strip().lower() == "not testable",
    "heart_atherosclerotic_below_three": lambda e: (
        (_heart_counts(e)[1] or e.flag("Transient Ischemic Attacks History")) and _heart_counts(e)[0] < 3),
    "sofa_dobutamine_decides": lambda e: e.has("DOBUTamine") and e.pair("DOBUTamine")[0] > 0,
    "sofa_ratio_between_199_and_200": lambda e: 199 < _sofa_ratio(e) < 200,
    "apache_chronic_health": lambda e: e.flag("History of severe organ failure or immunocompromise"),
    "apache_low_creatinine_with_renal_failure": lambda e: _scr(e) < 0.6 and (
        e.flag("Acute renal failure") or e.flag("Chronic renal failure")),
    "apache_oxygenation_gap": lambda e: _apache_gap(e),
    "meld_dialysis_low_creatinine": lambda e: _scr(e) < 1.0 and e.any_flag((
        "Dialysis at least twice in the past week",
        "Continuous veno-venous hemodialysis for ≥24 hours in the past week")),
    "child_pugh_bilirubin_band_depends_on_molar_mass": lambda e: (
        "mol" in e.pair("Bilirubin")[1]
        and _pugh_bili_points(e.conc("Bilirubin", "mg/dL", "bilirubin"))
        != _pugh_bili_points(e.conc("Bilirubin", "mg/dL", "bilirubin") * 584.66 / 548.66)),
    "child_pugh_grade_0": lambda e: e.has("Encephalopathy") and e.text("Encephalopathy").strip().lower() == "grade 0",
    "caprini_dvt_and_pe": lambda e: e.flag("Previously documented Deep Vein Thrombosis")
    and e.flag("Previously Documented Pulmonary Embolism"),
    "cci_capitalised_level": lambda e: any(
        e.has(n) and isinstance(e.raw(n), str) and e.raw(n) != e.raw(n).lower()
        for n in ("Liver disease severity", "Diabetes mellitus", "Solid tumor")),
    "homa_insulin_not_uiu": lambda e: e.pair("Insulin")[1].strip() in ("pmol/L", "ng/mL"),
    "mme_fentanyl_patch": lambda e: any(k.casefold() == "fentanyl patch dose" for k in e.keys()),
    "curb65_fractional_vitals": lambda e: any(
        not float(e.number(n)).is_integer()
        for n in ("respiratory rate", "Systolic Blood Pressure", "Diastolic Blood Pressure") if e.has(n)),
}


def _apache_gap(e: Entities) -> bool:
    if e.percent("FiO2") >= 50:
        gradient = e.mmhg_or_bare("A-a gradient")
        return 199 < gradient < 200 or 349 < gradient < 350
    return 60 < e.mmhg_or_bare("PaO2") < 61


def _pugh_bili_points(mg_dl: float) -> int:
    return 1 if mg_dl < 2 else 2 if mg_dl <= 3 else 3


# ---- variants: what the benchmark's code computes --------------------------------------------

def _ckd_epi_kappa(entities: dict) -> float:
    e = Entities(entities)
    return 142 * (_scr(e) / 0.7) ** -0.302 * 0.9938 ** e.age()


def _gcs_verbal_4(entities: dict) -> int:
    return compute(21, entities) - 1


def _heart_points(count: int) -> int:
    return 2 if count >= 3 else 1 if count >= 1 else 0


def _heart_benchmark(entities: dict) -> int:
    """The benchmark counts atherosclerotic disease as one more factor and ignores TIA history."""
    e = Entities(entities)
    factors, athero = _heart_counts(e)
    base = compute(18, _without(entities, "Transient Ischemic Attacks History", "atherosclerotic disease"))
    return base - _heart_points(factors) + _heart_points(factors + athero)


def _sofa_gap(entities: dict) -> int:
    e = Entities(entities)
    supported = e.any_flag(("On mechanical ventilation", "Continuous positive airway pressure"))
    return compute(43, entities) - critical.sofa_respiration(_sofa_ratio(e), supported)


def _apache_no_chronic(entities: dict) -> int:
    return compute(28, _without(entities, "History of severe organ failure or immunocompromise"))


def _apache_low_creatinine(entities: dict) -> int:
    e = Entities(entities)
    return compute(28, entities) - apache.creatinine_points(_scr(e), e.flag("Acute renal failure"))


def _apache_gaps(entities: dict) -> int:
    e = Entities(entities)
    fio2 = e.percent("FiO2")
    pao2 = e.mmhg_or_bare("PaO2") if e.has("PaO2") else None
    grad = e.mmhg_or_bare("A-a gradient") if e.has("A-a gradient") else None
    bench = (0 if fio2 >= 50 else 4)
    return compute(28, entities) - apache.oxygenation_points(fio2, pao2, grad) + bench


def _meld_floor(entities: dict) -> int:
    e = Entities(entities)
    return hepatic.meld_na_score(1.0, e.conc("Bilirubin", "mg/dL", "bilirubin"),
                                 e.number("international normalized ratio"), e.conc("Sodium", "mEq/L", "sodium"),
                                 dialysis=False)


def _pugh_548(entities: dict) -> int:
    e = Entities(entities)
    bili = e.conc("Bilirubin", "mg/dL", "bilirubin")
    return compute(15, entities) - _pugh_bili_points(bili) + _pugh_bili_points(bili * 548.66 / 584.66)


def _pugh_grade0(entities: dict) -> int:
    return compute(15, entities) - 1


def _caprini_each(entities: dict) -> int:
    return compute(36, entities) + 3


def _homa_factors(entities: dict) -> float:
    e = Entities(entities)
    value, unit = e.pair("Insulin")
    insulin = value * 6 if unit.strip() == "pmol/L" else value * 24.8
    return insulin * e.conc("Glucose", "mg/dL", "glucose") / 405


def _mme_patch_mg(entities: dict) -> float:
    key = next(k for k in entities if k.casefold() == "fentanyl patch dose")
    value, unit = entities[key]
    scaled = dict(entities)
    scaled[key] = [value / 1000, unit]
    return compute(49, scaled)


def _curb_truncated(entities: dict) -> int:
    out = dict(entities)
    for key, v in entities.items():
        if key in ("respiratory rate", "Systolic Blood Pressure", "Diastolic Blood Pressure") and isinstance(v, list):
            out[key] = [math.trunc(v[0]), v[1]]
    return compute(45, out)


VARIANTS: dict[str, Callable[[dict], Any]] = {
    "ckd_epi_male_kappa_0_7": _ckd_epi_kappa,
    "gcs_verbal_not_testable_4": _gcs_verbal_4,
    "heart_benchmark_risk_count": _heart_benchmark,
    "sofa_without_dobutamine": lambda ents: compute(43, _without(ents, "DOBUTamine")),
    "sofa_ratio_gap_zero": _sofa_gap,
    "apache_without_chronic_health": _apache_no_chronic,
    "apache_low_creatinine_zero": _apache_low_creatinine,
    "apache_oxygenation_benchmark_gaps": _apache_gaps,
    "meld_dialysis_creatinine_floor": _meld_floor,
    "child_pugh_bilirubin_548": _pugh_548,
    "child_pugh_grade_0_scores_nothing": _pugh_grade0,
    "caprini_dvt_and_pe_each": _caprini_each,
    "homa_benchmark_insulin_factors": _homa_factors,
    "mme_patch_in_mg": _mme_patch_mg,
    "curb65_truncated_vitals": _curb_truncated,
}

