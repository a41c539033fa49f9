"""NCRP Report 151 barrier calculations written once as worksheet step chains.

With an exact `Sheet()` a chain is the reference solver (or, with `mode`, an error mode's answer);
with a display sheet it writes the colleague's worksheet. Layout choices (`sheet.vary`,
`sheet.order`) change how a correct worksheet is set out, never its value.
"""

from __future__ import annotations

import math
from typing import Any

from physbench.suites.medphys import ncrp151_tables as tables
from physbench.suites.medphys.worksheet import Sheet, Shown, show

ROUNDING = {"b": 4, "n": 3, "t": 2}  # shown precision: B (sci figures), n (decimals), thickness (decimals)


def fraction(den: int) -> Shown:
    """A use or occupancy factor 1/den as the items print it ("1", "1/4", "1/40")."""
    return Shown(1.0 / den, "1" if den == 1 else f"1/{den}")


def _dist(s: Sheet, sym: str, d: Shown, mode: str | None) -> tuple[str, str, float]:
    """A distance squared as written (symbol, numbers) and its value; d alone for the distance mode.

    Correct sheets write the square either as d² or as d × d (a layout choice), so that neither
    the bare symbol nor the bare number marks a sheet that forgot the square.
    """
    number = f"({d.text} m)"
    if mode == "distance_not_squared":
        return sym, number, float(d)
    if s.vary("d_form", 0.3):
        return f"{sym} × {sym}", f"{number} × {number}", d * d
    return f"{sym}²", f"{number}²", d * d


def _product(factors: list[tuple[str, Shown, str]]) -> tuple[str, str, float]:
    names = " × ".join(name for name, _, _ in factors)
    subst = " × ".join(v.text + unit for _, v, unit in factors)
    value = 1.0
    for _, v, _ in factors:
        value *= v
    return names, subst, value


def goal_in_sv(s: Sheet, goal_msv: float, mode: str | None) -> Shown:
    """Level 2-3: the weekly design goal converted from mSv to Sv (optionally its own step)."""
    p_msv = show(goal_msv, dec=2)
    scale = 1.0 if mode == "goal_msv_as_sv" else 1e-3
    if s.vary("p_step"):
        formula = "P = P(mSv/week)" + ("" if mode == "goal_msv_as_sv" else " × 10^-3")
        subst = f"{p_msv.text}" + ("" if mode == "goal_msv_as_sv" else " × 10^-3")
        return s.step("p_sv", "Shielding design goal in Sv/week", formula, subst, goal_msv * scale, "Sv/week", sci=2)
    text = p_msv.text if mode == "goal_msv_as_sv" else f"({p_msv.text} × 10^-3)"
    return Shown(goal_msv * scale, text)


def occupancy_note(s: Sheet, place: str, t: Shown, mode: str | None) -> None:
    """Optional layout step naming the occupancy factor (never on a sheet that omits T)."""
    if mode != "t_omitted" and s.vary("t_note"):
        if t.text == "1":
            s.step("t_note", f"Occupancy factor for {place}", "T", "", 1.0, dec=0)
        else:
            s.step("t_note", f"Occupancy factor for {place}", f"T = {t.text}", "", float(t), dec=3)


def _group(text: str) -> str:
    return f"({text})" if " × " in text else text


def _paren(text: str) -> str:
    if text.startswith("(") and text.endswith(")"):
        return text
    return f"({text})" if " " in text else text


def tvl_number(s: Sheet, b: Shown, key: str, label: str, sub: str, mode: str | None) -> Shown:
    """n = log10(1/B), or ln(1/B) for the natural-logarithm mode; `sub` names the component."""
    n_sym, b_sym, b_text = f"n{sub}", f"B{sub}", _paren(b.text)
    title = f"Number of tenth-value layers{label}"
    if mode == "natural_log":
        return s.step(key, title, f"{n_sym} = ln(1/{b_sym})", f"ln(1/{b_text})", math.log(1.0 / b),
                      dec=ROUNDING["n"])
    if s.vary(key + "_ln_form", 0.3):  # the same number through natural logarithms
        return s.step(key, title, f"{n_sym} = ln(1/{b_sym}) / ln 10", f"ln(1/{b_text}) / ln 10",
                      math.log(1.0 / b) / math.log(10.0), dec=ROUNDING["n"])
    if s.vary(key + "_form"):
        return s.step(key, title, f"{n_sym} = −log10({b_sym})", f"−log10({b.text})", -math.log10(b),
                      dec=ROUNDING["n"])
    return s.step(key, title, f"{n_sym} = log10(1/{b_sym})", f"log10(1/{b_text})", math.log10(1.0 / b),
                  dec=ROUNDING["n"])


def _guard(s: Sheet, key: str, value_unclipped: float) -> bool:
    """Whether the thickness is written with its clip at zero: when the clip bites, or as a layout choice."""
    return value_unclipped < 0.0 or s.vary(key + "_guard", 0.3)


def _clip(text: str, guarded: bool) -> str:
    return f"max(0, {text})" if guarded else text


def layered_thickness(s: Sheet, n: Shown, tvl1: Shown, tvle: Shown, key: str, title: str, sub: str,
                      first_is_equilibrium: bool) -> Shown:
    """t = TVL1 + (n − 1) TVLe (TVLe throughout for the 'TVLe for the first TVL' mode)."""
    t_sym, n_sym = f"t{sub}", f"n{sub}"
    if first_is_equilibrium:
        return single_tvl_thickness(s, n, tvle, key, title, t_sym, n_sym, "TVLe")
    unclipped = tvl1 + (n - 1.0) * tvle
    guarded = _guard(s, key, unclipped)
    formula = f"{t_sym} = " + _clip(f"TVL1 + ({n_sym} − 1) × TVLe", guarded)
    if unclipped >= 0.0 and s.vary(key + "_split"):
        rest = s.step(key + "_rest", "Thickness beyond the first tenth-value layer", f"({n_sym} − 1) × TVLe",
                      f"({n.text} − 1) × {tvle.text} cm", (n - 1.0) * tvle, "cm", dec=ROUNDING["t"])
        return s.step(key, title, formula, _clip(f"{tvl1.text} cm + {rest.text} cm", guarded),
                      max(0.0, tvl1 + rest), "cm", dec=ROUNDING["t"])
    return s.step(key, title, formula, _clip(f"{tvl1.text} cm + ({n.text} − 1) × {tvle.text} cm", guarded),
                  tables.thickness(n, tvl1, tvle), "cm", dec=ROUNDING["t"])


def single_tvl_thickness(s: Sheet, n: Shown, tvl: Shown, key: str, title: str, t_sym: str, n_sym: str,
                         tvl_sym: str) -> Shown:
    """t = n × TVL for a single TVL (clipped at zero like the layered form)."""
    guarded = _guard(s, key, n * tvl)
    return s.step(key, title, f"{t_sym} = " + _clip(f"{n_sym} × {tvl_sym}", guarded),
                  _clip(f"{n.text} × {tvl.text} cm", guarded), tables.thickness(n, tvl, tvl), "cm",
                  dec=ROUNDING["t"])


# --- primary barriers (levels 1 and 2) -------------------------------------------------------------

def primary_transmission_steps(s: Sheet, p: Any, goal: Shown, mode: str | None) -> Shown:
    """B = P d² / (W U T) in one step, or via the unshielded weekly dose H = W U T / d²."""
    w, d = show(p.workload_gy_week, dec=0), show(p.distance_m, dec=1)
    u, t = fraction(p.use_den), fraction(p.occupancy_den)
    d_sym, d_num, d_pow = _dist(s, "d", d, mode)
    if mode != "u_omitted" and s.vary("u_note"):
        formula = "U" if u.text == "1" else f"U = {u.text}"
        s.step("u_note", "Use factor of this primary barrier", formula, "", float(u), dec=2)
    occupancy_note(s, p.location, t, mode)
    factors = [("W", w, " Gy/week")]
    if mode != "u_omitted":
        factors.append(("U", u, ""))
    if mode != "t_omitted":
        factors.append(("T", t, ""))
    names, subst, wut = _product(s.order("wut", factors))
    if s.vary("split_h"):
        h = s.step("h0", "Weekly dose at the point without a barrier", f"H = {names} / {_group(d_sym)}",
                   f"{subst} / {_group(d_num)}", wut / d_pow, "Gy/week", sci=ROUNDING["b"])
        return s.step("b", "Required transmission", "B = P / H",
                      f"{_paren(goal.text)} Sv/week / {_paren(h.text)} Gy/week",
                      goal / h, sci=ROUNDING["b"])
    return s.step("b", "Required transmission", f"B = P × {d_sym} / ({names})",
                  f"{goal.text} Sv/week × {d_num} / ({subst})", goal * d_pow / wut, sci=ROUNDING["b"])


def single_tvl_chain(p: Any, s: Sheet, mode: str | None = None) -> Shown:
    """Level 1: primary barrier of one material with a single TVL: t = n × TVL."""
    goal = show(p.goal_sv_week, sci=2)
    b = primary_transmission_steps(s, p, goal, mode)
    n = tvl_number(s, b, "n", "", "", mode)
    tvl = show(p.tvl_cm, dec=1)
    return single_tvl_thickness(s, n, tvl, "t", f"Thickness of {p.material}", "t", "n", "TVL")


def primary_chain(p: Any, s: Sheet, mode: str | None = None) -> Shown:
    """Level 2: concrete primary barrier, goal in mSv/week, t = TVL1 + (n − 1) TVLe."""
    goal = goal_in_sv(s, p.goal_msv_week, mode)
    b = primary_transmission_steps(s, p, goal, mode)
    n = tvl_number(s, b, "n", "", "", mode)
    tvl1, tvle = show(p.tvl1_cm, dec=0), show(p.tvle_cm, dec=0)
    return layered_thickness(s, n, tvl1, tvle, "t", "Concrete thickness", "", mode == "tvle_first")


# --- secondary barrier (level 3) ---------------------------------------------------------------------

def _leakage_block(s: Sheet, p: Any, goal: Shown, w: Shown, t: Shown, u: Shown | None, mode: str | None) -> Shown:
    """Leakage: B_L = P d_L² / (10⁻³ W T), n_L, t_L = TVL1 + (n_L − 1) TVLe."""
    d = show(p.leak_distance_m, dec=1)
    d_sym, d_num, d_pow = _dist(s, "d_L", d, mode)
    frac = show(p.leakage_fraction, sci=1)
    if mode == "leak_fraction_omitted":
        first = [("W", w, " Gy/week")]
    elif s.vary("leak_dose"):
        wl = s.step("w_leak", "Weekly leakage dose at 1 m from the target", "W_L = 10^-3 × W",
                    f"{frac.text} × {w.text} Gy/week", float(frac) * w, "Gy/week", sig=4)
        first = [("W_L", wl, " Gy/week")]
    else:
        first = [("10^-3", frac, ""), ("W", w, " Gy/week")]
    rest = [("U", u, "")] if u is not None else []
    if mode != "t_omitted":
        rest.append(("T", t, ""))
    names, subst, denom = _product(first + s.order("leak_factors", rest) if rest else first)
    b = s.step("b_leak", "Leakage transmission", f"B_L = P × {d_sym} / ({names})",
               f"{goal.text} Sv/week × {d_num} / ({subst})", goal * d_pow / denom, sci=ROUNDING["b"])
    n = tvl_number(s, b, "n_leak", " for leakage", "_L", mode)
    tvl1, tvle = show(p.leak_tvl1_cm, dec=0), show(p.leak_tvle_cm, dec=0)
    return layered_thickness(s, n, tvl1, tvle, "t_leak", "Leakage barrier thickness", "_L", mode == "tvle_first")


def _scatter_block(s: Sheet, p: Any, goal: Shown, w: Shown, t: Shown, u: Shown | None, mode: str | None) -> Shown:
    """Patient scatter: B_PS = P d_sca² d_sec² 400 / (a W T F), n_PS, t_PS = n_PS × TVL_PS."""
    d_sca, d_sec = show(p.target_patient_m, dec=1), show(p.distance_m, dec=1)
    a, f = show(p.scatter_fraction, sci=3), show(p.field_area_cm2, dec=0)
    sca_sym, sca_num, sca_pow = _dist(s, "d_sca", d_sca, mode)
    sec_sym, sec_num, sec_pow = _dist(s, "d_sec", d_sec, mode)
    factors = [("a", a, "")]
    rest = [("W", w, " Gy/week")] + ([("U", u, "")] if u is not None else [])
    if mode != "t_omitted":
        rest.append(("T", t, ""))
    factors += s.order("scatter_factors", rest)
    if mode == "f400_omitted":
        field_num, field_names, field_subst = 1.0, "", ""
    elif s.vary("field_step"):
        ff = s.step("f400", "Field-size factor", "F / 400", f"{f.text} cm² / 400 cm²", f / 400.0, dec=4)
        factors.append(("(F/400)", ff, ""))
        field_num, field_names, field_subst = 1.0, "", ""
    else:
        factors.append(("F", f, " cm²"))
        field_num, field_names, field_subst = 400.0, " × 400", " × 400 cm²"
    names, subst, denom = _product(factors)
    b = s.step("b_scatter", "Patient-scatter transmission",
               f"B_PS = P × {sca_sym} × {sec_sym}{field_names} / ({names})",
               f"{goal.text} Sv/week × {sca_num} × {sec_num}{field_subst} / ({subst})",
               goal * sca_pow * sec_pow * field_num / denom, sci=ROUNDING["b"])
    n = tvl_number(s, b, "n_scatter", " for patient scatter", "_PS", mode)
    tvl = show(p.scatter_tvl_cm, dec=0)
    return single_tvl_thickness(s, n, tvl, "t_scatter", "Patient-scatter barrier thickness", "t_PS", "n_PS", "TVL_PS")


def _combine(s: Sheet, t_leak: Shown, t_scatter: Shown, p: Any, mode: str | None) -> Shown:
    """Two-source rule: add one HVL, 0.301 TVL, when the two differ by less than that TVL. The TVL is
    the leakage TVLe (NCRP 151, v1.1 items) or, for v1.0 items, that of the component needing more."""
    title = "Barrier thickness by the two-source rule"
    big = max(t_leak, t_scatter)
    if p.hvl_rule == "thicker" and t_scatter > t_leak:
        tvle, name, sym = show(p.scatter_tvl_cm, dec=0), "patient-scattered radiation", "TVL_PS"
    else:
        tvle, name, sym = show(p.leak_tvle_cm, dec=0), "leakage radiation", "TVLe"
    if s.vary("diff_step"):
        diff = s.step("diff", "Difference between the two thicknesses", "Δt = |t_L − t_PS|",
                      f"|{t_leak.text} − {t_scatter.text}| cm", abs(t_leak - t_scatter), "cm", dec=ROUNDING["t"])
    else:
        diff = abs(t_leak - t_scatter)
    pair = f"max({t_leak.text}, {t_scatter.text}) cm"
    if diff >= tvle or mode == "no_added_hvl":
        return s.step("t", title, "t = max(t_L, t_PS)", pair, big, "cm", dec=ROUNDING["t"])
    if s.vary("hvl_step"):
        hvl = s.step("hvl", f"One HVL of the {name}", f"HVL = 0.301 × {sym}", f"0.301 × {tvle.text} cm",
                     tables.HVL_PER_TVL * tvle, "cm", dec=ROUNDING["t"])
        return s.step("t", title, "t = max(t_L, t_PS) + HVL", f"{pair} + {hvl.text} cm", big + hvl, "cm",
                      dec=ROUNDING["t"])
    return s.step("t", title, f"t = max(t_L, t_PS) + 0.301 × {sym}", f"{pair} + 0.301 × {tvle.text} cm",
                  big + tables.HVL_PER_TVL * tvle, "cm", dec=ROUNDING["t"])


def secondary_chain(p: Any, s: Sheet, mode: str | None = None) -> Shown:
    """Level 3: leakage and patient-scatter barriers of concrete, combined by the two-source rule."""
    goal = goal_in_sv(s, p.goal_msv_week, mode)
    w, t = show(p.workload_gy_week, dec=0), fraction(p.occupancy_den)
    u = fraction(p.primary_use_den) if mode == "u_quarter" else None
    if mode != "u_quarter" and p.use_factor_stated and s.vary("u_note"):
        s.step("u_note", "Use factor for leakage and patient scatter", "U", "", 1.0, dec=0)
    occupancy_note(s, p.location, t, mode)
    blocks = {"leak": _leakage_block, "scatter": _scatter_block}
    thick: dict[str, Shown] = {}
    for name in s.order("blocks", ["leak", "scatter"]):
        thick[name] = blocks[name](s, p, goal, w, t, u, mode)
    return _combine(s, thick["leak"], thick["scatter"], p, mode)
