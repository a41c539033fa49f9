"""Monitor units for a photon treatment field, AAPM TG-71 hand calculation (levels 1-3).

Level 1: SSD 100 cm, square open field, Sc, Sp and PDD given. Level 2: extended SSD with the PDD
measured at that SSD, wedge and tray; the inverse-square factor is not stated. Level 3: isocentric
(SAD 100 cm) blocked, wedged field with equivalent squares (4A/P), interpolated Sc and Sp and a
two-dimensional TMR table; the isocentric inverse-square correction ((100 + dmax)/100)^2, needed
because the output is calibrated at dmax for SSD 100 cm, is not stated (seed 000, Generator
specifications). The calculation itself (solver, error modes, worksheets) is in mu_sheets.py.
"""

from __future__ import annotations

import dataclasses
import math
import random
from functools import partial

from physbench.suites.medphys.base import ErrorMode, Generator, LevelSpec
from physbench.suites.medphys.mu_beam import DEPTHS_CM, ENERGIES, FIELDS_CM, draw_machine, wedge_factor
from physbench.suites.medphys.mu_sheets import (
    ExtendedSsd,
    IsocentricBlocked,
    OpenFieldSsd,
    l1_chain,
    l2_chain,
    l3_chain,
    normalization_depth,
    num,
)
from physbench.suites.medphys.numbers import dec, fmt_dec
from physbench.suites.medphys.text import ask, bullets, table
from physbench.suites.medphys.worksheet import Sheet

PRECISION = "at least three significant figures"
ENERGY_CHOICES = (6, 6, 6, 10, 15, 18)  # 6 MV is the workhorse beam
DOSES_CGY = (150.0, 180.0, 200.0, 250.0, 300.0, 400.0, 500.0)
# (total dose in Gy, fractions): conventional and common hypofractionated courses
REGIMENS = ((45.0, 25), (50.0, 25), (50.4, 28), (54.0, 30), (59.4, 33), (60.0, 30), (66.0, 33), (70.0, 35),
            (39.6, 22), (46.0, 23), (40.0, 20), (30.0, 10), (20.0, 5), (36.0, 12))
WEDGE_ANGLES = (15, 30, 45, 60)
MU_RANGE = (20.0, 999.0)


# --- sampling -----------------------------------------------------------------------------------

def _beam(rng: random.Random):  # type: ignore[no-untyped-def]
    mv = rng.choice(ENERGY_CHOICES)
    dmax = dec(rng.uniform(*ENERGIES[mv].dmax_cm), 1)
    return mv, dmax, draw_machine(rng, mv, dmax)


def sample_l1(rng: random.Random) -> OpenFieldSsd:
    mv, dmax, m = _beam(rng)
    r = float(rng.randint(4, 25))
    depth = dec(rng.uniform(max(dmax + 1.0, 3.0), 15.0), 1)
    return OpenFieldSsd(mv, dmax, 1.0, r, depth, dec(m.sc(r), 3), dec(m.sp(r), 3), dec(m.pdd(depth, r, 100.0), 1),
                        rng.choice(DOSES_CGY))


def sample_l2(rng: random.Random) -> ExtendedSsd:
    mv, dmax, m = _beam(rng)
    ssd = float(rng.randint(105, 130))
    r = float(rng.randint(5, 25))  # field at the skin
    depth = dec(rng.uniform(max(dmax + 1.0, 3.0), 15.0), 1)
    angle = rng.choice(WEDGE_ANGLES)
    total, n = rng.choice(REGIMENS)
    return ExtendedSsd(mv, dmax, 1.0, ssd, r, depth, dec(m.sc(r * 100.0 / ssd), 3), dec(m.sp(r), 3),
                       dec(m.pdd(depth, r, ssd), 1), angle, dec(wedge_factor(rng, mv, angle), 3),
                       dec(rng.uniform(0.94, 0.98), 3), total, n)


def _corner_blocks(rng: random.Random, x: float, y: float) -> tuple[float, float]:
    """Area and perimeter of an X x Y field with blocked corners (triangles or rectangular notches)."""
    area, perimeter = x * y, 2.0 * (x + y)
    for _ in range(4):
        kind = rng.choice(("open", "triangle", "triangle", "notch"))
        if kind == "open":
            continue
        a, b = rng.uniform(0.15, 0.4) * x, rng.uniform(0.15, 0.4) * y
        if kind == "triangle":
            area -= a * b / 2.0
            perimeter -= a + b - math.hypot(a, b)
        else:  # a rectangular notch removes area but keeps the perimeter
            area -= a * b
    return area, perimeter


def _field_geometry(rng: random.Random) -> tuple[float, float, float, float]:
    """Collimator setting and blocked field, drawn until the blocks shield 5-50% and both equivalent
    squares lie inside the tables (the same rules as `violations_l3`, checked on the rounded values)."""
    while True:
        x, y = float(rng.randint(6, 20)), float(rng.randint(6, 20))
        area, perimeter = _corner_blocks(rng, x, y)
        area, perimeter = dec(area, 1), dec(perimeter, 1)
        if not _geometry_violations(x, y, area, perimeter):
            return x, y, area, perimeter


def sample_l3(rng: random.Random) -> IsocentricBlocked:
    mv, dmax, m = _beam(rng)
    x, y, area, perimeter = _field_geometry(rng)
    depth = dec(rng.uniform(4.2, 18.0), 1)
    while depth in DEPTHS_CM:  # keep the isocenter between table rows
        depth = dec(rng.uniform(4.2, 18.0), 1)
    angle = rng.choice(WEDGE_ANGLES)
    total, n = rng.choice(REGIMENS)
    depths = (dmax, *DEPTHS_CM)
    tmr, pdd = m.tables(depths, FIELDS_CM)
    return IsocentricBlocked(
        mv, dmax, 1.0, depth, x, y, area, perimeter, angle, dec(wedge_factor(rng, mv, angle), 3),
        dec(rng.uniform(0.94, 0.98), 3), total, n, FIELDS_CM,
        tuple(dec(m.sc(f), 3) for f in FIELDS_CM), tuple(dec(m.sp(f), 3) for f in FIELDS_CM), depths,
        # float(f"{v:.3f}") is numbers.dec(v, 3) for these positive values, without the call overhead
        tuple(tuple(float(f"{v:.3f}") for v in row) for row in tmr),
        tuple(tuple(float(f"{v:.1f}") for v in row) for row in pdd))


# --- plausibility ---------------------------------------------------------------------------------

def _beam_violations(p: OpenFieldSsd | ExtendedSsd | IsocentricBlocked) -> list[str]:
    out = []
    if p.energy_mv not in ENERGIES:
        out.append("energy not one of 6, 10, 15, 18 MV")
    else:
        lo, hi = ENERGIES[p.energy_mv].dmax_cm
        if not lo <= p.dmax_cm <= hi:
            out.append("dmax outside the range for this energy")
    if not 0.6 <= p.output_cgy_per_mu <= 1.2:
        out.append("output D'0 outside 0.6-1.2 cGy/MU")
    d0 = normalization_depth(p)
    if not (80.0 <= p.calibration_ssd_cm <= 120.0 and p.dmax_cm <= d0 <= 10.0):
        out.append("normalization SSD0 outside 80-120 cm or depth d0 outside dmax-10 cm")
    if not 20.0 <= getattr(p, "pdd_calibration_percent", 100.0) <= 100.0:
        out.append("PDD at the normalization depth outside 20-100%")
    if not 80.0 <= getattr(p, "sad_cm", 100.0) <= 120.0:
        out.append("SAD outside 80-120 cm")
    return out


def _mu_violation(value: float) -> list[str]:
    return [] if MU_RANGE[0] <= value <= MU_RANGE[1] else ["MU per fraction outside 20-999"]


def _modifier_violations(p: ExtendedSsd | IsocentricBlocked) -> list[str]:
    out = []
    if p.wedge_angle_deg not in WEDGE_ANGLES or not 0.35 <= p.wedge_factor <= 0.95:
        out.append("wedge angle or wedge factor implausible")
    if not 0.90 <= p.tray_factor <= 0.99:
        out.append("tray factor outside 0.90-0.99")
    if (p.total_dose_gy, p.fractions) not in REGIMENS:
        out.append("prescription not a standard course")
    return out


def violations_l1(p: OpenFieldSsd) -> list[str]:
    out = _beam_violations(p)
    if not 4.0 <= p.field_cm <= 25.0:
        out.append("field size outside 4-25 cm")
    if not p.dmax_cm < p.depth_cm <= 25.0:
        out.append("depth not beyond dmax or deeper than 25 cm")
    if not (0.9 <= p.sc <= 1.1 and 0.9 <= p.sp <= 1.1):
        out.append("Sc or Sp outside 0.9-1.1")
    if not 20.0 <= p.pdd_percent <= 100.0:
        out.append("PDD outside 20-100%")
    if p.dose_cgy not in DOSES_CGY:
        out.append("dose per fraction not a standard value")
    return out or _mu_violation(l1_chain(p, Sheet()))


def violations_l2(p: ExtendedSsd) -> list[str]:
    out = _beam_violations(p) + _modifier_violations(p)
    if not 105.0 <= p.ssd_cm <= 130.0:
        out.append("SSD outside 105-130 cm")
    if not 5.0 <= p.field_cm <= 25.0:
        out.append("field size outside 5-25 cm")
    if not p.dmax_cm < p.depth_cm <= 25.0:
        out.append("depth not beyond dmax or deeper than 25 cm")
    if not (0.9 <= p.sc <= 1.1 and 0.9 <= p.sp <= 1.1):
        out.append("Sc or Sp outside 0.9-1.1")
    if not 20.0 <= p.pdd_percent <= 100.0:
        out.append("PDD outside 20-100%")
    return out or _mu_violation(l2_chain(p, Sheet()))


def _monotone(values: tuple[float, ...], rising: bool) -> bool:
    pairs = zip(values, values[1:])
    return all(b >= a for a, b in pairs) if rising else all(b <= a for a, b in pairs)


def _geometry_violations(x: float, y: float, area: float, perimeter: float) -> list[str]:
    out = []
    if not (6.0 <= x <= 20.0 and 6.0 <= y <= 20.0):
        out.append("collimator setting outside 6-20 cm")
    if not 0.5 * x * y <= area <= 0.95 * x * y:
        out.append("blocks must shield 5-50% of the collimator field")
    if not (perimeter > 0 and 4.0 <= 4.0 * area / perimeter < 2.0 * x * y / (x + y) <= 20.0):
        out.append("equivalent squares outside the tables or blocked field not smaller than the collimator field")
    return out


def violations_l3(p: IsocentricBlocked) -> list[str]:
    out = _beam_violations(p) + _modifier_violations(p)
    out += _geometry_violations(p.coll_x_cm, p.coll_y_cm, p.blocked_area_cm2, p.blocked_perimeter_cm)
    if not 4.0 < p.depth_cm < 20.0 or p.depth_cm in p.depths_cm:
        out.append("isocenter depth outside the table or on a table row")
    if p.fields_cm != FIELDS_CM or p.depths_cm[1:] != DEPTHS_CM or not p.depths_cm[0] < DEPTHS_CM[0]:
        out.append("table grid differs from the generator's grid")
    elif len(p.tmr_table) != len(p.depths_cm) or len(p.pdd_table) != len(p.depths_cm):
        out.append("table sizes do not match the grid")
    else:
        if not (_monotone(p.sc_table, True) and _monotone(p.sp_table, True)):
            out.append("Sc or Sp does not rise with field size")
        for tab in (p.tmr_table, p.pdd_table):
            if not all(len(row) == len(p.fields_cm) for row in tab):
                out.append("table rows do not match the field sizes")
            elif not all(_monotone(row, True) for row in tab[1:]):
                out.append("depth-dose values do not rise with field size")
            elif not all(_monotone(column, False) for column in zip(*tab)):
                out.append("depth-dose values do not fall with depth")
    return out or _mu_violation(l3_chain(p, Sheet()))


# --- prompts --------------------------------------------------------------------------------------

def _beam_lines(p: OpenFieldSsd | ExtendedSsd | IsocentricBlocked) -> list[str]:
    if p.calibration_depth_cm is None and p.calibration_ssd_cm == 100.0:
        return [f"Beam: {p.energy_mv} MV photons",
                f"Machine output D′0: {fmt_dec(p.output_cgy_per_mu, 3)} cGy/MU, at dmax = {fmt_dec(p.dmax_cm, 1)} "
                f"cm depth in water for SSD 100 cm and a 10 × 10 cm² field"]
    lines = [f"Beam: {p.energy_mv} MV photons (dmax = {fmt_dec(p.dmax_cm, 1)} cm)",
             f"Machine output D′0: {fmt_dec(p.output_cgy_per_mu, 3)} cGy/MU, at the normalization depth d0 = "
             f"{fmt_dec(normalization_depth(p), 1)} cm in water for SSD {num(p.calibration_ssd_cm)} cm and a "
             f"10 × 10 cm² field"]
    if getattr(p, "pdd_calibration_percent", 100.0) != 100.0:
        lines.append(f"Percent depth dose at d0 for this field and SSD: PDD(d0) = "
                     f"{fmt_dec(p.pdd_calibration_percent, 1)}% (the PDD values are normalized at dmax)")
    return lines


def _prescription_lines(p: ExtendedSsd | IsocentricBlocked, where: str) -> list[str]:
    return [f"Prescribed total dose {where}: {num(p.total_dose_gy)} Gy",
            f"Number of fractions: {p.fractions}",
            "Fields: this field delivers the whole prescription"]


def _modifier_lines(p: ExtendedSsd | IsocentricBlocked) -> list[str]:
    return [f"Wedge: {p.wedge_angle_deg}° physical wedge, wedge factor WF = {fmt_dec(p.wedge_factor, 3)}",
            f"Tray factor: TF = {fmt_dec(p.tray_factor, 3)}"]


def prompt_l1(p: OpenFieldSsd) -> str:
    r, d = num(p.field_cm), fmt_dec(p.depth_cm, 1)
    return "\n\n".join([
        "A patient is treated with a single open photon field (no wedge, tray or blocks) at SSD 100 cm. "
        "The dose is prescribed on the central axis.",
        bullets([
            *_beam_lines(p),
            f"Field size at the skin: {r} × {r} cm²",
            f"Prescription depth: {d} cm",
            f"Dose per fraction at the prescription depth: {num(p.dose_cgy)} cGy",
            f"Collimator-scatter factor for this field: Sc = {fmt_dec(p.sc, 3)}",
            f"Phantom-scatter factor for this field: Sp = {fmt_dec(p.sp, 3)}",
            f"Percent depth dose at the prescription depth for this field at SSD 100 cm: "
            f"PDD = {fmt_dec(p.pdd_percent, 1)}%",
        ]),
        ask("the monitor units per fraction for this field", "MU", PRECISION),
    ])


def prompt_l2(p: ExtendedSsd) -> str:
    r, ssd = num(p.field_cm), num(p.ssd_cm)
    return "\n\n".join([
        "A patient is treated with a single photon field at an extended SSD. The dose is prescribed on the "
        "central axis.",
        bullets([
            *_beam_lines(p),
            f"Treatment SSD: {ssd} cm",
            f"Field size at the skin: {r} × {r} cm²",
            f"Prescription depth: {fmt_dec(p.depth_cm, 1)} cm",
            *_prescription_lines(p, "at the prescription depth"),
            *_modifier_lines(p),
            "Blocks: none on the tray",
            f"Collimator-scatter factor for this collimator setting: Sc = {fmt_dec(p.sc, 3)}",
            f"Phantom-scatter factor for the field at the skin: Sp = {fmt_dec(p.sp, 3)}",
            f"Percent depth dose at the prescription depth for this field, measured at SSD {ssd} cm: "
            f"PDD = {fmt_dec(p.pdd_percent, 1)}%",
        ]),
        ask("the monitor units per fraction for this field", "MU", PRECISION),
    ])


def _l3_tables(p: IsocentricBlocked) -> list[str]:
    fields = [num(f) for f in p.fields_cm]
    scatter = table(["Field size (cm)", "Sc", "Sp"],
                    [[f, fmt_dec(a, 3), fmt_dec(b, 3)] for f, a, b in zip(fields, p.sc_table, p.sp_table)])
    # table values are positive, so f"{v:.3f}" prints exactly as numbers.fmt_dec(v, 3)
    tmr = table(["Depth (cm)", *fields], [[num(d), *(f"{v:.3f}" for v in row)]
                                         for d, row in zip(p.depths_cm, p.tmr_table)])
    pdd = table(["Depth (cm)", *fields], [[num(d), *(f"{v:.1f}" for v in row)]
                                         for d, row in zip(p.depths_cm, p.pdd_table)])
    return [
        "Output factors (Sc is read at the collimator field, Sp at the irradiated, blocked field):", scatter,
        "Tissue-maximum ratio TMR (rows: depth in cm; columns: side of the square field at that depth, cm):", tmr,
        "Percent depth dose PDD (%) at SSD 100 cm (rows: depth in cm; columns: side of the square field at the "
        "surface, cm):", pdd,
    ]


def prompt_l3(p: IsocentricBlocked) -> str:
    squares = ("Field sizes are sides of equivalent squares; find the equivalent square of a field as 4A/P "
               "(4 × area / perimeter)." if p.equivalent_square_stated else "Field sizes are sides of equivalent squares.")
    tpr = ([] if p.calibration_depth_cm is None else
           [f"The TMR table is normalized at dmax; D′0 is given at d0 = {fmt_dec(p.calibration_depth_cm, 1)} cm."])
    return "\n\n".join([
        f"A patient is treated isocentrically (SAD {num(p.sad_cm)} cm) with a single blocked, wedged photon field. "
        "The dose is prescribed at the isocenter, on the central axis.",
        bullets([
            *_beam_lines(p),
            f"Isocenter depth: {fmt_dec(p.depth_cm, 1)} cm",
            f"Collimator setting at the isocenter: {num(p.coll_x_cm)} × {num(p.coll_y_cm)} cm²",
            f"Blocked field area at the isocenter (corner blocks on a tray): {fmt_dec(p.blocked_area_cm2, 1)} cm²",
            f"Blocked field perimeter at the isocenter: {fmt_dec(p.blocked_perimeter_cm, 1)} cm",
            *_modifier_lines(p),
            *_prescription_lines(p, "at the isocenter"),
        ]),
        f"Beam data for this machine ({p.energy_mv} MV). {squares}",
        *_l3_tables(p),
        *tpr,
        "Interpolate linearly in the tables (bilinearly in the two-dimensional tables).",
        ask("the monitor units per fraction for this field", "MU", PRECISION),
    ])


def legacy_l3(p: IsocentricBlocked) -> IsocentricBlocked:
    """Version 1.0 prompts, as the paper's, do not name the equivalent-square rule. Version 1.1 keeps it:
    printed area and perimeter point to 4A/P, but the area alone (√A) is also in use for blocked fields
    and moves the MU outside the 1% band in 14% of public draws (280 of 2000), and the second
    implementation needs the rule stated."""
    return dataclasses.replace(p, equivalent_square_stated=False)


# --- error modes (seed 000, Table 6) ----------------------------------------------------------------

_CHAINS = {1: l1_chain, 2: l2_chain, 3: l3_chain}


def _mode_answer(mode: str, level: int, p: object) -> float:
    return float(_CHAINS[level](p, Sheet(), mode))


def _mode(name: str, description: str, category: str, levels: tuple[int, ...]) -> ErrorMode:
    return ErrorMode(name, description, category, levels, partial(_mode_answer, name))  # type: ignore[arg-type]


ERROR_MODES = (
    _mode("isq_extended_omitted", "inverse-square factor for the extended SSD omitted", "conceptual", (2,)),
    _mode("isq_inverted", "inverse-square factor inverted", "conceptual", (2, 3)),
    _mode("isq_ssd_alone", "inverse-square factor from the SSD alone, (100/SSD)², instead of SSD + dmax",
          "conceptual", (2,)),
    _mode("isocentric_isq_omitted", "isocentric inverse-square correction ((100 + dmax)/100)² omitted",
          "conceptual", (3,)),
    _mode("sc_sp_swapped", "Sc read at the blocked field and Sp at the collimator field", "conceptual", (3,)),
    _mode("collimator_mean_square", "collimator equivalent square by (X + Y)/2 instead of 4A/P", "conceptual", (3,)),
    _mode("wedge_omitted", "wedge factor omitted", "conceptual", (2, 3)),
    _mode("tray_omitted", "tray factor omitted", "conceptual", (2, 3)),
    _mode("pdd_for_tmr", "PDD (SSD 100 cm) used where TMR is required", "conceptual", (3,)),
    _mode("tmr_at_collimator_field", "TMR read at the collimator field instead of the blocked field",
          "conceptual", (3,)),
    _mode("total_dose", "total dose used instead of the dose per fraction (MU × n)", "conceptual", (2, 3)),
    _mode("sp_omitted", "Sp omitted (Sc used as the total scatter factor)", "correction", (1, 2, 3)),
    _mode("mayneord_applied", "Mayneord F factor applied to a PDD already measured at the treatment SSD",
          "conceptual", (2,)),
    _mode("transposed_final", "two adjacent digits transposed in the final result", "arithmetic", (1, 2, 3)),
)


def _solve(chain, p) -> float:  # type: ignore[no-untyped-def]
    return float(chain(p, Sheet()))


def _quantity(p: object) -> str:
    return "the monitor units per fraction for this field"


GENERATOR = Generator(
    name="mu",
    title="MU for a treatment field",
    document="AAPM TG-71",
    band=0.01,
    levels={
        1: LevelSpec(1, OpenFieldSsd, sample_l1, violations_l1, partial(_solve, l1_chain), lambda p: "MU", _quantity,
                     prompt_l1, l1_chain),
        2: LevelSpec(2, ExtendedSsd, sample_l2, violations_l2, partial(_solve, l2_chain), lambda p: "MU", _quantity,
                     prompt_l2, l2_chain),
        3: LevelSpec(3, IsocentricBlocked, sample_l3, violations_l3, partial(_solve, l3_chain), lambda p: "MU",
                     _quantity, prompt_l3, l3_chain, legacy=legacy_l3),
    },
    error_modes=ERROR_MODES,
    checking=True,
)
