"""Second implementation of the MU items (AAPM TG-71 hand calculation), from the prompt alone.

MU = D / D′, with D′ the dose per MU at the prescription point. The two set-ups follow TG-71's
SSD (PDD) and SAD (tissue-ratio) MU equations (Gibbons et al., Med. Phys. 41, 031501, 2014)
as seed 000 specifies them (Generator specifications, MU row; its level-3 worksheet example):
  SSD set-up:  D′ = D′0 · Sc(rc) · Sp(r) · PDD(d, r, SSD)/100 · WF · TF · ((SSD0 + d0)/(SSD + d0))²
  isocentric:  D′ = D′0 · Sc(rc) · Sp(rd) · TMR(d, rd) · WF · TF · ((SSD0 + d0)/SAD)²
with D′0 the output at the calibration depth d0 (= dmax) for SSD0 and the reference field.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from physbench.suites.medphys.verify.independent.errors import PromptDefect
from physbench.suites.medphys.verify.independent.parse_fields import (
    DOSE_CGY,
    LENGTH_CM,
    after,
    asked_unit,
    bullets,
    check_size,
    one_number,
    pick,
    positive,
    quantity,
    require,
    table_captioned,
)
from physbench.suites.medphys.verify.independent.tables_mu import (
    interpolate_1d,
    interpolate_2d,
    read_output_factors,
    read_tmr,
)

# Bullets each level reads, or that carry no input (checked so that no unread input slips by).
_KNOWN = {
    "Beam", "Machine output D′0", "Field size at the skin", "Prescription depth",
    "Dose per fraction at the prescription depth", "Collimator-scatter factor for this field",
    "Phantom-scatter factor for this field", "Treatment SSD", "Prescribed total dose at the prescription depth",
    "Number of fractions", "Fields", "Wedge", "Tray factor", "Blocks",
    "Collimator-scatter factor for this collimator setting", "Phantom-scatter factor for the field at the skin",
    "Isocenter depth", "Collimator setting at the isocenter",
    "Blocked field area at the isocenter (corner blocks on a tray)", "Blocked field perimeter at the isocenter",
    "Prescribed total dose at the isocenter",
}
_PDD_LABEL = "Percent depth dose at the prescription depth"  # label goes on to name the SSD


@dataclass(frozen=True)
class Calibration:
    """D′0 (cGy/MU) at depth d0 (cm) for SSD0 (cm) and a square reference field (cm)."""

    output_cgy_per_mu: float
    depth_cm: float
    ssd_cm: float
    field_cm: float


def solve(level: int, prompt: str) -> tuple[float, str]:
    """The monitor units per fraction of an MU calculation item at ``level``."""
    if level not in (1, 2, 3):
        raise ValueError(f"mu has levels 1-3, not {level}")
    check_size(prompt)
    unit = asked_unit(prompt)
    if unit != "MU":
        raise PromptDefect(f"monitor units are asked in {unit!r}")
    items = bullets(prompt)
    unknown = sorted(k for k in items if k not in _KNOWN and not k.startswith(_PDD_LABEL))
    if unknown:
        raise PromptDefect(f"inputs the MU calculation does not know how to use: {unknown}")
    try:
        if level == 3:
            mu = isocentric_mu(prompt, items)
        else:
            mu = ssd_setup_mu(prompt, items, extended=level == 2)
    except (ZeroDivisionError, OverflowError) as exc:
        raise PromptDefect(f"the printed values leave the MU undefined ({exc})") from None
    return positive(mu, "the monitor units from the printed values"), unit


def calibration(items: dict[str, str]) -> Calibration:
    """The calibration condition printed as "D′0 cGy/MU, at dmax = d cm ... for SSD s cm and a n × n cm² field"."""
    text = pick(items, "Machine output D′0")
    output = quantity(text.split(",", 1)[0], {"cGy/MU": 1.0, "Gy/MU": 100.0}, "machine output D′0")
    depth = one_number(after(text, "dmax =", "calibration depth").split("depth", 1)[0], "calibration depth")
    ssd = one_number(after(text, "for SSD", "calibration SSD").split("cm", 1)[0], "calibration SSD")
    side = _square_side(after(text, " and a ", "calibration field"), "calibration field")
    return Calibration(output, depth, ssd, side)


def _square_side(text: str, what: str) -> float:
    x, y = _rectangle(text, what)
    if x != y:
        raise PromptDefect(f"{what} is not square: {x} × {y} cm")
    return x


def _rectangle(text: str, what: str) -> tuple[float, float]:
    m = re.match(r"\s*([\d.]+)\s*×\s*([\d.]+)\s*cm²", text)
    if not m:
        raise PromptDefect(f"{what}: cannot read 'X × Y cm²' in {text!r}")
    x = positive(one_number(m.group(1), f"{what}, first side"), what)
    return x, positive(one_number(m.group(2), f"{what}, second side"), what)


def dose_per_fraction_cgy(items: dict[str, str], point: str) -> float:
    """The dose this field gives per fraction: printed, or total/n when this field gives it all."""
    per_fraction = f"Dose per fraction at the {point}"
    if per_fraction in items:
        return quantity(items[per_fraction], DOSE_CGY, "dose per fraction")
    total = quantity(pick(items, f"Prescribed total dose at the {point}"), DOSE_CGY, "total dose")
    n = one_number(pick(items, "Number of fractions"), "number of fractions")
    if n != int(n) or n < 1:
        raise PromptDefect(f"number of fractions {n} is not a positive whole number")
    if pick(items, "Fields").strip() != "this field delivers the whole prescription":
        raise PromptDefect(f"the share of the prescription this field delivers is unclear: {items['Fields']!r}")
    return total / n


def wedge_and_tray(prompt: str, items: dict[str, str]) -> tuple[float, float]:
    """WF and TF as printed; 1 only where the prompt says there is no wedge / no tray."""
    if "Wedge" in items:
        wf = one_number(after(items["Wedge"], "WF =", "wedge factor"), "wedge factor")
    elif "no wedge" in prompt:
        wf = 1.0
    else:
        raise PromptDefect("the prompt neither gives a wedge factor nor says there is no wedge")
    if "Tray factor" in items:
        tf = one_number(after(items["Tray factor"], "TF =", "tray factor"), "tray factor")
    elif re.search(r"no wedge, tray|no tray", prompt):
        tf = 1.0
    else:
        raise PromptDefect("the prompt neither gives a tray factor nor says there is no tray")
    return wf, tf


def _factor(items: dict[str, str], label: str, symbol: str) -> float:
    return one_number(after(pick(items, label), f"{symbol} =", symbol), symbol)


def ssd_setup_mu(prompt: str, items: dict[str, str], *, extended: bool) -> float:
    """L1 (SSD 100 cm, open field) and L2 (extended SSD, wedge, tray): PDD method, Sc and Sp printed."""
    cal = calibration(items)
    if extended:
        ssd = quantity(pick(items, "Treatment SSD"), LENGTH_CM, "treatment SSD")
        sc = _factor(items, "Collimator-scatter factor for this collimator setting", "Sc")
        sp = _factor(items, "Phantom-scatter factor for the field at the skin", "Sp")
    else:
        m = re.search(r"photon field[^.\n]{0,200} at SSD ([\d.]+) cm\.", prompt)
        if not m:
            raise PromptDefect("the treatment SSD is not stated")
        ssd = one_number(m.group(1), "treatment SSD")
        sc = _factor(items, "Collimator-scatter factor for this field", "Sc")
        sp = _factor(items, "Phantom-scatter factor for this field", "Sp")
    pdd_label = next((k for k in items if k.startswith(_PDD_LABEL)), None)
    if pdd_label is None:
        raise PromptDefect("no percent depth dose at the prescription depth")
    pdd_ssd = one_number(after(pdd_label, "SSD", "SSD of the PDD").split("cm", 1)[0], "SSD of the PDD")
    if pdd_ssd != ssd:
        # A PDD from another SSD needs a Mayneord or TMR conversion: more than one method.
        raise PromptDefect(f"PDD is for SSD {pdd_ssd} cm but the patient is at SSD {ssd} cm")
    pdd = one_number(after(items[pdd_label], "PDD =", "PDD").rstrip("%"), "PDD")
    _ = quantity(pick(items, "Prescription depth"), LENGTH_CM, "prescription depth")  # read by the PDD
    wf, tf = wedge_and_tray(prompt, items)
    dose = dose_per_fraction_cgy(items, "prescription depth")
    # Calibration point at SSD0 + d0, dmax at SSD + d0 (inverse-square law, TG-71 SSD set-up).
    isf = ((cal.ssd_cm + cal.depth_cm) / (ssd + cal.depth_cm)) ** 2
    return dose / (cal.output_cgy_per_mu * sc * sp * pdd / 100.0 * wf * tf * isf)


def isocentric_mu(prompt: str, items: dict[str, str]) -> float:
    """L3: isocentric blocked, wedged field with TMR; Sc at the collimator field, Sp and TMR at
    the blocked field (4A/P), interpolated in the printed tables."""
    m = re.search(r"treated isocentrically \(SAD ([\d.]+) cm\)", prompt)
    if not m:
        raise PromptDefect("the source-axis distance of the isocentric set-up is not stated")
    sad = positive(one_number(m.group(1), "SAD"), "SAD")
    cal = calibration(items)
    require(prompt, "equivalent square of a field as 4A/P", "the equivalent-square rule for the fields")
    require(prompt, "Interpolate linearly in the tables (bilinearly in the two-dimensional tables)",
            "how to interpolate in the beam-data tables")
    require(prompt, "Sc is read at the collimator field, Sp at the irradiated, blocked field",
            "which field Sc and Sp are read at")
    beam = pick(items, "Beam").split("photons", 1)[0].strip()
    if f"Beam data for this machine ({beam})" not in prompt:
        raise PromptDefect(f"the beam-data tables are not stated to be for the {beam} beam")
    depth = quantity(pick(items, "Isocenter depth"), LENGTH_CM, "isocenter depth")
    x, y = _rectangle(pick(items, "Collimator setting at the isocenter"), "collimator setting")
    area = quantity(pick(items, "Blocked field area at the isocenter (corner blocks on a tray)"),
                    {"cm²": 1.0}, "blocked area")
    perimeter = quantity(pick(items, "Blocked field perimeter at the isocenter"), LENGTH_CM, "blocked perimeter")
    rc = 4.0 * x * y / (2.0 * (x + y))  # 4A/P of the X × Y collimator field = 2XY/(X + Y)
    rd = 4.0 * area / perimeter  # 4A/P of the blocked field at the isocenter (= at depth d)
    factors = read_output_factors(table_captioned(prompt, "Output factors"), cal.field_cm)
    tmr = read_tmr(table_captioned(prompt, "Tissue-maximum ratio TMR"), cal.depth_cm)
    sc = interpolate_1d(factors.sizes, factors.sc, rc, "Sc at the collimator field")
    sp = interpolate_1d(factors.sizes, factors.sp, rd, "Sp at the blocked field")
    t = interpolate_2d(tmr, depth, rd, "TMR at the isocenter depth and blocked field")
    wf, tf = wedge_and_tray(prompt, items)
    dose = dose_per_fraction_cgy(items, "isocenter")
    # Calibrated at SSD0 + d0 from the source; the isocenter is at SAD (inverse-square law).
    isf = ((cal.ssd_cm + cal.depth_cm) / sad) ** 2
    return dose / (cal.output_cgy_per_mu * sc * sp * t * wf * tf * isf)
