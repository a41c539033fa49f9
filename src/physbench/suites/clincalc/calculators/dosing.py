"""Dose conversion: corticosteroid equivalents and morphine milligram equivalents (MME)."""

from __future__ import annotations

import re

from physbench.suites.clincalc import units
from physbench.suites.clincalc.calculators.registry import calculator
from physbench.suites.clincalc.entities import Entities, EntityError
from physbench.suites.clincalc.formula_version import deviates

# glucocorticoid equivalent doses in mg (the benchmark's table, as MDCalc's steroid conversion)
STEROID_EQUIVALENT_MG = {
    "Betamethasone IV": 0.75, "Cortisone PO": 25, "Dexamethasone IV": 0.75, "Dexamethasone PO": 0.75,
    "Hydrocortisone IV": 20, "Hydrocortisone PO": 20, "MethylPrednisoLONE IV": 4, "MethylPrednisoLONE PO": 4,
    "PrednisoLONE PO": 5, "PredniSONE PO": 5, "Triamcinolone IV": 4,
}
# the benchmark's own table (erratum steroid-rounded-equivalents): each steroid's potency relative to
# dexamethasone's 0.75 mg, rounded to 2 decimals (6.67 for 20/3, 5.33, 26.67, 33.33)
STEROID_RELATIVE_ROUNDED = {name: round(mg / 0.75, 2) for name, mg in STEROID_EQUIVALENT_MG.items()}


def _steroid(name: str) -> str:
    wanted = " ".join(name.split()).casefold()
    for known in STEROID_EQUIVALENT_MG:
        if known.casefold() == wanted:
            return known
    raise EntityError(f"unknown steroid {name!r}; known: {', '.join(STEROID_EQUIVALENT_MG)}")


def _mass_mg(value: float, unit: str, name: str) -> float:
    try:
        return units.convert_concentration(value, unit + "/L", "mg/L")
    except units.UnitError:
        raise EntityError(f"{name}: expected a mass unit (mg, g, µg), got {unit!r}") from None


@calculator(24, "Steroid Conversion Calculator", category="dosage", output_type="integer", kind="decimal",
            source="glucocorticoid equivalent-dose table (MDCalc steroid conversion, as the benchmark)",
            entities=("input steroid", "target steroid"))
def steroid_conversion(e: Entities) -> float:
    given = e.raw("input steroid")
    try:
        name, dose, unit = given
    except (TypeError, ValueError):
        raise EntityError(f"input steroid: expected [name, dose, 'mg'], got {given!r}") from None
    if not (isinstance(name, str) and isinstance(unit, str)):
        raise EntityError(f"input steroid: expected [name, dose, 'mg'], got {given!r}")
    source = _steroid(name)
    target = _steroid(e.text("target steroid"))
    dose_mg = _mass_mg(e.number_in(dose, "input steroid"), unit, "input steroid")
    if deviates("steroid-rounded-equivalents"):  # erratum: rounded table, factor and dose to 5 decimals
        factor = round(STEROID_RELATIVE_ROUNDED[target] / STEROID_RELATIVE_ROUNDED[source], 5)
        return round(dose_mg * factor, 5)
    return dose_mg * STEROID_EQUIVALENT_MG[target] / STEROID_EQUIVALENT_MG[source]


# MME conversion factors per mg (fentanyl: per µg, the patch per µg/h) as the benchmark's table,
# which cites the CDC Clinical Practice Guideline for Prescribing Opioids for Pain (2022)
MME_FACTOR = {
    "Codeine": 0.15, "FentaNYL buccal": 0.13, "FentANYL patch": 2.4, "HYDROcodone": 1, "HYDROmorphone": 5,
    "Methadone": 4.7, "Morphine": 1, "OxyCODONE": 1.5, "OxyMORphone": 3, "Tapentadol": 0.4, "TraMADol": 0.2,
    "Buprenorphine": 10,
}
_MICROGRAM_DRUGS = ("FentaNYL buccal", "FentANYL patch")


def _opioid(name: str) -> str:
    wanted = name.casefold()
    for known in MME_FACTOR:
        if known.casefold() == wanted:
            return known
    raise EntityError(f"unknown opioid {name!r}; known: {', '.join(MME_FACTOR)}")


@calculator(49, "Morphine Milligram Equivalents (MME) Calculator", category="dosage", output_type="integer",
            kind="decimal", source="CDC Clinical Practice Guideline for Prescribing Opioids for Pain, 2022 "
            "(MMWR Recomm Rep 71(3)), conversion factors as the benchmark's table",
            entities=tuple(f"{d} Dose{s}" for d in MME_FACTOR for s in ("", " Per Day")))
def mme(e: Entities) -> float:
    total = 0.0
    drugs = [k for k in e.keys() if re.search(r" dose$", k, re.IGNORECASE)]
    if not drugs:
        raise EntityError("no '<drug> Dose' entity")
    for key in drugs:
        drug = _opioid(key[: -len(" Dose")])
        value, unit = e.pair(key)
        per_day = e.number(f"{key} Per Day")
        dose_mg = _mass_mg(value, unit, key)
        in_ug = drug in _MICROGRAM_DRUGS and not (drug == "FentANYL patch" and deviates("mme-fentanyl-patch"))
        dose = dose_mg * 1000 if in_ug else dose_mg  # fentanyl counted in µg (erratum: the patch in mg)
        total += dose * per_day * MME_FACTOR[drug]
    return total
