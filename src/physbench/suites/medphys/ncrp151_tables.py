"""NCRP Report 151 data and barrier equations for megavoltage treatment vaults.

The tables are the report's own values (Appendix B) for the cases the items use; the equations
are the hand-calculation forms of the report's Section 2. Items print the table values they need,
so a solver works from the prompt alone.
"""

from __future__ import annotations

import math

# NCRP 151 Table B.2: primary-beam TVLs in ordinary concrete (2.35 g/cm³), (TVL1, TVLe) in cm.
PRIMARY_TVL_CONCRETE_CM: dict[int, tuple[float, float]] = {
    4: (35.0, 30.0), 6: (37.0, 33.0), 10: (41.0, 37.0), 15: (44.0, 41.0),
    18: (45.0, 43.0), 20: (46.0, 44.0), 25: (49.0, 46.0), 30: (51.0, 49.0),
}
# NCRP 151 Table B.2: steel and lead have one TVL (TVL1 = TVLe), in cm.
PRIMARY_TVL_STEEL_CM: dict[int, float] = {4: 9.9, 6: 10.0, 10: 11.0, 15: 11.0, 18: 11.0, 20: 11.0, 25: 11.0, 30: 11.0}
PRIMARY_TVL_LEAD_CM: dict[int, float] = {mv: 5.7 for mv in PRIMARY_TVL_CONCRETE_CM}
# NCRP 151 Table B.2, Co-60 row: concrete 21 cm, lead 4.0 cm (one TVL each).
CO60_TVL_CM: dict[str, float] = {"concrete": 21.0, "lead": 4.0}

# NCRP 151 Table B.7: head-leakage TVLs in ordinary concrete, (TVL1, TVLe) in cm.
LEAKAGE_TVL_CONCRETE_CM: dict[int, tuple[float, float]] = {
    4: (33.0, 28.0), 6: (34.0, 29.0), 10: (35.0, 31.0), 15: (36.0, 33.0),
    18: (36.0, 34.0), 20: (36.0, 34.0), 25: (37.0, 35.0), 30: (37.0, 36.0),
}

# NCRP 151 Table B.4: patient-scatter fraction a(θ) at 1 m from the patient, for a 400 cm² field
# at the patient; columns 6, 10, 18 and 24 MV.
SCATTER_FRACTION: dict[int, dict[int, float]] = {
    10: {6: 1.04e-2, 10: 1.66e-2, 18: 1.42e-2, 24: 1.78e-2},
    20: {6: 6.73e-3, 10: 5.79e-3, 18: 5.39e-3, 24: 6.32e-3},
    30: {6: 2.77e-3, 10: 3.18e-3, 18: 2.53e-3, 24: 2.74e-3},
    45: {6: 1.39e-3, 10: 1.35e-3, 18: 8.64e-4, 24: 8.30e-4},
    60: {6: 8.24e-4, 10: 7.46e-4, 18: 4.24e-4, 24: 3.86e-4},
    90: {6: 4.26e-4, 10: 3.81e-4, 18: 1.89e-4, 24: 1.74e-4},
    135: {6: 3.00e-4, 10: 3.02e-4, 18: 1.24e-4, 24: 1.20e-4},
    150: {6: 2.87e-4, 10: 2.74e-4, 18: 1.20e-4, 24: 1.13e-4},
}

# NCRP 151 Table B.5a: TVL of patient-scattered radiation in concrete (cm), one value per angle;
# columns 4, 6, 10, 15, 18, 20 and 24 MV (the Co-60 column is not used by the items).
SCATTER_TVL_CONCRETE_CM: dict[int, dict[int, float]] = {
    15: {4: 30.0, 6: 34.0, 10: 39.0, 15: 42.0, 18: 44.0, 20: 46.0, 24: 49.0},
    30: {4: 25.0, 6: 26.0, 10: 28.0, 15: 31.0, 18: 32.0, 20: 33.0, 24: 36.0},
    45: {4: 22.0, 6: 23.0, 10: 25.0, 15: 26.0, 18: 27.0, 20: 27.0, 24: 29.0},
    60: {4: 21.0, 6: 21.0, 10: 22.0, 15: 23.0, 18: 23.0, 20: 24.0, 24: 24.0},
    90: {4: 17.0, 6: 17.0, 10: 18.0, 15: 18.0, 18: 19.0, 20: 19.0, 24: 19.0},
    135: {4: 14.0, 6: 15.0, 10: 15.0, 15: 15.0, 18: 15.0, 20: 15.0, 24: 16.0},
}

# Energies and angles for which Tables B.4, B.5a and B.7 all have an entry (level-3 items).
SECONDARY_ENERGIES_MV: tuple[int, ...] = (6, 10, 18)
SECONDARY_ANGLES_DEG: tuple[int, ...] = (30, 45, 60, 90, 135)

# NCRP 151 Sec. 2.4: one HVL taken as log10(2) of a TVL, rounded as the items state it.
HVL_PER_TVL = 0.301
LEAKAGE_FRACTION = 1e-3  # head leakage: 0.1 % of the useful-beam dose at 1 m (IEC limit used by NCRP 151)

# NCRP 151 Table B.1 occupancy factors, with places the items name (T = 1/denominator).
UNCONTROLLED_PLACES: tuple[tuple[str, int], ...] = (
    ("an office", 1), ("a nurses' station", 1), ("a reception area", 1), ("a patient examination room", 2),
    ("a corridor", 5), ("a staff lounge", 5), ("a corridor door", 8), ("a public toilet", 20),
    ("a storage room", 20), ("an unattended waiting room", 20), ("a stairway", 40),
    ("an unattended parking lot", 40), ("a janitor's closet", 40),
)
CONTROLLED_PLACES: tuple[tuple[str, int], ...] = (
    ("the treatment control console", 1), ("the radiation therapists' work area", 1),
    ("a staff-only corridor of the department", 5),
)
GOAL_CONTROLLED_MSV_WEEK = 0.1  # NCRP 151 Sec. 1.3: shielding design goals (weekly)
GOAL_UNCONTROLLED_MSV_WEEK = 0.02


# --- NCRP 151 Section 2 barrier equations (distances in m, W in Gy/week, P in Sv/week) --------

def primary_transmission(p_sv: float, d_m: float, w_gy: float, u: float, t: float) -> float:
    """NCRP 151 Eq. 2.1: B_pri = P d² / (W U T)."""
    return p_sv * d_m * d_m / (w_gy * u * t)


def leakage_transmission(p_sv: float, d_l_m: float, w_gy: float, t: float, fraction: float = LEAKAGE_FRACTION) -> float:
    """NCRP 151 Eq. 2.8: B_L = P d_L² / (10⁻³ W T); U = 1 for leakage."""
    return p_sv * d_l_m * d_l_m / (fraction * w_gy * t)


def patient_scatter_transmission(p_sv: float, d_sca_m: float, d_sec_m: float, a: float, w_gy: float, t: float,
                                 field_cm2: float) -> float:
    """NCRP 151 Eq. 2.7: B_ps = P d_sca² d_sec² 400 / (a W T F), with U = 1."""
    return p_sv * d_sca_m * d_sca_m * d_sec_m * d_sec_m * 400.0 / (a * w_gy * t * field_cm2)


def tvl_count(b: float) -> float:
    """NCRP 151 Sec. 2.4: number of tenth-value layers n = log10(1/B)."""
    return math.log10(1.0 / b)


def thickness(n: float, tvl1: float, tvle: float) -> float:
    """NCRP 151 Sec. 2.4: t = TVL1 + (n − 1) TVLe (t = n TVL when TVL1 = TVLe).

    Applied as written for any n and clipped at zero (B ≥ 1 needs no barrier). Reference answers
    have n ≥ 1 by the items' plausibility rules; smaller n arise only in error modes.
    """
    return max(0.0, tvl1 + (n - 1.0) * tvle)


def two_source(t_leak: float, t_scatter: float, tvl_leak: float, tvl_scatter: float | None = None,
               rule: str = "leakage") -> float:
    """NCRP 151 two-source rule: if the leakage and patient-scatter thicknesses differ by less than
    one TVL, add one HVL (0.301 TVL) to the larger. The report takes the TVL of the leakage radiation
    (`rule="leakage"`, as the v1.1 items); the v1.0 items took that of the component needing the
    thicker barrier (`rule="thicker"`, which needs `tvl_scatter`)."""
    tvl = tvl_leak
    if rule == "thicker" and t_scatter > t_leak:
        if tvl_scatter is None:
            raise ValueError("the 'thicker' rule needs the patient-scatter TVL")
        tvl = tvl_scatter
    big = max(t_leak, t_scatter)
    return big + HVL_PER_TVL * tvl if abs(t_leak - t_scatter) < tvl else big
