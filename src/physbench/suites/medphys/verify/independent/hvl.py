"""Second implementation of the HVL items, from the printed prompt alone.

L1 narrow-beam transmission, L2 slab thickness for a wanted air kerma, L3 first HVL from
air-kerma readings with added aluminium (seed 000, Generator specifications, HVL row).
"""

from __future__ import annotations

import math

from physbench.suites.medphys.verify.independent.errors import PromptDefect
from physbench.suites.medphys.verify.independent.parse_fields import (
    KERMA_MGY,
    LENGTH_MM,
    PER_CM,
    after,
    asked_unit,
    bullets,
    check_size,
    pick,
    positive,
    quantity,
    require,
    table_captioned,
    tables,
)

_ANSWER_MM = {"mm": 1.0, "cm": 10.0}
# Bullet labels the items use (the coefficient labels go on to name material and energy);
# any other bullet could carry an input this solver would miss.
_KNOWN = ("Photon energy", "Slab material", "Slab thickness", "Air kerma at the detector without the slab",
          "Air kerma wanted at the detector with the slab", "Tube potential")
_COEFFICIENTS = ("Linear attenuation coefficient of ", "Half-value layer of ")


def solve(level: int, prompt: str) -> tuple[float, str]:
    """The answer (value, unit) of an HVL calculation item at ``level``."""
    if level not in (1, 2, 3):
        raise ValueError(f"hvl has levels 1-3, not {level}")
    check_size(prompt)
    unit = asked_unit(prompt)
    unknown = sorted(k for k in bullets(prompt) if k not in _KNOWN and not k.startswith(_COEFFICIENTS))
    if unknown:
        raise PromptDefect(f"inputs the HVL calculation does not know how to use: {unknown}")
    if level == 1 and unit != "":
        raise PromptDefect(f"a transmission is a pure number, but the answer is asked in {unit!r}")
    try:
        if level == 1:
            return transmission(prompt), ""
        if level == 2:
            return _in_unit(thickness_for_kerma_mm(prompt), unit), unit
        return _in_unit(first_hvl_mm(prompt), unit), unit
    except (ZeroDivisionError, OverflowError) as exc:
        raise PromptDefect(f"the printed values leave the answer undefined ({exc})") from None


def _in_unit(value_mm: float, unit: str) -> float:
    if unit not in _ANSWER_MM:
        raise PromptDefect(f"a thickness is asked in {unit!r}, which is not a length unit")
    return value_mm / _ANSWER_MM[unit]


def _attenuation_per_mm(items: dict[str, str]) -> float:
    """μ in mm⁻¹ from the printed μ, or from the printed HVL as μ = ln 2 / HVL (narrow beam)."""
    given = [k for k in items if k.startswith(_COEFFICIENTS)]
    if len(given) != 1:
        raise PromptDefect(f"expected exactly one of μ or the HVL, found {len(given)}: {given}")
    label = given[0]
    if label.startswith(_COEFFICIENTS[0]):
        mu_per_cm = quantity(after(items[label], "μ =", "attenuation coefficient"), PER_CM, label)
        return positive(mu_per_cm, "μ") / 10.0
    hvl_mm = quantity(after(items[label], "HVL =", "half-value layer"), LENGTH_MM, label)
    return math.log(2.0) / positive(hvl_mm, "HVL")  # HVL = ln 2 / μ for exponential attenuation


def _check_narrow_beam(prompt: str, items: dict[str, str]) -> None:
    """Exponential attenuation needs narrow-beam geometry and one μ for the slab's material
    at the beam's energy; the coefficient's label must name both."""
    require(prompt, "narrow-beam", "narrow-beam (good) geometry, which makes attenuation exponential")
    require(prompt, "monoenergetic", "a monoenergetic beam, for which μ is one number")
    material = pick(items, "Slab material").strip()
    energy = pick(items, "Photon energy").strip()
    label = next((k for k in items if k.startswith(_COEFFICIENTS)), "")
    if f" of {material} for {energy} photons" not in label:
        raise PromptDefect(f"the slab is {material} at {energy}, but the coefficient given is {label!r}")


def transmission(prompt: str) -> float:
    """L1: narrow-beam transmission T = exp(−μx) (Beer–Lambert; = 0.5^(x/HVL))."""
    items = bullets(prompt)
    _check_narrow_beam(prompt, items)
    x_mm = quantity(pick(items, "Slab thickness"), LENGTH_MM, "slab thickness")
    if x_mm < 0.0:
        raise PromptDefect(f"slab thickness {x_mm:g} mm is negative")
    return math.exp(-_attenuation_per_mm(items) * x_mm)


def thickness_for_kerma_mm(prompt: str) -> float:
    """L2: thickness for a wanted air kerma, x = ln(K0/K)/μ (exponential attenuation)."""
    items = bullets(prompt)
    _check_narrow_beam(prompt, items)
    k0 = quantity(pick(items, "Air kerma at the detector without the slab"), KERMA_MGY, "open air kerma")
    k = quantity(pick(items, "Air kerma wanted at the detector with the slab"), KERMA_MGY, "wanted air kerma")
    if not 0.0 < k < k0:
        raise PromptDefect(f"the wanted air kerma {k} mGy is not below the open-field {k0} mGy")
    return math.log(k0 / k) / _attenuation_per_mm(items)


def first_hvl_mm(prompt: str) -> float:
    """L3: first HVL by log-linear interpolation between the two readings that bracket half
    the open-field (0 mm) air kerma; ln K is taken as linear in thickness between them."""
    require(prompt, "log-linear interpolation", "how to interpolate between readings")
    if len(tables(prompt)) != 1:
        raise PromptDefect(f"expected one table of readings, found {len(tables(prompt))}")
    table = table_captioned(prompt, "")
    if len(table.header) != 2 or not table.header[0].startswith("Added aluminium"):
        raise PromptDefect(f"unexpected readings table header {table.header}")
    if len(table.rows) < 2:
        raise PromptDefect(f"{len(table.rows)} readings cannot bracket half the open-field air kerma")
    x_scale = _unit_in_header(table.header[0], LENGTH_MM)
    k_scale = _unit_in_header(table.header[1], KERMA_MGY)
    x = [v * x_scale for v in table.column(0, "added aluminium")]
    k = [v * k_scale for v in table.column(1, "air kerma")]
    if any(b <= a for a, b in zip(x, x[1:])):
        raise PromptDefect(f"filter thicknesses are not increasing: {x}")
    if x[0] != 0.0:
        raise PromptDefect("the readings do not start with the open field (0 mm added)")
    if any(v <= 0.0 for v in k):
        raise PromptDefect("an air-kerma reading is not positive")
    half = k[0] / 2.0
    # Every adjacent pair that brackets half the open reading (K_i >= half >= K_i+1).
    pairs = [i for i in range(len(k) - 1) if k[i] >= half >= k[i + 1] and k[i] != k[i + 1]]
    if not pairs:
        raise PromptDefect("no pair of readings brackets half the open-field air kerma")
    found = [_loglinear(x, k, i, half) for i in pairs]
    # Half equal to one reading is bracketed by the pairs on both sides, which agree there.
    if any(not math.isclose(v, found[0], rel_tol=1e-12) for v in found):
        raise PromptDefect("more than one pair of readings brackets half the open-field air kerma")
    return found[0]


def _loglinear(x: list[float], k: list[float], i: int, target: float) -> float:
    """Thickness where ln K, linear between (x_i, K_i) and (x_i+1, K_i+1), reaches ln target."""
    return x[i] + (x[i + 1] - x[i]) * math.log(k[i] / target) / math.log(k[i] / k[i + 1])


def _unit_in_header(header: str, scale: dict[str, float]) -> float:
    if not (header.endswith(")") and "(" in header):
        raise PromptDefect(f"table column {header!r} states no unit")
    unit = header.rsplit("(", 1)[1][:-1].strip()
    if unit not in scale:
        raise PromptDefect(f"table column {header!r}: unit {unit!r} not understood")
    return scale[unit]
