"""NCRP Report 147 shielding of diagnostic X-ray rooms, with the Archer transmission model (levels 1-3).

Level 1: required transmission of a barrier. Level 2: lead thickness with a single TVL, with one input
printed in a unit that must be converted (seed 000: every level 2 needs at least one unit conversion).
Level 3: lead thickness by inverting the Archer et al. (1983) transmission fit for the room's workload
spectrum. All three use a radiographic room and the report's unshielded air kerma per patient at 1 m.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from functools import partial
from typing import Callable

from physbench.suites.medphys.base import ErrorMode, Generator, LevelSpec, convention
from physbench.suites.medphys.numbers import dec, fmt_dec, fmt_sig
from physbench.suites.medphys.text import ask, bullets, table

PRECISION = "at least three significant figures"


@dataclass(frozen=True)
class BarrierType:
    """One barrier of a radiographic room: NCRP 147 kerma per patient, use factor, lead fit."""

    label: str
    primary: bool
    k1_mgy: float  # unshielded air kerma per patient at 1 m (Table 4.5 primary, Table 4.7 secondary)
    use_factor: float  # NCRP 147 representative radiographic room (Sec. 4); 1 for secondary radiation
    lead_fit: tuple[float, float, float]  # Archer α (mm⁻¹), β (mm⁻¹), γ for lead
    distance_m: tuple[float, float]  # sampled range, source to the point of interest


# NCRP 147 Table 4.5 (K1_P), Table 4.7 (K1_sec, Rad Room all barriers), Tables B.1 and C.1 (lead fits).
BARRIERS: dict[str, BarrierType] = {
    "chest_wall": BarrierType("wall behind the upright chest image receptor (chest bucky wall)", True, 2.3, 1.0,
                              (2.264, 13.08, 0.5600), (1.8, 3.5)),
    "floor": BarrierType("floor under the radiographic table", True, 5.2, 0.89, (2.651, 16.56, 0.4585), (2.0, 3.5)),
    "cross_table_wall": BarrierType("cross-table lateral wall", True, 5.2, 0.09, (2.651, 16.56, 0.4585), (1.8, 4.5)),
    "side_wall": BarrierType("secondary wall (leakage and side-scattered radiation)", False, 3.4e-2, 1.0,
                             (2.298, 17.38, 0.6193), (1.5, 5.0)),
    "back_wall": BarrierType("secondary wall (leakage and forward- or back-scattered radiation)", False, 4.9e-2, 1.0,
                             (2.298, 17.38, 0.6193), (1.5, 5.0)),
}

# NCRP 147 Table 4.1 occupancy factors (T = 1/denominator) and Sec. 1.4 weekly design goals (air kerma).
UNCONTROLLED_PLACES: tuple[tuple[str, int], ...] = (
    ("an office", 1), ("a nurses' station", 1), ("an attended waiting room", 1), ("a patient examination room", 2),
    ("a corridor", 5), ("a staff rest room", 5), ("a corridor door", 8), ("a public toilet", 20),
    ("a storage room", 20), ("a stairway", 40), ("an attic", 40),
)
CONTROLLED_PLACES: tuple[tuple[str, int], ...] = (
    ("the X-ray control booth", 1), ("an adjacent X-ray room", 1),
    ("a staff-only corridor of the imaging department", 5),
)
GOAL_CONTROLLED_MGY_WEEK = 0.1
GOAL_UNCONTROLLED_MGY_WEEK = 0.02


@dataclass(frozen=True)
class RequiredTransmission:  # level 1
    barrier: str  # describes the barrier (a BarrierType label)
    k1_mgy: float
    use_factor: float
    patients_week: int
    distance_m: float
    occupancy_den: int
    location: str
    controlled: bool
    goal_mgy_week: float


@dataclass(frozen=True)
class LeadSingleTvl:  # level 2
    barrier: str
    k1_mgy: float
    use_factor: float
    patients_week: int
    distance_m: float
    occupancy_den: int
    location: str
    controlled: bool
    goal_mgy_week: float
    tvl_mm: float
    # which input is printed in another unit: "goal_ugy" (P in µGy/week), "distance_cm" (d in cm),
    # "kerma_ugy" (K1 in µGy); "" prints every input in the units of the formula
    converted: str = convention("")


CONVERSIONS = ("goal_ugy", "distance_cm", "kerma_ugy")


@dataclass(frozen=True)
class LeadArcher:  # level 3
    barrier: str
    k1_mgy: float
    use_factor: float
    patients_week: int
    distance_m: float
    occupancy_den: int
    location: str
    controlled: bool
    goal_mgy_week: float
    alpha_per_mm: float
    beta_per_mm: float
    gamma: float


Params = RequiredTransmission | LeadSingleTvl | LeadArcher


# --- physics ----------------------------------------------------------------------------------

def required_transmission(p: Params, mode: str | None = None) -> float:
    """NCRP 147 Sec. 4: B = P d² / (K1 U N T), K1 the unshielded kerma per patient at 1 m."""
    d_term = p.distance_m if mode == "distance_not_squared" else p.distance_m ** 2
    u = 1.0 if mode == "u_omitted" else p.use_factor
    t = 1.0 if mode == "t_omitted" else 1.0 / p.occupancy_den
    return p.goal_mgy_week * d_term / (p.k1_mgy * u * p.patients_week * t)


def archer_transmission(x_mm: float, alpha: float, beta: float, gamma: float) -> float:
    """Archer et al. (1983), NCRP 147 App. A: B(x) = [(1 + β/α) exp(αγx) − β/α]^(−1/γ)."""
    r = beta / alpha
    return ((1.0 + r) * math.exp(alpha * gamma * x_mm) - r) ** (-1.0 / gamma)


def archer_thickness(b: float, alpha: float, beta: float, gamma: float,
                     log: Callable[[float], float] = math.log) -> float:
    """Inverse of the Archer fit: x = ln[(B^−γ + β/α)/(1 + β/α)] / (αγ), x in mm."""
    r = beta / alpha
    return log((b ** -gamma + r) / (1.0 + r)) / (alpha * gamma)


def high_attenuation_tvl(alpha: float) -> float:
    """TVL at the high-attenuation limit of the Archer fit, where B ∝ exp(−αx): ln(10)/α."""
    return math.log(10.0) / alpha


def solve_l1(p: RequiredTransmission, mode: str | None = None) -> float:
    return required_transmission(p, mode)


def solve_l2(p: LeadSingleTvl, mode: str | None = None) -> float:
    """x = n TVL with n = log10(1/B) (natural log for that error mode)."""
    b = required_transmission(p, mode)
    n = math.log(1.0 / b) if mode == "natural_log" else math.log10(1.0 / b)
    return n * p.tvl_mm


def solve_l3(p: LeadArcher, mode: str | None = None) -> float:
    """Archer inversion; the two level-3 error modes change only the inversion."""
    b = required_transmission(p, mode)
    alpha, beta = (p.beta_per_mm, p.alpha_per_mm) if mode == "alpha_beta_swapped" else (p.alpha_per_mm,
                                                                                           p.beta_per_mm)
    log = math.log10 if mode == "log10_in_archer" else math.log
    return archer_thickness(b, alpha, beta, p.gamma, log)


# --- sampling and plausibility ------------------------------------------------------------------

def _common(rng: random.Random) -> tuple[BarrierType, dict[str, object]]:
    kind = BARRIERS[rng.choice(tuple(BARRIERS))]
    controlled = rng.random() < 0.25
    place, den = rng.choice(CONTROLLED_PLACES if controlled else UNCONTROLLED_PLACES)
    fields = dict(barrier=kind.label, k1_mgy=kind.k1_mgy, use_factor=kind.use_factor,
                  patients_week=rng.randint(40, 250), distance_m=dec(rng.uniform(*kind.distance_m), 1),
                  occupancy_den=den, location=place, controlled=controlled,
                  goal_mgy_week=GOAL_CONTROLLED_MGY_WEEK if controlled else GOAL_UNCONTROLLED_MGY_WEEK)
    return kind, fields


def sample_l1(rng: random.Random) -> RequiredTransmission:
    _, fields = _common(rng)
    return RequiredTransmission(**fields)  # type: ignore[arg-type]


def sample_l2(rng: random.Random) -> LeadSingleTvl:
    kind, fields = _common(rng)
    # the converted input follows from the drawn patient number, so the parameter stream (and every
    # answer) of earlier draws stays as it was
    converted = CONVERSIONS[int(fields["patients_week"]) % len(CONVERSIONS)]  # type: ignore[call-overload]
    return LeadSingleTvl(**fields, tvl_mm=dec(high_attenuation_tvl(kind.lead_fit[0]), 2),  # type: ignore[arg-type]
                         converted=converted)


def sample_l3(rng: random.Random) -> LeadArcher:
    kind, fields = _common(rng)
    alpha, beta, gamma = kind.lead_fit
    return LeadArcher(**fields, alpha_per_mm=alpha, beta_per_mm=beta, gamma=gamma)  # type: ignore[arg-type]


def _kind(p: Params) -> BarrierType | None:
    return next((k for k in BARRIERS.values() if k.label == p.barrier), None)


def _violations(p: Params) -> list[str]:
    out = []
    kind = _kind(p)
    if kind is None or (kind.k1_mgy, kind.use_factor) != (p.k1_mgy, p.use_factor):
        return ["barrier, kerma per patient or use factor not from NCRP 147 (Sec. 4, Tables 4.5 and 4.7)"]
    places = dict(CONTROLLED_PLACES if p.controlled else UNCONTROLLED_PLACES)
    if places.get(p.location) != p.occupancy_den:
        out.append("occupancy factor does not match NCRP 147 Table 4.1 for this place")
    goal = GOAL_CONTROLLED_MGY_WEEK if p.controlled else GOAL_UNCONTROLLED_MGY_WEEK
    if p.goal_mgy_week != goal:
        out.append("design goal is not the NCRP 147 weekly goal for this kind of area")
    if not 10 <= p.patients_week <= 400 or not 1.0 <= p.distance_m <= 6.0:
        out.append("patients per week or distance outside the radiographic-room ranges")
    b = required_transmission(p)
    if not 1e-5 <= b <= 0.3:
        out.append("required transmission outside 1e-5..0.3 (no shielding needed, or implausibly much)")
    return out


def violations_l1(p: RequiredTransmission) -> list[str]:
    return _violations(p)


def violations_l2(p: LeadSingleTvl) -> list[str]:
    out = _violations(p)
    kind = _kind(p)
    if kind is not None and p.tvl_mm != dec(high_attenuation_tvl(kind.lead_fit[0]), 2):
        out.append("TVL is not the high-attenuation TVL of this barrier's lead fit")
    if p.converted not in ("", *CONVERSIONS):
        out.append(f"converted input must be one of {', '.join(CONVERSIONS)} (or empty)")
    return out


def violations_l3(p: LeadArcher) -> list[str]:
    out = _violations(p)
    kind = _kind(p)
    if kind is not None and kind.lead_fit != (p.alpha_per_mm, p.beta_per_mm, p.gamma):
        out.append("Archer parameters are not the NCRP 147 lead fit for this barrier")
    elif not out and not 0.1 <= solve_l3(p) <= 4.0:
        out.append("lead thickness outside 0.1-4 mm")
    return out


# --- prompts ---------------------------------------------------------------------------------

def _t_text(den: int) -> str:
    return "1" if den == 1 else f"1/{den}"


def _kerma_note(p: Params) -> str:
    kind = _kind(p)
    if kind is not None and not kind.primary:
        return "unshielded secondary (leakage plus scatter) air kerma per patient at 1 m (NCRP Report 147 Table 4.7)"
    return "unshielded primary air kerma per patient at 1 m (NCRP Report 147 Table 4.5)"


def _inputs(p: Params) -> list[str]:
    area = "controlled area" if p.controlled else "uncontrolled area"
    converted = getattr(p, "converted", "")
    kerma = f"{fmt_sig(p.k1_mgy * 1e3, 2)} µGy" if converted == "kerma_ugy" else f"{fmt_sig(p.k1_mgy, 2)} mGy"
    distance = (f"{fmt_dec(p.distance_m * 100, 0)} cm" if converted == "distance_cm"
                else f"{fmt_dec(p.distance_m, 1)} m")
    goal = (f"{fmt_dec(p.goal_mgy_week * 1e3, 0)} µGy/week" if converted == "goal_ugy"
            else f"{fmt_dec(p.goal_mgy_week, 2)} mGy/week")
    return [
        f"Barrier: {p.barrier}",
        f"K1, {_kerma_note(p)}: {kerma}",
        f"Use factor U of this barrier: {fmt_dec(p.use_factor, 2)}",
        f"Patients per week N: {p.patients_week}",
        f"Distance from the X-ray source to the point of interest d: {distance}",
        f"Point of interest: {p.location}, beyond the barrier ({area})",
        f"Occupancy factor T: {_t_text(p.occupancy_den)}",
        f"Shielding design goal P: {goal} (air kerma)",
    ]


INTRO = "A barrier of a general radiographic room is being designed with the NCRP Report 147 method."
NO_PRESHIELD = "Take no credit for attenuation in the patient, the table or the image receptor."


def prompt_l1(p: RequiredTransmission) -> str:
    return "\n\n".join([INTRO, bullets(_inputs(p)), NO_PRESHIELD,
                        ask("the transmission B that this barrier must provide", "", PRECISION)])


def prompt_l2(p: LeadSingleTvl) -> str:
    return "\n\n".join([
        INTRO, bullets(_inputs(p)), NO_PRESHIELD,
        f"Treat the lead as having a single tenth-value layer for this room's workload spectrum: TVL = "
        f"{fmt_dec(p.tvl_mm, 2)} mm of lead (the high-attenuation limit of the report's transmission fit).",
        ask("the lead thickness this barrier needs", "mm", PRECISION),
    ])


def prompt_l3(p: LeadArcher) -> str:
    fit = table(["Material", "α (mm⁻¹)", "β (mm⁻¹)", "γ"],
                [["Lead", fmt_dec(p.alpha_per_mm, 3), fmt_dec(p.beta_per_mm, 2), fmt_dec(p.gamma, 4)]])
    return "\n\n".join([
        INTRO, bullets(_inputs(p)), NO_PRESHIELD,
        "The broad-beam transmission of lead for this room's workload spectrum follows the Archer model, "
        "B(x) = [(1 + β/α) × exp(α γ x) − β/α]^(−1/γ), with x the lead thickness in mm and the fitted "
        "parameters of NCRP Report 147 for this barrier:\n\n" + fit,
        ask("the lead thickness this barrier needs", "mm", PRECISION),
    ])


# --- error modes (Table 6 of seed 000) ---------------------------------------------------------------

_SOLVERS: dict[int, Callable[..., float]] = {1: solve_l1, 2: solve_l2, 3: solve_l3}


def _mode_answer(mode: str, level: int, p: Params) -> float:
    return _SOLVERS[level](p, mode)


def _mode(name: str, description: str, category: str, levels: tuple[int, ...]) -> ErrorMode:
    return ErrorMode(name, description, category, levels, partial(_mode_answer, name))  # type: ignore[arg-type]


ERROR_MODES = (
    _mode("distance_not_squared", "distance used instead of distance squared", "conceptual", (1, 2, 3)),
    _mode("u_omitted", "use factor U omitted (n/a when U = 1)", "conceptual", (1, 2, 3)),
    _mode("t_omitted", "occupancy factor T omitted (n/a when T = 1)", "conceptual", (1, 2, 3)),
    _mode("natural_log", "natural logarithm used for the number of TVLs", "conceptual", (2,)),
    _mode("alpha_beta_swapped", "α and β interchanged in the Archer inversion", "conceptual", (3,)),
    _mode("log10_in_archer", "base-10 logarithm used in the Archer inversion", "conceptual", (3,)),
)

GENERATOR = Generator(
    name="ncrp147",
    title="X-ray room barrier",
    document="NCRP Report 147; Archer model",
    band=0.01,
    levels={
        1: LevelSpec(1, RequiredTransmission, sample_l1, violations_l1, solve_l1, lambda p: "",
                     lambda p: "the transmission the barrier must provide", prompt_l1),
        2: LevelSpec(2, LeadSingleTvl, sample_l2, violations_l2, solve_l2, lambda p: "mm",
                     lambda p: "the lead thickness of the barrier", prompt_l2),
        3: LevelSpec(3, LeadArcher, sample_l3, violations_l3, solve_l3, lambda p: "mm",
                     lambda p: "the lead thickness of the barrier", prompt_l3),
    },
    error_modes=ERROR_MODES,
    checking=False,
)
