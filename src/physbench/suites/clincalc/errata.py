"""The errata table (data/errata.json): when an erratum bears on a row, and what the benchmark's code
computes there (the library under that one erratum, formula_version.deviates)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Callable, Mapping

from physbench.suites.clincalc import units
from physbench.suites.clincalc.calculators import compute, critical
from physbench.suites.clincalc.entities import Entities, EntityError
from physbench.suites.clincalc.formula_version import using


@dataclass(frozen=True)
class Erratum:
    id: str
    calculator_id: int
    when: str
    status: str
    reason: str
    source: str
    rows: tuple[tuple[int, str], ...] = ()   # (Row Number, Note ID) pairs it is pinned to
    calculator_ids: tuple[int, ...] = ()     # the calculators it touches; () with id 0: every one

    def covers(self, calc_id: int) -> bool:
        if self.calculator_id == 0 and not self.calculator_ids:
            return True
        return calc_id == self.calculator_id or calc_id in self.calculator_ids

    def applies(self, row_number: int, note_id: str, entities: Mapping[str, Any]) -> bool:
        """Whether the erratum bears on this row: pinned to it, or its `when` test holds."""
        if (row_number, note_id) in self.rows:
            return True
        test = WHEN.get(self.when)
        try:
            with using("clinical"):
                return bool(test and test(Entities(entities)))
        except (ValueError, TypeError, KeyError, ZeroDivisionError):
            return False

    def benchmark_value(self, entities: Mapping[str, Any], calc_id: int | None = None) -> Any:
        """What the benchmark's code gives for these entities under this erratum alone (the rest
        clinical), or None when it gives nothing (it raises, or the entities are unusable)."""
        try:
            return compute(calc_id or self.calculator_id, dict(entities), formulas={self.id})
        except (EntityError, ValueError, TypeError, KeyError, ZeroDivisionError):
            return None


@lru_cache(maxsize=1)
def errata() -> tuple[Erratum, ...]:
    raw = json.loads((resources.files("physbench.suites.clincalc") / "data" / "errata.json").read_text("utf-8"))
    return tuple(Erratum(e["id"], int(e["calculator_id"]), e["when"], e["status"], e["reason"], e["source"],
                         tuple((int(r), str(n)) for r, n in e.get("rows", ())),
                         tuple(int(c) for c in e.get("calculator_ids", ())))
                 for e in raw["errata"])


def by_id(erratum_id: str) -> Erratum:
    for e in errata():
        if e.id == erratum_id:
            return e
    raise KeyError(erratum_id)


# ---- when: tests on a row's entities --------------------------------------------------------

def _scr(e: Entities) -> float:
    return e.conc("creatinine", "mg/dL", "creatinine")


def _heart_counts(e: Entities) -> tuple[int, bool]:
    from physbench.suites.clincalc.calculators.risk import _HEART_RISK_FACTORS
    return sum(e.flag(n) for n in _HEART_RISK_FACTORS), e.flag("atherosclerotic disease")


def _sofa_ratio(e: Entities) -> float:
    return critical.pao2_fio2_ratio(e.mmhg_or_bare("PaO2"), e.percent("FiO2"))


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
        != _pugh_bili_points(e.conc("Bilirubin", "mg/dL", "bilirubin_548"))),
    "child_pugh_grade_0": lambda e: e.has("Encephalopathy") and e.text("Encephalopathy").strip().lower() == "grade 0",
    "caprini_dvt_and_pe": lambda e: e.flag("Previously documented Deep Vein Thrombosis")
    and e.flag("Previously Documented Pulmonary Embolism"),
    "cci_capitalised_level": lambda e: any(
        e.has(n) and isinstance(e.raw(n), str) and e.raw(n) != e.raw(n).lower()
        for n in ("Liver disease severity", "Diabetes mellitus", "Solid tumor")),
    "homa_insulin_not_uiu": lambda e: e.pair("Insulin")[1].strip() in ("pmol/L", "ng/mL"),
    "mme_fentanyl_patch": lambda e: any(k.casefold() == "fentanyl patch dose" for k in e.keys()),
    "caprini_unread_items": lambda e: any(e.flag(n) for n in (
        "Major Surgery in the last month", "Congestive Heart Failure in the last month",
        "Immobilizing plaster cast in the last month", "Stroke in the last month")),
    "umol_rounding_moves_value": lambda e: _rounding_moves(e),
    "sirs_paco2_exactly_32": lambda e: e.pressure_mmhg("PaCO2") == 32 and not (
        e.has("respiratory rate") and e.number("respiratory rate") > 20),
    "psi_pao2_not_exact_mm_hg": lambda e: e.pair("Partial pressure of oxygen")[1] != "mm Hg",
    "mdrd_black_spelled_otherwise": lambda e: e.text("Race") != "Black"
    and e.text("Race").strip().lower() in ("black", "african american"),
    "framingham_small_risk": lambda e: compute(46, e, "clinical") < 0.03,
    "steroid_rounding_moves_value": lambda e: compute(24, e, "clinical") != compute(
        24, e, {"steroid-rounded-equivalents"}),
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


# (entity, target unit, analyte) of the concentrations the calculators convert
_CONCENTRATIONS = (("creatinine", "mg/dL", "creatinine"), ("Bilirubin", "mg/dL", "bilirubin"),
                   ("Blood Urea Nitrogen (BUN)", "mg/dL", "bun"), ("Glucose", "mg/dL", "glucose"),
                   ("Albumin", "g/dL", "albumin"), ("Calcium", "mg/dL", "calcium"),
                   ("Hemoglobin", "g/dL", "hemoglobin"), ("Pre-operative creatinine", "mg/dL", "creatinine"),
                   ("Urine creatinine", "mg/dL", "creatinine"))


def _rounding_moves(e: Entities) -> bool:
    """Whether the benchmark's rounded conversion of some concentration differs from the exact one."""
    for name, target, analyte in _CONCENTRATIONS:
        if not e.has(name):
            continue
        value, unit = e.pair(name)
        with using("clinical"):
            exact = units.convert_concentration(value, unit, target, analyte)
        with using({"unit-conversion-rounding"}):
            rounded = units.convert_concentration(value, unit, target, analyte)
        if exact != rounded and abs(exact - rounded) > 1e-9 * max(1.0, abs(exact)):
            return True
    return False
