"""MU calculation (AAPM TG-71) as step chains: the reference solver, the error modes and the worksheets.

Each level's chain is written once (see worksheet.py). With an exact `Sheet()` it is the reference
solver; with `mode=` it returns an error mode's answer; on a display sheet it writes the worksheet,
whose layout varies by variant (optional note steps, merged steps, order of factors).

Formalism (TG-71, factor-based hand calculation). D'0 is the dose per MU at the normalization point,
depth d0 for SSD0 and a 10 x 10 field; the generated items use d0 = dmax and SSD0 = 100 cm, and a
params file may give another normalization (TG-71's examples use d0 = 10 cm at SSD0 = 90 cm):
  SSD set-up:  D' = D'0 Sc(rc) Sp(rs) PDD_N(d)/100 WF TF ((SSD0 + d0)/(SSD + d0))^2,
               PDD_N = 100 PDD(d)/PDD(d0), the depth dose renormalized at d0 (PDD(d0) = 100 at dmax)
  SAD set-up:  D' = D'0 Sc(rc) Sp(rd) TPR(d, rd) WF TF ((SSD0 + d0)/SAD)^2,
               TPR(d, r) = TMR(d, r)/TMR(d0, r) (= TMR when d0 = dmax)
  MU = D / D', D the dose per fraction; equivalent squares by 4A/P (2XY/(X + Y) for a rectangle).
"""

from __future__ import annotations

from typing import Callable, Sequence

from physbench.suites.medphys.mu_beam import bracket, interp2, lerp
from physbench.suites.medphys.mu_params import (  # noqa: F401 (re-exported for the generator)
    SAD_CM,
    SSD0_CM,
    ExtendedSsd,
    IsocentricBlocked,
    OpenFieldSsd,
    calibrated_at_dmax_ssd100,
    normalization_depth,
    num,
)
from physbench.suites.medphys.numbers import fmt_dec, transpose_digits
from physbench.suites.medphys.worksheet import Sheet, Shown, show



def _fmt1(v: float) -> str:
    return fmt_dec(v, 1)


def _fmt3(v: float) -> str:
    return fmt_dec(v, 3)


def mayneord_f(ssd1_cm: float, ssd2_cm: float, dmax_cm: float, depth_cm: float) -> float:
    """Mayneord F factor converting a PDD measured at SSD1 to SSD2 (Khan, ch. 9):
    F = [(SSD2 + dmax)/(SSD1 + dmax)]^2 [(SSD1 + d)/(SSD2 + d)]^2."""
    return ((ssd2_cm + dmax_cm) / (ssd1_cm + dmax_cm)) ** 2 * ((ssd1_cm + depth_cm) / (ssd2_cm + depth_cm)) ** 2


def _given(s: Sheet, value: float, decimals: int) -> Shown:
    """An input as printed on a display sheet; the exact solver takes the params as they are (already
    rounded as the prompt prints them) and skips the formatting."""
    return show(value, dec=decimals) if s.display else Shown(value, "")


# --- shared steps --------------------------------------------------------------------------------

def _final(value: float, mode: str | None) -> float:
    return transpose_digits(value, 4) if mode == "transposed_final" else value


def _dose_per_fraction(s: Sheet, p: ExtendedSsd | IsocentricBlocked, mode: str | None) -> tuple[Shown | None, str]:
    """Dose per fraction in cGy (a step), or None and the inline expression on a merged layout."""
    total, n = num(p.total_dose_gy), p.fractions
    if mode == "total_dose":
        formula, subst, value = "D = D_total × 100 cGy/Gy", f"{total} Gy × 100 cGy/Gy", p.total_dose_gy * 100.0
    else:
        formula, subst = "D = (D_total/n) × 100 cGy/Gy", f"({total} Gy/{n}) × 100 cGy/Gy"
        value = p.total_dose_gy / n * 100.0
    if s.vary("dose_inline", 0.3):
        inline = f"({total} Gy × 100 cGy/Gy)" if mode == "total_dose" else f"({total} Gy/{n} × 100 cGy/Gy)"
        return None, inline
    return s.step("dose", "Dose per fraction", formula, subst, value, "cGy", dec=1), ""


def _mu_step(s: Sheet, dose: Shown | None, inline: str, p: ExtendedSsd | IsocentricBlocked, rate: Shown,
             mode: str | None) -> Shown:
    if dose is not None:
        return s.step("mu", "Monitor units", "MU = D/D′", f"{dose.text} cGy / {rate.text} cGy/MU",
                      _final(dose / rate, mode), "MU", dec=1)
    value = (p.total_dose_gy * 100.0 if mode == "total_dose" else p.total_dose_gy / p.fractions * 100.0) / rate
    formula = "MU = (D_total × 100 cGy/Gy)/D′" if mode == "total_dose" else "MU = (D_total/n × 100 cGy/Gy)/D′"
    return s.step("mu", "Monitor units", formula, f"{inline} / {rate.text} cGy/MU", _final(value, mode), "MU", dec=1)


def _scatter(s: Sheet, sc: Shown, sp: Shown | None, mode: str | None) -> list[tuple[str, Shown, str]]:
    """The scatter factors of the dose-rate product; a layout may combine them into Scp first."""
    if s.vary("scp", 0.3):
        if sp is None:  # the error mode: Sc taken as the total scatter factor
            scp = s.step("scp", "Total scatter factor", "Scp = Sc", "", sc, dec=4)
        else:
            scp = s.step("scp", "Total scatter factor", "Scp = Sc × Sp", f"{sc.text} × {sp.text}", sc * sp, dec=4)
        return [("Scp", scp, "")]
    return [("Sc", sc, "")] + ([("Sp", sp, "")] if sp is not None else [])


def _dose_rate(s: Sheet, title: str, factors: list[tuple[str, Shown, str]], extra: tuple[str, str, float] | None,
               output: Shown, mode: str | None) -> Shown:
    """D' = D'0 x (factors in a layout's order) [x an inline inverse-square factor]."""
    ordered = s.order("factors", factors)
    names = ["D′0"] + [name for name, _, _ in ordered]
    subst = [f"{output.text} cGy/MU"] + [text or v.text for _, v, text in ordered]
    value = float(output)
    for _, v, _ in ordered:
        value *= v
    if extra is not None:
        names.append(extra[0])
        subst.append(extra[1])
        value *= extra[2]
    return s.step("rate", title, "D′ = " + " × ".join(names), " × ".join(subst), value, "cGy/MU", dec=4)


# --- level 1 ----------------------------------------------------------------------------------------

def l1_chain(p: OpenFieldSsd, s: Sheet, mode: str | None = None) -> Shown:
    """SSD 100 cm: MU = D / (D'0 Sc Sp PDD/100); no inverse-square factor at the calibration SSD."""
    output, sc, sp = _given(s, p.output_cgy_per_mu, 3), _given(s, p.sc, 3), _given(s, p.sp, 3)
    pdd, dose = _given(s, p.pdd_percent, 1), _given(s, p.dose_cgy, 0)
    general = not calibrated_at_dmax_ssd100(p)
    if general:  # another normalization: renormalized PDD and the ISF from SSD0 + d0 to 100 + d0
        pdd = _renormalized_pdd(s, p, pdd)
    elif s.vary("isf_note", 0.3):
        dm = fmt_dec(p.dmax_cm, 1)
        s.step("isf", "Inverse-square factor", "ISF = ((SSD0 + dmax)/(SSD + dmax))²",
               f"((100 + {dm})/(100 + {dm}))²", 1.0, dec=4)
    scatter = _scatter(s, sc, None if mode == "sp_omitted" else sp, mode)
    factors = scatter + [("PDD/100", Shown(pdd / 100.0, ""), f"{pdd.text}/100")]
    if general:
        factors.append(("ISF", _isf_ssd(s, p, SSD0_CM, mode), ""))
    if s.vary("one_step", 0.3):
        ordered = s.order("factors", factors)
        names = " × ".join(["D′0"] + [n for n, _, _ in ordered])
        subst = " × ".join([f"{output.text} cGy/MU"] + [t or v.text for _, v, t in ordered])
        value = float(dose) / (float(output) * _product(v for _, v, _ in ordered))
        return s.step("mu", "Monitor units", f"MU = D/({names})", f"{dose.text} cGy / ({subst})",
                      _final(value, mode), "MU", dec=1)
    rate = _dose_rate(s, "Dose per MU at the prescription depth", factors, None, output, mode)
    return s.step("mu", "Monitor units", "MU = D/D′", f"{dose.text} cGy / {rate.text} cGy/MU",
                  _final(dose / rate, mode), "MU", dec=1)


def _renormalized_pdd(s: Sheet, p: OpenFieldSsd | ExtendedSsd, pdd: Shown) -> Shown:
    """PDD_N = 100 PDD(d)/PDD(d0) when D'0 is normalized at a depth d0 other than dmax (TG-71)."""
    if p.pdd_calibration_percent == 100.0:
        return pdd
    ref = _given(s, p.pdd_calibration_percent, 1)
    return s.step("pdd_n", "Depth dose renormalized at the calibration depth", "PDD_N = 100 × PDD(d)/PDD(d0)",
                  f"100 × {pdd.text}/{ref.text}", 100.0 * pdd / ref, "%", dec=2)


def _isf_ssd(s: Sheet, p: OpenFieldSsd | ExtendedSsd, ssd_cm: float, mode: str | None) -> Shown:
    """ISF = ((SSD0 + d0)/(SSD + d0))² from the normalization point to the treatment depth d0 (TG-71)."""
    d0, ssd0 = normalization_depth(p), p.calibration_ssd_cm
    t0, tc, ts = fmt_dec(d0, 1), num(ssd0), num(ssd_cm)
    if mode == "isq_inverted":
        return s.step("isf", "Inverse-square factor", "ISF = ((SSD + d0)/(SSD0 + d0))²",
                      f"(({ts} + {t0})/({tc} + {t0}))²", ((ssd_cm + d0) / (ssd0 + d0)) ** 2, dec=4)
    return s.step("isf", "Inverse-square factor", "ISF = ((SSD0 + d0)/(SSD + d0))²",
                  f"(({tc} + {t0})/({ts} + {t0}))²", ((ssd0 + d0) / (ssd_cm + d0)) ** 2, dec=4)


def _product(values) -> float:  # type: ignore[no-untyped-def]
    out = 1.0
    for v in values:
        out *= v
    return out


# --- level 2 ----------------------------------------------------------------------------------------

def l2_chain(p: ExtendedSsd, s: Sheet, mode: str | None = None) -> Shown:
    """Extended SSD: D' = D'0 Sc Sp PDD/100 WF TF ((100 + dmax)/(SSD + dmax))^2, MU = D/D'."""
    output, sc, sp = _given(s, p.output_cgy_per_mu, 3), _given(s, p.sc, 3), _given(s, p.sp, 3)
    pdd, wf, tf = _given(s, p.pdd_percent, 1), _given(s, p.wedge_factor, 3), _given(s, p.tray_factor, 3)
    ssd, dm, d = num(p.ssd_cm), fmt_dec(p.dmax_cm, 1), fmt_dec(p.depth_cm, 1)
    dose, inline = _dose_per_fraction(s, p, mode)
    if not calibrated_at_dmax_ssd100(p):
        pdd = _renormalized_pdd(s, p, pdd)
    if mode == "mayneord_applied":
        f = mayneord_f(SSD0_CM, p.ssd_cm, p.dmax_cm, p.depth_cm)
        pdd = s.step("pdd", "Percent depth dose with the Mayneord F factor",
                     "PDD′ = PDD × [(SSD + dmax)/(100 + dmax)]² × [(100 + d)/(SSD + d)]²",
                     f"{pdd.text}% × [({ssd} + {dm})/(100 + {dm})]² × [(100 + {d})/({ssd} + {d})]²",
                     pdd * f, "%", dec=2)
    elif s.vary("pdd_note", 0.35):
        pdd = s.step("pdd", "Percent depth dose at the treatment SSD",
                     f"PDD measured at SSD {ssd} cm, used as measured (no Mayneord F factor)", "", pdd, "%", dec=1)
    isf_value, isf_formula, isf_subst = _isf_extended(p, mode)
    inline_isf = s.vary("isf_inline", 0.35)
    isf: Shown | None = None
    if isf_value is not None and not inline_isf:
        isf = s.step("isf", "Inverse-square factor", isf_formula, isf_subst, isf_value, dec=4)
    factors = _scatter(s, sc, None if mode == "sp_omitted" else sp, mode)
    factors.append(("PDD/100", Shown(pdd / 100.0, ""), f"{pdd.text}/100"))
    if mode != "wedge_omitted":
        factors.append(("WF", wf, ""))
    if mode != "tray_omitted":
        factors.append(("TF", tf, ""))
    extra = None
    if isf is not None:
        factors.append(("ISF", isf, ""))
    elif isf_value is not None:
        extra = (isf_formula.split(" = ", 1)[1], isf_subst, isf_value)
    rate = _dose_rate(s, "Dose per MU at the prescription depth", factors, extra, output, mode)
    return _mu_step(s, dose, inline, p, rate, mode)


def _isf_extended(p: ExtendedSsd, mode: str | None) -> tuple[float | None, str, str]:
    """Inverse-square factor from the calibration point (100 + dmax) to the treatment dmax (SSD + dmax);
    with another normalization, from SSD0 + d0 to SSD + d0."""
    ssd, dm = num(p.ssd_cm), fmt_dec(p.dmax_cm, 1)
    if mode == "isq_extended_omitted":
        return None, "", ""
    if not calibrated_at_dmax_ssd100(p):
        d0, ssd0 = normalization_depth(p), p.calibration_ssd_cm
        t0, tc = fmt_dec(d0, 1), num(ssd0)
        if mode == "isq_inverted":
            return (((p.ssd_cm + d0) / (ssd0 + d0)) ** 2, "ISF = ((SSD + d0)/(SSD0 + d0))²",
                    f"(({ssd} + {t0})/({tc} + {t0}))²")
        if mode == "isq_ssd_alone":
            return (ssd0 / p.ssd_cm) ** 2, "ISF = (SSD0/SSD)²", f"({tc}/{ssd})²"
        return (((ssd0 + d0) / (p.ssd_cm + d0)) ** 2, "ISF = ((SSD0 + d0)/(SSD + d0))²",
                f"(({tc} + {t0})/({ssd} + {t0}))²")
    if mode == "isq_inverted":
        return (((p.ssd_cm + p.dmax_cm) / (SSD0_CM + p.dmax_cm)) ** 2, "ISF = ((SSD + dmax)/(SSD0 + dmax))²",
                f"(({ssd} + {dm})/(100 + {dm}))²")
    if mode == "isq_ssd_alone":
        return (SSD0_CM / p.ssd_cm) ** 2, "ISF = (SSD0/SSD)²", f"(100/{ssd})²"
    return (((SSD0_CM + p.dmax_cm) / (p.ssd_cm + p.dmax_cm)) ** 2, "ISF = ((SSD0 + dmax)/(SSD + dmax))²",
            f"((100 + {dm})/({ssd} + {dm}))²")


# --- level 3 ----------------------------------------------------------------------------------------

def _interp_step(s: Sheet, key: str, title: str, name: Callable[[str], str], grid: Sequence[float],
                 values: Sequence[float], fmt: Callable[[float], str], x: Shown | float, x_label: str, x_text: str,
                 shown: dict) -> Shown:
    """One linear interpolation written out: name(x) = v0 + (v1 - v0) (x - g0)/(g1 - g0)."""
    i = bracket(grid, x)
    v0, v1 = values[i], values[i + 1]
    value = lerp(grid[i], grid[i + 1], v0, v1, x)
    if not s.display:  # the exact solver needs no text
        return s.step(key, title, "", "", value, **shown)
    g0, g1 = num(grid[i]), num(grid[i + 1])
    t0, t1 = fmt(v0), fmt(v1)
    formula = f"{name(x_label)} = {name(g0)} + [{name(g1)} − {name(g0)}] × ({x_label} − {g0})/({g1} − {g0})"
    subst = f"{t0} + ({t1} − {t0}) × ({x_text} − {g0})/({g1} − {g0})"
    return s.step(key, title, formula, subst, value, **shown)


def _table_lookup(s: Sheet, p: IsocentricBlocked, r: Shown, r_label: str, mode: str | None) -> Shown:
    """TMR(d, r) by bilinear interpolation, in the order the layout chooses; PDD/100 for the PDD error."""
    pdd = mode == "pdd_for_tmr"
    table = p.pdd_table if pdd else p.tmr_table
    q = "PDD" if pdd else "TMR"
    fmt = _fmt1 if pdd else _fmt3
    shown = {"dec": 2} if pdd else {"dec": 4}
    depth = _given(s, p.depth_cm, 1)
    rows, cols = p.depths_cm, p.fields_cm
    i, j = bracket(rows, p.depth_cm), bracket(cols, r)
    unit = "%" if pdd else ""
    if s.vary("depth_first", 0.5):  # interpolate in depth at the two bracketing field sizes first
        parts = []
        for key, jj in (("tmr_r1", j), ("tmr_r2", j + 1)):
            c = num(cols[jj])
            column = [row[jj] for row in table]
            parts.append(_interp_step(s, key, f"Depth-dose factor for the {c} cm field",
                                      lambda a, c=c: f"{q}({a}, {c})",
                                      rows, column, fmt, depth, "d", depth.text,
                                      dict(shown, unit=unit) if unit else shown))
        lo, hi, grid, x, x_label, x_text = parts[0], parts[1], cols, r, r_label, r.text
        name = lambda a: f"{q}(d, {a})"  # noqa: E731
    else:  # interpolate in field size at the two bracketing depths first (the usual layout)
        parts = []
        for key, ii in (("tmr_d1", i), ("tmr_d2", i + 1)):
            dd = num(rows[ii])
            parts.append(_interp_step(s, key, f"Depth-dose factor at {dd} cm depth", lambda a, dd=dd: f"{q}({dd}, {a})",
                                      cols, table[ii], fmt, r, r_label, r.text,
                                      dict(shown, unit=unit) if unit else shown))
        lo, hi, grid, x, x_label, x_text = parts[0], parts[1], rows, depth, "d", depth.text
        name = lambda a: f"{q}({a}, {r_label})"  # noqa: E731
    g = bracket(grid, x)
    g0, g1 = num(grid[g]), num(grid[g + 1])
    value = lerp(grid[g], grid[g + 1], lo, hi, x)
    head = f"{name(g0)} + [{name(g1)} − {name(g0)}] × ({x_label} − {g0})/({g1} − {g0})"
    subst = f"{lo.text} + ({hi.text} − {lo.text}) × ({x_text} − {g0})/({g1} − {g0})"
    if pdd:
        return s.step("tmr", "Depth-dose factor at the isocenter depth", f"PDD(d, {r_label})/100 = [{head}]/100",
                      f"[{subst}]/100", value / 100.0, dec=4)
    return s.step("tmr", "Depth-dose factor at the isocenter depth", f"TMR(d, {r_label}) = {head}", subst, value,
                  dec=4)


def _tpr(s: Sheet, p: IsocentricBlocked, tmr: Shown, r: Shown, r_label: str) -> Shown:
    """TPR(d, r) = TMR(d, r)/TMR(d0, r) when D'0 is normalized at a depth d0 other than dmax."""
    d0 = p.calibration_depth_cm
    assert d0 is not None
    at_d0 = interp2(p.depths_cm, p.fields_cm, p.tmr_table, d0, r)
    t0 = fmt_dec(d0, 1)
    ref = s.step("tmr_d0", f"TMR at the normalization depth {t0} cm", f"TMR({t0}, {r_label})",
                 "bilinear in the TMR table", at_d0, dec=4)
    return s.step("tpr", "Tissue-phantom ratio at the isocenter depth", f"TPR(d, {r_label}) = TMR(d, {r_label})/"
                  f"TMR({t0}, {r_label})", f"{tmr.text}/{ref.text}", tmr / ref, dec=4)


def _isf_isocentric(p: IsocentricBlocked, mode: str | None) -> tuple[float, str, str]:
    """((SSD0 + d0)/SAD)²: from the normalization point to the isocenter (TG-71)."""
    if calibrated_at_dmax_ssd100(p) and p.sad_cm == SAD_CM:
        dm = fmt_dec(p.dmax_cm, 1)
        if mode == "isq_inverted":
            return (SAD_CM / (SSD0_CM + p.dmax_cm)) ** 2, "(SAD/(SSD0 + dmax))²", f"(100/(100 + {dm}))²"
        return ((SSD0_CM + p.dmax_cm) / SAD_CM) ** 2, "((SSD0 + dmax)/SAD)²", f"((100 + {dm})/100)²"
    d0, ssd0, sad = normalization_depth(p), p.calibration_ssd_cm, p.sad_cm
    t0, tc, ts = fmt_dec(d0, 1), num(ssd0), num(sad)
    if mode == "isq_inverted":
        return (sad / (ssd0 + d0)) ** 2, "(SAD/(SSD0 + d0))²", f"({ts}/({tc} + {t0}))²"
    return ((ssd0 + d0) / sad) ** 2, "((SSD0 + d0)/SAD)²", f"(({tc} + {t0})/{ts})²"


def l3_chain(p: IsocentricBlocked, s: Sheet, mode: str | None = None) -> Shown:
    """Isocentric blocked, wedged field: D' = D'0 Sc(rc) Sp(rd) TMR(d, rd) WF TF ((100 + dmax)/100)^2."""
    output, wf, tf = _given(s, p.output_cgy_per_mu, 3), _given(s, p.wedge_factor, 3), _given(s, p.tray_factor, 3)
    x, y = num(p.coll_x_cm), num(p.coll_y_cm)
    area, perim = _given(s, p.blocked_area_cm2, 1), _given(s, p.blocked_perimeter_cm, 1)
    dose, inline = _dose_per_fraction(s, p, mode)
    squares: dict[str, Shown] = {}
    for which in s.order("squares", ["rc", "rd"]):
        if which == "rc" and mode == "collimator_mean_square":
            squares["rc"] = s.step("rc", "Equivalent square of the collimator field", "rc = (X + Y)/2",
                                   f"({x} + {y})/2", (p.coll_x_cm + p.coll_y_cm) / 2.0, "cm", dec=2)
        elif which == "rc":
            squares["rc"] = s.step("rc", "Equivalent square of the collimator field", "rc = 2XY/(X + Y)",
                                   f"2 × {x} × {y}/({x} + {y})",
                                   2.0 * p.coll_x_cm * p.coll_y_cm / (p.coll_x_cm + p.coll_y_cm), "cm", dec=2)
        else:
            squares["rd"] = s.step("rd", "Equivalent square of the blocked field", "rd = 4A/P",
                                   f"4 × {area.text}/{perim.text}", 4.0 * area / perim, "cm", dec=2)
    rc, rd = squares["rc"], squares["rd"]
    sc_at, sp_at = (("rd", rd), ("rc", rc)) if mode == "sc_sp_swapped" else (("rc", rc), ("rd", rd))
    found: dict[str, Shown] = {}
    for which in s.order("scatter", ["sc", "sp"]):
        if which == "sc":
            found["sc"] = _interp_step(s, "sc", "Collimator-scatter factor", lambda a: f"Sc({a})", p.fields_cm,
                                       p.sc_table, _fmt3, sc_at[1], sc_at[0], sc_at[1].text, {"dec": 4})
        elif mode != "sp_omitted":
            found["sp"] = _interp_step(s, "sp", "Phantom-scatter factor", lambda a: f"Sp({a})", p.fields_cm,
                                       p.sp_table, _fmt3, sp_at[1], sp_at[0], sp_at[1].text, {"dec": 4})
    if s.vary("dd_note", 0.3):
        what = ("PDD at SSD 100 cm" if mode == "pdd_for_tmr"
                else "TMR for an isocentric set-up (PDD tables are for fixed-SSD set-ups)")
        s.step("dd_note", "Depth-dose quantity", f"{what}, at depth d", "", p.depth_cm, "cm", dec=1)
    r_for_tmr, r_label = (rc, "rc") if mode == "tmr_at_collimator_field" else (rd, "rd")
    tmr = _table_lookup(s, p, r_for_tmr, r_label, mode)
    if p.calibration_depth_cm is not None and mode != "pdd_for_tmr":
        tmr = _tpr(s, p, tmr, r_for_tmr, r_label)
    factors = _scatter(s, found["sc"], found.get("sp"), mode)
    factors.append(("PDD/100" if mode == "pdd_for_tmr" else "TMR", tmr, ""))
    if mode != "wedge_omitted":
        factors.append(("WF", wf, ""))
    if mode != "tray_omitted":
        factors.append(("TF", tf, ""))
    extra = None
    if mode != "isocentric_isq_omitted":
        value, formula, subst = _isf_isocentric(p, mode)
        if s.vary("isf_inline", 0.35):
            extra = (formula, subst, value)
        else:
            factors.append(("ISF", s.step("isf", "Inverse-square factor", f"ISF = {formula}", subst, value, dec=4), ""))
    rate = _dose_rate(s, "Dose per MU at the isocenter", factors, extra, output, mode)
    return _mu_step(s, dose, inline, p, rate, mode)
