"""The MIRD schema's quantities and the clinical cases of the MIRD generator: printed inputs per level,
scenario tables, parameter draws and plausibility rules (seed 000, "Generator specifications")."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from physbench.suites.medphys.numbers import sci, sig

LN2 = math.log(2.0)
SECONDS_PER_HOUR = 3600.0
HOURS_PER_DAY = 24.0


@dataclass(frozen=True)
class Scenario:
    """A clinical setting for levels 1-2: the organ is both source and target. Ranges are typical of
    the procedure; S is the self-dose S value of an adult reference organ (MIRD Pamphlet 11 and OLINDA
    magnitudes, converted to mGy/(MBq s)), varied per draw for patient size."""

    nuclide: str
    organ: str
    agent: str
    activity_mbq: tuple[float, float]
    uptake: tuple[float, float]
    t_eff: tuple[float, float]
    t_eff_unit: str  # "d" for I-131 (its effective half-lives are quoted in days), "h" otherwise
    s_self: tuple[float, float]


SCENARIOS: tuple[Scenario, ...] = (
    Scenario("I-131", "thyroid", "I-131 sodium iodide for hyperthyroidism", (185.0, 740.0), (0.3, 0.7), (4.5, 7.0),
             "d", (0.8e-3, 1.8e-3)),
    Scenario("I-131", "thyroid", "I-131 sodium iodide for a toxic nodular goitre", (370.0, 1110.0), (0.15, 0.45),
             (3.5, 6.5), "d", (0.5e-3, 1.2e-3)),
    Scenario("I-123", "thyroid", "I-123 sodium iodide for a thyroid uptake study", (7.4, 14.8), (0.1, 0.35),
             (11.0, 13.0), "h", (2.0e-4, 3.0e-4)),
    Scenario("Tc-99m", "liver", "Tc-99m sulfur colloid", (111.0, 222.0), (0.75, 0.9), (5.5, 6.0), "h",
             (3.0e-6, 4.0e-6)),
    Scenario("Tc-99m", "kidneys", "Tc-99m DMSA", (74.0, 185.0), (0.35, 0.5), (4.5, 5.9), "h", (1.2e-5, 1.6e-5)),
    Scenario("Lu-177", "kidneys", "Lu-177 DOTATATE", (7000.0, 7600.0), (0.015, 0.05), (30.0, 60.0), "h",
             (7.0e-5, 1.0e-4)),
    Scenario("In-111", "spleen", "In-111 pentetreotide", (111.0, 222.0), (0.02, 0.06), (40.0, 65.0), "h",
             (2.5e-5, 4.5e-5)),
)


@dataclass(frozen=True)
class TwoOrganScenario:
    """Level 3: the target organ and a neighbouring source organ whose photons reach it."""

    nuclide: str
    t_phys_h: float
    target: str
    neighbour: str
    agent: str
    activity_mbq: tuple[float, float]
    uptake_target: tuple[float, float]
    t_bio_target_h: tuple[float, float]
    uptake_neighbour: tuple[float, float]
    t_bio_neighbour_h: tuple[float, float]
    s_self: float  # S(target <- target), mGy/(MBq s), varied +-20% per draw
    s_cross: float  # S(target <- neighbour), varied +-25% per draw


# Physical half-lives: ENSDF (Tc-99m 6.0067 h, In-111 2.8047 d = 67.31 h), printed to 3-4 figures.
TWO_ORGAN_SCENARIOS: tuple[TwoOrganScenario, ...] = (
    TwoOrganScenario("Tc-99m", 6.01, "kidneys", "liver", "a Tc-99m-labelled agent with renal and hepatic uptake",
                     (185.0, 740.0), (0.05, 0.4), (5.0, 40.0), (0.2, 0.6), (10.0, 60.0), 1.4e-5, 2.9e-7),
    TwoOrganScenario("Tc-99m", 6.01, "spleen", "liver", "Tc-99m sulfur colloid", (111.0, 370.0), (0.03, 0.12),
                     (10.0, 100.0), (0.6, 0.85), (10.0, 100.0), 2.5e-5, 7.0e-8),
    TwoOrganScenario("In-111", 67.3, "kidneys", "liver", "an In-111-labelled peptide", (111.0, 222.0), (0.05, 0.2),
                     (50.0, 300.0), (0.05, 0.2), (50.0, 300.0), 2.6e-5, 7.0e-7),
)


@dataclass(frozen=True)
class TimeIntegratedActivity:  # level 1
    nuclide: str
    organ: str
    agent: str
    administered_mbq: float
    uptake: float
    t_eff: float
    t_eff_unit: str


@dataclass(frozen=True)
class SelfDose:  # level 2
    nuclide: str
    organ: str
    agent: str
    administered_mbq: float
    uptake: float
    t_eff: float
    t_eff_unit: str
    s_self: float  # mGy/(MBq s)


@dataclass(frozen=True)
class TwoSourceDose:  # level 3
    nuclide: str
    agent: str
    t_phys_h: float
    target: str
    neighbour: str
    administered_mbq: float
    uptake_target: float
    t_bio_target_h: float
    uptake_neighbour: float
    t_bio_neighbour_h: float
    s_self: float  # S(target <- target), mGy/(MBq s)
    s_cross: float  # S(target <- neighbour), mGy/(MBq s)

# --- physics ---------------------------------------------------------------------------------------

def effective_half_life(t_phys: float, t_bio: float) -> float:
    """MIRD: 1/T_eff = 1/T_p + 1/T_b, so T_eff = T_p T_b / (T_p + T_b)."""
    return t_phys * t_bio / (t_phys + t_bio)


def time_integrated_activity(a0: float, uptake: float, t_eff: float) -> float:
    """MIRD schema, instantaneous uptake and mono-exponential clearance: A~ = f A0 T_eff / ln 2
    (= 1.443 f A0 T_eff), in MBq h for A0 in MBq and T_eff in h."""
    return uptake * a0 * t_eff / LN2


def absorbed_dose(a_tilde_mbq_h: float, s_mgy_per_mbq_s: float) -> float:
    """MIRD schema: D = A~ S, with A~ converted from MBq h to MBq s."""
    return a_tilde_mbq_h * SECONDS_PER_HOUR * s_mgy_per_mbq_s


# --- sampling and plausibility ---------------------------------------------------------------------------

def _log_uniform(rng: random.Random, low: float, high: float) -> float:
    return math.exp(rng.uniform(math.log(low), math.log(high)))


def _draw_single(rng: random.Random) -> tuple[Scenario, float, float, float, float]:
    sc = rng.choice(SCENARIOS)
    return (sc, sig(_log_uniform(rng, *sc.activity_mbq), 3), sig(rng.uniform(*sc.uptake), 2),
            sig(rng.uniform(*sc.t_eff), 3), sci(_log_uniform(rng, *sc.s_self), 3))


def sample_l1(rng: random.Random) -> TimeIntegratedActivity:
    sc, a0, f, t, _ = _draw_single(rng)
    return TimeIntegratedActivity(sc.nuclide, sc.organ, sc.agent, a0, f, t, sc.t_eff_unit)


def sample_l2(rng: random.Random) -> SelfDose:
    sc, a0, f, t, s_value = _draw_single(rng)
    return SelfDose(sc.nuclide, sc.organ, sc.agent, a0, f, t, sc.t_eff_unit, s_value)


def _scenario_of(p: TimeIntegratedActivity | SelfDose) -> Scenario | None:
    return next((sc for sc in SCENARIOS if (sc.nuclide, sc.organ, sc.agent) == (p.nuclide, p.organ, p.agent)), None)


def _common_violations(p: TimeIntegratedActivity | SelfDose) -> list[str]:
    sc = _scenario_of(p)
    if sc is None:
        return ["unknown nuclide, organ and agent combination"]
    out = []
    if p.t_eff_unit != sc.t_eff_unit:
        out.append(f"effective half-life of {p.nuclide} items is quoted in {sc.t_eff_unit}")
    if not 0.0 < p.uptake < 1.0:
        out.append("uptake fraction outside 0-1")
    if not sc.activity_mbq[0] * 0.95 <= p.administered_mbq <= sc.activity_mbq[1] * 1.05:
        out.append("administered activity outside the range of the procedure")
    if not sc.t_eff[0] * 0.95 <= p.t_eff <= sc.t_eff[1] * 1.05:
        out.append("effective half-life outside the range of the procedure")
    return out


def violations_l1(p: TimeIntegratedActivity) -> list[str]:
    return _common_violations(p)


def violations_l2(p: SelfDose) -> list[str]:
    out = _common_violations(p)
    sc = _scenario_of(p)
    if sc is not None and not sc.s_self[0] * 0.95 <= p.s_self <= sc.s_self[1] * 1.05:
        out.append("S value outside the range for this organ and nuclide")
    return out


def sample_l3(rng: random.Random) -> TwoSourceDose:
    sc = rng.choice(TWO_ORGAN_SCENARIOS)
    return TwoSourceDose(sc.nuclide, sc.agent, sc.t_phys_h, sc.target, sc.neighbour,
                         sig(_log_uniform(rng, *sc.activity_mbq), 3), sig(rng.uniform(*sc.uptake_target), 2),
                         sig(_log_uniform(rng, *sc.t_bio_target_h), 3), sig(rng.uniform(*sc.uptake_neighbour), 2),
                         sig(_log_uniform(rng, *sc.t_bio_neighbour_h), 3), sci(sc.s_self * rng.uniform(0.8, 1.2), 3),
                         sci(sc.s_cross * rng.uniform(0.75, 1.25), 3))


def cross_share(p: TwoSourceDose) -> float:
    """Share of the target's dose that comes from the neighbouring organ."""
    a_t = time_integrated_activity(p.administered_mbq, p.uptake_target, effective_half_life(p.t_phys_h,
                                                                                               p.t_bio_target_h))
    a_n = time_integrated_activity(p.administered_mbq, p.uptake_neighbour,
                                   effective_half_life(p.t_phys_h, p.t_bio_neighbour_h))
    return a_n * p.s_cross / (a_t * p.s_self + a_n * p.s_cross)


def violations_l3(p: TwoSourceDose) -> list[str]:
    sc = next((s for s in TWO_ORGAN_SCENARIOS if (s.nuclide, s.target, s.neighbour, s.agent) ==
               (p.nuclide, p.target, p.neighbour, p.agent)), None)
    if sc is None:
        return ["unknown nuclide, organs and agent combination"]
    out = []
    if p.t_phys_h != sc.t_phys_h:
        out.append(f"physical half-life of {p.nuclide} is the printed {sc.t_phys_h} h")
    if not 0.0 < p.uptake_target + p.uptake_neighbour < 1.0 or min(p.uptake_target, p.uptake_neighbour) <= 0:
        out.append("uptake fractions must be positive and sum to less than 1")
    if not all(0.25 * p.t_phys_h <= t <= 20.0 * p.t_phys_h for t in (p.t_bio_target_h, p.t_bio_neighbour_h)):
        out.append("biological half-life outside 0.25-20 physical half-lives")
    if not 0 < p.s_cross < 0.2 * p.s_self:
        out.append("cross-dose S value must be positive and well below the self-dose S value")
    if not out and not 0.02 <= cross_share(p) <= 0.5:
        out.append("cross-dose share of the target dose outside 2-50%")
    return out
