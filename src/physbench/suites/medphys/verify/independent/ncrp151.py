"""Second implementation of the NCRP Report 151 vault-barrier items (levels 1-3), computed
from the printed prompt alone: primary barriers with one TVL (L1) or TVL1/TVLe (L2), and a
secondary barrier from head leakage and patient scatter with the two-source rule (L3).
"""

from __future__ import annotations

import math
import re

from physbench.suites.medphys.verify.independent.errors import PromptDefect
from physbench.suites.medphys.verify.independent.parse_shielding import (
    LENGTH_CM,
    checked_text,
    column,
    field,
    parse_number,
    quantity,
    requested_unit,
    stated_number,
    statement,
    table_with_header,
)

GOAL_SV_WEEK = {"Sv/week": 1.0, "mSv/week": 1e-3, "µSv/week": 1e-6, "μSv/week": 1e-6}
WORKLOAD_GY_WEEK = {"Gy/week": 1.0}
DISTANCE_M = {"m": 1.0, "cm": 0.01}
THICKNESS_CM = {"cm": 1.0, "mm": 0.1}
AREA_CM2 = {"cm²": 1.0, "cm^2": 1.0, "cm2": 1.0, "m²": 1e4}


# --- NCRP Report 151 relations -------------------------------------------------------------


def primary_transmission(goal: float, distance_m: float, workload: float, use: float,
                         occupancy: float) -> float:
    """Required primary-barrier transmission B = P d² / (W U T) (NCRP 151 Eq. 2.1)."""
    return goal * distance_m**2 / (workload * use * occupancy)


def leakage_transmission(goal: float, distance_m: float, leak_fraction: float, workload: float,
                         use: float, occupancy: float) -> float:
    """Leakage transmission B_L = P d_L² / (f_L W U T), f_L = 10^-3 in the report (NCRP 151 Eq. 2.8)."""
    return goal * distance_m**2 / (leak_fraction * workload * use * occupancy)


def patient_scatter_transmission(goal: float, d_sca_m: float, d_sec_m: float, fraction: float,
                                 workload: float, use: float, occupancy: float,
                                 field_cm2: float, fraction_field_cm2: float) -> float:
    """Patient-scatter transmission B_ps = P d_sca² d_sec² / (a W U T) x (400/F) (NCRP 151 Eq. 2.7);
    ``fraction_field_cm2`` is the field (400 cm²) for which a is tabulated."""
    return (goal * d_sca_m**2 * d_sec_m**2 / (fraction * workload * use * occupancy)
            * fraction_field_cm2 / field_cm2)


def tvl_count(transmission: float) -> float:
    """Number of tenth-value layers n = log10(1/B) (NCRP 151 Eq. 2.2)."""
    if not transmission > 0.0:
        raise PromptDefect(f"the printed inputs give a transmission of {transmission:g}, not a positive number")
    return math.log10(1.0 / transmission)


def thickness_two_tvl(n: float, tvl1: float, tvle: float, what: str) -> float:
    """Barrier t = TVL1 + (n - 1) TVLe (NCRP 151 Eq. 2.3); no barrier when n <= 0.

    For 0 < n < 1 a partial first TVL could be n TVL1 or TVL1 + (n - 1) TVLe; the items do
    not say which, so that case is a prompt defect rather than a silent choice.
    """
    if n <= 0.0:
        return 0.0
    if n < 1.0 and tvl1 != tvle:
        raise PromptDefect(f"{what}: only {n:.3f} TVLs are needed and the prompt does not say how "
                           "to take a partial first TVL when TVL1 differs from TVLe")
    return tvl1 + (n - 1.0) * tvle


def thickness_one_tvl(n: float, tvl: float) -> float:
    """Barrier t = n TVL with a single TVL; no barrier when n <= 0."""
    return max(n, 0.0) * tvl


def two_source(t_leak: float, t_scatter: float, tvl_rule: float, hvl_per_tvl: float) -> float:
    """NCRP 151 two-source rule as the item states it: the larger thickness if the two differ
    by one TVL or more, else the larger plus one HVL (hvl_per_tvl x TVL)."""
    larger = max(t_leak, t_scatter)
    if abs(t_leak - t_scatter) >= tvl_rule:
        return larger
    return larger + hvl_per_tvl * tvl_rule


# --- Reading the prompt --------------------------------------------------------------------


def _fraction(text: str, label: str, what: str) -> float:
    value = parse_number(field(text, label, what), what)
    if not 0.0 < value <= 1.0:
        raise PromptDefect(f"{what} is {value}, outside (0, 1]")
    return value


def _positive(value: float, what: str) -> float:
    if not (value > 0.0 and math.isfinite(value)):
        raise PromptDefect(f"{what} is {value}, not a positive number")
    return value


def _workload(text: str) -> float:
    """W in Gy/week, which the report defines at 1 m from the target (or source)."""
    value = field(text, r"Workload W", "the workload W")
    workload = quantity(value, WORKLOAD_GY_WEEK, "the workload W")
    at = stated_number(value, r"at (?:the isocentre, )?{N} m from the (?:target|source)",
                       "the distance at which the workload is stated")
    if at != 1.0:
        raise PromptDefect(f"the workload is stated at {at} m, not at 1 m as the method needs")
    return _positive(workload, "the workload W")


def _goal_gy_week(text: str) -> float:
    """P converted to Gy/week with the stated 1 Sv = 1 Gy for these photons."""
    statement(text, r"take 1 Sv = 1 Gy", "the conversion 1 Sv = 1 Gy")
    goal = quantity(field(text, r"Shielding design goal P", "the design goal P"), GOAL_SV_WEEK,
                    "the design goal P")
    return _positive(goal, "the design goal P")


def _barrier_kind(text: str, kind: str) -> None:
    statement(text, rf"^A {kind} barrier \(", f"that the barrier is a {kind} barrier")


def _answer(text: str, thickness_cm: float) -> tuple[float, str]:
    unit = requested_unit(text, tuple(LENGTH_CM))
    return thickness_cm / LENGTH_CM[unit], unit


def _level1(text: str) -> tuple[float, str]:
    """Primary barrier of one material with one TVL for every tenth-value layer."""
    _barrier_kind(text, "primary")
    material = statement(text, r"is to be built of ([a-z]+)\.", "the barrier material").group(1)
    statement(text, r"Use this single TVL for every tenth-value layer",
              "that one TVL serves for every tenth-value layer")
    tvl_cm = quantity(field(text, rf"Tenth-value layer of {material} for this beam[^:]*",
                            f"the TVL of {material}"), THICKNESS_CM, f"the TVL of {material}")
    distance = quantity(field(text, r"Distance from the (?:target|source) to the point of interest d",
                              "the distance d"), DISTANCE_M, "the distance d")
    b = primary_transmission(_goal_gy_week(text), _positive(distance, "the distance d"),
                             _workload(text), _fraction(text, r"Use factor U of this barrier", "U"),
                             _fraction(text, r"Occupancy factor T", "T"))
    return _answer(text, thickness_one_tvl(tvl_count(b), _positive(tvl_cm, "the TVL")))


def _beam(text: str) -> str:
    unit = field(text, r"Treatment unit", "the treatment unit")
    return statement(unit, r"^(\d+ MV) linear accelerator$", "the beam energy").group(1)


def _level2(text: str) -> tuple[float, str]:
    """Primary concrete barrier with TVL1 and TVLe of the beam (NCRP 151 Table B.2, printed)."""
    _barrier_kind(text, "primary")
    statement(text, r"is to be built of ordinary concrete", "the barrier material (concrete)")
    table = table_with_header(text, r"Beam", "the primary-beam TVL table")
    beam = _beam(text)
    rows = [row for row in table.rows if row[0] == beam]
    if len(rows) != 1:
        raise PromptDefect(f"the TVL table has {len(rows)} rows for the {beam} beam")
    tvl1_col = column(table, r"TVL1 \(first\), (mm|cm)", "the TVL1 column")
    tvle_col = column(table, r"TVLe \(equilibrium\), (mm|cm)", "the TVLe column")
    tvl1 = parse_number(rows[0][tvl1_col], "TVL1") * THICKNESS_CM[table.header[tvl1_col][-2:]]
    tvle = parse_number(rows[0][tvle_col], "TVLe") * THICKNESS_CM[table.header[tvle_col][-2:]]
    distance = quantity(field(text, r"Distance from the target to the point of interest d",
                              "the distance d"), DISTANCE_M, "the distance d")
    b = primary_transmission(_goal_gy_week(text), _positive(distance, "the distance d"),
                             _workload(text), _fraction(text, r"Use factor U of this barrier", "U"),
                             _fraction(text, r"Occupancy factor T", "T"))
    thickness = thickness_two_tvl(tvl_count(b), _positive(tvl1, "TVL1"), _positive(tvle, "TVLe"),
                                  "primary barrier")
    return _answer(text, thickness)


def _data_row(text: str, label: str, what: str) -> tuple[str, ...]:
    table = table_with_header(text, r"Quantity \(NCRP Report 151\)", "the data table")
    rows = [row for row in table.rows if re.fullmatch(label, row[0])]
    if len(rows) != 1:
        raise PromptDefect(f"the data table has {len(rows)} rows for {what}")
    return rows[0]


def _level3(text: str) -> tuple[float, str]:
    """Secondary barrier: leakage (Eq. 2.8) and patient scatter (Eq. 2.7), two-source rule."""
    _barrier_kind(text, "secondary")
    statement(text, r"is to be built of ordinary concrete", "the barrier material (concrete)")
    goal = _goal_gy_week(text)
    workload = _workload(text)
    occupancy = _fraction(text, r"Occupancy factor T", "T")
    use = stated_number(text, r"with a use factor U = {N} for both leakage and patient scatter",
                        "the use factor for leakage and patient scatter", flags=0)
    if not 0.0 < use <= 1.0:
        raise PromptDefect(f"the use factor for leakage and patient scatter is {use}")

    leak_line = field(text, r"Head leakage", "the head leakage")
    leak_fraction = stated_number(leak_line, r"^{N}% of the useful-beam dose", "the leakage %") / 100
    if stated_number(leak_line, r"at {N} m from the target", "where leakage is stated") != 1.0:
        raise PromptDefect("the head leakage is not stated at 1 m from the target")

    point = field(text, r"Distance from the isocentre to the point of interest", "d_L and d_sec")
    statement(point, r"use it as the leakage distance d_L and as the patient-to-point distance d_sec",
              "that the isocentre distance serves as d_L and d_sec")
    d_point = _positive(quantity(point, DISTANCE_M, "d_L and d_sec"), "d_L and d_sec")
    d_sca = _positive(quantity(field(text, r"Target-to-patient \(isocentre\) distance d_sca", "d_sca"),
                               DISTANCE_M, "d_sca"), "d_sca")
    area = _positive(quantity(field(text, r"Largest field area at the patient F", "F"), AREA_CM2, "F"),
                     "F")
    angle = stated_number(field(text, r"Scattering angle from the patient to the point of interest",
                                "the scattering angle"), r"^{N}°$", "the scattering angle")

    # Table B.4 scatter fraction a(angle), tabulated at 1 m from the patient for a reference field.
    a_row = _data_row(text, r"Patient-scatter fraction a at \d+° \(Table B\.4; .*\)", "a")
    a_label = a_row[0]
    if stated_number(a_label, r"at {N}°", "the angle of a") != angle:
        raise PromptDefect("the scatter fraction a is printed for another angle than the item's")
    if stated_number(a_label, r"at {N} m from the patient", "the distance of a") != 1.0:
        raise PromptDefect("the scatter fraction a is not normalised at 1 m from the patient")
    a_field = stated_number(a_label, r"for a {N} cm² field", "the reference field of a")
    fraction = _positive(parse_number(a_row[1], "a"), "a")

    tvl1_l = quantity(_data_row(text, r"Leakage TVL1 \(first\) in concrete \(Table B\.7\)",
                                "leakage TVL1")[1], THICKNESS_CM, "leakage TVL1")
    tvle_l = quantity(_data_row(text, r"Leakage TVLe \(equilibrium\) in concrete \(Table B\.7\)",
                                "leakage TVLe")[1], THICKNESS_CM, "leakage TVLe")
    ps_row = _data_row(text, r"TVL of patient-scattered radiation at \d+° in concrete \(Table B\.5a\)",
                       "the patient-scatter TVL")
    if stated_number(ps_row[0], r"at {N}°", "the angle of the scatter TVL") != angle:
        raise PromptDefect("the patient-scatter TVL is printed for another angle than the item's")
    tvl_ps = quantity(ps_row[1], THICKNESS_CM, "patient-scatter TVL")

    # The two-source rule must name its TVL; the leakage TVLe is the report's (seed 000, Sec. 4.2).
    statement(text, r"if the two thicknesses differ by one leakage TVLe or more, the larger "
                    r"thickness is sufficient", "the two-source rule's threshold (which TVL)")
    hvl_per_tvl = stated_number(
        text, r"if they differ by less than one leakage TVLe, add one HVL of the leakage radiation, "
              r"taken as {N} × TVLe \(leakage\), to the larger thickness",
        "the HVL the two-source rule adds", flags=0)

    b_leak = leakage_transmission(goal, d_point, leak_fraction, workload, use, occupancy)
    b_scatter = patient_scatter_transmission(goal, d_sca, d_point, fraction, workload, use,
                                             occupancy, area, a_field)
    t_leak = thickness_two_tvl(tvl_count(b_leak), _positive(tvl1_l, "leakage TVL1"),
                               _positive(tvle_l, "leakage TVLe"), "leakage barrier")
    t_scatter = thickness_one_tvl(tvl_count(b_scatter), _positive(tvl_ps, "patient-scatter TVL"))
    return _answer(text, two_source(t_leak, t_scatter, tvle_l, hvl_per_tvl))


_LEVELS = {1: _level1, 2: _level2, 3: _level3}


def solve(level: int, prompt: str) -> tuple[float, str]:
    """Required barrier thickness (value, unit) of an ncrp151 calculation prompt."""
    if level not in _LEVELS:
        raise ValueError(f"ncrp151 has levels 1-3, not {level!r}")
    return _LEVELS[level](checked_text(prompt))
