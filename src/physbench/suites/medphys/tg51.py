"""TG-51 photon beam calibration (levels 1-3): dose to water from chamber readings to the clinical output.

Level 1: D_w = M k_Q N_D,w from a corrected reading. Level 2: the corrections P_TP, P_pol, pulsed
P_ion and P_elec from raw readings, N_D,w in Gy/C, no formulas printed. Level 3: the full
worksheet, with the lead-foil beam-quality conversion (Eqs. 13-14, not printed), k_Q interpolated
in the chamber's table and the transfer to d_max with the clinical PDD (seed 000, "Generator
specifications"). The calculation itself is in tg51_chain.py, the equations in tg51_physics.py.
"""

from __future__ import annotations

import random
from functools import lru_cache, partial

from physbench.suites.medphys.base import ErrorMode, Generator, LevelSpec
from physbench.suites.medphys.numbers import dec, fmt_dec, fmt_sci, fmt_sig, sci, sig
from physbench.suites.medphys.tg51_chain import corrected_chain, full_chain, raw_chain
from physbench.suites.medphys.tg51_physics import (
    CHAMBERS, FOIL, KQ_ROWS, CorrectedReading, FullCalibration, Raw, RawReadings, bracket, interpolate, kq_fit,
    p_ion_pulsed, p_pol, p_tp, pdd_pb_for, pdd_x_from_foil,
)
from physbench.suites.medphys.text import ask, bullets, table
from physbench.suites.medphys.worksheet import Sheet

PRECISION = "at least four significant figures"
ENERGIES = (6, 10, 15, 18)
# Typical %dd(10)x of clinical beams by nominal energy (TG-51 Fig. 2 / Addendum Table I range)
PDD_X_RANGE = {6: (65.5, 68.0), 10: (72.0, 74.5), 15: (76.0, 79.5), 18: (78.5, 82.0)}
VOLTAGES = ((300, 150), (300, 150), (300, 100), (400, 200))  # (operating, reduced) bias, V
SETUP = "SSD 100 cm, 10 × 10 cm² field at the phantom surface"


# --- sampling -------------------------------------------------------------------------------------

def _beam(rng: random.Random) -> tuple[int, str, int, float]:
    energy = rng.choice(ENERGIES)
    return energy, rng.choice(tuple(CHAMBERS)), rng.choice((100, 200)), rng.uniform(*PDD_X_RANGE[energy])


def _open_pdd(pdd_x: float, rng: random.Random) -> float:
    """Clinical PDD(10) of the open beam: TG-51 Eq. 15 inverted above 75%, else equal, with scatter."""
    base = (pdd_x + 20.0) / 1.267 if pdd_x > 75.0 else pdd_x
    return dec(base + rng.uniform(-0.3, 0.3), 1)


def _n_dw_cgy_nc(chamber: str, rng: random.Random) -> float:
    lo, hi = CHAMBERS[chamber][3:]
    return rng.uniform(lo, hi)  # 10^7 Gy/C is 1 cGy/nC


def sample_l1(rng: random.Random) -> CorrectedReading:
    energy, chamber, mu, x = _beam(rng)
    kq = dec(kq_fit(chamber, x) * (1 + rng.uniform(-0.002, 0.002)), 3)
    n = sig(_n_dw_cgy_nc(chamber, rng), 4)
    dose = rng.uniform(0.985, 1.015) * _open_pdd(x, rng) / 100 * mu
    return CorrectedReading(energy, chamber, mu, dec(dose / (kq * n), 3), kq, n)


def _readings(rng: random.Random, m_corr: float) -> dict[str, object]:
    """Raw readings that a chamber with plausible corrections gives for a corrected reading m_corr."""
    temp, press = dec(rng.uniform(18.0, 26.0), 1), dec(rng.uniform(93.0, 104.0), 1)
    p_elec = dec(rng.uniform(0.9975, 1.0025), 4)
    v_high, v_low = rng.choice(VOLTAGES)
    pion, ppol = rng.uniform(1.0025, 1.0125), rng.uniform(0.998, 1.004)  # P_ion of Farmer chambers at 300 V
    m_raw = m_corr / (pion * p_tp(temp, press) * p_elec * ppol)
    r = v_high / v_low
    return dict(temp_c=temp, press_kpa=press, p_elec=p_elec, v_high=v_high, v_low=v_low,
                routine_positive=rng.random() < 0.75, m_routine_nc=dec(m_raw, 3),
                m_opposite_nc=dec(m_raw * (2 * ppol - 1), 3), m_low_nc=dec(m_raw / (r + (1 - r) / pion), 3))


def sample_l2(rng: random.Random) -> RawReadings:
    energy, chamber, mu, x = _beam(rng)
    kq = dec(kq_fit(chamber, x) * (1 + rng.uniform(-0.002, 0.002)), 3)
    n = sci(_n_dw_cgy_nc(chamber, rng) * 1e7, 4)
    dose = rng.uniform(0.985, 1.015) * _open_pdd(x, rng) / 100 * mu
    return RawReadings(energy, chamber, mu, n_dw_gy_c=n, kq=kq, **_readings(rng, dose / (kq * n * 1e-7)))  # type: ignore[arg-type]


def _kq_table(chamber: str, rng: random.Random) -> tuple[float, ...]:
    """The chamber's k_Q at KQ_ROWS: the addendum fit with a smooth per-draw tilt of a few 0.1%."""
    e0, e1 = rng.uniform(-0.0015, 0.0015), rng.uniform(-0.0015, 0.0015)
    return tuple(dec(kq_fit(chamber, x) * (1 + e0 + e1 * (x - 63) / 23), 3) for x in KQ_ROWS)


def _kq_at(rows: tuple[int, ...], values: tuple[float, ...], x: float) -> float:
    i = bracket(rows, x)
    return interpolate(rows[i], values[i], rows[i + 1], values[i + 1], x)


def sample_l3(rng: random.Random) -> FullCalibration:
    energy, chamber, mu, x_beam = _beam(rng)
    foil = 50 if rng.random() < 0.7 else 30
    pb = dec(pdd_pb_for(x_beam, foil), 1)
    x = pdd_x_from_foil(pb, foil)
    values = _kq_table(chamber, rng)
    kq = _kq_at(KQ_ROWS, values, x)
    n = sci(_n_dw_cgy_nc(chamber, rng) * 1e7, 4)
    pdd = _open_pdd(x, rng)
    dose = rng.uniform(0.985, 1.015) * pdd / 100 * mu
    return FullCalibration(energy, chamber, mu, n_dw_gy_c=n, foil_cm=foil, pdd_pb=pb, pdd_clinical=pdd,
                           kq_pdd=KQ_ROWS, kq_values=values,
                           **_readings(rng, dose / (kq * n * 1e-7)))  # type: ignore[arg-type]


_CHAINS = {1: corrected_chain, 2: raw_chain, 3: full_chain}


@lru_cache(maxsize=64)
def _solve(level: int, p: object) -> float:
    """The reference answer (cached: a draw's plausibility check and its item both need it)."""
    return float(_CHAINS[level](p, Sheet()))  # type: ignore[arg-type]


# --- plausibility ---------------------------------------------------------------------------------

def _common(beam_mv: int, chamber: str, mu: int) -> list[str]:
    out = []
    if beam_mv not in ENERGIES:
        out.append("beam energy not one of 6, 10, 15, 18 MV")
    if chamber not in CHAMBERS:
        out.append("chamber not in the TG-51 addendum's Table I subset used here")
    if mu not in (100, 200):
        out.append("MU per reading not 100 or 200")
    return out


def violations_l1(p: CorrectedReading) -> list[str]:
    out = _common(p.beam_mv, p.chamber, p.mu)
    if not 0.94 <= p.kq <= 1.0:
        out.append("k_Q outside 0.94-1.00")
    if not 0.55 <= p.m_corr_nc * p.kq * p.n_dw_cgy_nc / p.mu <= 0.9:
        out.append("dose per MU at 10 cm outside 0.55-0.90 cGy/MU")
    return out


def _reading_rules(p: Raw) -> list[str]:
    """Pylinac's sanity ranges for the corrections (PROTOCOL-FACTS), from the printed readings."""
    out = []
    if not (15.0 <= p.temp_c <= 30.0 and 90.0 <= p.press_kpa <= 106.0):
        out.append("temperature or pressure outside the measurement range")
    if not 0.9 <= p_tp(p.temp_c, p.press_kpa) <= 1.1:
        out.append("P_TP outside 0.9-1.1")
    if min(p.m_routine_nc, p.m_opposite_nc, p.m_low_nc) <= 0 or p.m_low_nc >= p.m_routine_nc:
        out.append("readings must be positive magnitudes with M_L < M_H")
        return out
    if not 1.0 < p_ion_pulsed(p.v_high, p.v_low, p.m_routine_nc, p.m_low_nc) <= 1.05:
        out.append("P_ion outside 1.00-1.05")
    if not 0.98 <= p_pol(p.m_routine_nc, p.m_opposite_nc) <= 1.02:
        out.append("P_pol outside 0.98-1.02")
    if not 0.98 <= p.p_elec <= 1.02:
        out.append("P_elec outside 0.98-1.02")
    return out


def violations_l2(p: RawReadings) -> list[str]:
    out = _common(p.beam_mv, p.chamber, p.mu) + _reading_rules(p)
    if not 0.94 <= p.kq <= 1.0:
        out.append("k_Q outside 0.94-1.00")
    if not out and not 0.55 <= _solve(2, p) / p.mu <= 0.9:
        out.append("dose per MU at 10 cm outside 0.55-0.90 cGy/MU")
    return out


def violations_l3(p: FullCalibration) -> list[str]:
    out = _common(p.beam_mv, p.chamber, p.mu) + _reading_rules(p)
    if p.foil_cm not in FOIL:
        out.append("lead foil not at 30 or 50 cm")
    if tuple(p.kq_pdd) != KQ_ROWS or len(p.kq_values) != len(KQ_ROWS):
        out.append("k_Q table rows differ from the addendum's range")
    elif any(b >= a for a, b in zip(p.kq_values, p.kq_values[1:])):
        out.append("k_Q table not decreasing with %dd(10)x")
    x = pdd_x_from_foil(p.pdd_pb, p.foil_cm) if p.foil_cm in FOIL else 0.0
    if not 63.0 <= x <= 86.0:
        out.append("%dd(10)x outside the k_Q table (63-86%)")
    if not 60.0 <= p.pdd_clinical <= 86.0 or abs(p.pdd_clinical - x) > 3.0:
        out.append("clinical PDD(10) implausible for this beam quality")
    if not out and not 0.95 <= _solve(3, p) <= 1.05:
        out.append("clinical output outside 0.95-1.05 cGy/MU")
    return out


# --- prompts ------------------------------------------------------------------------------------------

def _intro(p: CorrectedReading | Raw) -> str:
    return (f"TG-51 reference dosimetry of the {p.beam_mv} MV photon beam of a linear accelerator (a pulsed beam). "
            f"Ion chamber: {p.chamber} (cylindrical), at 10 cm depth in water ({SETUP}). "
            f"Each reading is the charge collected for {p.mu} MU.")


def _readings_table(p: Raw) -> str:
    sign, other = ("+", "−") if p.routine_positive else ("−", "+")
    rows = [[f"{sign}{p.v_high} V (routine polarity, operating voltage)", fmt_dec(p.m_routine_nc, 3)],
            [f"{other}{p.v_high} V (opposite polarity)", fmt_dec(p.m_opposite_nc, 3)],
            [f"{sign}{p.v_low} V (routine polarity, reduced voltage)", fmt_dec(p.m_low_nc, 3)]]
    return "Chamber readings at 10 cm depth (magnitudes):\n\n" + table(["Bias voltage", "Reading (nC)"], rows)


def _conditions(p: Raw) -> list[str]:
    return [f"Temperature in the phantom at the chamber: {fmt_dec(p.temp_c, 1)} °C",
            f"Air pressure: {fmt_dec(p.press_kpa, 1)} kPa",
            f"Electrometer correction factor P_elec: {fmt_dec(p.p_elec, 4)}",
            f"Absorbed-dose-to-water calibration coefficient N_D,w (60Co): {fmt_sci(p.n_dw_gy_c, 4)} Gy/C"]


def quantity_10cm(p: CorrectedReading | RawReadings) -> str:
    return f"the absorbed dose to water at 10 cm depth delivered by the {p.mu} MU of this measurement"


def quantity_output(p: FullCalibration) -> str:
    return "the absorbed dose to water per MU at d_max for SSD 100 cm and a 10 × 10 cm² field (the clinical output)"


def prompt_l1(p: CorrectedReading) -> str:
    return "\n\n".join([
        _intro(p),
        bullets([f"Fully corrected reading M (P_TP, P_pol, P_ion and P_elec applied): {fmt_dec(p.m_corr_nc, 3)} nC",
                 f"Beam-quality conversion factor k_Q of this chamber in this beam: {fmt_dec(p.kq, 3)}",
                 f"Absorbed-dose-to-water calibration coefficient N_D,w (60Co): {fmt_sig(p.n_dw_cgy_nc, 4)} cGy/nC"]),
        ask(quantity_10cm(p), "cGy", PRECISION),
    ])


def prompt_l2(p: RawReadings) -> str:
    return "\n\n".join([
        _intro(p),
        _readings_table(p),
        bullets([*_conditions(p), f"Beam-quality conversion factor k_Q of this chamber in this beam: {fmt_dec(p.kq, 3)}"]),
        ask(quantity_10cm(p), "cGy", PRECISION),
    ])


def prompt_l3(p: FullCalibration) -> str:
    rows = [[str(x), fmt_dec(k, 3)] for x, k in zip(p.kq_pdd, p.kq_values)]
    return "\n\n".join([
        _intro(p),
        "Beam quality: the depth-dose measurement for the beam-quality specifier was made with a 1 mm lead foil in "
        f"the beam, {p.foil_cm} cm from the phantom surface ({SETUP}).\n\n"
        + bullets([f"%dd(10)Pb: {fmt_dec(p.pdd_pb, 1)}%", "The foil was removed for the dose measurement."]),
        _readings_table(p),
        bullets([*_conditions(p),
                 f"Clinical percent depth dose at 10 cm of the open beam (no foil), {SETUP}: "
                 f"PDD(10) = {fmt_dec(p.pdd_clinical, 1)}%"]),
        f"k_Q of the {p.chamber} against the photon-component depth dose:\n\n" + table(["%dd(10)x (%)", "k_Q"], rows),
        "Interpolate k_Q linearly between the rows of this table.",
        ask(quantity_output(p), "cGy/MU", PRECISION),
    ])


# --- error modes (seed 000, Table 6) --------------------------------------------------------------------

def _mode_answer(mode: str, level: int, p: object) -> float:
    return float(_CHAINS[level](p, Sheet(), mode))  # type: ignore[arg-type]


def _mode(name: str, description: str, category: str, levels: tuple[int, ...]) -> ErrorMode:
    return ErrorMode(name, description, category, levels, partial(_mode_answer, name))  # type: ignore[arg-type]


ERROR_MODES = (
    _mode("pressure_inverted", "pressure ratio inverted in P_TP (P/101.33)", "conceptual", (2, 3)),
    _mode("temperature_celsius", "temperature not converted to kelvin in P_TP (T/22)", "unit", (2, 3)),
    _mode("reference_20c", "20 °C reference temperature (293.2 K) used in P_TP", "convention", (2, 3)),
    _mode("pion_continuous", "continuous-beam two-voltage formula used for a pulsed beam", "conceptual", (2, 3)),
    _mode("pion_ratio_inverted", "reading ratio inverted in P_ion (M_L/M_H)", "conceptual", (2, 3)),
    _mode("pion_omitted", "P_ion omitted", "correction", (2, 3)),
    _mode("ppol_omitted", "P_pol omitted", "correction", (2, 3)),
    _mode("pelec_omitted", "P_elec omitted", "correction", (2, 3)),
    _mode("foil_conversion_omitted", "%dd(10)Pb used as %dd(10)x (lead-foil conversion omitted)", "correction", (3,)),
    _mode("other_foil_position", "lead-foil equation for the other foil position", "convention", (3,)),
    _mode("kq_nearest_row", "k_Q from the nearest table row instead of interpolation", "correction", (3,)),
    _mode("kq_omitted", "k_Q omitted (k_Q = 1)", "conceptual", (1, 2, 3)),
    _mode("ndw_unit_slip", "N_D,w unit slip, cGy/nC read as Gy/nC (dose x100)", "unit", (1, 2, 3)),
    _mode("output_at_10cm", "dose per MU at 10 cm reported as the d_max output", "conceptual", (3,)),
    _mode("pddx_for_dmax", "%dd(10)x used for the d_max conversion instead of the clinical PDD(10)", "conceptual",
          (3,)),
    _mode("transposed_final", "two adjacent digits transposed in the final result", "arithmetic", (1, 2, 3)),
)

GENERATOR = Generator(
    name="tg51",
    title="Photon beam calibration",
    document="AAPM TG-51 (1999) with the 2014 photon addendum",
    band=0.005,
    levels={
        1: LevelSpec(1, CorrectedReading, sample_l1, violations_l1, partial(_solve, 1), lambda p: "cGy",
                     quantity_10cm, prompt_l1, corrected_chain),
        2: LevelSpec(2, RawReadings, sample_l2, violations_l2, partial(_solve, 2), lambda p: "cGy",
                     quantity_10cm, prompt_l2, raw_chain),
        3: LevelSpec(3, FullCalibration, sample_l3, violations_l3, partial(_solve, 3), lambda p: "cGy/MU",
                     quantity_output, prompt_l3, full_chain),
    },
    error_modes=ERROR_MODES,
    checking=True,
)
