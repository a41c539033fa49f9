"""The benchmark's own concentration conversion (erratum unit-conversion-rounding), for the `benchmark`
formula version: every step rounded by its `round_number` (5 decimals, or 5 significant digits below
1e-4), so a creatinine of 100 umol/L or more snaps to the nearest 10 umol/L on its way through moles.

Follows MedCalc-Bench-Verified calculator_implementations/unit_converter_new.py and rounding.py
(conversion_explanation and its helpers), step for step in floating point, in our own code.
"""

from __future__ import annotations

import math


def round_number(x: float) -> float:
    """The benchmark's rounding: 5 decimals from 1e-4 up, else 5 significant digits past the first."""
    if x == 0:
        return 0
    if abs(x) >= 1e-4:
        return round(x, 5)
    return round(x, -int(math.floor(math.log10(abs(x)))) + 5)


def _rescale(x: float, src: float, dst: float) -> float:
    """Same kind (g to g, mol to mol): factor and product each rounded; no step when the unit is the same."""
    if src == dst:
        return x
    return round_number(x * round_number(src / dst))


def amount(x: float, src_kind: str, src: float, dst_kind: str, dst: float, molar_mass: float, valence: int) -> float:
    """An amount (per the same volume) from one unit to another, through moles as the benchmark does."""
    if src_kind == dst_kind:
        return _rescale(x, src, dst)
    if src_kind == "mol" and dst_kind == "mass":
        return _rescale(round_number(_rescale(x, src, 1.0) * molar_mass), 1.0, dst)
    if src_kind == "mass" and dst_kind == "mol":
        return _rescale(round_number(_rescale(x, src, 1.0) / molar_mass), 1.0, dst)
    if src_kind == "mol" and dst_kind == "eq":    # mmol first, then the valence
        return round_number(_rescale(x, src, 1e-3) * valence)
    if src_kind == "eq" and dst_kind == "mol":
        return _rescale(round_number(x * (src / 1e-3) / valence), 1e-3, dst)
    if src_kind == "eq" and dst_kind == "mass":
        moles = _rescale(round_number(x * (src / 1e-3) / valence), 1e-3, 1.0)
        return _rescale(round_number(moles * molar_mass), 1.0, dst)
    # mass to mEq: grams to mmol, then the valence
    mmol = _rescale(round_number(_rescale(x, src, 1.0) / molar_mass), 1.0, 1e-3)
    return round_number(mmol * valence)


def concentration(x: float, src_kind: str, src_amount: float, src_vol: float, dst_kind: str, dst_amount: float,
                  dst_vol: float, molar_mass: float, valence: int) -> float:
    """A concentration as the benchmark converts it: the amount first, then the volume factor."""
    if src_kind == dst_kind and src_amount == dst_amount and src_vol == dst_vol:
        return x
    value = x if (src_kind, src_amount) == (dst_kind, dst_amount) else \
        amount(x, src_kind, src_amount, dst_kind, dst_amount, molar_mass, valence)
    factor = 1 if src_vol == dst_vol else round_number(src_vol / dst_vol)
    return round_number(value / factor)
