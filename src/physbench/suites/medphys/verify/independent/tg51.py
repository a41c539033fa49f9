"""Independent TG-51 photon calibration solver: every input read from the printed prompt.

Physics from AAPM TG-51 (Almond et al., Med. Phys. 26, 1999): Eqs. 8-14; the 22 °C and
101.33 kPa reference conditions and the lead-foil equations are protocol knowledge that
the level-2 and level-3 prompts deliberately leave out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from physbench.suites.medphys.verify.independent import parse_text as pt
from physbench.suites.medphys.verify.independent.errors import PromptDefect

# Calibration-coefficient units, as a factor to cGy/nC.
_NDW_TO_CGY_PER_NC = {"cGy/nC": 1.0, "Gy/nC": 100.0, "mGy/nC": 0.1, "Gy/C": 1e-7}
# Charge units, as a factor to nC.
_CHARGE_TO_NC = {"nC": 1.0, "pC": 1e-3, "µC": 1e3, "C": 1e9}
# Dose units the answer may be asked in, as a factor from cGy.
_DOSE_FROM_CGY = {"cGy": 1.0, "Gy": 0.01, "mGy": 10.0}


# --- TG-51 equations -------------------------------------------------------------------


def p_tp(temperature_c: float, pressure_kpa: float) -> float:
    """Temperature-pressure correction, TG-51 Eq. 10 (reference 22.0 °C, 101.33 kPa)."""
    return (273.2 + temperature_c) / (273.2 + 22.0) * (101.33 / pressure_kpa)


def p_pol(m_plus: float, m_minus: float, m_routine: float) -> float:
    """Polarity correction, TG-51 Eq. 9: (|M+| + |M-|)/(2|M|), M at the routine polarity."""
    return (abs(m_plus) + abs(m_minus)) / (2.0 * abs(m_routine))


def p_ion_pulsed(v_high: float, v_low: float, m_high: float, m_low: float) -> float:
    """Ion-recombination correction for pulsed beams, two-voltage method, TG-51 Eq. 12."""
    ratio_v = v_high / v_low
    return (1.0 - ratio_v) / (m_high / m_low - ratio_v)


def pdd10x_from_lead_foil(pdd10_pb: float, foil_distance_cm: float) -> float:
    """%dd(10)x from %dd(10)Pb measured with 1 mm Pb, TG-51 Eqs. 13 (foil at 50 ± 5 cm,
    for %dd(10)Pb >= 73%) and 14 (foil at 30 ± 1 cm, for %dd(10)Pb >= 71%); below the
    threshold %dd(10)x = %dd(10)Pb (TG-51 Sec. VII.B)."""
    if 45.0 <= foil_distance_cm <= 55.0:
        if pdd10_pb >= 73.0:
            return (0.8905 + 0.00150 * pdd10_pb) * pdd10_pb  # TG-51 Eq. 13
        return pdd10_pb
    if 29.0 <= foil_distance_cm <= 31.0:
        if pdd10_pb >= 71.0:
            return (0.8116 + 0.00264 * pdd10_pb) * pdd10_pb  # TG-51 Eq. 14
        return pdd10_pb
    raise PromptDefect(
        f"lead foil at {foil_distance_cm:g} cm: TG-51 Eqs. 13-14 hold only for 50 ± 5 cm or 30 ± 1 cm"
    )


# --- reading the prompt ------------------------------------------------------------------


@dataclass(frozen=True)
class Readings:
    """Raw readings (nC) and bias voltages (V, magnitudes) of the two-voltage, two-polarity set."""

    m_raw: float  # routine polarity, operating voltage
    m_opposite: float  # opposite polarity, operating voltage
    m_low: float  # routine polarity, reduced voltage
    v_high: float
    v_low: float


def _readings(text: str) -> Readings:
    """The readings table of levels 2-3, each row named by its polarity and voltage."""
    pt.requires(
        text,
        r"Chamber readings at [\d.]+ cm depth \(magnitudes\)",
        "the readings are not stated to be magnitudes, so their signs are unknown",
    )
    header = pt.one_match(text, r"\|\s*Bias voltage\s*\|\s*Reading \((\w+)\)\s*\|", "the readings table")
    to_nc = _CHARGE_TO_NC.get(header.group(1))
    if to_nc is None:
        raise PromptDefect(f"readings in an unknown charge unit {header.group(1)!r}")
    rows = pt.table_after(text, r"\|\s*Bias voltage\s*\|", "chamber readings")
    found: dict[str, tuple[float, float]] = {}
    for cells in rows:
        if len(cells) != 2:
            raise PromptDefect(f"a readings row has {len(cells)} cells: {cells}")
        m = re.fullmatch(r"([+\-\u2212])\s*(\d+(?:\.\d+)?)\s*V\s*\(([^()]*)\)", cells[0])
        if m is None:
            raise PromptDefect(f"cannot read the bias voltage {cells[0]!r}")
        sign = -1.0 if m.group(1) in "-\u2212" else 1.0
        volts, role = sign * float(m.group(2)), m.group(3)
        if "opposite polarity" in role:
            key = "opposite"
        elif "routine polarity" in role and "operating voltage" in role:
            key = "routine"
        elif "routine polarity" in role and "reduced voltage" in role:
            key = "reduced"
        else:
            raise PromptDefect(f"cannot tell which reading {cells[0]!r} is")
        if key in found:
            raise PromptDefect(f"two readings for the {key} setting")
        found[key] = (volts, pt.to_float(cells[1]) * to_nc)
    missing = {"routine", "opposite", "reduced"} - found.keys()
    if missing:
        raise PromptDefect(f"the readings table lacks the {sorted(missing)} reading(s)")
    (v_op, m_raw), (v_opp, m_opp), (v_red, m_low) = found["routine"], found["opposite"], found["reduced"]
    if v_opp != -v_op:
        raise PromptDefect("the opposite-polarity reading is not at the operating voltage of opposite sign")
    if v_red * v_op <= 0 or abs(v_red) >= abs(v_op):
        raise PromptDefect("the reduced-voltage reading is not a lower voltage at the routine polarity")
    return Readings(m_raw, m_opp, m_low, abs(v_op), abs(v_red))


def _corrected_reading(text: str) -> float:
    """M = P_ion P_TP P_elec P_pol M_raw (TG-51 Eq. 8), every factor from the printed data."""
    if re.search(r"\bpulsed\b", text) is None:
        raise PromptDefect("the beam is not stated to be pulsed, so the P_ion formula (Eq. 11 or 12) is open")
    r = _readings(text)
    temperature_c = pt.labelled(text, r"Temperature in the phantom at the chamber:", "the temperature", "°C")
    pressure, p_unit = pt.labelled_with_unit(text, r"Air pressure:", ("kPa", "hPa"), "the air pressure")
    pressure_kpa = pressure * (0.1 if p_unit == "hPa" else 1.0)
    p_elec = pt.labelled(text, r"Electrometer correction factor P_elec:", "P_elec")
    polarity = p_pol(r.m_raw, r.m_opposite, r.m_raw)
    recombination = p_ion_pulsed(r.v_high, r.v_low, r.m_raw, r.m_low)
    return recombination * p_tp(temperature_c, pressure_kpa) * p_elec * polarity * r.m_raw


def _n_dw_cgy_per_nc(text: str) -> float:
    value, unit = pt.labelled_with_unit(
        text,
        r"Absorbed-dose-to-water calibration coefficient N_D,w \(60Co\):",
        tuple(_NDW_TO_CGY_PER_NC),
        "N_D,w",
    )
    return value * _NDW_TO_CGY_PER_NC[unit]


def _chamber_depth_cm(text: str) -> float:
    return pt.labelled(text, r"Ion chamber:[^\n]*?, at", "the chamber depth", "cm depth in water")


def _mu_per_reading(text: str) -> float:
    return pt.labelled(text, r"Each reading is the charge collected for", "the MU of a reading", "MU")


def _dose_per_reading_cgy(text: str, corrected_nc: float) -> float:
    """D_w = M k_Q N_D,w (TG-51 Eq. 3) for one reading, in cGy."""
    if re.search(r"removed for the dose measurement", text) is None and "lead foil" in text:
        raise PromptDefect("the prompt does not say whether the lead foil was in the beam for the readings")
    return corrected_nc * _kq(text) * _n_dw_cgy_per_nc(text)


def _kq(text: str) -> float:
    """k_Q as printed (levels 1-2) or interpolated in the printed table at %dd(10)x (level 3)."""
    if re.search(r"\|\s*%dd\(10\)x \(%\)\s*\|\s*k_Q\s*\|", text):
        pt.requires(text, r"Interpolate k_Q linearly", "the prompt does not say how to read k_Q from its table")
        rows = pt.table_after(text, r"\|\s*%dd\(10\)x \(%\)\s*\|\s*k_Q\s*\|", "k_Q")
        xs = [pt.to_float(r[0]) for r in rows]
        ys = [pt.to_float(r[1]) for r in rows]
        return pt.interpolate(_pdd10x(text), xs, ys, "k_Q against %dd(10)x")
    return pt.labelled(text, r"Beam-quality conversion factor k_Q of this chamber in this beam:", "k_Q")


def _pdd10x(text: str) -> float:
    """%dd(10)x from the lead-foil measurement the prompt describes."""
    foil = pt.one_match(
        text,
        r"made with a ([\d.]+) mm lead foil in the beam, ([\d.]+) cm from the phantom surface",
        "the lead foil's thickness and position",
    )
    if float(foil.group(1)) != 1.0:
        raise PromptDefect(f"a {foil.group(1)} mm foil: TG-51 Eqs. 13-14 are for 1 mm of lead")
    pdd10_pb = pt.labelled(text, r"%dd\(10\)Pb:", "%dd(10)Pb", "%")
    return pdd10x_from_lead_foil(pdd10_pb, float(foil.group(2)))


def _asked_unit(text: str, per_mu: bool) -> tuple[str, float]:
    """The requested unit and its factor from cGy (or cGy/MU)."""
    unit = pt.boxed_unit(text)
    base = unit[: -len("/MU")] if per_mu and unit.endswith("/MU") else unit
    if per_mu != unit.endswith("/MU") or base not in _DOSE_FROM_CGY:
        raise PromptDefect(f"the answer is asked in {unit!r}, not a dose{' per MU' if per_mu else ''} unit")
    return unit, _DOSE_FROM_CGY[base]


# --- levels ------------------------------------------------------------------------------


def _level1(text: str) -> tuple[float, str]:
    """Dose from a fully corrected reading: D = M k_Q N_D,w."""
    m_value, m_unit = pt.labelled_with_unit(
        text, r"Fully corrected reading M \([^)\n]*\):", tuple(_CHARGE_TO_NC), "the corrected reading M"
    )
    dose = _dose_per_reading_cgy(text, m_value * _CHARGE_TO_NC[m_unit])
    return _dose_for_asked_mu(text, dose)


def _level2(text: str) -> tuple[float, str]:
    """Dose from raw readings with P_TP, P_pol, P_ion (pulsed), P_elec applied."""
    return _dose_for_asked_mu(text, _dose_per_reading_cgy(text, _corrected_reading(text)))


def _dose_for_asked_mu(text: str, dose_per_reading_cgy: float) -> tuple[float, str]:
    """Scale a reading's dose to the MU and depth the question asks about."""
    q = pt.one_match(
        text,
        r"absorbed dose to water at ([\d.]+) cm depth delivered by the (\d+(?:\.\d+)?) MU",
        "the depth and MU of the requested dose",
    )
    if float(q.group(1)) != _chamber_depth_cm(text):
        raise PromptDefect("the dose is asked at a depth other than the chamber's")
    unit, factor = _asked_unit(text, per_mu=False)
    return dose_per_reading_cgy * float(q.group(2)) / _mu_per_reading(text) * factor, unit


def _level3(text: str) -> tuple[float, str]:
    """Clinical output at d_max: D_w(10)/MU divided by the open-beam PDD(10)/100."""
    depth = _chamber_depth_cm(text)
    pt.requires(text, r"absorbed dose to water per MU at d_max", "the prompt does not ask for the output at d_max")
    pdd = pt.one_match(
        text,
        r"Clinical percent depth dose at ([\d.]+) cm of the open beam \(no foil\)[^\n]*: PDD\(([\d.]+)\) = (" + pt.NUMBER + r")%",
        "the clinical PDD at the calibration depth",
    )
    if float(pdd.group(1)) != depth or float(pdd.group(2)) != depth:
        raise PromptDefect("the clinical PDD is not given at the chamber depth")
    per_mu_cgy = _dose_per_reading_cgy(text, _corrected_reading(text)) / _mu_per_reading(text)
    unit, factor = _asked_unit(text, per_mu=True)
    return per_mu_cgy / (pt.to_float(pdd.group(3)) / 100.0) * factor, unit


_LEVELS = {1: _level1, 2: _level2, 3: _level3}


def solve(level: int, prompt: str) -> tuple[float, str]:
    """The answer (value, unit) to a TG-51 calculation prompt of ``level``."""
    if level not in _LEVELS:
        raise ValueError(f"tg51 has levels 1-3, not {level!r}")
    text = pt.checked(prompt)
    if "TG-51" not in text:
        raise PromptDefect("the prompt does not name the TG-51 protocol")
    return pt.finite_answer(_LEVELS[level], text)
