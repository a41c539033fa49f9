"""TG-51 photon calibration: the printed inputs of each level and the protocol's equations.

AAPM TG-51 (Almond et al. 1999) and its photon addendum (McEwen et al. 2014). The step chains
that turn these into the reference answer, the error modes and the worksheets live in
tg51_chain.py; sampling and prompts in tg51.py.
"""

from __future__ import annotations

from dataclasses import dataclass

# AAPM TG-51 Eq. 10: reference conditions of N_D,w (22 °C, 101.33 kPa); T0 in kelvin
T0_C = 22.0
T0_K = 295.2
P0_KPA = 101.33
KELVIN = 273.2

# AAPM TG-51 Eqs. 13-14: lead-foil conversion %dd(10)Pb -> %dd(10)x, foil distance from the
# phantom surface (cm) -> (a, b, threshold): %dd(10)x = (a + b %dd(10)Pb) %dd(10)Pb for
# %dd(10)Pb >= threshold, else %dd(10)x = %dd(10)Pb.
FOIL = {50: (0.8905, 0.00150, 73.0), 30: (0.8116, 0.00264, 71.0)}

# TG-51 Addendum (2014) Table I: k_Q = A + B 1e-3 x + C 1e-5 x^2, x = %dd(10)x in 63..86.
# The value after the fit is a typical N_D,w range (10^7 Gy/C) for the chamber's volume.
CHAMBERS: dict[str, tuple[float, float, float, float, float]] = {
    "PTW 30013": (0.9652, 2.141, -2.623, 5.20, 5.55),  # 0.6 cm3 Farmer
    "NE 2571": (0.9882, 1.486, -2.140, 4.40, 4.70),  # 0.69 cm3 Farmer
    "Exradin A12": (1.0146, 0.777, -1.666, 4.80, 5.10),  # 0.65 cm3 Farmer
    "Exradin A19": (0.9934, 1.384, -2.125, 5.00, 5.35),  # 0.62 cm3 Farmer
    "IBA CC13": (0.9515, 2.455, -2.768, 24.0, 28.0),  # 0.13 cm3 compact
}
# Rows of the printed k_Q tables (%dd(10)x, %); the addendum's fits hold over 63..86
KQ_ROWS = (63, 66, 71, 76, 81, 86)


@dataclass(frozen=True)
class CorrectedReading:  # level 1
    beam_mv: int
    chamber: str
    mu: int
    m_corr_nc: float  # fully corrected reading, 3 decimals
    kq: float  # 3 decimals
    n_dw_cgy_nc: float  # 4 significant figures


@dataclass(frozen=True)
class RawReadings:  # level 2
    beam_mv: int
    chamber: str
    mu: int
    temp_c: float  # 1 decimal
    press_kpa: float  # 1 decimal
    p_elec: float  # 4 decimals
    n_dw_gy_c: float  # 4 significant figures, printed as m x 10^e
    v_high: int  # operating (routine) bias magnitude, V
    v_low: int  # reduced bias magnitude, V
    routine_positive: bool  # polarity of the routine bias
    m_routine_nc: float  # |M| at the routine polarity and operating voltage, 3 decimals
    m_opposite_nc: float  # |M| at the opposite polarity, 3 decimals
    m_low_nc: float  # |M| at the reduced voltage, routine polarity, 3 decimals
    kq: float  # 3 decimals


@dataclass(frozen=True)
class FullCalibration:  # level 3
    beam_mv: int
    chamber: str
    mu: int
    temp_c: float
    press_kpa: float
    p_elec: float
    n_dw_gy_c: float
    v_high: int
    v_low: int
    routine_positive: bool
    m_routine_nc: float
    m_opposite_nc: float
    m_low_nc: float
    foil_cm: int  # 50 or 30
    pdd_pb: float  # %dd(10)Pb with the foil in place, 1 decimal
    pdd_clinical: float  # clinical PDD(10) of the open beam, 1 decimal
    kq_pdd: tuple[int, ...]  # table rows, %dd(10)x
    kq_values: tuple[float, ...]  # k_Q at those rows, 3 decimals


Raw = RawReadings | FullCalibration


# --- the protocol's equations -------------------------------------------------------------------

def p_tp(temp_c: float, press_kpa: float) -> float:
    """TG-51 Eq. 10: P_TP = (273.2 + T)/295.2 x 101.33/P."""
    return (KELVIN + temp_c) / T0_K * (P0_KPA / press_kpa)


def p_pol(m_routine: float, m_opposite: float) -> float:
    """TG-51 Eq. 9 with reading magnitudes: P_pol = (|M+| + |M-|)/(2|M|), M at the routine polarity."""
    return (abs(m_routine) + abs(m_opposite)) / (2.0 * abs(m_routine))


def p_ion_pulsed(v_high: float, v_low: float, m_high: float, m_low: float) -> float:
    """TG-51 Eq. 12 (pulsed beams): P_ion = (1 - V_H/V_L)/(M_H/M_L - V_H/V_L)."""
    r = v_high / v_low
    return (1.0 - r) / (m_high / m_low - r)


def p_ion_continuous(v_high: float, v_low: float, m_high: float, m_low: float) -> float:
    """TG-51 Eq. 11 (continuous beams, e.g. 60Co): (1 - (V_H/V_L)^2)/(M_H/M_L - (V_H/V_L)^2)."""
    r2 = (v_high / v_low) ** 2
    return (1.0 - r2) / (m_high / m_low - r2)


def pdd_x_from_foil(pdd_pb: float, foil_cm: int) -> float:
    """TG-51 Eqs. 13-14: %dd(10)x from %dd(10)Pb measured with a 1 mm lead foil at 50 or 30 cm."""
    a, b, threshold = FOIL[foil_cm]
    return (a + b * pdd_pb) * pdd_pb if pdd_pb >= threshold else pdd_pb


def pdd_pb_for(pdd_x: float, foil_cm: int) -> float:
    """Inverse of Eqs. 13-14 (used by the sampler to place a foil reading for a chosen beam)."""
    a, b, threshold = FOIL[foil_cm]
    pb = (-a + (a * a + 4.0 * b * pdd_x) ** 0.5) / (2.0 * b)
    return pb if pb >= threshold else pdd_x


def kq_fit(chamber: str, pdd_x: float) -> float:
    """TG-51 Addendum Eq. 1 with Table I coefficients."""
    a, b, c, _, _ = CHAMBERS[chamber]
    return a + b * 1e-3 * pdd_x + c * 1e-5 * pdd_x * pdd_x


def bracket(rows: tuple[int, ...], x: float) -> int:
    """Index i with rows[i] <= x <= rows[i+1] (clamped to the table's first or last interval)."""
    for i in range(len(rows) - 2):
        if x <= rows[i + 1]:
            return i
    return len(rows) - 2


def nearest_row(rows: tuple[int, ...], x: float) -> int:
    """Index of the table row closest to x (the lower one on a tie)."""
    best = 0
    for i, row in enumerate(rows):
        if abs(row - x) < abs(rows[best] - x):
            best = i
    return best


def interpolate(x0: float, y0: float, x1: float, y1: float, x: float) -> float:
    """Linear interpolation between (x0, y0) and (x1, y1)."""
    return y0 + (y1 - y0) * (x - x0) / (x1 - x0)
