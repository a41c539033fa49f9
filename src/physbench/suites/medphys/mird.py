"""Organ dose by the MIRD schema: time-integrated activity, self-dose, and self- plus cross-dose from two
source organs with effective half-lives (levels 1-3; seed 000, Table 1 and "Generator specifications").

The calculation is written once per level as a worksheet step chain (worksheet.py); the cases, draws
and plausibility rules are in mird_model.py."""

from __future__ import annotations

import math
from functools import partial

from physbench.suites.medphys.base import ErrorMode, Generator, LevelSpec
from physbench.suites.medphys.mird_model import (
    HOURS_PER_DAY, LN2, SECONDS_PER_HOUR, SelfDose, TimeIntegratedActivity, TwoSourceDose, effective_half_life,
    sample_l1, sample_l2, sample_l3, violations_l1, violations_l2, violations_l3)
from physbench.suites.medphys.numbers import fmt_sci, fmt_sig, transpose_digits
from physbench.suites.medphys.text import ask, bullets
from physbench.suites.medphys.worksheet import Sheet, Shown, show

PRECISION = "at least three significant figures"
S_UNIT = "mGy/(MBq s)"


# --- step chains (solver, error modes and worksheets in one) --------------------------------------------

def _const(s: Sheet, value: float, figures: int = 4) -> Shown:
    """A constant as a worksheet prints it (1.443, 0.6931); exact on the solver's sheet."""
    return show(value, sig=figures) if s.display else Shown(value, "")


def _given(s: Sheet, value: float, **precision: int) -> Shown:
    """An input as the prompt prints it; on the solver's sheet the value itself, unrounded, so that a
    params file with more digits (`physbench medphys solve`) is solved as given."""
    return show(value, **precision) if s.display else Shown(value, "")


def _final(value: float, mode: str | None, final: bool) -> float:
    return transpose_digits(value, 4) if final and mode == "transposed" else value


def _teff_hours(s: Sheet, p: TimeIntegratedActivity | SelfDose, mode: str | None) -> Shown:
    """Effective half-life in hours: a conversion step for half-lives quoted in days (I-131)."""
    t = _given(s, p.t_eff, sig=3)
    if p.t_eff_unit == "h":
        return t
    title = "Effective half-life in hours"
    if mode == "days_as_hours":  # the error: the number in days is taken as hours
        return s.step("t_eff_h", title, "T_eff = T_eff(d)", f"{t.text} d", t, "h", sig=4)
    return s.step("t_eff_h", title, "T_eff = T_eff(d) × 24 h/d", f"{t.text} d × 24 h/d", t * HOURS_PER_DAY, "h",
                  sig=4)


def _tia_steps(s: Sheet, p: TimeIntegratedActivity | SelfDose, mode: str | None, final: bool) -> Shown:
    """Time-integrated activity in the organ (MBq h), in one of several equivalent layouts."""
    a0, f = _given(s, p.administered_mbq, sig=3), _given(s, p.uptake, sig=2)
    teff = _teff_hours(s, p, mode)
    # optional step: activity taken up by the organ
    organ: tuple[str, str, float] | None = None
    if s.vary("organ_activity"):
        if mode == "uptake_omitted":
            a_s = s.step("a_s", f"Activity in the {p.organ}", "A_s = A0", f"{a0.text} MBq", a0, "MBq", sig=4)
        else:
            names = s.order("a_s_factors", [("f", f.text), ("A0", f"{a0.text} MBq")])
            a_s = s.step("a_s", f"Activity in the {p.organ}", "A_s = " + " × ".join(n for n, _ in names),
                         " × ".join(t for _, t in names), f * a0, "MBq", sig=4)
        organ = ("A_s", f"{a_s.text} MBq", a_s)
    if organ is None:
        pairs = [("A0", f"{a0.text} MBq", a0)] if mode == "uptake_omitted" else [("f", f.text, f),
                                                                               ("A0", f"{a0.text} MBq", a0)]
    else:
        pairs = [organ]
    return _tia_product(s, p.organ, pairs, teff, mode, final, key="a_tilde")


def _tia_product(s: Sheet, organ: str, pairs: list[tuple[str, str, float]], teff: Shown, mode: str | None,
                 final: bool, key: str, label: str = "", teff_factor: tuple[str, str, float] | None = None) -> Shown:
    """A~ = 1.443 x (activity factors) x T_eff; some layouts divide by ln 2 instead, or show the mean life
    tau = 1.443 T_eff as its own step. The two 1.443 modes change the factor in whichever form is shown."""
    title = f"Time-integrated activity in the {organ}"
    t_name = f"T_eff{label}"
    activity = math.prod(v for _, _, v in pairs)
    teff = teff if teff_factor is None else Shown(teff_factor[2], "")
    if not label and s.vary(f"{key}_mean_life"):  # layout: the mean life as its own step
        if mode == "factor_1443_omitted":  # the error: the half-life taken as the mean life
            tau = s.step(f"tau{label}", "Mean life", f"τ = {t_name}", f"{teff.text} h", teff, "h", sig=4)
        else:
            k = _const(s, LN2, 3) if mode == "ln2_for_1443" else _const(s, 1 / LN2)
            tau = s.step(f"tau{label}", "Mean life", f"τ = {k.text} × {t_name}", f"{k.text} × {teff.text} h",
                         k * teff, "h", sig=4)
        factors = s.order(f"{key}_factors", [*pairs, ("τ", f"{tau.text} h", tau)])
        head, tail, value = "", "", activity * tau
    else:
        factors = s.order(f"{key}_factors", [*pairs, teff_factor or (t_name, f"{teff.text} h", teff)])
        if s.vary(f"{key}_ln2_form"):  # layout: divide by ln 2 rather than multiply by 1.443
            k = _const(s, LN2)
            head = ""
            if mode == "factor_1443_omitted":
                tail, value = ("", ""), activity * teff
            elif mode == "ln2_for_1443":
                tail, value = (" × ln 2", f" × {k.text}"), activity * teff * k
            else:
                tail, value = (" / ln 2", f" / {k.text}"), activity * teff / k
        else:
            k = _const(s, LN2, 3) if mode == "ln2_for_1443" else _const(s, 1 / LN2)
            if mode == "factor_1443_omitted":
                head, tail, value = "", ("", ""), activity * teff
            else:
                head, tail, value = f"{k.text} × ", ("", ""), k * activity * teff
        formula = f"Ã{label} = {head}" + " × ".join(n for n, _, _ in factors) + tail[0]
        subst = head + " × ".join(t for _, t, _ in factors) + tail[1]
        return s.step(key, title, formula, subst, _final(value, mode, final), "MBq h", sig=4)
    formula = f"Ã{label} = " + " × ".join(n for n, _, _ in factors)
    subst = " × ".join(t for _, t, _ in factors)
    return s.step(key, title, formula, subst, _final(value, mode, final), "MBq h", sig=4)


def tia_chain(p: TimeIntegratedActivity, s: Sheet, mode: str | None = None) -> Shown:
    """Level 1: A~ = 1.443 f A0 T_eff (T_eff in hours)."""
    return _tia_steps(s, p, mode, final=True)


def _dose_step(s: Sheet, key: str, title: str, symbol: str, a_tilde: Shown, s_value: Shown, s_name: str,
               mode: str | None, final: bool, seconds_key: str, label: str = "") -> Shown:
    """D = A~ x 3600 s/h x S, with the conversion to MBq s as its own step in some layouts."""
    a_name = f"Ã{label}"
    if mode == "s_3600_omitted":  # the error: S per MBq s applied to A~ in MBq h
        names = s.order(f"{key}_factors", [(a_name, f"{a_tilde.text} MBq h", a_tilde),
                                           (s_name, f"{s_value.text} {S_UNIT}", s_value)])
        return s.step(key, title, f"{symbol} = " + " × ".join(n for n, _, _ in names),
                      " × ".join(t for _, t, _ in names), _final(a_tilde * s_value, mode, final), "mGy", sig=4)
    if s.vary("seconds_step"):
        a_s = s.step(seconds_key, "Time-integrated activity in MBq s", f"{a_name}(MBq s) = {a_name} × 3600 s/h",
                     f"{a_tilde.text} MBq h × 3600 s/h", a_tilde * SECONDS_PER_HOUR, "MBq s", sci=4)
        names = s.order(f"{key}_factors", [(f"{a_name}(MBq s)", f"{a_s.text} MBq s", a_s),
                                           (s_name, f"{s_value.text} {S_UNIT}", s_value)])
        return s.step(key, title, f"{symbol} = " + " × ".join(n for n, _, _ in names),
                      " × ".join(t for _, t, _ in names), _final(a_s * s_value, mode, final), "mGy", sig=4)
    names = s.order(f"{key}_factors", [(a_name, f"{a_tilde.text} MBq h", a_tilde), ("3600 s/h", "3600 s/h", 3600.0),
                                       (s_name, f"{s_value.text} {S_UNIT}", s_value)])
    return s.step(key, title, f"{symbol} = " + " × ".join(n for n, _, _ in names),
                  " × ".join(t for _, t, _ in names), _final(a_tilde * SECONDS_PER_HOUR * s_value, mode, final),
                  "mGy", sig=4)


def self_dose_chain(p: SelfDose, s: Sheet, mode: str | None = None) -> Shown:
    """Level 2: A~ in MBq h, then D = A~ x 3600 s/h x S(organ <- organ)."""
    a_tilde = _tia_steps(s, p, mode, final=False)
    s_self = _given(s, p.s_self, sci=3)
    return _dose_step(s, "dose", f"Self-dose to the {p.organ}", "D", a_tilde, s_self, f"S({p.organ}←{p.organ})",
                      mode, True, "a_tilde_s")


def _teff_step(s: Sheet, label: str, organ: str, t_p: Shown, t_b: Shown, mode: str | None) -> Shown:
    """T_eff of one source organ (MIRD: 1/T_eff = 1/T_p + 1/T_b), symbols labelled by organ (_T, _N)."""
    key, title, te, tb = f"t_eff{label}", f"Effective half-life in the {organ}", f"T_eff{label}", f"T_b{label}"
    if mode == "teff_sum":
        return s.step(key, title, f"{te} = T_p + {tb}", f"{t_p.text} h + {t_b.text} h", t_p + t_b, "h", sig=4)
    if mode == "teff_physical":
        return s.step(key, title, f"{te} = T_p", "", t_p, "h", sig=4)
    value = effective_half_life(t_p, t_b)
    if s.vary("teff_reciprocal"):
        return s.step(key, title, f"{te} = 1 / (1/T_p + 1/{tb})", f"1 / (1/{t_p.text} h + 1/{t_b.text} h)", value,
                      "h", sig=4)
    return s.step(key, title, f"{te} = T_p × {tb} / (T_p + {tb})",
                  f"{t_p.text} h × {t_b.text} h / ({t_p.text} h + {t_b.text} h)", value, "h", sig=4)


def _teff_factor(label: str, t_p: Shown, t_b: Shown, mode: str | None) -> tuple[str, str, float]:
    """T_eff written as a factor of the A~ product (name, numbers, value)."""
    if mode == "teff_sum":
        return f"(T_p + T_b{label})", f"({t_p.text} h + {t_b.text} h)", t_p + t_b
    if mode == "teff_physical":
        return "T_p", f"{t_p.text} h", float(t_p)
    return (f"T_p × T_b{label} / (T_p + T_b{label})", f"{t_p.text} h × {t_b.text} h / ({t_p.text} h + {t_b.text} h)",
            effective_half_life(t_p, t_b))


def two_source_chain(p: TwoSourceDose, s: Sheet, mode: str | None = None) -> Shown:
    """Level 3: T_eff and A~ for the target and the neighbouring organ, then
    D_target = A~_T S(T<-T) + A~_N S(T<-N), with A~ in MBq s."""
    a0, t_p = _given(s, p.administered_mbq, sig=3), _given(s, p.t_phys_h, sig=3)
    organs = {"T": (p.target, p.uptake_target, p.t_bio_target_h), "N": (p.neighbour, p.uptake_neighbour,
                                                                          p.t_bio_neighbour_h)}
    a_tilde: dict[str, Shown] = {}
    merge_teff = s.vary("merge_teff", 0.3)  # layout: T_eff written inside the A~ step
    for label in s.order("organs", ["T", "N"]):
        name, uptake, t_bio = organs[label]
        f, t_b = _given(s, uptake, sig=2), _given(s, t_bio, sig=3)
        pairs = [("A0", f"{a0.text} MBq", a0)] if mode == "uptake_omitted" else [
            (f"f_{label}", f.text, f), ("A0", f"{a0.text} MBq", a0)]
        if merge_teff:
            factor = _teff_factor(f"_{label}", t_p, t_b, mode)
            a_tilde[label] = _tia_product(s, name, pairs, t_p, mode, False, key=f"a_tilde_{label}", label=f"_{label}",
                                          teff_factor=factor)
            continue
        teff = _teff_step(s, f"_{label}", name, t_p, t_b, mode)
        a_tilde[label] = _tia_product(s, name, pairs, teff, mode, False, key=f"a_tilde_{label}", label=f"_{label}")
    s_tt, s_tn = _given(s, p.s_self, sci=3), _given(s, p.s_cross, sci=3)
    n_tt, n_tn = f"S({p.target}←{p.target})", f"S({p.target}←{p.neighbour})"
    total_title = f"Absorbed dose to the {p.target}"
    hours = "" if mode == "s_3600_omitted" else " × 3600 s/h"
    per_s = 1.0 if mode == "s_3600_omitted" else SECONDS_PER_HOUR
    if s.vary("merge_dose"):  # layout: both terms in one step
        if mode == "cross_omitted":
            return s.step("dose", total_title, f"D = Ã_T × {n_tt}{hours}",
                          f"{a_tilde['T'].text} MBq h × {s_tt.text} {S_UNIT}{hours}",
                          _final(a_tilde["T"] * s_tt * per_s, mode, True), "mGy", sig=4)
        return s.step("dose", total_title, f"D = (Ã_T × {n_tt} + Ã_N × {n_tn}){hours}",
                      f"({a_tilde['T'].text} MBq h × {s_tt.text} {S_UNIT} + {a_tilde['N'].text} MBq h × "
                      f"{s_tn.text} {S_UNIT}){hours}",
                      _final((a_tilde["T"] * s_tt + a_tilde["N"] * s_tn) * per_s, mode, True), "mGy", sig=4)
    d_self = _dose_step(s, "d_self", f"Self-dose from the {p.target}", "D_self", a_tilde["T"], s_tt, n_tt, mode,
                        False, "a_tilde_T_s", "_T")
    if mode == "cross_omitted":
        return s.step("dose", total_title, "D = D_self", "", _final(d_self, mode, True), "mGy", sig=4)
    d_cross = _dose_step(s, "d_cross", f"Cross-dose from the {p.neighbour}", "D_cross", a_tilde["N"], s_tn, n_tn,
                         mode, False, "a_tilde_N_s", "_N")
    return s.step("dose", total_title, "D = D_self + D_cross", f"{d_self.text} mGy + {d_cross.text} mGy",
                  _final(d_self + d_cross, mode, True), "mGy", sig=4)


def _solve(chain, p) -> float:  # type: ignore[no-untyped-def]
    return float(chain(p, Sheet()))


# --- prompts -------------------------------------------------------------------------------------------

ASSUMPTIONS = ("Assume instantaneous uptake and mono-exponential clearance with the stated effective half-life, "
               "and integrate over all time (to complete decay).")


def _organ_lines(p: TimeIntegratedActivity | SelfDose) -> list[str]:
    return [f"Administered activity A0: {fmt_sig(p.administered_mbq, 3)} MBq",
            f"Fraction of the administered activity taken up by the {p.organ}: {fmt_sig(p.uptake, 2)}",
            f"Effective half-life in the {p.organ}: {fmt_sig(p.t_eff, 3)} {p.t_eff_unit}"]


def prompt_l1(p: TimeIntegratedActivity) -> str:
    return "\n\n".join([
        f"A patient is given {p.agent} ({p.nuclide}).",
        bullets(_organ_lines(p)),
        ASSUMPTIONS,
        ask(f"the time-integrated activity (cumulated activity) in the {p.organ}", "MBq h", PRECISION),
    ])


def prompt_l2(p: SelfDose) -> str:
    return "\n\n".join([
        f"A patient is given {p.agent} ({p.nuclide}).",
        bullets([*_organ_lines(p),
                 f"S value S({p.organ}←{p.organ}): {fmt_sci(p.s_self, 3)} {S_UNIT}"]),
        ASSUMPTIONS + " Use the MIRD schema.",
        ask(f"the absorbed dose to the {p.organ} from the activity in the {p.organ} (self-dose)", "mGy", PRECISION),
    ])


def prompt_l3(p: TwoSourceDose) -> str:
    return "\n\n".join([
        f"A patient is given {p.agent} ({p.nuclide}). The {p.target} and the {p.neighbour} take up activity; "
        f"the dose to the {p.target} comes from both.",
        bullets([f"Administered activity A0: {fmt_sig(p.administered_mbq, 3)} MBq",
                 f"Physical half-life of {p.nuclide}: {fmt_sig(p.t_phys_h, 3)} h",
                 f"Fraction of the administered activity taken up by the {p.target}: {fmt_sig(p.uptake_target, 2)}",
                 f"Biological half-life in the {p.target}: {fmt_sig(p.t_bio_target_h, 3)} h",
                 f"Fraction of the administered activity taken up by the {p.neighbour}: "
                 f"{fmt_sig(p.uptake_neighbour, 2)}",
                 f"Biological half-life in the {p.neighbour}: {fmt_sig(p.t_bio_neighbour_h, 3)} h",
                 f"S value S({p.target}←{p.target}): {fmt_sci(p.s_self, 3)} {S_UNIT}",
                 f"S value S({p.target}←{p.neighbour}): {fmt_sci(p.s_cross, 3)} {S_UNIT}"]),
        "Assume instantaneous uptake in each organ and mono-exponential clearance with the organ's effective "
        "half-life, and integrate over all time (to complete decay). Use the MIRD schema.",
        ask(f"the absorbed dose to the {p.target} from the activity in the {p.target} and in the {p.neighbour}",
            "mGy", PRECISION),
    ])


# --- error modes (Table 6 of seed 000) --------------------------------------------------------------

_CHAINS = {1: tia_chain, 2: self_dose_chain, 3: two_source_chain}


def _mode_answer(mode: str, level: int, p: object) -> float:
    return float(_CHAINS[level](p, Sheet(), mode))  # type: ignore[operator]


def _mode(name: str, description: str, category: str, levels: tuple[int, ...]) -> ErrorMode:
    return ErrorMode(name, description, category, levels, partial(_mode_answer, name))  # type: ignore[arg-type]


ERROR_MODES = (
    _mode("teff_sum", "T_eff = T_p + T_b instead of T_p T_b/(T_p + T_b)", "conceptual", (3,)),
    _mode("teff_physical", "biological clearance ignored, T_eff = T_p", "conceptual", (3,)),
    _mode("factor_1443_omitted", "factor 1.443 (= 1/ln 2) omitted, A~ = f A0 T_eff", "conceptual", (1, 2, 3)),
    _mode("ln2_for_1443", "0.693 (ln 2) used in place of 1.443 (1/ln 2)", "conceptual", (1, 2, 3)),
    _mode("uptake_omitted", "uptake fraction omitted (A0 used as the organ activity)", "conceptual", (1, 2, 3)),
    _mode("s_3600_omitted", "S in mGy/(MBq s) applied to A~ in MBq h (x 3600 omitted)", "unit", (2, 3)),
    _mode("cross_omitted", "cross-dose term from the neighbouring source organ omitted", "conceptual", (3,)),
    _mode("days_as_hours", "T_eff in days used as hours (I-131 items)", "unit", (1, 2)),
    _mode("transposed", "two adjacent digits transposed when the result is written down", "arithmetic", (1, 2, 3)),
)

GENERATOR = Generator(
    name="mird",
    title="Organ dose, radionuclide therapy",
    document="MIRD schema",
    band=0.01,
    levels={
        1: LevelSpec(1, TimeIntegratedActivity, sample_l1, violations_l1, partial(_solve, tia_chain),
                     lambda p: "MBq h", lambda p: f"the time-integrated activity in the {p.organ}", prompt_l1,
                     tia_chain),
        2: LevelSpec(2, SelfDose, sample_l2, violations_l2, partial(_solve, self_dose_chain), lambda p: "mGy",
                     lambda p: f"the self-dose to the {p.organ}", prompt_l2, self_dose_chain),
        3: LevelSpec(3, TwoSourceDose, sample_l3, violations_l3, partial(_solve, two_source_chain),
                     lambda p: "mGy", lambda p: f"the absorbed dose to the {p.target} from both source organs",
                     prompt_l3, two_source_chain),
    },
    error_modes=ERROR_MODES,
    checking=True,
)
