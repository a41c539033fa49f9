"""Radioactive decay: activity after a time, time to reach an activity, and Mo-99/Tc-99m generator
ingrowth after elution (levels 1-3; seed 000, Table 1 and "Generator specifications")."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from functools import partial
from typing import Callable

from physbench.core.errors import UserError
from physbench.suites.medphys.base import ErrorMode, Generator, LevelSpec
from physbench.suites.medphys.numbers import dec, fmt_dec, fmt_sig, sig
from physbench.suites.medphys.text import ask, bullets

LN2 = math.log(2.0)
PRECISION = "at least three significant figures"

# Time and activity units as the prompts print them, in hours and MBq
HOURS = {"min": 1.0 / 60.0, "h": 1.0, "d": 24.0}
MBQ = {"MBq": 1.0, "GBq": 1000.0, "mCi": 37.0}  # 1 mCi = 37 MBq exactly (1 Ci = 3.7e10 Bq)
TIME_WORDS = {"min": "minutes", "h": "hours", "d": "days"}


@dataclass(frozen=True)
class Nuclide:
    """A nuclide as the items print it: half-life (ENSDF, rounded), the other time unit its
    elapsed times are given in, the preparation it comes in and a typical activity range (MBq)."""

    name: str
    half_life: float
    unit: str
    other_unit: str
    preparation: str
    activity_mbq: tuple[float, float]


# Half-lives: ENSDF (F-18 109.77 min, Ga-68 67.71 min, Tc-99m 6.0067 h, I-123 13.22 h, In-111 2.8047 d,
# Tl-201 3.042 d, I-131 8.0252 d, Lu-177 6.647 d, Y-90 64.05 h), printed to 3-4 significant figures.
NUCLIDES: tuple[Nuclide, ...] = (
    Nuclide("F-18", 109.8, "min", "h", "a vial of F-18 FDG", (185.0, 15000.0)),
    Nuclide("Ga-68", 67.7, "min", "h", "a Ga-68 DOTATATE preparation", (100.0, 1800.0)),
    Nuclide("Tc-99m", 6.01, "h", "min", "a Tc-99m radiopharmaceutical syringe", (185.0, 37000.0)),
    Nuclide("I-123", 13.22, "h", "min", "an I-123 sodium iodide capsule", (7.4, 400.0)),
    Nuclide("Y-90", 64.05, "h", "d", "a vial of Y-90 microspheres", (1000.0, 6000.0)),
    Nuclide("In-111", 2.805, "d", "h", "an In-111 pentetreotide preparation", (111.0, 450.0)),
    Nuclide("Tl-201", 3.042, "d", "h", "a Tl-201 chloride vial", (74.0, 400.0)),
    Nuclide("I-131", 8.02, "d", "h", "an I-131 sodium iodide therapy capsule", (370.0, 7400.0)),
    Nuclide("Lu-177", 6.647, "d", "h", "a Lu-177 DOTATATE therapy vial", (3700.0, 7400.0)),
)
BY_NAME = {n.name: n for n in NUCLIDES}

# Mo-99/Tc-99m generator constants printed in level-3 items (ENSDF: Mo-99 65.924-65.976 h,
# Tc-99m 6.0067 h; branching of Mo-99 beta decay to Tc-99m 0.876 as in PROTOCOL-FACTS).
MO99_HALF_LIFE_H = 65.94
TC99M_HALF_LIFE_H = 6.01
MO_TO_TC_BRANCHING = 0.876


@dataclass(frozen=True)
class ActivityAfterTime:  # level 1
    nuclide: str
    half_life: float
    half_life_unit: str
    activity: float
    activity_unit: str
    elapsed: float
    elapsed_unit: str


@dataclass(frozen=True)
class TimeToActivity:  # level 2
    nuclide: str
    half_life: float
    half_life_unit: str
    activity: float
    activity_unit: str
    target: float
    target_unit: str
    answer_unit: str


@dataclass(frozen=True)
class GeneratorIngrowth:  # level 3
    mo_activity: float
    mo_unit: str
    elapsed_h: int
    elapsed_min: int
    answer_unit: str
    mo_half_life_h: float
    tc_half_life_h: float
    branching: float


# --- physics ---------------------------------------------------------------------------------------

def hours(unit: str) -> float:
    """Hours in one `unit` of time (min, h, d)."""
    if unit not in HOURS:
        raise UserError(f"unknown time unit {unit!r}; known: {', '.join(HOURS)}")
    return HOURS[unit]


def mbq(unit: str) -> float:
    """MBq in one `unit` of activity (MBq, GBq, mCi)."""
    if unit not in MBQ:
        raise UserError(f"unknown activity unit {unit!r}; known: {', '.join(MBQ)}")
    return MBQ[unit]


def decay_constant(half_life: float, mode: str | None = None) -> float:
    """lambda = ln2 / T1/2 (decay law); the two constant-slip modes replace ln2."""
    if mode == "ln2_omitted":
        return 1.0 / half_life
    if mode == "log10":
        return math.log10(2.0) / half_life
    return LN2 / half_life


def decayed(a0: float, lam: float, t: float) -> float:
    """A = A0 exp(-lambda t) (decay law)."""
    return a0 * math.exp(-lam * t)


def daughter_after_elution(a_parent0: float, lam_parent: float, lam_daughter: float, t: float, branching: float,
                           mode: str | None = None) -> float:
    """Bateman solution for a daughter with no activity at t = 0 (the column just eluted):
    A_d(t) = BR A_p(0) l_d/(l_d - l_p) (exp(-l_p t) - exp(-l_d t))."""
    br = 1.0 if mode == "branching_omitted" else branching
    ratio = 1.0 if mode == "ratio_omitted" else lam_daughter / (lam_daughter - lam_parent)
    ingrowth = 0.0 if mode == "transient_equilibrium" else math.exp(-lam_daughter * t)
    return br * a_parent0 * ratio * (math.exp(-lam_parent * t) - ingrowth)


# --- solvers (reference when mode is None) -----------------------------------------------------------

def activity_after(p: ActivityAfterTime, mode: str | None = None) -> float:
    """Level 1: elapsed time converted to the half-life's unit, then the decay law."""
    t = p.elapsed if mode == "time_unit" else p.elapsed * hours(p.elapsed_unit) / hours(p.half_life_unit)
    return decayed(p.activity, decay_constant(p.half_life, mode), t)


def time_to_activity(p: TimeToActivity, mode: str | None = None) -> float:
    """Level 2: t = ln(A0/A)/lambda in the half-life's unit, reported in the requested unit."""
    if mode == "activity_unit":
        ratio = p.activity / p.target  # the numbers compared as printed, units ignored
    else:
        ratio = p.activity * mbq(p.activity_unit) / (p.target * mbq(p.target_unit))
    log = math.log10(ratio) if mode == "log10" else math.log(ratio)
    lam = decay_constant(p.half_life, "ln2_omitted" if mode == "ln2_omitted" else None)
    t = log / lam  # in the half-life's unit
    if mode == "time_unit":
        return t
    return t * hours(p.half_life_unit) / hours(p.answer_unit)


def elapsed_hours(p: GeneratorIngrowth, mode: str | None = None) -> float:
    """'7 h 35 min' in hours; the unit slip reads the minutes as decimal hours (7.35 h)."""
    return p.elapsed_h + p.elapsed_min / (100.0 if mode == "time_unit" else 60.0)


def tc_available(p: GeneratorIngrowth, mode: str | None = None) -> float:
    """Level 3: Tc-99m activity grown in since a complete elution, in the requested unit."""
    lam_mo = decay_constant(p.mo_half_life_h, mode)
    lam_tc = decay_constant(p.tc_half_life_h, mode)
    a_tc = daughter_after_elution(p.mo_activity, lam_mo, lam_tc, elapsed_hours(p, mode), p.branching, mode)
    if mode == "activity_unit":
        return a_tc  # the number in the Mo-99 unit, reported as if in the requested unit
    return a_tc * mbq(p.mo_unit) / mbq(p.answer_unit)


# --- sampling and plausibility ---------------------------------------------------------------------

def _activity(value_mbq: float, unit: str) -> float:
    """An activity in `unit`, rounded to the three significant figures the prompt prints."""
    return sig(value_mbq / MBQ[unit], 3)


def _elapsed(value_h: float, unit: str) -> float:
    """An elapsed time in `unit`, rounded as printed (whole minutes; hours and days to 3 figures)."""
    value = value_h / HOURS[unit]
    return dec(value, 0) if unit == "min" else sig(value, 3)


def _half_life_h(nuclide: Nuclide) -> float:
    return nuclide.half_life * HOURS[nuclide.unit]


def sample_l1(rng: random.Random) -> ActivityAfterTime:
    n = rng.choice(NUCLIDES)
    unit = rng.choice(("MBq", "GBq", "mCi")) if n.activity_mbq[1] >= 1000 else rng.choice(("MBq", "mCi"))
    a0 = _activity(math.exp(rng.uniform(*map(math.log, n.activity_mbq))), unit)
    t_h = _half_life_h(n) * rng.uniform(0.1, 4.0)
    return ActivityAfterTime(n.name, n.half_life, n.unit, a0, unit, _elapsed(t_h, n.other_unit), n.other_unit)


def _nuclide_ok(name: str, half_life: float, unit: str) -> list[str]:
    n = BY_NAME.get(name)
    if n is None:
        return [f"unknown nuclide {name}"]
    if (half_life, unit) != (n.half_life, n.unit):
        return [f"half-life of {name} is not the printed {n.half_life} {n.unit}"]
    return []


def violations_l1(p: ActivityAfterTime) -> list[str]:
    out = _nuclide_ok(p.nuclide, p.half_life, p.half_life_unit)
    if p.elapsed_unit == p.half_life_unit:
        out.append("elapsed time in the half-life's unit (the item mixes units)")
    if p.activity_unit not in MBQ or p.elapsed_unit not in HOURS:
        out.append("unknown unit")
        return out
    if not p.activity > 0 or not p.elapsed > 0:
        out.append("activity and elapsed time must be positive")
        return out
    fraction = activity_after(p) / p.activity
    if not 0.05 <= fraction <= 0.95:
        out.append("remaining fraction outside 0.05-0.95")
    if abs(activity_after(p, "time_unit") / activity_after(p) - 1) < 0.05:
        out.append("unit slip would not change the answer")
    return out


def sample_l2(rng: random.Random) -> TimeToActivity:
    n = rng.choice(NUCLIDES)
    a0_mbq = math.exp(rng.uniform(*map(math.log, n.activity_mbq)))
    target_mbq = a0_mbq / math.exp(rng.uniform(math.log(1.1), math.log(12.0)))
    if rng.random() < 0.5:
        units = ("MBq", "mCi")
    else:
        units = ("mCi", "GBq")
    return TimeToActivity(n.name, n.half_life, n.unit, _activity(a0_mbq, units[0]), units[0],
                          _activity(target_mbq, units[1]), units[1], n.other_unit)


def violations_l2(p: TimeToActivity) -> list[str]:
    out = _nuclide_ok(p.nuclide, p.half_life, p.half_life_unit)
    if p.answer_unit == p.half_life_unit or p.answer_unit not in HOURS:
        out.append("answer unit must be a time unit other than the half-life's")
    if p.activity_unit == p.target_unit or {p.activity_unit, p.target_unit} - set(MBQ):
        out.append("the two activities must be in different units")
        return out
    if not p.activity > 0 or not p.target > 0:
        out.append("activities must be positive")
        return out
    ratio = p.activity * MBQ[p.activity_unit] / (p.target * MBQ[p.target_unit])
    if not 1.05 <= ratio <= 15.0:
        out.append("activity ratio outside 1.05-15 (the time would be a rounding artefact or implausibly long)")
    if not p.activity / p.target > ratio:
        out.append("unconverted activities would not lengthen the time (unit slip direction)")
    return out


def sample_l3(rng: random.Random) -> GeneratorIngrowth:
    mo_gbq = math.exp(rng.uniform(math.log(5.0), math.log(120.0)))
    if rng.random() < 0.5:
        mo_unit, answer_unit = "GBq", "mCi"
    else:
        mo_unit, answer_unit = "mCi", rng.choice(("GBq", "MBq"))
    minutes = 5 * rng.randint(1, 11)
    return GeneratorIngrowth(_activity(mo_gbq * 1000.0, mo_unit), mo_unit, rng.randint(1, 29), minutes, answer_unit,
                             MO99_HALF_LIFE_H, TC99M_HALF_LIFE_H, MO_TO_TC_BRANCHING)


def violations_l3(p: GeneratorIngrowth) -> list[str]:
    out = []
    if (p.mo_half_life_h, p.tc_half_life_h, p.branching) != (MO99_HALF_LIFE_H, TC99M_HALF_LIFE_H,
                                                             MO_TO_TC_BRANCHING):
        out.append("generator constants differ from the printed Mo-99/Tc-99m values")
    if p.mo_unit not in MBQ or p.answer_unit not in MBQ or p.mo_unit == p.answer_unit:
        out.append("Mo-99 activity and answer must be in different activity units")
    if not 0.5 <= p.mo_activity * MBQ.get(p.mo_unit, 0.0) / 1000.0 <= 150.0:
        out.append("Mo-99 activity outside 0.5-150 GBq")
    if not 1 <= p.elapsed_h <= 30 or not 5 <= p.elapsed_min <= 55:
        out.append("time since elution outside 1 h 05 min - 30 h 55 min, or whole hours")
    return out


# --- prompts -------------------------------------------------------------------------------------------

def _time_text(value: float, unit: str) -> str:
    return f"{fmt_dec(value, 0) if unit == 'min' else fmt_sig(value, 3)} {unit}"


def _half_life_line(name: str, half_life: float, unit: str) -> str:
    return f"Half-life of {name}: {half_life:g} {unit}"


def prompt_l1(p: ActivityAfterTime) -> str:
    n = BY_NAME[p.nuclide]
    return "\n\n".join([
        f"The activity of {n.preparation} was measured in the dose calibrator, and the preparation is used later.",
        bullets([f"Measured activity: {fmt_sig(p.activity, 3)} {p.activity_unit}",
                 f"Time from the measurement to the administration: {_time_text(p.elapsed, p.elapsed_unit)}",
                 _half_life_line(p.nuclide, p.half_life, p.half_life_unit)]),
        ask("the activity of the preparation at the time of administration", p.activity_unit, PRECISION),
    ])


def prompt_l2(p: TimeToActivity) -> str:
    n = BY_NAME[p.nuclide]
    return "\n\n".join([
        f"The activity of {n.preparation} was measured in the dose calibrator. The preparation is to be "
        "administered when its activity has decayed to the prescribed activity.",
        bullets([f"Measured activity: {fmt_sig(p.activity, 3)} {p.activity_unit}",
                 f"Prescribed activity: {fmt_sig(p.target, 3)} {p.target_unit}",
                 _half_life_line(p.nuclide, p.half_life, p.half_life_unit),
                 "1 mCi = 37 MBq"]),
        ask("the time from the measurement until the activity equals the prescribed activity",
            p.answer_unit, PRECISION),
    ])


def prompt_l3(p: GeneratorIngrowth) -> str:
    return "\n\n".join([
        "A Mo-99/Tc-99m generator was eluted completely, leaving no Tc-99m on the column, and is eluted "
        "again later.",
        bullets([f"Mo-99 activity on the column at the first elution: {fmt_sig(p.mo_activity, 3)} {p.mo_unit}",
                 f"Time from the first elution to the second: {p.elapsed_h} h {p.elapsed_min:02d} min",
                 f"Half-life of Mo-99: {fmt_dec(p.mo_half_life_h, 2)} h",
                 f"Half-life of Tc-99m: {fmt_dec(p.tc_half_life_h, 2)} h",
                 f"Fraction of Mo-99 decays that produce Tc-99m: {fmt_dec(p.branching, 3)}",
                 "1 mCi = 37 MBq"]),
        "Take the whole Tc-99m activity on the column at the second elution (elution efficiency 100%).",
        ask("the Tc-99m activity available at the second elution", p.answer_unit, PRECISION),
    ])


# --- error modes (Table 6 of seed 000) --------------------------------------------------------------

_SOLVERS: dict[int, Callable[..., float]] = {1: activity_after, 2: time_to_activity, 3: tc_available}


def _mode_answer(mode: str, level: int, p: object) -> float:
    return _SOLVERS[level](p, mode)


def _mode(name: str, description: str, category: str, levels: tuple[int, ...]) -> ErrorMode:
    return ErrorMode(name, description, category, levels, partial(_mode_answer, name))  # type: ignore[arg-type]


ERROR_MODES = (
    _mode("ln2_omitted", "decay constant taken as 1/T1/2 (ln 2 omitted)", "conceptual", (1, 2, 3)),
    _mode("log10", "base-10 logarithm used for the natural one (lambda = log10(2)/T1/2 at L1 and L3; "
          "t = log10(A0/A)/lambda at L2)", "conceptual", (1, 2, 3)),
    _mode("time_unit", "time unit not converted (L1 elapsed time taken in the half-life's unit; L2 time "
          "reported in the half-life's unit; L3 minutes read as decimal hours)", "unit", (1, 2, 3)),
    _mode("activity_unit", "activities in mCi and MBq/GBq used without conversion", "unit", (2, 3)),
    _mode("branching_omitted", "Mo-99 -> Tc-99m branching fraction omitted", "conceptual", (3,)),
    _mode("ratio_omitted", "factor lambda_Tc/(lambda_Tc - lambda_Mo) omitted", "conceptual", (3,)),
    _mode("transient_equilibrium", "transient equilibrium assumed: ingrowth term exp(-lambda_Tc t) dropped",
          "conceptual", (3,)),
)

GENERATOR = Generator(
    name="decay",
    title="Activity at administration",
    document="Decay law; Bateman equations",
    band=0.02,
    levels={
        1: LevelSpec(1, ActivityAfterTime, sample_l1, violations_l1, activity_after, lambda p: p.activity_unit,
                     lambda p: "the activity of the preparation at the time of administration", prompt_l1),
        2: LevelSpec(2, TimeToActivity, sample_l2, violations_l2, time_to_activity, lambda p: p.answer_unit,
                     lambda p: "the time from the measurement until the activity equals the prescribed activity",
                     prompt_l2),
        3: LevelSpec(3, GeneratorIngrowth, sample_l3, violations_l3, tc_available, lambda p: p.answer_unit,
                     lambda p: "the Tc-99m activity available at the second elution", prompt_l3),
    },
    error_modes=ERROR_MODES,
    checking=False,
)
