"""Unit conversion for the Relevant Entities of MedCalc-Bench Verified (values as the dataset writes them).

The molar masses and valences are the ones the benchmark's own calculators use
(MedCalc-Bench-Verified calculator_implementations, commit 0eb5960), except bilirubin, where
the benchmark's Child-Pugh calculator uses 548.66 g/mol (a transposition of 584.66, the value its
SOFA calculator uses; see the errata table).

Conversions are done in exact rational arithmetic on the value as printed (its decimal string) and
rounded to a float once, at the end: 28 mg/dL stays 28, 3.5 mg/dL stays 3.5, so a threshold decision
on a printed value is exact. The benchmark's own micromole conversion is not exact (it rounds to 5
decimals and snaps creatinine of 100 umol/L or more to 10 umol/L); that moves some answers out of
their band and is an erratum (`unit-conversion-rounding` in data/errata.json), reproduced only under
the `benchmark` formula version (benchmark_units.py).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction

from physbench.suites.clincalc import benchmark_units
from physbench.suites.clincalc.formula_version import deviates


class UnitError(ValueError):
    """A unit this module cannot read, or a value that cannot be converted."""


@dataclass(frozen=True)
class Analyte:
    """A solute's molar mass (g/mol) and charge (mEq per mmol; 0 when mEq does not apply)."""

    molar_mass: float
    valence: int = 0


# molar masses as the benchmark fixes them (g/mol); valence for mEq
ANALYTES: dict[str, Analyte] = {
    "creatinine": Analyte(113.12),
    "glucose": Analyte(180.16),
    "bun": Analyte(28.02),            # urea nitrogen, N2
    "sodium": Analyte(22.99, 1),
    "potassium": Analyte(39.10, 1),
    "chloride": Analyte(35.45, 1),
    "bicarbonate": Analyte(61.02, 1),
    "calcium": Analyte(40.08, 2),
    "albumin": Analyte(66500),
    "hemoglobin": Analyte(64500),
    "bilirubin": Analyte(584.66),
    "bilirubin_548": Analyte(548.66),  # the benchmark's Child-Pugh (erratum child-pugh-bilirubin-molar-mass)
    "cholesterol": Analyte(386.654),
    "triglycerides": Analyte(861.338),
}

_MU = ("µ", "μ", "u", "mc")  # micro sign, Greek mu, ascii u, "mcg"
_F = Fraction
_MASS = {"kg": _F(10**3), "g": _F(1), "mg": _F(1, 10**3), "µg": _F(1, 10**6), "ng": _F(1, 10**9),
         "pg": _F(1, 10**12)}
_MOL = {"mol": _F(1), "mmol": _F(1, 10**3), "µmol": _F(1, 10**6), "nmol": _F(1, 10**9), "pmol": _F(1, 10**12)}
_EQ = {"eq": _F(1), "meq": _F(1, 10**3)}
_VOLUME = {"l": _F(1), "dl": _F(1, 10), "ml": _F(1, 10**3), "µl": _F(1, 10**6), "mm^3": _F(1, 10**6),
           "mm3": _F(1, 10**6), "cm^3": _F(1, 10**3), "cc": _F(1, 10**3), "m^3": _F(10**3), "100ml": _F(1, 10)}


def exact(x: float | int | str) -> Fraction:
    """The number as printed, exactly: 0.9 is 9/10, not the binary float nearest to it."""
    if isinstance(x, (Fraction, int)) and not isinstance(x, bool):
        return Fraction(x)
    if isinstance(x, str):
        return Fraction(x.strip())
    f = float(x)
    if not math.isfinite(f):
        raise UnitError(f"not a finite number: {x!r}")
    return Fraction(repr(f))  # the shortest decimal that prints as this float


def _mass(a: Analyte) -> Fraction:
    return exact(a.molar_mass)


def _micro(text: str) -> str:
    """Spellings of the micro prefix as 'µ' (µg, mcg, ug, μmol -> µ...)."""
    t = text.strip()
    t = t.replace("μ", "µ")
    t = re.sub(r"^(mc|u)(g|mol|l|L)\b", r"µ\2", t)
    return t


_AMOUNT = {**{k.lower(): ("mass", v) for k, v in _MASS.items()},
           **{k.lower(): ("mol", v) for k, v in _MOL.items()},
           **{k: ("eq", v) for k, v in _EQ.items()}}


def _split_concentration(unit: str) -> tuple[str, Fraction, Fraction]:
    """'mg/dL' -> ('mass', 1e-3 g, 0.1 L); kinds 'mass', 'mol', 'eq'."""
    if not isinstance(unit, str) or "/" not in unit:
        raise UnitError(f"not a concentration unit: {unit!r}")
    top, bottom = (_micro(p).lower().replace(" ", "") for p in unit.split("/", 1))
    if bottom not in _VOLUME:
        raise UnitError(f"unknown volume unit in {unit!r}")
    if top not in _AMOUNT:
        raise UnitError(f"unknown amount unit in {unit!r}")
    kind, amount = _AMOUNT[top]
    return kind, amount, _VOLUME[bottom]


def convert_concentration(value: float, unit: str, target: str, analyte: str | None = None) -> float:
    """`value` in `unit` expressed in `target` (mass, mol or mEq per volume), through the analyte's
    molar mass and valence when the kinds differ."""
    src_kind, src_amount, src_vol = _split_concentration(unit)
    dst_kind, dst_amount, dst_vol = _split_concentration(target)
    if deviates("unit-conversion-rounding"):
        return _as_benchmark(value, (src_kind, src_amount, src_vol), (dst_kind, dst_amount, dst_vol), unit, target,
                             analyte)
    per_litre = exact(value) * src_amount / src_vol  # g/L, mol/L or Eq/L, exactly
    if src_kind != dst_kind:
        if analyte is None or analyte not in ANALYTES:
            raise UnitError(f"cannot convert {unit} to {target} without a known analyte")
        a = ANALYTES[analyte]
        moles = {"mass": lambda x: x / _mass(a), "mol": lambda x: x,
                 "eq": lambda x: _eq_to_mol(x, a, unit)}[src_kind](per_litre)
        per_litre = {"mass": lambda m: m * _mass(a), "mol": lambda m: m,
                     "eq": lambda m: _mol_to_eq(m, a, target)}[dst_kind](moles)
    return float(per_litre * dst_vol / dst_amount)


def _as_benchmark(value: float, src: tuple, dst: tuple, unit: str, target: str, analyte: str | None) -> float:
    if src[0] != dst[0] and (analyte is None or analyte not in ANALYTES):
        raise UnitError(f"cannot convert {unit} to {target} without a known analyte")
    a = ANALYTES.get(analyte or "", Analyte(1.0))
    if {src[0], dst[0]} & {"eq"} and src[0] != dst[0] and not a.valence:
        raise UnitError(f"{unit if src[0] == 'eq' else target} needs a charged analyte")
    return float(benchmark_units.concentration(float(value), src[0], float(src[1]), float(src[2]), dst[0],
                                               float(dst[1]), float(dst[2]), a.molar_mass, a.valence))


def _eq_to_mol(eq: Fraction, a: Analyte, unit: str) -> Fraction:
    if not a.valence:
        raise UnitError(f"{unit} needs a charged analyte")
    return eq / a.valence


def _mol_to_eq(mol: Fraction, a: Analyte, unit: str) -> Fraction:
    if not a.valence:
        raise UnitError(f"{unit} needs a charged analyte")
    return mol * a.valence


# ---- physical quantities -------------------------------------------------------------------

def weight_kg(value: float, unit: str) -> float:
    """Body weight in kg from kg, g or lb (0.453592 kg per lb, as the benchmark)."""
    u = unit.strip().lower()
    if u in ("kg", "kgs", "kilograms"):
        return value
    if u in ("g", "grams"):
        return float(exact(value) / 1000)
    if u in ("lb", "lbs", "pounds", "pound"):
        return float(exact(value) * exact("0.453592"))
    raise UnitError(f"unknown weight unit {unit!r}")


def height_cm(value: float, unit: str) -> float:
    """Height in cm from cm, mm, m, in (2.54 cm) or ft (30.48 cm)."""
    u = unit.strip().lower()
    factor = {"cm": "1", "mm": "0.1", "m": "100", "in": "2.54", "inch": "2.54", "inches": "2.54",
              "ft": "30.48", "feet": "30.48"}.get(u)
    if factor is None:
        raise UnitError(f"unknown height unit {unit!r}")
    return float(exact(value) * exact(factor))


def temperature_c(value: float, unit: str) -> float:
    """Temperature in °C from Celsius or Fahrenheit (spelling slips of the dataset included)."""
    u = unit.strip().lower().replace("°", "").replace("degrees", "").replace("degree", "").strip()
    if u in ("c", "celsius", "celsisus", "celcius", "centigrade"):
        return value
    if u in ("f", "fahrenheit", "fahreinheit", "farenheit"):
        return float((exact(value) - 32) * 5 / 9)
    raise UnitError(f"unknown temperature unit {unit!r}")


def pressure_mmhg(value: float, unit: str) -> float:
    """Pressure in mm Hg from mm Hg or kPa (7.50062 mm Hg per kPa)."""
    u = unit.strip().lower().replace(" ", "")
    if u in ("mmhg", "mm", "torr"):
        return value
    if u == "kpa":
        return float(exact(value) * exact("7.50062"))
    raise UnitError(f"unknown pressure unit {unit!r}")


def count_per_litre(value: float, unit: str) -> float:
    """A cell count per litre from a count per µL, mm³, L, or 10^3/µL, 10^9/L forms."""
    u = _micro(unit.strip().replace("×", "x").replace("⁹", "^9").replace("³", "^3")).lower()
    u = u.replace(" ", "").replace("cells", "").replace("count", "").replace("per", "/")
    scale = Fraction(1)
    m = re.match(r"^x?10\^(\d+)", u)
    if m:
        scale = Fraction(10) ** int(m.group(1))
        u = u[m.end():]
    u = u.lstrip("/")
    if u == "m^3":
        u = "m^3"
    if u not in _VOLUME:
        raise UnitError(f"unknown count unit {unit!r}")
    return float(exact(value) * scale / _VOLUME[u])


def age_years(parts: list) -> float:
    """Age in years from [n, 'years'] (n as given) or [n, 'months'|'weeks'|'days'] and composite
    lists such as [2, 'years', 3, 'months'] (completed years, as the benchmark)."""
    if len(parts) % 2 or not parts:
        raise UnitError(f"an age is [value, unit] pairs, got {parts!r}")
    per_year = {"year": 1.0, "month": 12.0, "week": 52.0, "day": 365.0}
    total = 0.0
    units = []
    for value, unit in zip(parts[0::2], parts[1::2]):
        key = str(unit).strip().lower().rstrip("s")
        if key not in per_year or not _is_number(value):
            raise UnitError(f"cannot read age {parts!r}")
        units.append(key)
        total += float(value) / per_year[key]
    if units == ["year"]:
        return float(parts[0])
    return float(math.floor(total + 1e-9))


def _is_number(x: object) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)
