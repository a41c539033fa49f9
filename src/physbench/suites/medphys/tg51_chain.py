"""TG-51 step chains: one calculation per level that is the reference solver (exact sheet), every
error mode (`mode=`) and the colleague's worksheet (display sheet, with layout variation).

Layout choices (`sheet.vary` / `sheet.order`) only add note steps, split or merge steps and reorder
factors, so a correct worksheet varies in length and an omitted factor is not given away by the
form of the sheet. A mode changes the step where its error happens (same key) and drops steps
that the error makes meaningless.
"""

from __future__ import annotations

from physbench.suites.medphys.numbers import transpose_digits
from physbench.suites.medphys.tg51_physics import (
    FOIL, KELVIN, P0_KPA, T0_K, CorrectedReading, FullCalibration, Raw, RawReadings, bracket, interpolate,
    nearest_row, p_pol,
)
from physbench.suites.medphys.worksheet import Sheet, Shown, show

DOSE_TITLE = "Absorbed dose to water at 10 cm"
OUTPUT_TITLE = "Clinical output at d_max"


def given(s: Sheet, value: float, **precision: int) -> Shown:
    """A printed input: as shown on a display sheet; on the exact sheet the params are already the
    printed values, so no formatting is needed (this keeps the reference solver fast)."""
    return show(value, **precision) if s.display else Shown(value, "")


def _final(value: float, mode: str | None) -> float:
    return transpose_digits(value, 4) if mode == "transposed_final" else value


# --- chamber-reading corrections (levels 2 and 3) -------------------------------------------------

def _p_tp(p: Raw, s: Sheet, mode: str | None) -> Shown:
    """TG-51 Eq. 10; the reference temperature 22 °C is protocol knowledge, not printed."""
    t, pr = given(s, p.temp_c, dec=1), given(s, p.press_kpa, dec=1)
    if mode == "temperature_celsius":  # the error: °C used where kelvin is needed, T/22
        temp, temp_sub, ratio = "(T/22)", f"({t.text}/22)", t / 22.0
    else:
        ref_c, ref_k = (20.0, 293.2) if mode == "reference_20c" else (22.0, T0_K)
        ref_text = f"{ref_k:.1f}"
        if s.vary("reference_note", 0.35):
            ref = s.step("t_ref", "Reference temperature in kelvin", "T0 = 273.2 + T0(°C)", f"273.2 + {ref_c:.0f}",
                         KELVIN + ref_c, "K", dec=1)
            ref_text = ref.text
        if s.vary("kelvin"):
            tk = s.step("t_k", "Chamber temperature in kelvin", "T = 273.2 + T(°C)", f"273.2 + {t.text}",
                        KELVIN + t, "K", dec=1)
            temp, temp_sub, ratio = "(T/T0)", f"({tk.text}/{ref_text})", tk / ref_k
        else:
            temp, temp_sub, ratio = f"[(273.2 + T)/{ref_k:.1f}]", f"[(273.2 + {t.text})/{ref_text}]", (KELVIN + t) / ref_k
    if mode == "pressure_inverted":
        press, press_sub, pfac = "(P/101.33)", f"({pr.text}/101.33)", pr / P0_KPA
    else:
        press, press_sub, pfac = "(101.33/P)", f"(101.33/{pr.text})", P0_KPA / pr
    order = s.order("ptp_factors", [(temp, temp_sub), (press, press_sub)])
    return s.step("p_tp", "Temperature-pressure correction", "P_TP = " + " × ".join(f for f, _ in order),
                  " × ".join(v for _, v in order), ratio * pfac, dec=4)


def _labels(p: Raw) -> tuple[str, str]:
    return ("M+", "M−") if p.routine_positive else ("M−", "M+")


def _p_pol(p: Raw, s: Sheet) -> Shown:
    """TG-51 Eq. 9, readings as magnitudes."""
    mr, mo = given(s, p.m_routine_nc, dec=3), given(s, p.m_opposite_nc, dec=3)
    r, o = _labels(p)
    return s.step("p_pol", "Polarity correction", f"P_pol = (|{r}| + |{o}|)/(2|{r}|)",
                  f"({mr.text} + {mo.text})/(2 × {mr.text})", p_pol(mr, mo), dec=4)


def _p_ion(p: Raw, s: Sheet, mode: str | None) -> Shown:
    """TG-51 Eq. 12 for a pulsed beam; the continuous-beam Eq. 11 and the inverted ratio are modes."""
    mh, ml = given(s, p.m_routine_nc, dec=3), given(s, p.m_low_nc, dec=3)
    num, den, label = (ml, mh, "M_L/M_H") if mode == "pion_ratio_inverted" else (mh, ml, "M_H/M_L")
    if s.vary("ion_ratio"):
        ratio: float = s.step("ion_ratio", "Ratio of the readings at the two voltages", label,
                              f"{num.text}/{den.text}", num / den, dec=5)
        ratio_text = ratio.text  # type: ignore[attr-defined]
    else:
        ratio, ratio_text = num / den, f"{num.text}/{den.text}"
    v = f"{p.v_high}/{p.v_low}"
    r = p.v_high / p.v_low
    if mode == "pion_continuous":
        formula = f"P_ion = [1 − (V_H/V_L)²]/[{label} − (V_H/V_L)²]"
        sub, value = f"[1 − ({v})²]/[{ratio_text} − ({v})²]", (1 - r * r) / (ratio - r * r)
    else:
        formula = f"P_ion = (1 − V_H/V_L)/({label} − V_H/V_L)"
        sub, value = f"(1 − {v})/({ratio_text} − {v})", (1 - r) / (ratio - r)
    return s.step("p_ion", "Ion-recombination correction (two-voltage method)", formula, sub, value, dec=4)


def corrected_reading(p: Raw, s: Sheet, mode: str | None) -> Shown:
    """M = P_ion P_TP P_elec P_pol M_raw (TG-51 Eq. 8), in nC; the product of the corrections may be
    shown as a step of its own (layout)."""
    ptp = _p_tp(p, s, mode)
    factors: list[tuple[str, Shown]] = [("P_TP", ptp)]
    if mode != "ppol_omitted":
        factors.append(("P_pol", _p_pol(p, s)))
    if mode != "pion_omitted":
        factors.append(("P_ion", _p_ion(p, s, mode)))
    if mode != "pelec_omitted":
        factors.append(("P_elec", given(s, p.p_elec, dec=4)))
    factors = s.order("m_factors", factors)
    m_raw = given(s, p.m_routine_nc, dec=3)
    product = 1.0
    for _, f in factors:
        product *= f
    names = " × ".join(n for n, _ in factors)
    numbers = " × ".join(f.text for _, f in factors)
    if s.vary("corr_product", 0.4):
        product = s.step("corrections", "Product of the correction factors", names, numbers, product, dec=4)
        return s.step("m_corr", "Fully corrected reading", f"M = ({names}) × M_raw",
                      f"{product.text} × {m_raw.text} nC", product * m_raw, "nC", dec=3)
    return s.step("m_corr", "Fully corrected reading", f"M = {names} × M_raw", f"{numbers} × {m_raw.text} nC",
                  product * m_raw, "nC", dec=3)


def _n_dw(p: Raw, s: Sheet, mode: str | None) -> tuple[Shown, str, float]:
    """N_D,w from Gy/C to the unit of the dose step: (value, unit text, factor to cGy)."""
    n = given(s, p.n_dw_gy_c, sci=4)
    if mode == "ndw_unit_slip":  # the slip: 10^7 where 10^9 nC/C belongs, i.e. cGy/nC read as Gy/nC
        return (s.step("n_dw", "Calibration coefficient in cGy/nC", "N_D,w = N_D,w(Gy/C) × (100 cGy/Gy)/(10^7 nC/C)",
                       f"{n.text} × 100/10^7", n * 1e-5, "cGy/nC", sig=4), " cGy/nC", 1.0)
    if s.vary("ndw_in_gy", 0.35):
        return (s.step("n_dw", "Calibration coefficient in Gy/nC", "N_D,w = N_D,w(Gy/C)/(10^9 nC/C)",
                       f"{n.text}/10^9", n * 1e-9, "Gy/nC", sig=4), " Gy/nC", 100.0)
    return (s.step("n_dw", "Calibration coefficient in cGy/nC", "N_D,w = N_D,w(Gy/C) × (100 cGy/Gy)/(10^9 nC/C)",
                   f"{n.text} × 100/10^9", n * 1e-7, "cGy/nC", sig=4), " cGy/nC", 1.0)


def _dose_terms(s: Sheet, m: Shown, kq: Shown | None, n: Shown, n_unit: str, to_cgy: float) -> tuple[str, str, float]:
    """D_w = M k_Q N_D,w (TG-51 Eq. 3): formula, substitution and value in cGy."""
    factors = [("M", m, " nC"), ("N_D,w", n, n_unit)]
    if kq is not None:
        factors.insert(1, ("k_Q", kq, ""))
    factors = s.order("dose_factors", factors)
    value = to_cgy
    for _, f, _ in factors:
        value *= f
    tail = " × 100 cGy/Gy" if to_cgy != 1.0 else ""
    return (" × ".join(name for name, _, _ in factors) + tail,
            " × ".join(f.text + unit for _, f, unit in factors) + tail, value)


def _dose_step(p: CorrectedReading | RawReadings, s: Sheet, m: Shown, n: Shown, n_unit: str, to_cgy: float,
               mode: str | None) -> Shown:
    """The final step of levels 1 and 2: D_w(10) in cGy, sometimes via M N_D,w first (layout)."""
    if mode == "kq_omitted":
        formula, sub, value = _dose_terms(s, m, None, n, n_unit, to_cgy)
        return s.step("dose", DOSE_TITLE, "D_w = " + formula, sub, _final(value, mode), "cGy", sig=4)
    kq = given(s, p.kq, dec=3)
    if s.vary("split_mn", 0.4):
        formula, sub, value = _dose_terms(s, m, None, n, n_unit, to_cgy)
        mn = s.step("m_n", "Reading times calibration coefficient", formula, sub, value, "cGy", dec=2)
        return s.step("dose", DOSE_TITLE, f"D_w = k_Q × ({formula})", f"{kq.text} × {mn.text} cGy",
                      _final(kq * mn, mode), "cGy", sig=4)
    formula, sub, value = _dose_terms(s, m, kq, n, n_unit, to_cgy)
    return s.step("dose", DOSE_TITLE, "D_w = " + formula, sub, _final(value, mode), "cGy", sig=4)


# --- level chains ------------------------------------------------------------------------------------

def corrected_chain(p: CorrectedReading, s: Sheet, mode: str | None = None) -> Shown:
    """Level 1: D_w = M k_Q N_D,w with M already corrected and N_D,w in cGy/nC."""
    m, n = given(s, p.m_corr_nc, dec=3), given(s, p.n_dw_cgy_nc, sig=4)
    n_unit, to_cgy = " cGy/nC", 1.0
    if mode == "ndw_unit_slip":
        n = s.step("n_dw", "Calibration coefficient in cGy/nC", "N_D,w = N_D,w(Gy/nC) × 100 cGy/Gy", f"{n.text} × 100",
                   n * 100.0, "cGy/nC", sig=4)
    elif s.vary("ndw_in_gy", 0.35):
        n = s.step("n_dw", "Calibration coefficient in Gy/nC", "N_D,w = N_D,w(cGy/nC)/(100 cGy/Gy)", f"{n.text}/100",
                   n / 100.0, "Gy/nC", sig=4)
        n_unit, to_cgy = " Gy/nC", 100.0
    return _dose_step(p, s, m, n, n_unit, to_cgy, mode)


def raw_chain(p: RawReadings, s: Sheet, mode: str | None = None) -> Shown:
    """Level 2: corrections from raw readings, N_D,w from Gy/C, D_w(10) for the MU delivered."""
    m = corrected_reading(p, s, mode)
    n, n_unit, to_cgy = _n_dw(p, s, mode)
    return _dose_step(p, s, m, n, n_unit, to_cgy, mode)


def _pdd_x_terms(p: FullCalibration, s: Sheet, mode: str | None) -> tuple[str, str, float]:
    """TG-51 Eqs. 13-14 (not printed in the item): formula, substitution and value of %dd(10)x."""
    pb = given(s, p.pdd_pb, dec=1)
    if mode == "foil_conversion_omitted":
        return "%dd(10)x = %dd(10)Pb", "", pb
    foil = (30 if p.foil_cm == 50 else 50) if mode == "other_foil_position" else p.foil_cm
    a, b, threshold = FOIL[foil]
    if pb >= threshold:
        return (f"%dd(10)x = ({a:.4f} + {b:.5f} × %dd(10)Pb) × %dd(10)Pb",
                f"({a:.4f} + {b:.5f} × {pb.text}) × {pb.text}", (a + b * pb) * pb)
    return f"%dd(10)x = %dd(10)Pb (below {threshold:.0f}% with the foil at {foil} cm)", "", pb


def _pdd_x(p: FullCalibration, s: Sheet, mode: str | None) -> Shown:
    formula, subst, value = _pdd_x_terms(p, s, mode)
    return s.step("pdd_x", "Photon-component depth dose", formula, subst, value, "%", dec=2)


def _kq_table(p: FullCalibration, s: Sheet, x: Shown, mode: str | None,
              prefix: tuple[str, str] = ("", "")) -> Shown:
    """k_Q interpolated linearly in the chamber's printed table (or read at the nearest row: a mode).
    `prefix` carries the %dd(10)x working when a layout merges it into this step."""
    rows, values = p.kq_pdd, p.kq_values
    title = "Beam-quality conversion factor"
    if mode == "kq_nearest_row":
        i = nearest_row(rows, x)
        return s.step("kq", title, prefix[0] + f"k_Q = k_Q({rows[i]})", prefix[1].removesuffix("; k_Q = "),
                      values[i], dec=4)
    i = bracket(rows, x)
    x0, x1, y0, y1 = rows[i], rows[i + 1], values[i], values[i + 1]
    return s.step("kq", title, prefix[0] + f"k_Q = k_Q({x0}) + [k_Q({x1}) − k_Q({x0})] × (%dd(10)x − {x0})/({x1} − {x0})",
                  prefix[1] + f"{y0:.3f} + ({y1:.3f} − {y0:.3f}) × ({x.text} − {x0})/({x1} − {x0})",
                  interpolate(x0, y0, x1, y1, x), dec=4)


def full_chain(p: FullCalibration, s: Sheet, mode: str | None = None) -> Shown:
    """Level 3: corrections, beam quality with the lead foil, k_Q, D_w(10)/MU and the output at d_max."""
    m = corrected_reading(p, s, mode)
    x: Shown | None = None
    kq: Shown | None = None
    if mode != "kq_omitted" and s.vary("merge_quality", 0.4):
        # layout: %dd(10)x is worked out inside the k_Q step
        x_formula, x_subst, x_value = _pdd_x_terms(p, s, mode)
        x = s.given(x_value, dec=2)
        kq = _kq_table(p, s, x, mode, prefix=(f"{x_formula}; ", f"%dd(10)x = {x_subst + ' = ' if x_subst else ''}"
                                                                 f"{x.text}%; k_Q = "))
    elif mode != "kq_omitted":
        x = _pdd_x(p, s, mode)
        kq = _kq_table(p, s, x, mode)
    n, n_unit, to_cgy = _n_dw(p, s, mode)
    formula, sub, dose = _dose_terms(s, m, kq, n, n_unit, to_cgy)
    mu = p.mu
    if mode == "pddx_for_dmax" and x is not None:
        pdd_label, pdd = "%dd(10)x", x
    else:
        pdd_label, pdd = "PDD(10)", given(s, p.pdd_clinical, dec=1)
    split, merge = s.vary("d10_split"), s.vary("merge_dmax", 0.35)
    if split:
        d10 = s.step("d10", DOSE_TITLE, "D_w(10) = " + formula, sub, dose, "cGy", dec=2)
        per_mu, per_mu_sub, per_mu_value = "D_w(10)/MU", f"{d10.text} cGy/{mu} MU", d10 / mu
    else:
        per_mu, per_mu_sub, per_mu_value = f"({formula})/MU", f"({sub})/{mu} MU", dose / mu
    if mode == "output_at_10cm":  # the error: the dose per MU at 10 cm reported as the d_max output
        return s.step("dmax", OUTPUT_TITLE, "D'(d_max) = " + per_mu, per_mu_sub, _final(per_mu_value, mode),
                      "cGy/MU", sig=4)
    if merge:
        return s.step("dmax", OUTPUT_TITLE, f"D'(d_max) = {per_mu}/({pdd_label}/100)",
                      f"{per_mu_sub}/({pdd.text}/100)", _final(per_mu_value / (pdd / 100.0), mode), "cGy/MU", sig=4)
    d10_mu = s.step("d10_mu", "Dose per MU at 10 cm", "D_w(10)/MU = " + per_mu if not split else per_mu,
                    per_mu_sub, per_mu_value, "cGy/MU", dec=4)
    return s.step("dmax", OUTPUT_TITLE, f"D'(d_max) = [D_w(10)/MU]/({pdd_label}/100)",
                  f"{d10_mu.text} cGy/MU/({pdd.text}/100)", _final(d10_mu / (pdd / 100.0), mode), "cGy/MU", sig=4)
